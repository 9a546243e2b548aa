// The chapter's attention modules, built and run as the book's PyTorch classes are: the same
// parameters, drawn from the generator in the same order, and the same forward dataflow.
// Shapes: B = batch, T = tokens, d_in/d_out = embedding sizes, H = num_heads, D = head_dim.
#pragma once

#include <vector>

#include "core/generator.h"
#include "core/tensor.h"

namespace attn {

// Every intermediate of one attention forward, for the page's step-by-step view.
struct AttentionTrace {
    Tensor queries, keys, values;  // (.., T, d_out)
    Tensor attn_scores;            // queries @ keysᵀ, masked with -inf when causal
    Tensor scaled_scores;          // attn_scores / √d_k
    Tensor attn_weights;           // softmax(scaled_scores), after dropout
    Tensor context_vec;            // attn_weights @ values
    Tensor softmax_weights;        // softmax(scaled_scores), before dropout (what training records)
    Tensor dropout_noise;          // dropout's factor per weight (0 or 1/(1-p)); empty when p = 0
};

// §3.3: simplified self-attention, weights from the inputs' own dot products.
struct SimplifiedAttention {
    Tensor forward(const Tensor& inputs, AttentionTrace* trace = nullptr) const;
};

// nn.Linear(d_in, d_out, bias): weight (d_out, d_in) from kaiming_uniform_(a=√5), then the bias.
struct Linear {
    Tensor weight;
    Tensor bias;  // empty when there is no bias
    Linear(int64_t d_in, int64_t d_out, bool has_bias, Generator& gen);
    Tensor forward(const Tensor& x) const;
};

// nn.Dropout(p) in training mode: one double uniform per element, kept when u < 1-p, scaled by 1/(1-p).
struct Dropout {
    double p;
    // noise, when given, receives the factors (for the backward pass); it stays empty when p = 0
    Tensor forward(const Tensor& x, Generator& gen, Tensor* noise = nullptr) const;
};

// Listing 3.1: three torch.rand(d_in, d_out) parameters.
struct SelfAttentionV1 {
    Tensor W_query, W_key, W_value;  // (d_in, d_out)
    SelfAttentionV1(int64_t d_in, int64_t d_out, Generator& gen);
    Tensor forward(const Tensor& x, AttentionTrace* trace = nullptr) const;
};

// Listing 3.2: three nn.Linear projections.
struct SelfAttentionV2 {
    Linear W_query, W_key, W_value;
    SelfAttentionV2(int64_t d_in, int64_t d_out, bool qkv_bias, Generator& gen);
    Tensor forward(const Tensor& x, AttentionTrace* trace = nullptr) const;
};

// Listing 3.3: causal mask and dropout on the weights; x is (B, T, d_in).
struct CausalAttention {
    Linear W_query, W_key, W_value;
    Dropout dropout;
    int64_t context_length;  // the mask is triu(ones(T, T), diagonal=1) for T ≤ context_length
    CausalAttention(int64_t d_in, int64_t d_out, int64_t context_length, double dropout, bool qkv_bias,
                    Generator& gen);
    Tensor forward(const Tensor& x, Generator& gen, AttentionTrace* trace = nullptr) const;
};

// Listing 3.4: num_heads CausalAttention modules, outputs concatenated.
struct MultiHeadAttentionWrapper {
    std::vector<CausalAttention> heads;
    MultiHeadAttentionWrapper(int64_t d_in, int64_t d_out, int64_t context_length, double dropout,
                              int64_t num_heads, bool qkv_bias, Generator& gen);
    Tensor forward(const Tensor& x, Generator& gen) const;
};

// Listing 3.5: heads split from one projection, then out_proj (with bias).
struct MultiHeadAttention {
    int64_t d_out, num_heads, head_dim, context_length;
    Linear W_query, W_key, W_value, out_proj;
    Dropout dropout;
    MultiHeadAttention(int64_t d_in, int64_t d_out, int64_t context_length, double dropout,
                       int64_t num_heads, bool qkv_bias, Generator& gen);
    // Long sequences without dropout take the fused kernel (no T×T matrix); the trace, when asked
    // for, forces the materialised path so every intermediate exists.
    Tensor forward(const Tensor& x, Generator& gen, AttentionTrace* trace = nullptr) const;
    int64_t num_params() const;
    // The same count without building the module (exercise 3.3's GPT-2 size has 2.4 million weights).
    static int64_t count_params(int64_t d_in, int64_t d_out, bool qkv_bias);
};

// A reader's own weights for the chapter's modules (their state_dict's), held in nn.Linear's layout
// (d_out, d_in); requests/request_weights.h reads and checks them. Applied after a module is built
// from its seed, so every other draw (dropout, an out_proj not given) stays the seed's.
struct ModuleWeights {
    Tensor W_query, W_key, W_value;  // (d_out, d_in)
    Tensor b_query, b_key, b_value;  // (d_out), or all three empty
    Tensor out_weight, out_bias;     // out_proj's (d_out, d_out) and (d_out), or both empty
    bool v1_layout = false;          // given as SelfAttention_v1's W_query (d_in, d_out)
    int64_t d_out() const { return W_query.shape[0]; }
    bool has_bias() const { return b_query.numel() > 0; }
    // SelfAttention_v1 has no bias: apply(v1) refuses weights that have one with this (keyed: the page
    // words it in the reader's language).
    static Refusal v1_has_no_bias() {
        return {"SelfAttention_v1 has no bias, so the weights' W_query.bias, W_key.bias and W_value.bias cannot be drawn here; "
                "§3.4.2's SelfAttention_v2, §3.5 and §3.6 draw them",
                "v1HasNoBias", {}};
    }
    void apply(SelfAttentionV1& m) const;
    void apply(Linear& q, Linear& k, Linear& v) const;
    void apply(MultiHeadAttention& m) const;  // out_proj too, when given
};

// The page's temperature slider: softmax(scores / T).
Tensor temperature_softmax(const Tensor& scores, double temperature);

// √d_k as Python computes keys.shape[-1]**0.5, in double.
double sqrt_dk(int64_t d_k);

}  // namespace attn
