// The WebAssembly SIMD128 back end: packed sgemm with a 4x8 micro-kernel, vectorised softmax rows
// and the tiled online-softmax fused attention, 4 lanes wide. Compiled only under Emscripten with
// -msimd128 (ATTN_WASM_SIMD=ON). No relaxed SIMD: f32x4 mul then add, each rounded, as scalar does.
// Shapes: M,N,K matrix sizes; T tokens; D head dimension; MR x NR = 4 x 8 micro-tile.
#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "attn/kernels.h"
#include "fma_f32x4.h"

// A wasm module with SIMD128 either loads whole or not at all, so unlike avx2 there is no run-time
// CPU check; the helpers still live in their own namespace so the scalar back end coexists.
namespace attn::kernels::wasm_simd {
namespace {

constexpr int MR = 4;     // micro-tile rows: 4 x 2 accumulators + 2 for B + 1 broadcast, 16 regs max
constexpr int NR = 8;     // micro-tile columns: two f32x4 vectors
constexpr int KC = 256;   // depth of a packed block
constexpr int MC = 128;   // rows of a packed A block
constexpr int NC = 1024;  // columns of a packed B block

inline int imin(int a, int b) { return a < b ? a : b; }
inline int round_up(int x, int m) { return (x + m - 1) / m * m; }

// A grow-only 16-byte aligned scratch buffer, one per purpose (wasm here is single-threaded).
struct Scratch {
    float* data = nullptr;
    size_t capacity = 0;
    float* get(size_t n) {
        if (n > capacity) {
            std::free(data);
            capacity = (n + 15) / 16 * 16;
            data = static_cast<float*>(std::aligned_alloc(16, capacity * sizeof(float)));
            if (!data) std::abort();
        }
        return data;
    }
    ~Scratch() { std::free(data); }
};

// ---------------------------------------------------------------------------------------------
// sgemm: packing and the micro-kernel

// dst (4,4) = srcᵀ for a 4x4 block of src, both row-major with the given leading dimensions.
inline void copy_transposed_4x4(float* dst, long ld_dst, const float* src, long ld_src) {
    const v128_t r0 = wasm_v128_load(src), r1 = wasm_v128_load(src + ld_src);
    const v128_t r2 = wasm_v128_load(src + 2 * ld_src), r3 = wasm_v128_load(src + 3 * ld_src);
    const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
    const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
    wasm_v128_store(dst, wasm_i64x2_shuffle(t0, t2, 0, 2));
    wasm_v128_store(dst + ld_dst, wasm_i64x2_shuffle(t0, t2, 1, 3));
    wasm_v128_store(dst + 2 * ld_dst, wasm_i64x2_shuffle(t1, t3, 0, 2));
    wasm_v128_store(dst + 3 * ld_dst, wasm_i64x2_shuffle(t1, t3, 1, 3));
}

// Packs a (mc,kc) block of a into MR-row panels: panel[p*MR + ii]; rows past mc are zero. Full
// panels go 4 columns at a time through a 4x4 transpose.
void pack_a(float* ap, const float* a, long lda, int mc, int kc) {
    static_assert(MR == 4, "the 4x4 transpose packs 4 rows");
    for (int i = 0; i < mc; i += MR) {
        const int mr = imin(MR, mc - i);
        const float* a_i = a + i * lda;
        int p = 0;
        if (mr == MR) {
            for (; p + 4 <= kc; p += 4) copy_transposed_4x4(ap + p * MR, MR, a_i + p, lda);
        }
        for (; p < kc; p++) {
            for (int ii = 0; ii < MR; ii++) ap[p * MR + ii] = ii < mr ? a_i[ii * lda + p] : 0.0f;
        }
        ap += MR * kc;
    }
}

// Packs a (kc,nc) block of B into NR-column panels: panel[p*NR + jj]. B(p,j) is b[p*ldb + j], or
// b[j*ldb + p] when transposed. Columns past nc are zero. Untransposed, full panels are filled up
// to kPanelGroup at a time so each row of b is read 256 floats at a stretch (as avx2 does).
constexpr int kPanelGroup = 32;
void pack_b(float* bp, const float* b, long ldb, int kc, int nc, bool transposed) {
    int j0 = 0;
    if (!transposed) {
        for (; j0 + NR <= nc;) {
            const int group = imin(kPanelGroup, (nc - j0) / NR);
            for (int p = 0; p < kc; p++) {
                const float* b_p = b + p * ldb + j0;
                for (int g = 0; g < group; g++) {
                    float* panel_p = bp + static_cast<long>(g) * NR * kc + p * NR;
                    wasm_v128_store(panel_p, wasm_v128_load(b_p + g * NR));
                    wasm_v128_store(panel_p + 4, wasm_v128_load(b_p + g * NR + 4));
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
            // transposed: rows of b are panel columns; full panels go 4 deep at a time through two
            // 4x4 transposes (columns 0-3 and 4-7)
            int p0 = 0;
            if (nr == NR) {
                for (; p0 + 4 <= kc; p0 += 4) {
                    for (int half = 0; half < 2; half++)
                        copy_transposed_4x4(bp + p0 * NR + half * 4, NR, b + (j + half * 4) * ldb + p0, ldb);
                }
            }
            for (int p = p0; p < kc; p++) {
                for (int jj = nr; jj < NR; jj++) bp[p * NR + jj] = 0.0f;
            }
            for (int jj = 0; jj < nr; jj++) {
                const float* b_j = b + (j + jj) * ldb;
                for (int p = p0; p < kc; p++) bp[p * NR + jj] = b_j[p];
            }
        }
        bp += NR * kc;
    }
}

// c (4,8) = [c +] a (4,kc) · bp (kc,8), bp packed; a(i,p) is ap[i*a_row + p*a_col] (a packed panel:
// 1, 4; rows in place: lda, 1). Accumulating loads c first, so each element sums its products in
// increasing k with a rounding after every multiply and add, as scalar does.
__attribute__((always_inline)) inline void gemm_f32_4x8__wasm_simd(int kc, const float* ap, long a_row,
                                                                   long a_col, const float* bp, float* c,
                                                                   long ldc, bool accumulate) {
    v128_t c00, c01, c10, c11, c20, c21, c30, c31;
    if (accumulate) {
        c00 = wasm_v128_load(c + 0 * ldc), c01 = wasm_v128_load(c + 0 * ldc + 4);
        c10 = wasm_v128_load(c + 1 * ldc), c11 = wasm_v128_load(c + 1 * ldc + 4);
        c20 = wasm_v128_load(c + 2 * ldc), c21 = wasm_v128_load(c + 2 * ldc + 4);
        c30 = wasm_v128_load(c + 3 * ldc), c31 = wasm_v128_load(c + 3 * ldc + 4);
    } else {
        c00 = c01 = c10 = c11 = c20 = c21 = c30 = c31 = wasm_f32x4_splat(0.0f);
    }
    for (int p = 0; p < kc; p++) {
        const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
        v128_t a;
        a = wasm_f32x4_splat(ap[0 * a_row]);
        c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(a, b0)), c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(a, b1));
        a = wasm_f32x4_splat(ap[1 * a_row]);
        c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(a, b0)), c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(a, b1));
        a = wasm_f32x4_splat(ap[2 * a_row]);
        c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(a, b0)), c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(a, b1));
        a = wasm_f32x4_splat(ap[3 * a_row]);
        c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(a, b0)), c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(a, b1));
        ap += a_col;
        bp += NR;
    }
    wasm_v128_store(c + 0 * ldc, c00), wasm_v128_store(c + 0 * ldc + 4, c01);
    wasm_v128_store(c + 1 * ldc, c10), wasm_v128_store(c + 1 * ldc + 4, c11);
    wasm_v128_store(c + 2 * ldc, c20), wasm_v128_store(c + 2 * ldc + 4, c21);
    wasm_v128_store(c + 3 * ldc, c30), wasm_v128_store(c + 3 * ldc + 4, c31);
}

// The micro-kernel on a tile that may be cut short: it goes through a 4x8 buffer.
void gemm_tile(int mr, int nr, int kc, const float* ap, const float* bp, float* c, long ldc,
               bool accumulate) {
    if (mr == MR && nr == NR) {
        gemm_f32_4x8__wasm_simd(kc, ap, 1, MR, bp, c, ldc, accumulate);
        return;
    }
    alignas(16) float tile[MR * NR] = {};
    if (accumulate) {
        for (int i = 0; i < mr; i++) std::memcpy(tile + i * NR, c + i * ldc, nr * sizeof(float));
    }
    gemm_f32_4x8__wasm_simd(kc, ap, 1, MR, bp, tile, NR, accumulate);
    for (int i = 0; i < mr; i++) std::memcpy(c + i * ldc, tile + i * NR, nr * sizeof(float));
}

Scratch g_pack_a, g_pack_b;

void matmul(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int M, int N, int K,
            bool b_transposed) {
    // c is (M,N), a is (M,K), b is (K,N) or (N,K) read transposed
    if (M <= 0 || N <= 0) return;
    if (K <= 0) {
        for (int i = 0; i < M; i++) std::memset(c + static_cast<long>(i) * ldc, 0, N * sizeof(float));
        return;
    }
    float* bp = g_pack_b.get(static_cast<size_t>(KC) * round_up(imin(N, NC), NR));
    float* ap = g_pack_a.get(static_cast<size_t>(round_up(imin(M, MC), MR)) * KC);
    for (int jc = 0; jc < N; jc += NC) {
        const int nc = imin(NC, N - jc);
        // later depth blocks accumulate onto c, keeping the k order
        for (int pc = 0; pc < K; pc += KC) {
            const int kc = imin(KC, K - pc);
            const float* b_block = b_transposed ? b + static_cast<long>(jc) * ldb + pc
                                                : b + static_cast<long>(pc) * ldb + jc;
            pack_b(bp, b_block, ldb, kc, nc, b_transposed);
            for (int ic = 0; ic < M; ic += MC) {
                const int mc = imin(MC, M - ic);
                pack_a(ap, a + static_cast<long>(ic) * lda + pc, lda, mc, kc);
                for (int jr = 0; jr < nc; jr += NR) {
                    for (int ir = 0; ir < mc; ir += MR) {
                        float* c_ij = c + static_cast<long>(ic + ir) * ldc + jc + jr;
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

inline float hmax(v128_t v) {
    const float a = wasm_f32x4_extract_lane(v, 0), b = wasm_f32x4_extract_lane(v, 1);
    const float c = wasm_f32x4_extract_lane(v, 2), d = wasm_f32x4_extract_lane(v, 3);
    const float ab = a > b ? a : b, cd = c > d ? c : d;
    return ab > cd ? ab : cd;
}

// Sleef's expf_u10 on 4 floats: pytorch_cpu::expf_u10's operations in its order, each vmla one
// fused multiply-add, so every lane is the bit PyTorch's Vectorized<float>::exp() gives.
inline v128_t expf_u10(v128_t d) {
    const v128_t q = wasm_f32x4_nearest(wasm_f32x4_mul(d, wasm_f32x4_splat(1.442695040888963407359924681001892137426645954152985934135449406931f)));
    v128_t s = fma_f32x4(q, wasm_f32x4_splat(-0.693145751953125f), d);
    s = fma_f32x4(q, wasm_f32x4_splat(-1.428606765330187045e-06f), s);
    v128_t u = wasm_f32x4_splat(0.000198527617612853646278381f);
    u = fma_f32x4(u, s, wasm_f32x4_splat(0.00139304355252534151077271f));
    u = fma_f32x4(u, s, wasm_f32x4_splat(0.00833336077630519866943359f));
    u = fma_f32x4(u, s, wasm_f32x4_splat(0.0416664853692054748535156f));
    u = fma_f32x4(u, s, wasm_f32x4_splat(0.166666671633720397949219f));
    u = fma_f32x4(u, s, wasm_f32x4_splat(0.5f));
    u = wasm_f32x4_add(wasm_f32x4_splat(1.0f), fma_f32x4(wasm_f32x4_mul(s, s), u, s));
    // times 2^q in two steps, 2^(q>>1) then 2^(q - (q>>1)), so neither factor overflows
    const v128_t qi = wasm_i32x4_trunc_sat_f32x4(q), half = wasm_i32x4_shr(qi, 1);
    const v128_t bias = wasm_i32x4_splat(0x7f);
    u = wasm_f32x4_mul(u, wasm_i32x4_shl(wasm_i32x4_add(half, bias), 23));
    u = wasm_f32x4_mul(u, wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_sub(qi, half), bias), 23));
    // out of range: 0 below -104 (-inf included), inf above 100, NaN stays NaN
    u = wasm_v128_andnot(u, wasm_f32x4_lt(d, wasm_f32x4_splat(-104.0f)));
    u = wasm_v128_bitselect(wasm_f32x4_splat(std::numeric_limits<float>::infinity()), u,
                            wasm_f32x4_gt(d, wasm_f32x4_splat(100.0f)));
    return wasm_v128_bitselect(d, u, wasm_f32x4_ne(d, d));
}

inline float hsum(v128_t v) {
    const v128_t s = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
    return wasm_f32x4_extract_lane(wasm_f32x4_add(s, wasm_i32x4_shuffle(s, s, 1, 0, 3, 2)), 0);
}

// e^x for 4 floats in single precision, within ~2 ulp: the fused attention's exp (as avx2's
// exp256_fast), where speed matters more than matching expf's rounding. x = n·ln2 + r (ln2 in two
// parts so n·ln2 is exact), e^r from Cephes' degree-6 polynomial (mul then add, no FMA), times 2^n
// built in the exponent field. Inputs there are s - max <= 0: below -87.3 (where 2^n would be
// denormal) the result is 0, which is also what -inf (masked lanes) gives; NaN stays NaN.
inline v128_t exp_f32x4_fast(v128_t x) {
    const v128_t lo = wasm_f32x4_splat(-87.33654f);
    const v128_t xc = wasm_f32x4_pmax(x, lo);  // x < lo ? lo : x, so NaN passes through
    const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(xc, wasm_f32x4_splat(1.44269504088896341f)));
    v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
    r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
    v128_t y = wasm_f32x4_splat(1.9875691500e-4f);
    y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(1.3981999507e-3f));
    y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(8.3334519073e-3f));
    y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(4.1665795894e-2f));
    y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(1.6666665459e-1f));
    y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(5.0000001201e-1f));
    y = wasm_f32x4_add(wasm_f32x4_mul(y, wasm_f32x4_mul(r, r)), wasm_f32x4_add(r, wasm_f32x4_splat(1.0f)));
    const v128_t e = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
    y = wasm_f32x4_mul(y, e);
    return wasm_v128_andnot(y, wasm_f32x4_lt(x, lo));  // NaN compares false: stays NaN
}

// pytorch_cpu::softmax_row on one row of n >= 1 floats, in place. PyTorch's kernel runs 8 AVX2
// lanes; here two f32x4 hold them, so each sum meets the same partial sums in the same order.
void softmax_row(float* x, int n) {
    const int n4 = n / 4 * 4;
    // pass 1: the row max; any NaN makes it NaN (vec::maximum)
    v128_t vmax = wasm_f32x4_splat(-std::numeric_limits<float>::infinity()), vnan = wasm_i32x4_splat(0);
    for (int j = 0; j < n4; j += 4) {
        const v128_t v = wasm_v128_load(x + j);
        vmax = wasm_f32x4_pmax(vmax, v), vnan = wasm_v128_or(vnan, wasm_f32x4_ne(v, v));
    }
    float max_val = hmax(vmax);
    bool nan = wasm_v128_any_true(vnan);
    for (int j = n4; j < n; j++) max_val = x[j] > max_val ? x[j] : max_val, nan = nan || std::isnan(x[j]);
    if (nan) max_val = std::numeric_limits<float>::quiet_NaN();
    // pass 2: e^(x - max) (a row of only -inf gives -inf - -inf = NaN, as in PyTorch)
    const v128_t vm = wasm_f32x4_splat(max_val);
    for (int j = 0; j < n4; j += 4) wasm_v128_store(x + j, expf_u10(wasm_f32x4_sub(wasm_v128_load(x + j), vm)));
    if (n > n4) {
        alignas(16) float tmp[4] = {0, 0, 0, 0};
        std::memcpy(tmp, x + n4, (n - n4) * sizeof(float));
        wasm_v128_store(tmp, expf_u10(wasm_f32x4_sub(wasm_v128_load(tmp), vm)));
        std::memcpy(x + n4, tmp, (n - n4) * sizeof(float));
    }
    // pass 3: the sum in vec::reduce_all's order: left to right under 8 elements, else lanes 0-3
    // and 4-7 (the last, partial vector padded with zeros) folded halves, pairs, neighbours
    float total;
    if (n < 8) {
        total = x[0];
        for (int j = 1; j < n; j++) total += x[j];
    } else {
        v128_t lo = wasm_v128_load(x), hi = wasm_v128_load(x + 4);
        int j = 8;
        for (; j + 8 <= n; j += 8) lo = wasm_f32x4_add(lo, wasm_v128_load(x + j)), hi = wasm_f32x4_add(hi, wasm_v128_load(x + j + 4));
        if (j < n) {
            alignas(16) float tmp[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            std::memcpy(tmp, x + j, (n - j) * sizeof(float));
            lo = wasm_f32x4_add(lo, wasm_v128_load(tmp)), hi = wasm_f32x4_add(hi, wasm_v128_load(tmp + 4));
        }
        const v128_t t = wasm_f32x4_add(lo, hi);
        const v128_t p = wasm_f32x4_add(t, wasm_i32x4_shuffle(t, t, 2, 3, 0, 1));
        total = wasm_f32x4_extract_lane(p, 0) + wasm_f32x4_extract_lane(p, 1);
    }
    // pass 4: times the reciprocal of the sum
    const float inv = 1.0f / total;
    const v128_t vinv = wasm_f32x4_splat(inv);
    for (int j = 0; j < n4; j += 4) wasm_v128_store(x + j, wasm_f32x4_mul(wasm_v128_load(x + j), vinv));
    for (int j = n4; j < n; j++) x[j] *= inv;
}

void softmax_rows(float* x, int ldx, int rows, int n, float divisor, bool causal, int causal_offset) {
    // x is (rows, n): x / divisor, masked columns -inf (masked_fill), then PyTorch's softmax
    const float neg_inf = -std::numeric_limits<float>::infinity();
    const v128_t div = wasm_f32x4_splat(divisor);
    for (int r = 0; r < rows; r++) {
        float* x_r = x + static_cast<long>(r) * ldx;
        int visible = n;
        if (causal) visible = imin(n, r + causal_offset + 1 > 0 ? r + causal_offset + 1 : 0);
        int j = 0;
        for (; j + 4 <= visible; j += 4) wasm_v128_store(x_r + j, wasm_f32x4_div(wasm_v128_load(x_r + j), div));
        for (; j < visible; j++) x_r[j] = x_r[j] / divisor;
        for (; j < n; j++) x_r[j] = neg_inf;
        if (n > 0) softmax_row(x_r, n);
    }
}

// ---------------------------------------------------------------------------------------------
// fused attention (the same blocking as avx2's: see engine/src/kernels/avx2/kernels_avx2.cpp)

constexpr int BR = 48;  // queries per block: 12 micro-panels of 4
constexpr int BC = 64;  // keys per block: 8 micro-panels of 8

Scratch g_k_packed, g_v_packed, g_q_packed, g_scores, g_acc, g_row_state;

void attention_fused(float* out, int ld_out, const float* q, int ld_q, const float* k, int ld_k,
                     const float* v, int ld_v, int T, int D, float divisor, bool causal) {
    // out, q, k, v are (T,D) with row strides; out = softmax(q kᵀ / divisor) v
    if (T <= 0 || D <= 0) return;
    const float neg_inf = -std::numeric_limits<float>::infinity();
    const int Dp = round_up(D, NR);
    const v128_t div = wasm_f32x4_splat(divisor);
    // K and V packed once per head as B operands, read by every query block
    float* k_packed = g_k_packed.get(static_cast<size_t>(round_up(T, NR)) * D);
    float* v_packed = g_v_packed.get(static_cast<size_t>(Dp) * T);
    pack_b(k_packed, k, ld_k, D, T, true);
    pack_b(v_packed, v, ld_v, T, D, false);
    float* q_packed = g_q_packed.get(static_cast<size_t>(BR) * D);
    float* scores = g_scores.get(static_cast<size_t>(BR) * BC);  // (BR, BC), then the weights p
    float* acc = g_acc.get(static_cast<size_t>(BR) * Dp);         // (BR, Dp) unnormalised output
    float* row_max = g_row_state.get(2 * BR);                      // running max and sum per row
    float* row_sum = row_max + BR;

    const v128_t lane = wasm_i32x4_make(0, 1, 2, 3);
    const v128_t vneg_inf = wasm_f32x4_splat(neg_inf);

    for (int i0 = 0; i0 < T; i0 += BR) {
        const int br = imin(BR, T - i0);
        pack_a(q_packed, q + static_cast<long>(i0) * ld_q, ld_q, br, D);
        for (int r = 0; r < br; r++) row_max[r] = neg_inf, row_sum[r] = 0.0f;
        std::memset(acc, 0, static_cast<size_t>(round_up(br, MR)) * Dp * sizeof(float));
        // under the causal mask, key blocks past this block's last query are skipped entirely
        const int j_end = causal ? i0 + br : T;
        for (int j0 = 0; j0 < j_end; j0 += BC) {
            const int bc = imin(BC, j_end - j0);
            // pass 1: scores (br, bc) = q_block · k_blockᵀ; under the causal mask a micro-tile whose
            // keys are all in its 4 queries' future is not computed (pass 2 never reads it)
            for (int jr = 0; jr < bc; jr += NR) {
                for (int ir = 0; ir < br; ir += MR) {
                    if (causal && j0 + jr > i0 + ir + MR - 1) continue;
                    gemm_f32_4x8__wasm_simd(D, q_packed + ir * D, 1, MR, k_packed + (j0 + jr) * D,
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
                // whole vectors up to round_up(visible, 4) <= BC; lanes past visible become -inf
                const int vr = round_up(visible, 4);
                v128_t vmax = vneg_inf;
                for (int j = 0; j < vr; j += 4) {
                    v128_t s = wasm_f32x4_div(wasm_v128_load(s_r + j), div);
                    if (j + 4 > visible)
                        s = wasm_v128_bitselect(s, vneg_inf, wasm_i32x4_gt(wasm_i32x4_splat(visible - j), lane));
                    wasm_v128_store(s_r + j, s);
                    vmax = wasm_f32x4_pmax(vmax, s);
                }
                const float m_old = row_max[r];
                float m_new = hmax(vmax);
                if (m_old > m_new) m_new = m_old;
                const v128_t vm = wasm_f32x4_splat(m_new);
                v128_t vsum = wasm_f32x4_splat(0.0f);
                for (int j = 0; j < vr; j += 4) {
                    const v128_t e = exp_f32x4_fast(wasm_f32x4_sub(wasm_v128_load(s_r + j), vm));
                    wasm_v128_store(s_r + j, e);
                    vsum = wasm_f32x4_add(vsum, e);
                }
                for (int j = vr; j < bc; j++) s_r[j] = 0.0f;  // masked keys weigh exactly 0
                const float alpha = expf(m_old - m_new);     // 0 on the first block
                row_sum[r] = row_sum[r] * alpha + hsum(vsum);
                row_max[r] = m_new;
                if (alpha != 1.0f) {
                    float* acc_r = acc + r * Dp;
                    const v128_t va = wasm_f32x4_splat(alpha);
                    for (int d = 0; d < Dp; d += 4)
                        wasm_v128_store(acc_r + d, wasm_f32x4_mul(wasm_v128_load(acc_r + d), va));
                }
            }
            // pass 3: acc (br, Dp) += p (br, bc) · v_block (bc, Dp)
            // (p is read in place: cheaper than packing it); under the causal mask each 4-row tile
            // stops at its last query's last visible key, past which p is 0
            for (int dr = 0; dr < Dp; dr += NR) {
                for (int ir = 0; ir < br; ir += MR) {
                    const int kc = causal ? imin(bc, i0 + ir + MR - j0) : bc;
                    if (kc <= 0) continue;
                    gemm_f32_4x8__wasm_simd(kc, scores + ir * BC, BC, 1, v_packed + dr * T + j0 * NR,
                                            acc + ir * Dp + dr, Dp, true);
                }
            }
        }
        // pass 4: normalise each row by its sum
        const int D4 = D / 4 * 4;
        for (int r = 0; r < br; r++) {
            const float inv = 1.0f / row_sum[r];
            const v128_t vinv = wasm_f32x4_splat(inv);
            const float* acc_r = acc + r * Dp;
            float* out_r = out + static_cast<long>(i0 + r) * ld_out;
            for (int d = 0; d < D4; d += 4) wasm_v128_store(out_r + d, wasm_f32x4_mul(wasm_v128_load(acc_r + d), vinv));
            for (int d = D4; d < D; d++) out_r[d] = acc_r[d] * inv;
        }
    }
}

}  // namespace
}  // namespace attn::kernels::wasm_simd

namespace attn::kernels {

extern const KernelTable kWasmSimdTable;
const KernelTable kWasmSimdTable = {"wasm_simd", "WebAssembly SIMD128", wasm_simd::matmul,
                                    wasm_simd::softmax_rows, wasm_simd::attention_fused};

}  // namespace attn::kernels

#else
#error "kernels_wasm_simd.cpp needs -msimd128 (CMake adds it when ATTN_WASM_SIMD is ON)"
#endif  // __wasm_simd128__
