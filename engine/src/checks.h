// The work an `eval` request asks for, estimated from its sizes alone, before anything is allocated,
// and checked against the bounds in attn/limits.h. Shape legend: B = batch, T = tokens, H = heads.
#pragma once

#include <cstdint>

#include "attn/tensor.h"

namespace attn::checks {

struct Work {
    int64_t multiply_adds = 0;   // of every matrix product
    int64_t numbers = 0;         // every number computed: draws, elementwise results, intermediates
    int64_t result_numbers = 0;  // the numbers written into the answer
};

Work rand_work(const Shape& shape);
Work linear_work(int64_t d_in, int64_t d_out, bool bias);
Work softmax_work(const Shape& x);
Work matmul_work(const Shape& a, const Shape& b);  // an Error when the shapes do not multiply
Work dropout_work(const Shape& x);
Work self_attention_work(int64_t T, int64_t d_in, int64_t d_out);
// CausalAttention, or num_heads of them side by side (MultiHeadAttentionWrapper)
Work causal_attention_work(int64_t B, int64_t T, int64_t d_in, int64_t d_out, int64_t num_heads);
// MultiHeadAttention: d_out split into num_heads; fused = no (B, H, T, T) tensors are built
Work mha_work(int64_t B, int64_t T, int64_t d_in, int64_t d_out, int64_t num_heads, bool fused);

// Throws an Error naming the bound the work exceeds and what to make smaller.
void check_work(const Work& work);

}  // namespace attn::checks
