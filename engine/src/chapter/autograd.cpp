// The chapter's modules, backwards. Each backward op reuses the forward ops of tensor.cpp, which
// already round as PyTorch's CPU kernels do: a gradient product is the same BLAS (or small-bmm) call
// PyTorch's autograd makes, and each output is the same chain of multiply-adds over k, whichever
// operand BLAS is told to transpose. The module passes mirror the listings line by line, in reverse.
#include "chapter/autograd.h"

#include <utility>

#include "core/pytorch_cpu.h"

namespace attn {

namespace {

int64_t rows_of(const Tensor& t) { return t.numel() / t.shape.back(); }

// The gradients reaching queries, keys and values from one attention core (Listings 3.1-3.5):
// attn_scores = queries @ keysᵀ, [masked_fill], / √d_k, softmax, [dropout], @ values.
// Works on (T, D), (B, T, D) and (B, H, T, D) alike; trace holds what the forward saved.
struct QKVGrads {
    Tensor queries, keys, values;
};

QKVGrads attention_backward(const Tensor& grad_context, const AttentionTrace& trace, int64_t d_k, bool causal) {
    Tensor grad_weights = backward::matmul_a(grad_context, trace.values);
    Tensor grad_values = backward::matmul_b(trace.attn_weights, grad_context);
    if (trace.dropout_noise.numel()) grad_weights = backward::dropout(grad_weights, trace.dropout_noise);
    Tensor grad_scores = backward::div(backward::softmax(grad_weights, trace.softmax_weights), sqrt_dk(d_k));
    if (causal) grad_scores = backward::masked_fill(grad_scores, triu_ones(grad_scores.shape.back(), 1));
    // scores = queries @ keysᵀ: d queries = grad·keys, d keys = (queriesᵀ·grad)ᵀ = gradᵀ·queries. Each
    // output is the same chain over k either way, but OpenBLAS's two-chain blocks (pytorch_cpu::gemm_fma)
    // fall on an output's place in c, so the product must be the one PyTorch makes: for 2-D inputs
    // (keys.T, column-major) MmBackward0 computes gradᵀ·queries, (T, d); for batches BmmBackward0
    // computes queriesᵀ·grad, (d, T), then transposes it (gradᵀ·queries there broke the last bits of
    // training at T·d·T ≥ 400, where ATen's small bmm loop hands over to BLAS).
    Tensor grad_queries = matmul(grad_scores, trace.keys);
    Tensor grad_keys = grad_scores.dim() == 2 ? matmul(transpose(grad_scores, -2, -1), trace.queries)
                                              : transpose(matmul(transpose(trace.queries, -2, -1), grad_scores), -2, -1);
    return {std::move(grad_queries), std::move(grad_keys), std::move(grad_values)};
}

// (B, H, T, D) head-split gradients back to the (B, T, d_out) projection they were viewed from.
Tensor merge_heads(const Tensor& t) {
    return view(transpose(t, 1, 2), {t.shape[0], t.shape[2], t.shape[1] * t.shape[3]});
}

void append_linear(std::vector<Tensor>& grads, const Tensor& grad, const Tensor& x, const Linear& layer) {
    backward::LinearGrads g = backward::linear(grad, x, layer);
    grads.push_back(std::move(g.weight));
    if (layer.bias.numel()) grads.push_back(std::move(g.bias));
}

// Each module's pass: forward with a trace, loss, then backward. Returns the loss.
Tensor run(SelfAttentionV1& m, const Tensor& x, const Tensor& target, Generator&, std::vector<Tensor>& grads,
           Tensor* attn_weights) {
    AttentionTrace trace;
    const Tensor out = m.forward(x, &trace);
    Tensor loss = mse_loss(out, target);
    const QKVGrads g = attention_backward(backward::mse_loss(out, target), trace, trace.keys.shape.back(), false);
    // queries = x @ W_query: d W_query = xᵀ·grad
    grads = {backward::matmul_b(x, g.queries), backward::matmul_b(x, g.keys), backward::matmul_b(x, g.values)};
    if (attn_weights) *attn_weights = trace.softmax_weights;
    return loss;
}

// SelfAttention_v2 and CausalAttention: Linear projections, one head; out is the forward's output.
template <typename Module>
Tensor linear_qkv_run(Module& m, const Tensor& x, const Tensor& out, const Tensor& target, const AttentionTrace& trace,
                      bool causal, std::vector<Tensor>& grads, Tensor* attn_weights) {
    Tensor loss = mse_loss(out, target);
    const QKVGrads g = attention_backward(backward::mse_loss(out, target), trace, trace.keys.shape.back(), causal);
    grads.clear();
    append_linear(grads, g.queries, x, m.W_query);
    append_linear(grads, g.keys, x, m.W_key);
    append_linear(grads, g.values, x, m.W_value);
    if (attn_weights) *attn_weights = trace.softmax_weights;
    return loss;
}

Tensor run(SelfAttentionV2& m, const Tensor& x, const Tensor& target, Generator&, std::vector<Tensor>& grads,
           Tensor* attn_weights) {
    AttentionTrace trace;
    const Tensor out = m.forward(x, &trace);
    return linear_qkv_run(m, x, out, target, trace, false, grads, attn_weights);
}

Tensor run(CausalAttention& m, const Tensor& x, const Tensor& target, Generator& gen, std::vector<Tensor>& grads,
           Tensor* attn_weights) {
    AttentionTrace trace;
    const Tensor out = m.forward(x, gen, &trace);
    return linear_qkv_run(m, x, out, target, trace, true, grads, attn_weights);
}

Tensor run(MultiHeadAttention& m, const Tensor& x, const Tensor& target, Generator& gen, std::vector<Tensor>& grads,
           Tensor* attn_weights) {
    AttentionTrace trace;
    const Tensor out = m.forward(x, gen, &trace);
    Tensor loss = mse_loss(out, target);
    const Tensor grad_out = backward::mse_loss(out, target);
    // out = out_proj(context_vec), context_vec = (attn_weights @ values).transpose(1, 2) viewed (B, T, d_out)
    const Tensor context_vec = merge_heads(trace.context_vec);
    const backward::LinearGrads g_proj = backward::linear(grad_out, context_vec, m.out_proj);
    const Tensor grad_context = matmul(view(grad_out, {rows_of(grad_out), m.d_out}), m.out_proj.weight);
    const Tensor grad_heads = transpose(view(grad_context, {x.shape[0], x.shape[1], m.num_heads, m.head_dim}), 1, 2);
    const QKVGrads g = attention_backward(grad_heads, trace, m.head_dim, true);
    grads.clear();
    append_linear(grads, merge_heads(g.queries), x, m.W_query);
    append_linear(grads, merge_heads(g.keys), x, m.W_key);
    append_linear(grads, merge_heads(g.values), x, m.W_value);
    grads.push_back(g_proj.weight);
    grads.push_back(g_proj.bias);
    if (attn_weights) *attn_weights = trace.softmax_weights;
    return loss;
}

void add_linear(std::vector<NamedParameter>& out, const std::string& name, Linear& layer) {
    out.push_back({name + ".weight", &layer.weight});
    if (layer.bias.numel()) out.push_back({name + ".bias", &layer.bias});
}

}  // namespace

Tensor detach(Tensor t) {
    t.requires_grad = false;
    t.grad_fn.clear();
    return t;
}

Tensor mse_loss(const Tensor& out, const Tensor& target) {
    if (out.shape != target.shape) throw Error("the target must have the shape of the module's output");
    // (out - target)², summed as at::sum sums (mean is sum then / N on the CPU), then / N
    std::vector<float> squares(out.data.size());
    for (size_t i = 0; i < squares.size(); i++) {
        const float diff = out.data[i] - target.data[i];
        squares[i] = diff * diff;
    }
    const float total = pytorch_cpu::sum(squares.data(), out.numel(), 1);
    Tensor loss({}, {total / static_cast<float>(out.numel())});
    loss.requires_grad = true;
    loss.grad_fn = "MseLossBackward0";
    return loss;
}

namespace backward {

Tensor mse_loss(const Tensor& out, const Tensor& target) {
    // mse_backward_cpu_kernel: norm · (input − target) · grad_output, norm = 2./N rounded to float
    const float norm = static_cast<float>(2.0 / static_cast<double>(out.numel()));
    Tensor grad = Tensor::zeros(out.shape);
    for (size_t i = 0; i < grad.data.size(); i++) grad.data[i] = norm * (out.data[i] - target.data[i]) * 1.0f;
    return grad;
}

Tensor matmul_a(const Tensor& grad, const Tensor& b) { return detach(matmul(grad, transpose(b, -2, -1))); }

Tensor matmul_b(const Tensor& a, const Tensor& grad) { return detach(matmul(transpose(a, -2, -1), grad)); }

Tensor softmax(const Tensor& grad, const Tensor& out) {
    const int64_t n = out.shape.back();
    Tensor grad_in = Tensor::zeros(out.shape);
    for (int64_t r = 0; r < rows_of(out); r++) {
        pytorch_cpu::softmax_backward_row(grad_in.ptr() + r * n, grad.ptr() + r * n, out.ptr() + r * n, n);
    }
    return grad_in;
}

Tensor div(const Tensor& grad, double s) { return detach(attn::div(grad, s)); }

Tensor masked_fill(const Tensor& grad, const Tensor& mask) { return detach(attn::masked_fill(grad, mask, 0.0f)); }

Tensor dropout(const Tensor& grad, const Tensor& noise) { return detach(mul(grad, noise)); }

LinearGrads linear(const Tensor& grad, const Tensor& x, const Linear& layer) {
    // y = x·Wᵀ (+ b) over x's rows; for 3-D x PyTorch runs one addmm on x viewed 2-D
    const int64_t d_out = layer.weight.shape[0], d_in = layer.weight.shape[1];
    const int64_t rows = x.numel() / d_in;
    const Tensor grad_rows = view(grad, {rows, d_out});
    LinearGrads g;
    // W.t() is column-major, so PyTorch computes (gradᵀ·x)ᵀ and transposes back: the same sums
    g.weight = detach(matmul(transpose(grad_rows, 0, 1), view(x, {rows, d_in})));
    if (layer.bias.numel()) {
        g.bias = Tensor::zeros({d_out});
        pytorch_cpu::sum_dim0(g.bias.ptr(), grad_rows.ptr(), rows, d_out);
    }
    return g;
}

}  // namespace backward

TrainableModule TrainableModule::self_attention_v1(int64_t d_in, int64_t d_out, Generator& gen) {
    return TrainableModule(SelfAttentionV1(d_in, d_out, gen));
}

TrainableModule TrainableModule::self_attention_v2(int64_t d_in, int64_t d_out, bool qkv_bias, Generator& gen) {
    return TrainableModule(SelfAttentionV2(d_in, d_out, qkv_bias, gen));
}

TrainableModule TrainableModule::causal_attention(int64_t d_in, int64_t d_out, int64_t context_length,
                                                  double dropout, bool qkv_bias, Generator& gen) {
    return TrainableModule(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, gen));
}

TrainableModule TrainableModule::mha(int64_t d_in, int64_t d_out, int64_t context_length, double dropout,
                                     int64_t num_heads, bool qkv_bias, Generator& gen) {
    return TrainableModule(MultiHeadAttention(d_in, d_out, context_length, dropout, num_heads, qkv_bias, gen));
}

std::vector<NamedParameter> TrainableModule::parameters() {
    std::vector<NamedParameter> out;
    if (auto* v1 = std::get_if<SelfAttentionV1>(&module_)) {
        out = {{"W_query", &v1->W_query}, {"W_key", &v1->W_key}, {"W_value", &v1->W_value}};
    } else if (auto* v2 = std::get_if<SelfAttentionV2>(&module_)) {
        add_linear(out, "W_query", v2->W_query);
        add_linear(out, "W_key", v2->W_key);
        add_linear(out, "W_value", v2->W_value);
    } else if (auto* ca = std::get_if<CausalAttention>(&module_)) {
        add_linear(out, "W_query", ca->W_query);
        add_linear(out, "W_key", ca->W_key);
        add_linear(out, "W_value", ca->W_value);
    } else {
        auto& mha = std::get<MultiHeadAttention>(module_);
        add_linear(out, "W_query", mha.W_query);
        add_linear(out, "W_key", mha.W_key);
        add_linear(out, "W_value", mha.W_value);
        add_linear(out, "out_proj", mha.out_proj);
    }
    return out;
}

Tensor TrainableModule::loss_and_grads(const Tensor& x, const Tensor& target, Generator& gen,
                                       std::vector<Tensor>& grads, Tensor* attn_weights) {
    return std::visit([&](auto& m) { return run(m, x, target, gen, grads, attn_weights); }, module_);
}

}  // namespace attn
