// The AVX2+FMA back end: packed sgemm with a 6x16 register-blocked micro-kernel, vectorised softmax
// rows and a tiled online-softmax (flash-attention style) fused attention. Compiled alone with
// -mavx2 -mfma; dispatch.cpp enters it only after CPUID and XGETBV say the CPU and OS support it.
// Shapes: M,N,K matrix sizes; T tokens; D head dimension; MR x NR = 6 x 16 micro-tile.
#if defined(__x86_64__) || defined(_M_X64)

#include <immintrin.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "attn/kernels.h"

// Dynamic dispatch: everything below is compiled for AVX2, so nothing here may be an inline or
// template entity that another (non-AVX) file could also instantiate: the linker would keep one
// copy and might give the scalar path AVX2 code. Hence no std::vector/std::min here: helpers live
// in an anonymous namespace and buffers are plain aligned allocations.
namespace attn::kernels::avx2 {
namespace {

constexpr int MR = 6;     // micro-tile rows: 6 x 2 ymm accumulators + 2 for B + 1 broadcast <= 16
constexpr int NR = 16;    // micro-tile columns: two ymm vectors
// Cache blocks, chosen by measurement on Zen 3 (32 KiB L1, 512 KiB L2): a deep KC halves the
// passes over c, whose tiles reload from L3, and beat KC 256 / MC 144 by ~10% at n = 1024.
constexpr int KC = 512;   // depth of a packed block: one B micro-panel (KC x 16, 32 KiB) from L1/L2
constexpr int MC = 48;    // rows of a packed A block (MC x KC, 96 KiB) stay in L2
constexpr int NC = 1024;  // columns of a packed B block (KC x NC, 2 MiB) stay in L3

inline int imin(int a, int b) { return a < b ? a : b; }
inline int round_up(int x, int m) { return (x + m - 1) / m * m; }

// A grow-only 64-byte aligned scratch buffer, one per thread and purpose.
struct Scratch {
    float* data = nullptr;
    size_t capacity = 0;
    float* get(size_t n) {
        if (n > capacity) {
            std::free(data);
            capacity = (n + 15) / 16 * 16;
            data = static_cast<float*>(std::aligned_alloc(64, capacity * sizeof(float)));
            if (!data) std::abort();
        }
        return data;
    }
    ~Scratch() { std::free(data); }
};

// ---------------------------------------------------------------------------------------------
// sgemm: packing and the micro-kernel

// Transposes the 8x8 block held in r[0..7] (rows in, columns out).
inline void transpose_8x8(__m256 r[8]) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20), r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20), r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31), r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31), r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

// Packs a (mc,kc) block of a into MR-row panels: panel[p*MR + ii]. Rows past mc are zero so the
// micro-kernel can always run full height. Full panels go 8 columns at a time through an 8x8
// transpose; each 8-wide store spills 2 floats that the next store (or the next panel)
// overwrites, so the buffer needs kPackSlack floats past its end.
constexpr int kPackSlack = 8;
void pack_a(float* ap, const float* a, long lda, int mc, int kc) {
    for (int i = 0; i < mc; i += MR) {
        const int mr = imin(MR, mc - i);
        const float* a_i = a + i * lda;
        int p = 0;
        if (mr == MR) {
            for (; p + 8 <= kc; p += 8) {
                __m256 r[8];
                for (int ii = 0; ii < MR; ii++) r[ii] = _mm256_loadu_ps(a_i + ii * lda + p);
                r[6] = r[7] = _mm256_setzero_ps();
                transpose_8x8(r);
                for (int pp = 0; pp < 8; pp++) _mm256_storeu_ps(ap + (p + pp) * MR, r[pp]);
            }
        }
        for (; p < kc; p++) {
            for (int ii = 0; ii < MR; ii++) ap[p * MR + ii] = ii < mr ? a_i[ii * lda + p] : 0.0f;
        }
        ap += MR * kc;
    }
}

// Packs a (kc,nc) block of B into NR-column panels: panel[p*NR + jj]. B(p,j) is b[p*ldb + j], or
// b[j*ldb + p] when transposed (then 8x8 transposes turn its rows into panel columns). Columns
// past nc are zero. Untransposed, full panels are filled up to kPanelGroup at a time, so each row
// of b is read 256 floats at a stretch rather than 16 from each of kc rows (4 KiB apart at
// ldb = 1024): that halves the packing time, which was ~3% of sgemm n = 1024.
constexpr int kPanelGroup = 16;
void pack_b(float* bp, const float* b, long ldb, int kc, int nc, bool transposed) {
    int j0 = 0;
    if (!transposed) {
        for (; j0 + NR <= nc;) {
            const int group = imin(kPanelGroup, (nc - j0) / NR);
            for (int p = 0; p < kc; p++) {
                const float* b_p = b + p * ldb + j0;
                for (int g = 0; g < group; g++) {
                    float* panel_p = bp + static_cast<long>(g) * NR * kc + p * NR;
                    _mm256_store_ps(panel_p, _mm256_loadu_ps(b_p + g * NR));
                    _mm256_store_ps(panel_p + 8, _mm256_loadu_ps(b_p + g * NR + 8));
                }
            }
            j0 += group * NR, bp += static_cast<long>(group) * NR * kc;
        }
    }
    for (int j = j0; j < nc; j += NR) {
        const int nr = imin(NR, nc - j);
        if (!transposed) {
            for (int p = 0; p < kc; p++) {
                for (int jj = 0; jj < NR; jj++) bp[p * NR + jj] = jj < nr ? b[p * ldb + j + jj] : 0.0f;
            }
        } else {
            int p = 0;
            if (nr == NR) {
                for (; p + 8 <= kc; p += 8) {
                    for (int half = 0; half < 2; half++) {
                        __m256 r[8];
                        for (int jj = 0; jj < 8; jj++) r[jj] = _mm256_loadu_ps(b + (j + half * 8 + jj) * ldb + p);
                        transpose_8x8(r);
                        for (int pp = 0; pp < 8; pp++) _mm256_store_ps(bp + (p + pp) * NR + half * 8, r[pp]);
                    }
                }
            }
            for (int pt = p; pt < kc; pt++) {
                for (int jj = nr; jj < NR; jj++) bp[pt * NR + jj] = 0.0f;
            }
            for (int jj = 0; jj < nr; jj++) {
                const float* b_j = b + (j + jj) * ldb;
                for (int pt = p; pt < kc; pt++) bp[pt * NR + jj] = b_j[pt];
            }
        }
        bp += NR * kc;
    }
}

// c (6,16) = [c +] a (6,kc) · bp (kc,16), bp packed; a(i,p) is ap[i*a_row + p*a_col], so a is
// either a packed panel (a_row 1, a_col 6) or rows read in place (a_row lda, a_col 1). When
// accumulating, c is loaded into the accumulators first so every element still sums its products
// in increasing k order.
__attribute__((always_inline)) inline void gemm_f32_6x16__avx2(int kc, const float* ap, long a_row,
                                                               long a_col, const float* bp, float* c,
                                                               long ldc, bool accumulate) {
    __m256 c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
    if (accumulate) {
        c00 = _mm256_loadu_ps(c + 0 * ldc), c01 = _mm256_loadu_ps(c + 0 * ldc + 8);
        c10 = _mm256_loadu_ps(c + 1 * ldc), c11 = _mm256_loadu_ps(c + 1 * ldc + 8);
        c20 = _mm256_loadu_ps(c + 2 * ldc), c21 = _mm256_loadu_ps(c + 2 * ldc + 8);
        c30 = _mm256_loadu_ps(c + 3 * ldc), c31 = _mm256_loadu_ps(c + 3 * ldc + 8);
        c40 = _mm256_loadu_ps(c + 4 * ldc), c41 = _mm256_loadu_ps(c + 4 * ldc + 8);
        c50 = _mm256_loadu_ps(c + 5 * ldc), c51 = _mm256_loadu_ps(c + 5 * ldc + 8);
    } else {
        c00 = c01 = c10 = c11 = c20 = c21 = c30 = c31 = c40 = c41 = c50 = c51 = _mm256_setzero_ps();
    }
#pragma GCC unroll 4
    for (int p = 0; p < kc; p++) {
        const __m256 b0 = _mm256_load_ps(bp), b1 = _mm256_load_ps(bp + 8);
        __m256 a;
        a = _mm256_broadcast_ss(ap + 0 * a_row), c00 = _mm256_fmadd_ps(a, b0, c00), c01 = _mm256_fmadd_ps(a, b1, c01);
        a = _mm256_broadcast_ss(ap + 1 * a_row), c10 = _mm256_fmadd_ps(a, b0, c10), c11 = _mm256_fmadd_ps(a, b1, c11);
        a = _mm256_broadcast_ss(ap + 2 * a_row), c20 = _mm256_fmadd_ps(a, b0, c20), c21 = _mm256_fmadd_ps(a, b1, c21);
        a = _mm256_broadcast_ss(ap + 3 * a_row), c30 = _mm256_fmadd_ps(a, b0, c30), c31 = _mm256_fmadd_ps(a, b1, c31);
        a = _mm256_broadcast_ss(ap + 4 * a_row), c40 = _mm256_fmadd_ps(a, b0, c40), c41 = _mm256_fmadd_ps(a, b1, c41);
        a = _mm256_broadcast_ss(ap + 5 * a_row), c50 = _mm256_fmadd_ps(a, b0, c50), c51 = _mm256_fmadd_ps(a, b1, c51);
        ap += a_col;
        bp += NR;
    }
    _mm256_storeu_ps(c + 0 * ldc, c00), _mm256_storeu_ps(c + 0 * ldc + 8, c01);
    _mm256_storeu_ps(c + 1 * ldc, c10), _mm256_storeu_ps(c + 1 * ldc + 8, c11);
    _mm256_storeu_ps(c + 2 * ldc, c20), _mm256_storeu_ps(c + 2 * ldc + 8, c21);
    _mm256_storeu_ps(c + 3 * ldc, c30), _mm256_storeu_ps(c + 3 * ldc + 8, c31);
    _mm256_storeu_ps(c + 4 * ldc, c40), _mm256_storeu_ps(c + 4 * ldc + 8, c41);
    _mm256_storeu_ps(c + 5 * ldc, c50), _mm256_storeu_ps(c + 5 * ldc + 8, c51);
}

// The micro-kernel on a tile that may be cut short (mr <= 6 rows, nr <= 16 columns of c): the full
// tile goes through a 6x16 buffer and only the valid part of c is read and written.
void gemm_tile(int mr, int nr, int kc, const float* ap, const float* bp, float* c, long ldc,
               bool accumulate) {
    if (mr == MR && nr == NR) {
        gemm_f32_6x16__avx2(kc, ap, 1, MR, bp, c, ldc, accumulate);
        return;
    }
    alignas(32) float tile[MR * NR] = {};
    if (accumulate) {
        for (int i = 0; i < mr; i++) std::memcpy(tile + i * NR, c + i * ldc, nr * sizeof(float));
    }
    gemm_f32_6x16__avx2(kc, ap, 1, MR, bp, tile, NR, accumulate);
    for (int i = 0; i < mr; i++) std::memcpy(c + i * ldc, tile + i * NR, nr * sizeof(float));
}

thread_local Scratch g_pack_a, g_pack_b;

void matmul(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int M, int N, int K,
            bool b_transposed) {
    // c is (M,N), a is (M,K), b is (K,N) or (N,K) read transposed
    if (M <= 0 || N <= 0) return;
    if (K <= 0) {
        for (int i = 0; i < M; i++) std::memset(c + static_cast<long>(i) * ldc, 0, N * sizeof(float));
        return;
    }
    float* bp = g_pack_b.get(static_cast<size_t>(KC) * round_up(imin(N, NC), NR));
    float* ap = g_pack_a.get(static_cast<size_t>(round_up(imin(M, MC), MR)) * KC + kPackSlack);
    // loop 5 (jc) over NC-column blocks of B and c
    for (int jc = 0; jc < N; jc += NC) {
        const int nc = imin(NC, N - jc);
        // loop 4 (pc) over the depth: later blocks accumulate onto c, keeping the k order
        for (int pc = 0; pc < K; pc += KC) {
            const int kc = imin(KC, K - pc);
            const float* b_block = b_transposed ? b + static_cast<long>(jc) * ldb + pc
                                                : b + static_cast<long>(pc) * ldb + jc;
            pack_b(bp, b_block, ldb, kc, nc, b_transposed);
            // loop 3 (ic) over MC-row blocks of a
            for (int ic = 0; ic < M; ic += MC) {
                const int mc = imin(MC, M - ic);
                pack_a(ap, a + static_cast<long>(ic) * lda + pc, lda, mc, kc);
                // loops 2 and 1: one B micro-panel stays in L1 while the A panels stream past it
                for (int jr = 0; jr < nc; jr += NR) {
                    for (int ir = 0; ir < mc; ir += MR) {
                        float* c_ij = c + static_cast<long>(ic + ir) * ldc + jc + jr;
                        // fetch the next tile's c (down this column of tiles, or the top of the
                        // next one) into L2 while this one computes: c lives in L3 and the
                        // micro-kernel would otherwise stall on its first loads. Not into L1:
                        // with ldc a multiple of 1024 all rows of a tile share one L1 set.
                        const float* c_next = nullptr;
                        int next_rows = 0;
                        if (ir + MR < mc) {
                            c_next = c_ij + MR * static_cast<long>(ldc), next_rows = imin(MR, mc - ir - MR);
                        } else if (jr + NR < nc) {
                            c_next = c + static_cast<long>(ic) * ldc + jc + jr + NR, next_rows = imin(MR, mc);
                        }
                        for (int i = 0; i < next_rows; i++) {
                            const char* row = reinterpret_cast<const char*>(c_next + i * static_cast<long>(ldc));
                            _mm_prefetch(row, _MM_HINT_T1);
                            _mm_prefetch(row + (NR - 1) * sizeof(float), _MM_HINT_T1);
                        }
                        gemm_tile(imin(MR, mc - ir), imin(NR, nc - jr), kc, ap + ir * kc,
                                  bp + jr * kc, c_ij, ldc, pc > 0);
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// exp and softmax

inline float hmax(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}

inline float hsum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

// Sleef's expf_u10 on 8 floats: pytorch_cpu::expf_u10's operations in its order, each vmla one
// fused multiply-add, so every lane is the bit PyTorch's Vectorized<float>::exp() gives.
inline __m256 expf_u10(__m256 d) {
    const __m256 q = _mm256_round_ps(_mm256_mul_ps(d, _mm256_set1_ps(1.442695040888963407359924681001892137426645954152985934135449406931f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 s = _mm256_fmadd_ps(q, _mm256_set1_ps(-0.693145751953125f), d);
    s = _mm256_fmadd_ps(q, _mm256_set1_ps(-1.428606765330187045e-06f), s);
    __m256 u = _mm256_set1_ps(0.000198527617612853646278381f);
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00139304355252534151077271f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00833336077630519866943359f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.0416664853692054748535156f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.166666671633720397949219f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.5f));
    u = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(_mm256_mul_ps(s, s), u, s));
    // times 2^q in two steps, 2^(q>>1) then 2^(q - (q>>1)), so neither factor overflows
    const __m256i qi = _mm256_cvtps_epi32(q), half = _mm256_srai_epi32(qi, 1);
    const __m256i bias = _mm256_set1_epi32(0x7f);
    u = _mm256_mul_ps(u, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(half, bias), 23)));
    u = _mm256_mul_ps(u, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(qi, half), bias), 23)));
    // out of range: 0 below -104 (-inf included), inf above 100, NaN stays NaN
    u = _mm256_andnot_ps(_mm256_cmp_ps(d, _mm256_set1_ps(-104.0f), _CMP_LT_OQ), u);
    u = _mm256_blendv_ps(u, _mm256_set1_ps(std::numeric_limits<float>::infinity()),
                         _mm256_cmp_ps(d, _mm256_set1_ps(100.0f), _CMP_GT_OQ));
    return _mm256_blendv_ps(u, d, _mm256_cmp_ps(d, d, _CMP_UNORD_Q));
}

// e^x for 8 floats in single precision, within ~2 ulp: the fused attention's exp, where speed
// matters more than matching expf's rounding. x = n·ln2 + r (ln2 in two parts so n·ln2 is exact),
// e^r from Cephes' degree-6 polynomial, times 2^n. Inputs there are s - max <= 0: below -87.3
// (where 2^n would be denormal) the result is 0, which is also what -inf (masked lanes) gives.
inline __m256 exp256_fast(__m256 x) {
    const __m256 lo = _mm256_set1_ps(-87.33654f);
    const __m256 xc = _mm256_max_ps(x, lo);
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(xc, _mm256_set1_ps(1.44269504088896341f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), xc);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
    __m256 y = _mm256_set1_ps(1.9875691500e-4f);
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(1.3981999507e-3f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(8.3334519073e-3f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(4.1665795894e-2f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(1.6666665459e-1f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(5.0000001201e-1f));
    y = _mm256_fmadd_ps(y, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
    const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    y = _mm256_mul_ps(y, _mm256_castsi256_ps(e));
    return _mm256_andnot_ps(_mm256_cmp_ps(x, lo, _CMP_LT_OQ), y);  // NaN compares false: stays NaN
}

// The first n < 8 lanes: a mask for maskload/maskstore, and a load that fills the rest.
inline __m256i tail_mask(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
inline __m256 load_tail(const float* x, int n, float fill) {
    const __m256i m = tail_mask(n);
    return _mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(x, m), _mm256_castsi256_ps(m));
}

// pytorch_cpu::softmax_row on one row of n >= 1 floats, in place, 8 lanes at a time: PyTorch's
// own kernel is this AVX2 code, so its passes map onto vectors one for one and give its bits.
void softmax_row(float* x, int n) {
    const float neg_inf = -std::numeric_limits<float>::infinity();
    const int n8 = n / 8 * 8, tail = n - n8;
    const __m256i tmask = tail_mask(tail);
    // pass 1: the row max; any NaN makes it NaN (vec::maximum)
    __m256 vmax = _mm256_set1_ps(neg_inf), vnan = _mm256_setzero_ps();
    for (int j = 0; j < n8; j += 8) {
        const __m256 v = _mm256_loadu_ps(x + j);
        vmax = _mm256_max_ps(vmax, v), vnan = _mm256_or_ps(vnan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    }
    if (tail) {
        const __m256 v = load_tail(x + n8, tail, neg_inf);
        vmax = _mm256_max_ps(vmax, v), vnan = _mm256_or_ps(vnan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    }
    const float max_val = _mm256_movemask_ps(vnan) ? std::numeric_limits<float>::quiet_NaN() : hmax(vmax);
    // pass 2: e^(x - max) (a row of only -inf gives -inf - -inf = NaN, as in PyTorch)
    const __m256 vm = _mm256_set1_ps(max_val);
    for (int j = 0; j < n8; j += 8) _mm256_storeu_ps(x + j, expf_u10(_mm256_sub_ps(_mm256_loadu_ps(x + j), vm)));
    if (tail) _mm256_maskstore_ps(x + n8, tmask, expf_u10(_mm256_sub_ps(_mm256_maskload_ps(x + n8, tmask), vm)));
    // pass 3: the sum in vec::reduce_all's order: left to right under 8 elements, else 8 lanes
    // (the last, partial vector adds zeros) folded halves, then pairs, then neighbours
    float total;
    if (n < 8) {
        total = x[0];
        for (int j = 1; j < n; j++) total += x[j];
    } else {
        __m256 lanes = _mm256_loadu_ps(x);
        for (int j = 8; j < n8; j += 8) lanes = _mm256_add_ps(lanes, _mm256_loadu_ps(x + j));
        if (tail) lanes = _mm256_add_ps(lanes, _mm256_maskload_ps(x + n8, tmask));
        lanes = _mm256_add_ps(lanes, _mm256_permute2f128_ps(lanes, lanes, 1));
        lanes = _mm256_add_ps(lanes, _mm256_permute_ps(lanes, 0x4E));
        alignas(32) float l[8];
        _mm256_store_ps(l, lanes);
        total = l[0] + l[1];
    }
    // pass 4: times the reciprocal of the sum
    const __m256 inv = _mm256_set1_ps(1.0f / total);
    for (int j = 0; j < n8; j += 8) _mm256_storeu_ps(x + j, _mm256_mul_ps(_mm256_loadu_ps(x + j), inv));
    if (tail) _mm256_maskstore_ps(x + n8, tmask, _mm256_mul_ps(_mm256_maskload_ps(x + n8, tmask), inv));
}

void softmax_rows(float* x, int ldx, int rows, int n, float divisor, bool causal, int causal_offset) {
    // x is (rows, n): x / divisor, masked columns -inf (masked_fill), then PyTorch's softmax
    const float neg_inf = -std::numeric_limits<float>::infinity();
    const __m256 div = _mm256_set1_ps(divisor);
    for (int r = 0; r < rows; r++) {
        float* x_r = x + static_cast<long>(r) * ldx;
        int visible = n;
        if (causal) visible = imin(n, r + causal_offset + 1 > 0 ? r + causal_offset + 1 : 0);
        int j = 0;
        for (; j + 8 <= visible; j += 8) _mm256_storeu_ps(x_r + j, _mm256_div_ps(_mm256_loadu_ps(x_r + j), div));
        for (; j < visible; j++) x_r[j] = x_r[j] / divisor;
        for (; j < n; j++) x_r[j] = neg_inf;
        if (n > 0) softmax_row(x_r, n);
    }
}

// ---------------------------------------------------------------------------------------------
// fused attention

constexpr int BR = 48;  // queries per block: 8 micro-panels of 6
constexpr int BC = 64;  // keys per block: 4 micro-panels of 16

thread_local Scratch g_k_packed, g_v_packed, g_q_packed, g_scores, g_acc, g_row_state;

void attention_fused(float* out, int ld_out, const float* q, int ld_q, const float* k, int ld_k,
                     const float* v, int ld_v, int T, int D, float divisor, bool causal) {
    // out, q, k, v are (T,D) with row strides; out = softmax(q kᵀ / divisor) v
    if (T <= 0 || D <= 0) return;
    const float neg_inf = -std::numeric_limits<float>::infinity();
    const int Dp = round_up(D, NR);
    const __m256 div = _mm256_set1_ps(divisor);
    // K as the B operand of q·kᵀ (panels of 16 keys, each D deep) and V as the B operand of p·v
    // (panels of 16 channels, each T deep): packed once per head, read by every query block.
    float* k_packed = g_k_packed.get(static_cast<size_t>(round_up(T, NR)) * D);
    float* v_packed = g_v_packed.get(static_cast<size_t>(Dp) * T);
    pack_b(k_packed, k, ld_k, D, T, true);
    pack_b(v_packed, v, ld_v, T, D, false);
    float* q_packed = g_q_packed.get(static_cast<size_t>(BR) * D + kPackSlack);
    float* scores = g_scores.get(static_cast<size_t>(BR) * BC);  // (BR, BC), then the weights p
    float* acc = g_acc.get(static_cast<size_t>(BR) * Dp);         // (BR, Dp) unnormalised output
    float* row_max = g_row_state.get(2 * BR);                      // running max and sum per row
    float* row_sum = row_max + BR;

    for (int i0 = 0; i0 < T; i0 += BR) {
        const int br = imin(BR, T - i0);
        pack_a(q_packed, q + static_cast<long>(i0) * ld_q, ld_q, br, D);
        for (int r = 0; r < br; r++) row_max[r] = neg_inf, row_sum[r] = 0.0f;
        std::memset(acc, 0, static_cast<size_t>(round_up(br, MR)) * Dp * sizeof(float));
        // under the causal mask, key blocks past this block's last query are skipped entirely
        const int j_end = causal ? i0 + br : T;
        for (int j0 = 0; j0 < j_end; j0 += BC) {
            const int bc = imin(BC, j_end - j0);
            // pass 1: scores (br, bc) = q_block · k_blockᵀ
            for (int jr = 0; jr < bc; jr += NR) {
                for (int ir = 0; ir < br; ir += MR) {
                    gemm_f32_6x16__avx2(D, q_packed + ir * D, 1, MR, k_packed + (j0 + jr) * D,
                                        scores + ir * BC + jr, BC, false);
                }
            }
            // pass 2: online softmax per row: new max, rescale what was summed so far, e^(s-max)
            for (int r = 0; r < br; r++) {
                float* s_r = scores + r * BC;
                const int visible = causal ? imin(bc, i0 + r - j0 + 1) : bc;
                if (visible <= 0) {  // every key of this block is in this row's future
                    std::memset(s_r, 0, bc * sizeof(float));
                    continue;
                }
                const int v8 = visible / 8 * 8, tail = visible - v8;
                __m256 vmax = _mm256_set1_ps(neg_inf);
                for (int j = 0; j < v8; j += 8) {
                    const __m256 s = _mm256_div_ps(_mm256_loadu_ps(s_r + j), div);
                    _mm256_storeu_ps(s_r + j, s);
                    vmax = _mm256_max_ps(vmax, s);
                }
                if (tail) {
                    const __m256 s = _mm256_div_ps(load_tail(s_r + v8, tail, neg_inf), div);
                    _mm256_storeu_ps(s_r + v8, s);  // scores rows have room up to BC
                    vmax = _mm256_max_ps(vmax, s);
                }
                const float m_old = row_max[r];
                const float m_new = hmax(vmax) > m_old ? hmax(vmax) : m_old;
                const __m256 vm = _mm256_set1_ps(m_new);
                __m256 vsum = _mm256_setzero_ps();
                for (int j = 0; j < v8 + (tail ? 8 : 0); j += 8) {
                    const __m256 e = exp256_fast(_mm256_sub_ps(_mm256_loadu_ps(s_r + j), vm));
                    _mm256_storeu_ps(s_r + j, e);
                    vsum = _mm256_add_ps(vsum, e);
                }
                for (int j = visible; j < bc; j++) s_r[j] = 0.0f;  // masked keys weigh exactly 0
                const float alpha = expf(m_old - m_new);  // 0 on the first block
                row_sum[r] = row_sum[r] * alpha + hsum(vsum);
                row_max[r] = m_new;
                if (alpha != 1.0f) {
                    float* acc_r = acc + r * Dp;
                    const __m256 va = _mm256_set1_ps(alpha);
                    for (int d = 0; d < Dp; d += 8)
                        _mm256_store_ps(acc_r + d, _mm256_mul_ps(_mm256_load_ps(acc_r + d), va));
                }
            }
            // pass 3: acc (br, Dp) += p (br, bc) · v_block (bc, Dp)
            // (p is read in place: its 6 rows are 6 streams in L1, cheaper than packing it)
            for (int dr = 0; dr < Dp; dr += NR) {
                for (int ir = 0; ir < br; ir += MR) {
                    gemm_f32_6x16__avx2(bc, scores + ir * BC, BC, 1, v_packed + dr * T + j0 * NR,
                                        acc + ir * Dp + dr, Dp, true);
                }
            }
        }
        // pass 4: normalise each row by its sum
        for (int r = 0; r < br; r++) {
            const float inv = 1.0f / row_sum[r];
            const float* acc_r = acc + r * Dp;
            float* out_r = out + static_cast<long>(i0 + r) * ld_out;
            for (int d = 0; d < D; d++) out_r[d] = acc_r[d] * inv;
        }
    }
}

}  // namespace
}  // namespace attn::kernels::avx2

namespace attn::kernels {

extern const KernelTable kAvx2Table;
const KernelTable kAvx2Table = {"avx2", "x86-64 with AVX2 and FMA", avx2::matmul, avx2::softmax_rows,
                                avx2::attention_fused};

}  // namespace attn::kernels

#endif  // x86-64
