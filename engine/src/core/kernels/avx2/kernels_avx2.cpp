// The AVX2+FMA back end: the shared blocked sgemm and tiled online-softmax fused attention
// (../blocked.inl) on a 6x16 register-blocked micro-kernel, and PyTorch's exact softmax row, 8 lanes
// wide. Compiled alone with -mavx2 -mfma; dispatch.cpp enters it only after CPUID and XGETBV say
// the CPU and OS support it.
// Shapes: M,N,K matrix sizes; T tokens; D head dimension; MR x NR = 6 x 16 micro-tile.
#if defined(__x86_64__) || defined(_M_X64)

#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/kernels.h"

// Dynamic dispatch: everything below is compiled for AVX2, so nothing here may be an inline or
// template entity that another (non-AVX) file could also instantiate: the linker would keep one
// copy and might give the scalar path AVX2 code. Hence no std::vector/std::min here: helpers
// (blocked.inl's too) live in an anonymous namespace and buffers are plain aligned allocations.
namespace attn::kernels::avx2 {
namespace {

// ---------------------------------------------------------------------------------------------
// sgemm: the transposes that pack panels, and the micro-kernel

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

// One full 6-row panel of a packed 8 columns at a time: ap[p*6 + ii] = a_i[ii*lda + p]. Each
// 8-wide store spills 2 floats that the next store (or the next panel) overwrites, hence
// kPackSlack. Returns how many columns it packed; blocked.inl's pack_a does the rest.
int pack_a_panel(float* ap, const float* a_i, ptrdiff_t lda, int kc) {
    int p = 0;
    for (; p + 8 <= kc; p += 8) {
        __m256 r[8];
        for (int ii = 0; ii < 6; ii++) r[ii] = _mm256_loadu_ps(a_i + ii * lda + p);
        r[6] = r[7] = _mm256_setzero_ps();
        transpose_8x8(r);
        for (int pp = 0; pp < 8; pp++) _mm256_storeu_ps(ap + (p + pp) * 6, r[pp]);
    }
    return p;
}

// One full 16-column panel of a transposed B, 8 deep at a time through two 8x8 transposes:
// bp[p*16 + jj] = b_j[jj*ldb + p]. Returns how deep it packed.
int pack_b_transposed_panel(float* bp, const float* b_j, ptrdiff_t ldb, int kc) {
    int p = 0;
    for (; p + 8 <= kc; p += 8) {
        for (int half = 0; half < 2; half++) {
            __m256 r[8];
            for (int jj = 0; jj < 8; jj++) r[jj] = _mm256_loadu_ps(b_j + (half * 8 + jj) * ldb + p);
            transpose_8x8(r);
            for (int pp = 0; pp < 8; pp++) _mm256_store_ps(bp + (p + pp) * 16 + half * 8, r[pp]);
        }
    }
    return p;
}

// c (6,16) = [c +] a (6,kc) · bp (kc,16), bp packed; a(i,p) is ap[i*a_row + p*a_col], so a is
// either a packed panel (a_row 1, a_col 6) or rows read in place (a_row lda, a_col 1). When
// accumulating, c is loaded into the accumulators first so every element still sums its products
// in increasing k order.
__attribute__((always_inline)) inline void gemm_f32_6x16__avx2(int kc, const float* ap, ptrdiff_t a_row,
                                                               ptrdiff_t a_col, const float* bp, float* c,
                                                               ptrdiff_t ldc, bool accumulate) {
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
        bp += 16;
    }
    _mm256_storeu_ps(c + 0 * ldc, c00), _mm256_storeu_ps(c + 0 * ldc + 8, c01);
    _mm256_storeu_ps(c + 1 * ldc, c10), _mm256_storeu_ps(c + 1 * ldc + 8, c11);
    _mm256_storeu_ps(c + 2 * ldc, c20), _mm256_storeu_ps(c + 2 * ldc + 8, c21);
    _mm256_storeu_ps(c + 3 * ldc, c30), _mm256_storeu_ps(c + 3 * ldc + 8, c31);
    _mm256_storeu_ps(c + 4 * ldc, c40), _mm256_storeu_ps(c + 4 * ldc + 8, c41);
    _mm256_storeu_ps(c + 5 * ldc, c50), _mm256_storeu_ps(c + 5 * ldc + 8, c51);
}

// Fetches the rows of the next tile of c into L2 while this one computes: c lives in L3 and the
// micro-kernel would otherwise stall on its first loads. Not into L1: with ldc a multiple of 1024
// all rows of a tile share one L1 set.
inline void prefetch_rows(const float* c, ptrdiff_t ldc, int rows) {
    for (int i = 0; i < rows; i++) {
        const char* row = reinterpret_cast<const char*>(c + i * ldc);
        _mm_prefetch(row, _MM_HINT_T1);
        _mm_prefetch(row + 15 * sizeof(float), _MM_HINT_T1);
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

// PyTorch's exact softmax row, defined after blocked.inl (it uses its expf_u10).
void softmax_row(float* x, int n);

// ---------------------------------------------------------------------------------------------
// what blocked.inl needs from this target

struct Target {
    using V = __m256;  // a GCC vector of 8 floats: + - * / work lane by lane
    static constexpr int kLanes = 8;
    static constexpr int MR = 6;     // micro-tile rows: 6 x 2 ymm accumulators + 2 for B + 1 broadcast <= 16
    static constexpr int NR = 16;    // micro-tile columns: two ymm vectors
    // Cache blocks, chosen by measurement on Zen 3 (32 KiB L1, 512 KiB L2): a deep KC halves the
    // passes over c, whose tiles reload from L3, and beat KC 256 / MC 144 by ~10% at n = 1024.
    static constexpr int KC = 512;   // depth of a packed block: one B micro-panel (KC x 16, 32 KiB) from L1/L2
    static constexpr int MC = 48;    // rows of a packed A block (MC x KC, 96 KiB) stay in L2
    static constexpr int NC = 1024;  // columns of a packed B block (KC x NC, 2 MiB) stay in L3
    static constexpr int kPanelGroup = 16;  // B panels filled together: 256 floats of a row of b
    static constexpr int kPackSlack = 8;    // pack_a_panel's spill
    static constexpr int BR = 48;    // fused attention: queries per block, 8 micro-panels of 6
    static constexpr int BC = 64;    // keys per block, 4 micro-panels of 16
    static constexpr size_t kAlign = 64;

    static V loadu(const float* p) { return _mm256_loadu_ps(p); }
    static void storeu(float* p, V v) { _mm256_storeu_ps(p, v); }
    static V set1(float x) { return _mm256_set1_ps(x); }
    static float hmax(V v) { return avx2::hmax(v); }
    static float hsum(V v) { return avx2::hsum(v); }
    static V max(V a, V b) { return _mm256_max_ps(a, b); }
    static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
    static V round_nearest(V x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
    // lanes 0..n-1 of v, the rest fill
    static V first_lanes(V v, int n, V fill) { return _mm256_blendv_ps(fill, v, _mm256_castsi256_ps(tail_mask(n))); }
    static V exp_fast(V x) { return exp256_fast(x); }
    // expf_u10's last steps: times 2^q in two steps, 2^(q>>1) then 2^(q - (q>>1)), so neither
    // factor overflows; then 0 below -104 (-inf included), inf above 100, NaN stays NaN
    static V expf_u10_finish(V u, V q, V d) {
        const __m256i qi = _mm256_cvtps_epi32(q), half = _mm256_srai_epi32(qi, 1);
        const __m256i bias = _mm256_set1_epi32(0x7f);
        u = u * _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(half, bias), 23));
        u = u * _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(qi, half), bias), 23));
        u = _mm256_andnot_ps(_mm256_cmp_ps(d, _mm256_set1_ps(-104.0f), _CMP_LT_OQ), u);
        u = _mm256_blendv_ps(u, _mm256_set1_ps(std::numeric_limits<float>::infinity()),
                             _mm256_cmp_ps(d, _mm256_set1_ps(100.0f), _CMP_GT_OQ));
        return _mm256_blendv_ps(u, d, _mm256_cmp_ps(d, d, _CMP_UNORD_Q));
    }
    __attribute__((always_inline)) static void gemm_micro(int kc, const float* ap, ptrdiff_t a_row, ptrdiff_t a_col,
                                                          const float* bp, float* c, ptrdiff_t ldc, bool accumulate) {
        gemm_f32_6x16__avx2(kc, ap, a_row, a_col, bp, c, ldc, accumulate);
    }
};

#include "../blocked.inl"

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

}  // namespace
}  // namespace attn::kernels::avx2

namespace attn::kernels {

extern const KernelTable kAvx2Table;
const KernelTable kAvx2Table = {"avx2", "x86-64 with AVX2 and FMA", avx2::matmul, avx2::softmax_rows,
                                avx2::attention_fused};

}  // namespace attn::kernels

#endif  // x86-64
