// The chapter's modules. Constructors draw parameters in PyTorch's order; forwards follow the
// book's listings op for op, so rounding (and the printed grad_fn) match PyTorch's.
#include "chapter/modules.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/kernels.h"
#include "rules/checks.h"

namespace attn {

namespace {

const float kNegInf = -std::numeric_limits<float>::infinity();

// tensor.uniform_(from, to): the bounds are rounded to float first, as PyTorch's CPU kernel does.
Tensor uniform(const Shape& shape, double from, double to, Generator& gen) {
    Tensor t = Tensor::zeros(shape);
    const float f = static_cast<float>(from), tf = static_cast<float>(to);
    for (float& x : t.data) x = gen.uniform_float(f, tf);
    return t;
}

void require_input(const Tensor& x, int dims, int64_t d_in, const char* module) {
    if (x.dim() != dims) {
        fail({module, " takes a ", dims, "-D input, got ",
                    x.dim(), "-D"});
    }
    if (x.shape.back() != d_in) {
        fail({module, " was built for d_in = ", d_in,
                    " but each input row has ", x.shape.back(), " values"});
    }
}

// The causal mask and softmax of the chapter: scores.masked_fill(mask[:T,:T], -inf), / √d_k, softmax.
// mask[:T, :T] of triu(ones(C, C), diagonal=1) is triu(ones(T, T), diagonal=1), so only T matters.
Tensor causal_weights(const Tensor& attn_scores, int64_t T, int64_t d_k, AttentionTrace* trace) {
    Tensor masked = masked_fill(attn_scores, triu_ones(T, 1), kNegInf);
    Tensor scaled = div(masked, sqrt_dk(d_k));
    Tensor weights = softmax(scaled, -1);
    if (trace) {
        trace->attn_scores = masked;
        trace->scaled_scores = scaled;
    }
    return weights;
}

// The forward shared by Listings 3.1 and 3.2: softmax(queries · keysᵀ / √d_k) · values, 2-D.
Tensor scaled_dot_product(const Tensor& queries, const Tensor& keys, const Tensor& values, AttentionTrace* trace) {
    Tensor attn_scores = matmul(queries, transpose_2d(keys));
    Tensor scaled = div(attn_scores, sqrt_dk(keys.shape.back()));
    Tensor attn_weights = softmax(scaled, -1);
    Tensor context_vec = matmul(attn_weights, values);
    if (trace) *trace = {queries, keys, values, attn_scores, scaled, attn_weights, context_vec, attn_weights, {}};
    return context_vec;
}

}  // namespace

double sqrt_dk(int64_t d_k) { return std::pow(static_cast<double>(d_k), 0.5); }

Tensor temperature_softmax(const Tensor& scores, double temperature) {
    checks::temperature(temperature);
    return softmax(div(scores, temperature), -1);
}

Tensor SimplifiedAttention::forward(const Tensor& inputs, AttentionTrace* trace) const {
    if (inputs.dim() != 2) throw Error("simplified attention takes a 2-D input (tokens, d_in)");
    Tensor attn_scores = matmul(inputs, transpose_2d(inputs));
    Tensor attn_weights = softmax(attn_scores, -1);
    Tensor context_vec = matmul(attn_weights, inputs);
    if (trace) {
        trace->queries = trace->keys = trace->values = inputs;
        trace->attn_scores = trace->scaled_scores = attn_scores;
        trace->attn_weights = attn_weights;
        trace->context_vec = context_vec;
    }
    return context_vec;
}

Linear::Linear(int64_t d_in, int64_t d_out, bool has_bias, Generator& gen) {
    checks::positive(d_in, "d_in");
    checks::positive(d_out, "d_out");
    // kaiming_uniform_(a=√5): gain = √(2/(1+a²)), std = gain/√fan_in, bound = √3·std
    const double a = std::sqrt(5.0);
    const double gain = std::sqrt(2.0 / (1.0 + a * a));
    const double bound = std::sqrt(3.0) * (gain / std::sqrt(static_cast<double>(d_in)));
    weight = uniform({d_out, d_in}, -bound, bound, gen).as_parameter();
    if (has_bias) {
        const double bias_bound = 1.0 / std::sqrt(static_cast<double>(d_in));
        bias = uniform({d_out}, -bias_bound, bias_bound, gen).as_parameter();
    }
}

Tensor Linear::forward(const Tensor& x) const {
    const int64_t d_in = weight.shape[1], d_out = weight.shape[0];
    if (x.dim() == 0 || x.shape.back() != d_in) {
        fail({"nn.Linear expects rows of ", d_in, " values"});
    }
    // y = x · Wᵀ, with W read transposed in place
    Shape s = x.shape;
    s.back() = d_out;
    Tensor y = Tensor::zeros(s);
    const int rows = static_cast<int>(x.numel() / d_in);
    mm(y.ptr(), x.ptr(), weight.ptr(), rows, d_out, d_in, true);
    y.requires_grad = true;
    if (bias.numel()) {
        for (int r = 0; r < rows; r++)
            for (int64_t j = 0; j < d_out; j++) y.data[r * d_out + j] += bias.data[j];
        // addmm for 2-D input; 3-D input is flattened into addmm and viewed back
        y.grad_fn = x.dim() == 2 ? "AddmmBackward0" : "ViewBackward0";
    } else {
        y.grad_fn = x.dim() == 2 ? "MmBackward0" : "UnsafeViewBackward0";
    }
    return y;
}

Tensor Dropout::forward(const Tensor& x, Generator& gen, Tensor* noise) const {
    if (p == 0.0) return x;  // PyTorch returns the input untouched and draws nothing
    // noise = bernoulli(1-p) / (1-p), then x * noise
    const float keep_scale = 1.0f / static_cast<float>(1.0 - p);
    Tensor out = x;
    if (noise) *noise = Tensor::zeros(x.shape);
    for (size_t i = 0; i < out.data.size(); i++) {
        const float factor = gen.uniform_double() < 1.0 - p ? keep_scale : 0.0f;
        out.data[i] = out.data[i] * factor;
        if (noise) noise->data[i] = factor;
    }
    if (x.requires_grad) out.grad_fn = "MulBackward0";
    return out;
}

SelfAttentionV1::SelfAttentionV1(int64_t d_in, int64_t d_out, Generator& gen) {
    checks::positive(d_in, "d_in");
    checks::positive(d_out, "d_out");
    W_query = uniform({d_in, d_out}, 0.0, 1.0, gen).as_parameter();
    W_key = uniform({d_in, d_out}, 0.0, 1.0, gen).as_parameter();
    W_value = uniform({d_in, d_out}, 0.0, 1.0, gen).as_parameter();
}

Tensor SelfAttentionV1::forward(const Tensor& x, AttentionTrace* trace) const {
    require_input(x, 2, W_query.shape[0], "SelfAttention_v1");
    Tensor keys = matmul(x, W_key);  // the book computes keys first
    Tensor queries = matmul(x, W_query);
    return scaled_dot_product(queries, keys, matmul(x, W_value), trace);
}

SelfAttentionV2::SelfAttentionV2(int64_t d_in, int64_t d_out, bool qkv_bias, Generator& gen)
    : W_query(d_in, d_out, qkv_bias, gen), W_key(d_in, d_out, qkv_bias, gen),
      W_value(d_in, d_out, qkv_bias, gen) {}

Tensor SelfAttentionV2::forward(const Tensor& x, AttentionTrace* trace) const {
    require_input(x, 2, W_query.weight.shape[1], "SelfAttention_v2");
    Tensor keys = W_key.forward(x);
    Tensor queries = W_query.forward(x);
    return scaled_dot_product(queries, keys, W_value.forward(x), trace);
}

CausalAttention::CausalAttention(int64_t d_in, int64_t d_out, int64_t context_length, double p,
                                 bool qkv_bias, Generator& gen)
    : W_query(d_in, d_out, qkv_bias, gen), W_key(d_in, d_out, qkv_bias, gen),
      W_value(d_in, d_out, qkv_bias, gen), dropout{p}, context_length(context_length) {
    checks::positive(context_length, "context_length");
}

Tensor CausalAttention::forward(const Tensor& x, Generator& gen, AttentionTrace* trace) const {
    require_input(x, 3, W_query.weight.shape[1], "CausalAttention");
    const int64_t num_tokens = x.shape[1];
    checks::tokens_fit_context(num_tokens, context_length);
    Tensor keys = W_key.forward(x);
    Tensor queries = W_query.forward(x);
    Tensor values = W_value.forward(x);
    Tensor attn_scores = matmul(queries, transpose(keys, 1, 2));
    Tensor attn_weights = causal_weights(attn_scores, num_tokens, keys.shape.back(), trace);
    if (trace) trace->softmax_weights = attn_weights;
    attn_weights = dropout.forward(attn_weights, gen, trace ? &trace->dropout_noise : nullptr);
    Tensor context_vec = matmul(attn_weights, values);
    if (trace) {
        trace->queries = queries;
        trace->keys = keys;
        trace->values = values;
        trace->attn_weights = attn_weights;
        trace->context_vec = context_vec;
    }
    return context_vec;
}

MultiHeadAttentionWrapper::MultiHeadAttentionWrapper(int64_t d_in, int64_t d_out, int64_t context_length,
                                                     double dropout, int64_t num_heads, bool qkv_bias,
                                                     Generator& gen) {
    checks::positive(num_heads, "num_heads");
    for (int64_t h = 0; h < num_heads; h++) heads.emplace_back(d_in, d_out, context_length, dropout, qkv_bias, gen);
}

Tensor MultiHeadAttentionWrapper::forward(const Tensor& x, Generator& gen) const {
    std::vector<Tensor> outs;
    for (const CausalAttention& head : heads) outs.push_back(head.forward(x, gen));
    return cat_last(outs);
}

MultiHeadAttention::MultiHeadAttention(int64_t d_in, int64_t d_out_, int64_t context_length_, double p,
                                       int64_t num_heads_, bool qkv_bias, Generator& gen)
    : d_out(d_out_), num_heads(num_heads_), head_dim(checks::head_dim(d_out_, num_heads_)),
      context_length(context_length_), W_query(d_in, d_out_, qkv_bias, gen),
      W_key(d_in, d_out_, qkv_bias, gen), W_value(d_in, d_out_, qkv_bias, gen),
      out_proj(d_out_, d_out_, true, gen), dropout{p} {
    checks::positive(context_length, "context_length");
}

int64_t MultiHeadAttention::num_params() const {
    return W_query.weight.numel() + W_query.bias.numel() + W_key.weight.numel() + W_key.bias.numel() +
           W_value.weight.numel() + W_value.bias.numel() + out_proj.weight.numel() + out_proj.bias.numel();
}

int64_t MultiHeadAttention::count_params(int64_t d_in, int64_t d_out, bool qkv_bias) {
    const int64_t projection = d_in * d_out + (qkv_bias ? d_out : 0);  // W_query, W_key, W_value
    return 3 * projection + d_out * d_out + d_out;                      // out_proj has a bias
}

Tensor MultiHeadAttention::forward(const Tensor& x, Generator& gen, AttentionTrace* trace) const {
    require_input(x, 3, W_query.weight.shape[1], "MultiHeadAttention");
    const int64_t b = x.shape[0], num_tokens = x.shape[1];
    checks::tokens_fit_context(num_tokens, context_length);
    Tensor keys_flat = W_key.forward(x);  // (b, T, d_out)
    Tensor queries_flat = W_query.forward(x);
    Tensor values_flat = W_value.forward(x);

    if (!trace && checks::mha_fused(dropout.p, num_tokens)) {
        // Fused path: heads are read in place from (b, T, H, D); no (T, T) matrix is built.
        Tensor context = Tensor::zeros({b, num_tokens, d_out});
        const int ld = static_cast<int>(d_out);
        const float divisor = static_cast<float>(sqrt_dk(head_dim));
        for (int64_t bi = 0; bi < b; bi++) {
            for (int64_t h = 0; h < num_heads; h++) {
                const int64_t off = bi * num_tokens * d_out + h * head_dim;
                kernels::active().attention_fused(context.ptr() + off, ld, queries_flat.ptr() + off, ld,
                                                  keys_flat.ptr() + off, ld, values_flat.ptr() + off, ld,
                                                  static_cast<int>(num_tokens), static_cast<int>(head_dim),
                                                  divisor, true);
            }
        }
        context.requires_grad = true;
        return out_proj.forward(context);
    }

    const Shape split = {b, num_tokens, num_heads, head_dim};
    Tensor keys = transpose(view(keys_flat, split), 1, 2);  // (b, H, T, D)
    Tensor queries = transpose(view(queries_flat, split), 1, 2);
    Tensor values = transpose(view(values_flat, split), 1, 2);
    Tensor attn_scores = matmul(queries, transpose(keys, 2, 3));  // (b, H, T, T)
    Tensor attn_weights = causal_weights(attn_scores, num_tokens, head_dim, trace);
    if (trace) trace->softmax_weights = attn_weights;
    attn_weights = dropout.forward(attn_weights, gen, trace ? &trace->dropout_noise : nullptr);
    Tensor context_heads = matmul(attn_weights, values);  // (b, H, T, D)
    Tensor context_vec = view(transpose(context_heads, 1, 2), {b, num_tokens, d_out});
    if (trace) {
        trace->queries = queries;
        trace->keys = keys;
        trace->values = values;
        trace->attn_weights = attn_weights;
        trace->context_vec = context_heads;
    }
    return out_proj.forward(context_vec);
}

void ModuleWeights::apply(SelfAttentionV1& m) const {
    if (has_bias()) fail(v1_has_no_bias());
    m.W_query = transpose_2d(W_query).as_parameter();
    m.W_key = transpose_2d(W_key).as_parameter();
    m.W_value = transpose_2d(W_value).as_parameter();
}

void ModuleWeights::apply(Linear& q, Linear& k, Linear& v) const {
    const std::pair<Linear*, std::pair<const Tensor*, const Tensor*>> all[] = {
        {&q, {&W_query, &b_query}}, {&k, {&W_key, &b_key}}, {&v, {&W_value, &b_value}}};
    for (const auto& [lin, wb] : all) {
        lin->weight = *wb.first;
        lin->weight.as_parameter();
        lin->bias = *wb.second;
        if (lin->bias.numel()) lin->bias.as_parameter();
    }
}

void ModuleWeights::apply(MultiHeadAttention& m) const {
    apply(m.W_query, m.W_key, m.W_value);
    if (out_weight.numel()) {
        m.out_proj.weight = out_weight;
        m.out_proj.weight.as_parameter();
        m.out_proj.bias = out_bias;
        m.out_proj.bias.as_parameter();
    }
}

}  // namespace attn
