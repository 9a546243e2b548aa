// bug_hunt (replay/bug_hunt.h): the correct and the planted versions of causal self-attention, each
// step an engine op already checked against PyTorch; the one new op is softmax over dim 0.
#include "replay/bug_hunt.h"

#include <cmath>
#include <limits>

#include "core/generator.h"
#include "chapter/modules.h"
#include "core/pytorch_cpu.h"

namespace attn {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

Tensor plain(Tensor t) {
    t.grad_fn.clear();
    t.requires_grad = false;
    return t;
}

// keep-mask * weights / scale, as `attn_weights * keep / s` (keep drawn as bernoulli_(1 - p)).
Tensor hand_dropout(const Tensor& weights, const Tensor& keep, double scale) {
    return div(mul(weights, keep), scale);
}

// MultiHeadAttention's forward (Listing 3.5) with the heads split by view alone when !transpose.
Tensor mha_forward(const MultiHeadAttention& m, const Tensor& x, bool transpose_heads) {
    const int64_t b = x.shape[0], T = x.shape[1];
    const Tensor keys_flat = m.W_key.forward(x), queries_flat = m.W_query.forward(x), values_flat = m.W_value.forward(x);
    const auto heads = [&](const Tensor& t) {
        return transpose_heads ? transpose(view(t, {b, T, m.num_heads, m.head_dim}), 1, 2)
                               : view(t, {b, m.num_heads, T, m.head_dim});
    };
    const Tensor keys = heads(keys_flat), queries = heads(queries_flat), values = heads(values_flat);
    const Tensor scores = matmul(queries, transpose(keys, 2, 3));
    const Tensor weights = softmax(div(masked_fill(scores, triu_ones(T, 1), kNegInf), sqrt_dk(m.head_dim)), -1);
    const Tensor context = view(transpose(matmul(weights, values), 1, 2), {b, T, m.d_out});
    return m.out_proj.forward(context);
}

}  // namespace

Tensor softmax_dim0(const Tensor& x) {
    if (x.dim() != 2) throw Error("softmax over dim 0 is drawn for 2-D tensors only");
    const int64_t rows = x.shape[0], cols = x.shape[1];
    Tensor out = Tensor::zeros(x.shape);
    const int64_t vectorised = cols - cols % 8;  // the columns PyTorch's 8-lane loop takes
    for (int64_t j = 0; j < cols; j++) {
        // pass 1: the column's max (subtracted only for numerical stability)
        float max = x.data[j];
        for (int64_t i = 1; i < rows; i++) max = std::max(max, x.data[i * cols + j]);
        // pass 2: exp and the sum, in row order
        float total = 0.0f;
        for (int64_t i = 0; i < rows; i++) {
            const float d = x.data[i * cols + j] - max;
            const float e = j < vectorised ? pytorch_cpu::expf_u10(d) : std::exp(d);
            out.data[i * cols + j] = e;
            total += e;
        }
        // pass 3: each exp divided by the sum
        for (int64_t i = 0; i < rows; i++) out.data[i * cols + j] /= total;
    }
    return out;
}

BugHunt bug_hunt(const Tensor& inputs, int64_t d_out, uint64_t seed, const std::string& bug) {
    Generator gen;
    gen.manual_seed(seed);
    const int64_t T = inputs.shape[0], d_in = inputs.shape[1];
    if (bug == "view_without_transpose") {
        const MultiHeadAttention mha(d_in, d_out, T, 0.0, 2, false, gen);
        const Tensor batch = stack({inputs});
        return {"context_vecs", plain(row(mha_forward(mha, batch, true), 0)), plain(row(mha_forward(mha, batch, false), 0))};
    }
    bool known = false;
    for (const char* name : kBugNames) known = known || bug == name;
    if (!known) {
        std::string names;
        for (const char* name : kBugNames) names += std::string(names.empty() ? "" : ", ") + name;
        fail({"unknown bug \"", bug.substr(0, 40), "\"; use one of ", names});
    }
    const SelfAttentionV1 sa(d_in, d_out, gen);
    const Tensor keys = matmul(inputs, sa.W_key), queries = matmul(inputs, sa.W_query);
    const Tensor scores = plain(matmul(queries, transpose_2d(keys)));
    const double root = sqrt_dk(d_out);
    const Tensor future = triu_ones(T, 1);
    const Tensor masked = masked_fill(scores, future, kNegInf);
    const Tensor weights = plain(softmax(div(masked, root), -1));
    if (bug == "dropout_inverse_p") {
        Tensor keep = Tensor::zeros(weights.shape);  // torch.empty_like(attn_weights).bernoulli_(1 - p)
        for (float& k : keep.data) k = gen.uniform_double() < 1.0 - kBugDropout ? 1.0f : 0.0f;
        return {"dropped_weights", plain(hand_dropout(weights, keep, 1.0 - kBugDropout)), plain(hand_dropout(weights, keep, kBugDropout))};
    }
    Tensor buggy;
    if (bug == "mask_after_softmax") buggy = mul(softmax(div(scores, root), -1), tril_ones(T));
    else if (bug == "mask_with_zero") buggy = softmax(div(masked_fill(scores, future, 0.0f), root), -1);
    else if (bug == "divide_by_dk") buggy = softmax(div(masked, static_cast<double>(d_out)), -1);
    else buggy = softmax_dim0(div(masked, root));
    return {"attn_weights", weights, plain(buggy)};
}

}  // namespace attn
