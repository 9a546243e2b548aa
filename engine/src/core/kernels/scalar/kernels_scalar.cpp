// The scalar reference back end: plain loops, readable first, no intrinsics. Every other back end
// is tested against these. (The golden chapter's teaching-size products do not come through here:
// tensor.cpp rounds them as PyTorch does, core/pytorch_cpu.h.)
// Shapes: M,N,K matrix sizes; T tokens; D head dimension.
#include <algorithm>
#include <cstddef>
#include <cmath>
#include <limits>
#include <vector>

#include "core/kernels.h"
#include "core/pytorch_cpu.h"

namespace attn::kernels::scalar {

void matmul(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int M, int N,
            int K, bool b_transposed) {
    // c is (M,N), a is (M,K), b is (K,N), or (N,K) read transposed when b_transposed.
    // Every c[i][j] is 0 + a[i][0]·b[0][j] + a[i][1]·b[1][j] + ..., rounded after each step, in
    // increasing k: the order the SIMD back ends keep too (avx2 fusing each step into one FMA).
    for (int i = 0; i < M; i++) {
        const float* a_i = a + static_cast<ptrdiff_t>(i) * lda;
        float* c_i = c + static_cast<ptrdiff_t>(i) * ldc;
        if (b_transposed) {
            // rows of b are contiguous in k: one dot product per output
            for (int j = 0; j < N; j++) {
                const float* b_j = b + static_cast<ptrdiff_t>(j) * ldb;
                float acc = 0.0f;
                for (int p = 0; p < K; p++) acc += a_i[p] * b_j[p];
                c_i[j] = acc;
            }
        } else {
            // walk b row by row (contiguous) and add each product to the whole output row: every
            // element still sums its products in increasing k, one rounding per step
            for (int j = 0; j < N; j++) c_i[j] = 0.0f;
            for (int p = 0; p < K; p++) {
                const float a_ip = a_i[p];
                const float* b_p = b + static_cast<ptrdiff_t>(p) * ldb;
                for (int j = 0; j < N; j++) c_i[j] += a_ip * b_p[j];
            }
        }
    }
}

void softmax_rows(float* x, int ldx, int rows, int n, float divisor, bool causal, int causal_offset) {
    // x is (rows, n); row r sees columns 0..r+causal_offset when causal
    const float neg_inf = -std::numeric_limits<float>::infinity();
    for (int r = 0; r < rows; r++) {
        float* x_r = x + static_cast<ptrdiff_t>(r) * ldx;
        const int visible = causal ? std::min(n, std::max(0, r + causal_offset + 1)) : n;
        // pass 1: scale; masked columns become -inf, as masked_fill makes them
        for (int j = 0; j < visible; j++) x_r[j] = x_r[j] / divisor;
        for (int j = visible; j < n; j++) x_r[j] = neg_inf;
        // pass 2: PyTorch's softmax (max, Sleef exp, its order of sums, one reciprocal): -inf
        // columns come out exactly 0
        if (n > 0) pytorch_cpu::softmax_row(x_r, n);
    }
}

void attention_fused(float* out, int ld_out, const float* q, int ld_q, const float* k, int ld_k,
                     const float* v, int ld_v, int T, int D, float divisor, bool causal) {
    // out, q, k, v are (T,D) with row strides. The reference does one query at a time with its
    // whole score row materialised (T floats, never T×T), through the same matmul and softmax as
    // the unfused path, so fused and unfused agree bit for bit here.
    std::vector<float> scores(static_cast<size_t>(T));
    for (int t = 0; t < T; t++) {
        const int visible = causal ? t + 1 : T;
        // pass 1: scores (1, visible) = query_t · keysᵀ; keys past t are never looked at
        matmul(scores.data(), T, q + static_cast<ptrdiff_t>(t) * ld_q, D, k, ld_k, 1, visible, D, true);
        // pass 2: weights (1, T) = softmax(scores / divisor), the future masked to exactly 0
        softmax_rows(scores.data(), T, 1, T, divisor, causal, t);
        // pass 3: out_t (1, D) = weights · values, over the keys it may see
        matmul(out + static_cast<ptrdiff_t>(t) * ld_out, ld_out, scores.data(), T, v, ld_v, 1, D, visible,
               false);
    }
}

}  // namespace attn::kernels::scalar

namespace attn::kernels {

extern const KernelTable kScalarTable;
const KernelTable kScalarTable = {"scalar", "any CPU", scalar::matmul, scalar::softmax_rows,
                                  scalar::attention_fused};

}  // namespace attn::kernels
