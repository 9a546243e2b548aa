// The scalar reference back end: plain loops, readable first. Every other back end is tested
// against these. Shapes: M,N,K matrix sizes; T tokens; D head dimension.
#include <cmath>
#include <limits>
#include <vector>

#include "attn/kernels.h"

namespace attn::kernels::scalar {

// c (M,N) = a (M,K) · b (K,N), or b read as (N,K) when b_transposed
void matmul(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int M, int N,
            int K, bool b_transposed) {
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int p = 0; p < K; p++) {
                float b_pj = b_transposed ? b[j * ldb + p] : b[p * ldb + j];
                acc += a[i * lda + p] * b_pj;
            }
            c[i * ldc + j] = acc;
        }
    }
}

void softmax_rows(float* x, int ldx, int rows, int n, float divisor, bool causal, int causal_offset) {
    const float neg_inf = -std::numeric_limits<float>::infinity();
    for (int r = 0; r < rows; r++) {
        float* x_r = x + static_cast<long>(r) * ldx;
        int visible = causal ? std::min(n, std::max(0, r + causal_offset + 1)) : n;
        // pass 1: scale and find the row max (subtracted only for numerical stability)
        float max_val = neg_inf;
        for (int j = 0; j < visible; j++) {
            x_r[j] = x_r[j] / divisor;
            if (x_r[j] > max_val) max_val = x_r[j];
        }
        // pass 2: exponentiate and sum
        float sum = 0.0f;
        for (int j = 0; j < visible; j++) {
            x_r[j] = std::exp(x_r[j] - max_val);
            sum += x_r[j];
        }
        // pass 3: normalise; masked columns are exactly zero
        float inv = 1.0f / sum;
        for (int j = 0; j < visible; j++) x_r[j] *= inv;
        for (int j = visible; j < n; j++) x_r[j] = 0.0f;
    }
}

void attention_fused(float* out, int ld_out, const float* q, int ld_q, const float* k, int ld_k,
                     const float* v, int ld_v, int T, int D, float divisor, bool causal) {
    // Reference: one query row at a time, the score row materialised (T floats, not T×T).
    std::vector<float> scores(static_cast<size_t>(T));
    for (int t = 0; t < T; t++) {
        int visible = causal ? t + 1 : T;
        matmul(scores.data(), T, q + static_cast<long>(t) * ld_q, D, k, ld_k, 1, visible, D, true);
        softmax_rows(scores.data(), T, 1, visible, divisor, false, 0);
        matmul(out + static_cast<long>(t) * ld_out, ld_out, scores.data(), T, v, ld_v, 1, D, visible,
               false);
    }
}

}  // namespace attn::kernels::scalar

namespace attn::kernels {

extern const KernelTable kScalarTable;
const KernelTable kScalarTable = {"scalar", "any CPU", scalar::matmul, scalar::softmax_rows,
                                  scalar::attention_fused};

}  // namespace attn::kernels
