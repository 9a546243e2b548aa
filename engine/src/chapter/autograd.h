// Reverse-mode gradients of the chapter's modules under F.mse_loss, as PyTorch 1.13's CPU autograd
// computes them: each op's backward uses PyTorch's formula and order of additions, so gradients
// print the same. Shapes: B = batch, T = tokens, d_in/d_out = embedding sizes, H = heads, D = head_dim.
// Only what the chapter's modules need; no general tape.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "chapter/modules.h"

namespace attn {

// t.detach(): the same numbers without requires_grad or grad_fn (print(param.grad) shows no grad_fn).
Tensor detach(Tensor t);

// F.mse_loss(out, target), mean reduction: the squares summed as at::sum sums them, then / N.
Tensor mse_loss(const Tensor& out, const Tensor& target);

// The backward of each op: the gradient of the loss with respect to an input, given the gradient
// with respect to the output (`grad`) and what the forward saved.
namespace backward {

Tensor mse_loss(const Tensor& out, const Tensor& target);  // loss.backward(): 2·(out − target)/N
Tensor matmul_a(const Tensor& grad, const Tensor& b);       // out = a @ b: grad·bᵀ
Tensor matmul_b(const Tensor& a, const Tensor& grad);       // out = a @ b: aᵀ·grad
Tensor softmax(const Tensor& grad, const Tensor& out);      // (grad − Σ grad·out) · out, per row
Tensor div(const Tensor& grad, double s);                   // out = a / s: grad / s
Tensor masked_fill(const Tensor& grad, const Tensor& mask); // zero where the mask is set
Tensor dropout(const Tensor& grad, const Tensor& noise);    // grad · noise, the forward's factors

// nn.Linear, y = x·Wᵀ + b over x's rows: dW = gradᵀ·x, db = Σ_rows grad (as sum_to reduces it).
struct LinearGrads {
    Tensor weight, bias;  // bias empty when the layer has none
};
LinearGrads linear(const Tensor& grad, const Tensor& x, const Linear& layer);

}  // namespace backward

// A parameter as module.named_parameters() names it, e.g. "W_query.weight".
struct NamedParameter {
    std::string name;
    Tensor* value;
};

// One of the chapter's modules, ready to train: built as the book builds it (same draws from the
// generator), run in training mode.
class TrainableModule {
public:
    static TrainableModule self_attention_v1(int64_t d_in, int64_t d_out, Generator& gen);
    static TrainableModule self_attention_v2(int64_t d_in, int64_t d_out, bool qkv_bias, Generator& gen);
    static TrainableModule causal_attention(int64_t d_in, int64_t d_out, int64_t context_length, double dropout,
                                            bool qkv_bias, Generator& gen);
    static TrainableModule mha(int64_t d_in, int64_t d_out, int64_t context_length, double dropout,
                               int64_t num_heads, bool qkv_bias, Generator& gen);

    // In named_parameters() order.
    std::vector<NamedParameter> parameters();

    // loss = mse_loss(module(x), target), then loss.backward(): returns the 0-d loss, and
    // grads[i] = d loss / d parameters()[i]. attn_weights, when given, receives the forward's
    // softmax output before dropout. Dropout draws from gen, as the forward does.
    Tensor loss_and_grads(const Tensor& x, const Tensor& target, Generator& gen, std::vector<Tensor>& grads,
                          Tensor* attn_weights = nullptr);

private:
    std::variant<SelfAttentionV1, SelfAttentionV2, CausalAttention, MultiHeadAttention> module_;
    template <typename M>
    explicit TrainableModule(M m) : module_(std::move(m)) {}
};

}  // namespace attn
