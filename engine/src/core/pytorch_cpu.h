// PyTorch 1.13's CPU arithmetic on this kind of machine (the AVX2 build), reproduced operation by
// operation so results round exactly as PyTorch's do. Each function names the ATen code it mirrors;
// every rounding choice here was checked against python3-torch 1.13 (scripts/make_reference_cases.py).
#pragma once

#include <cstdint>

namespace attn::pytorch_cpu {

// a·b + c rounded once, as the FMA instruction in Sleef's AVX2 code rounds it. Not std::fma:
// Emscripten's rounds twice, through double (wrong about once in 2^29); this rounds a·b + c to
// double to odd (the last bit records inexactness), after which rounding to float is exact.
float fma_round_once(float a, float b, float c);

// Sleef_expf8_u10, which Vectorized<float>::exp() calls: a degree-6 polynomial with fused
// multiply-adds, within 1 ulp of exp but not always the correctly rounded value.
float expf_u10(float x);

// at::native softmax over one contiguous row (_vec_softmax_lastdim): max, exp(x - max), a sum
// (sequential under 8 elements, else 8 lanes and a shuffle tree), then x * (1 / sum).
void softmax_row(float* x, int64_t n);

// at::native sum (SumKernel.cpp's cascade_sum) of n floats, `stride` apart.
float sum(const float* x, int64_t n, int64_t stride);

// at::sum over dim 0 of a contiguous (rows, cols) matrix, as autograd's sum_to reduces a broadcast
// bias gradient: SumKernel.cpp's outer reductions (scalar_outer_sum below 8 columns, else
// vectorized_outer_sum), whose grouping of columns decides each column's order of additions.
void sum_dim0(float* out, const float* x, int64_t rows, int64_t cols);

// _softmax_backward_data over one contiguous row (_vec_host_softmax_backward_lastdim):
// grad_in = (grad - Σ grad·out) · out, the sum in map2_reduce_all's order (8 lanes, each a chain of
// fused multiply-adds, then the shuffle tree; sequential products under 8 elements).
void softmax_backward_row(float* grad_in, const float* grad, const float* out, int64_t n);

// BLAS sgemm (OpenBLAS's Haswell kernel, sgemm_kernel_8x4_haswell_2.c): each output is a fused
// multiply-add chain over k from 0, except in the kernel's 8x4 and 8x6 blocks, which alternate k
// between two accumulators (8 at a time; the rest go to the first) and add the two at the end.
// c (M,N) = a (M,K) · b (K,N), or b read as (N,K) when b_transposed; c is row-major, as PyTorch
// asks BLAS for the column-major cᵀ (BLAS's m is N, its n is M).
void gemm_fma(float* c, const float* a, const float* b, int64_t M, int64_t N, int64_t K, bool b_transposed);

// BLAS sdot (OpenBLAS): float products summed in double, rounded once at the end. Exact below 32
// elements; longer vectors go through a vector kernel this does not reproduce bit for bit.
float dot(const float* x, const float* y, int64_t n);

// ATen's own bmm loop for batches under 400 multiply-adds per matrix: separate multiply and add.
void bmm_small(float* c, const float* a, const float* b, int64_t M, int64_t N, int64_t K);

}  // namespace attn::pytorch_cpu
