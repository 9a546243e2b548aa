// An exact fused multiply-add for WebAssembly SIMD128, which has none (relaxed SIMD's is not in
// this Emscripten): the wasm_simd back end needs it to compute Sleef's exp with PyTorch's bits, and
// pytorch_cpu.cpp for its vector multiply-adds, so it lives in core beside them, below both.
// Header-only so tests/cpp/test_kernels.cpp can check it on the cases that need it.
#pragma once

#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

namespace attn::kernels::wasm_simd {

// p + c (p = a·b, exact in double) rounded to double *to odd*: when inexact, the last bit is
// forced to 1 by a step toward the exact sum (TwoSum gives its error). Rounding that to float is
// then the same as rounding p + c once: pytorch_cpu::fma_round_once, two lanes at a time.
inline v128_t add_round_to_odd_f64x2(v128_t p, v128_t c) {
    const v128_t s = wasm_f64x2_add(p, c);
    const v128_t bb = wasm_f64x2_sub(s, p);
    const v128_t err = wasm_f64x2_add(wasm_f64x2_sub(p, wasm_f64x2_sub(s, bb)), wasm_f64x2_sub(c, bb));
    const v128_t one = wasm_i64x2_splat(1);
    const v128_t step = wasm_v128_and(
        wasm_v128_and(wasm_f64x2_ne(err, wasm_f64x2_splat(0.0)),                        // inexact
                      wasm_i64x2_eq(wasm_v128_and(s, one), wasm_i64x2_splat(0))),       // last bit even
        wasm_f64x2_lt(wasm_f64x2_abs(s), wasm_f64x2_splat(__builtin_inf())));           // finite
    // +1 (away from zero) when err and s have one sign, else -1
    const v128_t direction = wasm_v128_or(wasm_i64x2_shr(wasm_v128_xor(s, err), 63), one);
    return wasm_i64x2_add(s, wasm_v128_and(direction, step));
}

// a·b + c on 4 floats, rounded once.
inline v128_t fma_f32x4(v128_t a, v128_t b, v128_t c) {
    const auto half = [](v128_t a, v128_t b, v128_t c) {  // lanes 0-1
        const v128_t p = wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(a), wasm_f64x2_promote_low_f32x4(b));
        return wasm_f32x4_demote_f64x2_zero(add_round_to_odd_f64x2(p, wasm_f64x2_promote_low_f32x4(c)));
    };
    const v128_t lo = half(a, b, c);
    const v128_t hi = half(wasm_i32x4_shuffle(a, a, 2, 3, 2, 3), wasm_i32x4_shuffle(b, b, 2, 3, 2, 3),
                           wasm_i32x4_shuffle(c, c, 2, 3, 2, 3));
    return wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5);
}

}  // namespace attn::kernels::wasm_simd

#endif  // __wasm_simd128__
