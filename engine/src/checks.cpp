// Work estimates for `eval` requests (checks.h). Each counts what the op's forward computes, in the
// order modules.cpp computes it; sizes are already within attn/limits.h, so no product overflows.
#include "checks.h"

#include <string>

#include "attn/limits.h"

namespace attn::checks {

namespace lim = attn::limits;

namespace {

// the number of elements, saturating at kMaxElements + 1 (a shape's sizes may each be that large)
int64_t product(const Shape& shape) {
    for (int64_t d : shape) if (d == 0) return 0;
    int64_t n = 1;
    for (int64_t d : shape) n = d > lim::kMaxElements || n * d > lim::kMaxElements ? lim::kMaxElements + 1 : n * d;
    return n;
}

// the sentence for one exceeded bound: "<what> would need N <unit>, more than the limit of L; <hint>"
void check_one(int64_t amount, int64_t limit, const char* unit, const char* hint) {
    if (amount > limit) {
        throw Error("the request would need " + std::to_string(amount) + " " + unit + ", more than the limit of " +
                    std::to_string(limit) + "; " + hint);
    }
}

}  // namespace

Work rand_work(const Shape& shape) {
    const int64_t n = product(shape);
    return {0, n, n};
}

Work linear_work(int64_t d_in, int64_t d_out, bool bias) {
    const int64_t n = d_in * d_out + (bias ? d_out : 0);
    return {0, n, n};
}

Work softmax_work(const Shape& x) {
    const int64_t n = product(x);
    return {0, 2 * n, n};  // x / T, then softmax
}

Work matmul_work(const Shape& a, const Shape& b) {
    const int64_t out = product(matmul_shape(a, b));
    return {out * a.back(), out, out};
}

Work dropout_work(const Shape& x) {
    const int64_t n = product(x);
    return {0, n, n};
}

Work self_attention_work(int64_t T, int64_t d_in, int64_t d_out) {
    Work w;
    w.multiply_adds = 3 * T * d_in * d_out  // queries, keys, values
                      + 2 * T * T * d_out;  // attn_scores, context_vec
    w.numbers = 3 * d_in * d_out + 3 * d_out  // the weights (and biases)
                + 3 * T * d_out               // queries, keys, values
                + 3 * T * T                   // attn_scores, scaled, attn_weights
                + T * d_out;                  // context_vec
    w.result_numbers = T * d_out;
    return w;
}

Work causal_attention_work(int64_t B, int64_t T, int64_t d_in, int64_t d_out, int64_t num_heads) {
    Work head;
    head.multiply_adds = 3 * B * T * d_in * d_out + 2 * B * T * T * d_out;
    head.numbers = 3 * d_in * d_out + 3 * d_out + 3 * B * T * d_out  // weights, queries, keys, values
                   + T * T                                            // the causal mask
                   + 5 * B * T * T                                    // keysᵀ scores, masked, scaled, softmax, dropout
                   + B * T * d_out;                                   // context_vec
    Work all;
    all.multiply_adds = num_heads * head.multiply_adds;
    all.numbers = num_heads * head.numbers + (num_heads > 1 ? B * T * d_out * num_heads : 0);  // torch.cat
    all.result_numbers = B * T * d_out * num_heads;
    return all;
}

Work mha_work(int64_t B, int64_t T, int64_t d_in, int64_t d_out, int64_t num_heads, bool fused) {
    Work w;
    w.multiply_adds = 3 * B * T * d_in * d_out  // W_query, W_key, W_value
                      + 2 * B * T * T * d_out   // every head's scores and context, T x T x head_dim each
                      + B * T * d_out * d_out;  // out_proj
    w.numbers = 4 * d_in * d_out + 4 * d_out  // the weights and biases
                + 3 * B * T * d_out * 2       // the projections and their per-head copies
                + (fused ? 0 : T * T + 5 * B * num_heads * T * T)
                + 3 * B * T * d_out;          // context per head, merged, projected
    w.result_numbers = B * T * d_out;
    return w;
}

void check_work(const Work& work) {
    check_one(work.multiply_adds, lim::kMaxMultiplyAdds, "multiply-adds",
              "use fewer tokens, a smaller batch, fewer heads or smaller d_in and d_out");
    check_one(work.numbers, lim::kMaxComputedNumbers, "computed numbers",
              "use fewer tokens, a smaller batch or fewer heads");
    check_one(work.result_numbers, lim::kMaxResultNumbers, "numbers in the answer", "ask for a smaller result");
}

}  // namespace attn::checks
