// The WebAssembly SIMD128 back end: the shared blocked sgemm and tiled online-softmax fused
// attention (../blocked.inl) on a 4x8 micro-kernel, and PyTorch's exact softmax row, 4 lanes wide.
// Compiled only under Emscripten with -msimd128 (ATTN_WASM_SIMD=ON). No relaxed SIMD: f32x4 mul
// then add, each rounded, as scalar does.
// Shapes: M,N,K matrix sizes; T tokens; D head dimension; MR x NR = 4 x 8 micro-tile.
#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/kernels.h"
#include "core/fma_f32x4.h"

// A wasm module with SIMD128 either loads whole or not at all, so unlike avx2 there is no run-time
// CPU check; the helpers (blocked.inl's too) still live in their own namespace so the scalar back
// end coexists.
namespace attn::kernels::wasm_simd {
namespace {

// ---------------------------------------------------------------------------------------------
// sgemm: the transposes that pack panels, and the micro-kernel

// dst (4,4) = srcᵀ for a 4x4 block of src, both row-major with the given leading dimensions.
inline void copy_transposed_4x4(float* dst, ptrdiff_t ld_dst, const float* src, ptrdiff_t ld_src) {
    const v128_t r0 = wasm_v128_load(src), r1 = wasm_v128_load(src + ld_src);
    const v128_t r2 = wasm_v128_load(src + 2 * ld_src), r3 = wasm_v128_load(src + 3 * ld_src);
    const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
    const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
    wasm_v128_store(dst, wasm_i64x2_shuffle(t0, t2, 0, 2));
    wasm_v128_store(dst + ld_dst, wasm_i64x2_shuffle(t0, t2, 1, 3));
    wasm_v128_store(dst + 2 * ld_dst, wasm_i64x2_shuffle(t1, t3, 0, 2));
    wasm_v128_store(dst + 3 * ld_dst, wasm_i64x2_shuffle(t1, t3, 1, 3));
}

// One full 4-row panel of a packed 4 columns at a time: ap[p*4 + ii] = a_i[ii*lda + p]. Returns
// how many columns it packed; blocked.inl's pack_a does the rest.
int pack_a_panel(float* ap, const float* a_i, ptrdiff_t lda, int kc) {
    int p = 0;
    for (; p + 4 <= kc; p += 4) copy_transposed_4x4(ap + p * 4, 4, a_i + p, lda);
    return p;
}

// One full 8-column panel of a transposed B, 4 deep at a time through two 4x4 transposes (columns
// 0-3 and 4-7): bp[p*8 + jj] = b_j[jj*ldb + p]. Returns how deep it packed.
int pack_b_transposed_panel(float* bp, const float* b_j, ptrdiff_t ldb, int kc) {
    int p = 0;
    for (; p + 4 <= kc; p += 4) {
        for (int half = 0; half < 2; half++) copy_transposed_4x4(bp + p * 8 + half * 4, 8, b_j + half * 4 * ldb + p, ldb);
    }
    return p;
}

// c (4,8) = [c +] a (4,kc) · bp (kc,8), bp packed; a(i,p) is ap[i*a_row + p*a_col] (a packed panel:
// 1, 4; rows in place: lda, 1). Accumulating loads c first, so each element sums its products in
// increasing k with a rounding after every multiply and add, as scalar does.
__attribute__((always_inline)) inline void gemm_f32_4x8__wasm_simd(int kc, const float* ap, ptrdiff_t a_row,
                                                                   ptrdiff_t a_col, const float* bp, float* c,
                                                                   ptrdiff_t ldc, bool accumulate) {
    // row i of the tile: columns 0-3 in c0[i], 4-7 in c1[i]; the loops over i unroll fully, so
    // the 8 accumulators stay in registers
    v128_t c0[4], c1[4];
#pragma clang loop unroll(full)
    for (int i = 0; i < 4; i++) {
        c0[i] = accumulate ? wasm_v128_load(c + i * ldc) : wasm_f32x4_splat(0.0f);
        c1[i] = accumulate ? wasm_v128_load(c + i * ldc + 4) : wasm_f32x4_splat(0.0f);
    }
    for (int p = 0; p < kc; p++, ap += a_col, bp += 8) {
        const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
#pragma clang loop unroll(full)
        for (int i = 0; i < 4; i++) {
            const v128_t a = wasm_f32x4_splat(ap[i * a_row]);
            c0[i] = wasm_f32x4_add(c0[i], wasm_f32x4_mul(a, b0));
            c1[i] = wasm_f32x4_add(c1[i], wasm_f32x4_mul(a, b1));
        }
    }
#pragma clang loop unroll(full)
    for (int i = 0; i < 4; i++) wasm_v128_store(c + i * ldc, c0[i]), wasm_v128_store(c + i * ldc + 4, c1[i]);
}

// ---------------------------------------------------------------------------------------------
// exp and softmax

inline float hmax(v128_t v) {
    const float a = wasm_f32x4_extract_lane(v, 0), b = wasm_f32x4_extract_lane(v, 1);
    const float c = wasm_f32x4_extract_lane(v, 2), d = wasm_f32x4_extract_lane(v, 3);
    const float ab = a > b ? a : b, cd = c > d ? c : d;
    return ab > cd ? ab : cd;
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

// wasm has no prefetch: the loop nest's hint is dropped.
inline void prefetch_rows(const float*, ptrdiff_t, int) {}

// PyTorch's exact softmax row, defined after blocked.inl (it uses its expf_u10).
void softmax_row(float* x, int n);

// ---------------------------------------------------------------------------------------------
// what blocked.inl needs from this target

struct Target {
    // 4 floats as a clang vector, so + - * / work lane by lane (v128_t is a vector of int32)
    typedef float V __attribute__((vector_size(16)));
    static constexpr int kLanes = 4;
    static constexpr int MR = 4;     // micro-tile rows: 4 x 2 accumulators + 2 for B + 1 broadcast, 16 regs max
    static constexpr int NR = 8;     // micro-tile columns: two f32x4 vectors
    static constexpr int KC = 256;   // depth of a packed block
    static constexpr int MC = 128;   // rows of a packed A block
    static constexpr int NC = 1024;  // columns of a packed B block
    static constexpr int kPanelGroup = 32;  // B panels filled together: 256 floats of a row of b
    static constexpr int kPackSlack = 0;    // pack_a_panel writes only inside the panel
    static constexpr int BR = 48;    // fused attention: queries per block, 12 micro-panels of 4
    static constexpr int BC = 64;    // keys per block, 8 micro-panels of 8
    static constexpr size_t kAlign = 16;

    static V loadu(const float* p) { return V(wasm_v128_load(p)); }
    static void storeu(float* p, V v) { wasm_v128_store(p, v128_t(v)); }
    static V set1(float x) { return V{x, x, x, x}; }
    static float hmax(V v) { return wasm_simd::hmax(v128_t(v)); }
    static float hsum(V v) { return wasm_simd::hsum(v128_t(v)); }
    static V max(V a, V b) { return V(wasm_f32x4_pmax(v128_t(a), v128_t(b))); }  // a < b ? b : a: NaN in a stays
    static V fma(V a, V b, V c) { return V(fma_f32x4(v128_t(a), v128_t(b), v128_t(c))); }  // rounded once (fma_f32x4.h)
    static V round_nearest(V x) { return V(wasm_f32x4_nearest(v128_t(x))); }
    // lanes 0..n-1 of v, the rest fill
    static V first_lanes(V v, int n, V fill) {
        const v128_t keep = wasm_i32x4_gt(wasm_i32x4_splat(n), wasm_i32x4_make(0, 1, 2, 3));
        return V(wasm_v128_bitselect(v128_t(v), v128_t(fill), keep));
    }
    static V exp_fast(V x) { return V(exp_f32x4_fast(v128_t(x))); }
    // expf_u10's last steps: times 2^q in two steps, 2^(q>>1) then 2^(q - (q>>1)), so neither
    // factor overflows; then 0 below -104 (-inf included), inf above 100, NaN stays NaN
    static V expf_u10_finish(V u, V q, V d) {
        const v128_t qi = wasm_i32x4_trunc_sat_f32x4(v128_t(q)), half = wasm_i32x4_shr(qi, 1);
        const v128_t bias = wasm_i32x4_splat(0x7f);
        u = u * V(wasm_i32x4_shl(wasm_i32x4_add(half, bias), 23));
        u = u * V(wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_sub(qi, half), bias), 23));
        v128_t r = wasm_v128_andnot(v128_t(u), wasm_f32x4_lt(v128_t(d), wasm_f32x4_splat(-104.0f)));
        r = wasm_v128_bitselect(wasm_f32x4_splat(std::numeric_limits<float>::infinity()), r,
                                wasm_f32x4_gt(v128_t(d), wasm_f32x4_splat(100.0f)));
        return V(wasm_v128_bitselect(v128_t(d), r, wasm_f32x4_ne(v128_t(d), v128_t(d))));
    }
    __attribute__((always_inline)) static void gemm_micro(int kc, const float* ap, ptrdiff_t a_row, ptrdiff_t a_col,
                                                          const float* bp, float* c, ptrdiff_t ldc, bool accumulate) {
        gemm_f32_4x8__wasm_simd(kc, ap, a_row, a_col, bp, c, ldc, accumulate);
    }
};

#include "../blocked.inl"

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
