// bug_hunt (replay/bug_hunt.h): the bug hunt's two programs, correct and with one line wrong, each
// step an engine op already checked against PyTorch; the new ops are softmax over dim 0 and view's
// stride rule (a buggy line PyTorch refuses gives its error line).
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

}  // namespace

const char* const kViewNotContiguousError =
    "RuntimeError: view size is not compatible with input tensor's size and stride (at least one dimension "
    "spans across two contiguous subspaces). Use .reshape(...) instead.";

std::string matmul_shapes_error(int64_t T, int64_t d_in, int64_t d_out) {
    return cat({"RuntimeError: mat1 and mat2 shapes cannot be multiplied (", T, "x", d_in, " and ", d_out, "x", d_in, ")"});
}

Tensor causal_softmax(const Tensor& scores, int64_t d_k, const std::string& bug, bool causal) {
    const int64_t T = scores.shape.back();
    const double root = sqrt_dk(d_k);
    if (!causal) {  // Listings 3.1 and 3.2: no mask
        if (bug.empty()) return softmax(div(scores, root), -1);
        if (bug == "divide_by_dk") return softmax(div(scores, static_cast<double>(d_k)), -1);
        if (bug == "softmax_dim0") return softmax_dim0(div(scores, root));
        fail({"\"", bug, "\" is a mistake of the causal mask, and this attention has none"});
    }
    const Tensor future = triu_ones(T, 1);
    if (bug.empty()) return softmax(div(masked_fill(scores, future, kNegInf), root), -1);
    if (bug == "mask_after_softmax") return mul(softmax(div(scores, root), -1), tril_ones(T));
    if (bug == "mask_with_zero") return softmax(div(masked_fill(scores, future, 0.0f), root), -1);
    if (bug == "divide_by_dk") return softmax(div(masked_fill(scores, future, kNegInf), static_cast<double>(d_k)), -1);
    if (bug == "softmax_dim0") return softmax_dim0(div(masked_fill(scores, future, kNegInf), root));
    if (bug == "inverted_mask") return softmax(div(masked_fill(scores, tril_ones(T), kNegInf), root), -1);
    fail({"\"", bug, "\" is not a mistake of the attention weights' line"});
}

// MultiHeadAttention's forward (Listing 3.5) with one line of the heads program wrong: split_heads
// by view alone (view_without_transpose), the scores divided by √d_out instead of √head_dim, the heads
// merged by view without undoing the transpose, or the merge's view without .contiguous()
// (missing_contiguous, which PyTorch refuses unless head_dim is 1: `raised` gets its error line); or
// one of causal_softmax's mistakes in the weights' line.
Tensor mha_forward_with_bug(const MultiHeadAttention& m, const Tensor& x, const std::string& bug, std::string* raised) {
    const int64_t b = x.shape[0], T = x.shape[1], H = m.num_heads, D = m.head_dim;
    const auto split_heads = [&](const Tensor& t) {
        return bug == "view_without_transpose" ? view(t, {b, H, T, D}) : transpose(view(t, {b, T, H, D}), 1, 2);
    };
    const Tensor queries = split_heads(m.W_query.forward(x)), keys = split_heads(m.W_key.forward(x)),
                 values = split_heads(m.W_value.forward(x));
    const Tensor scores = matmul(queries, transpose(keys, 2, 3));
    bool weight_line = false;
    for (const char* name : kWeightLineBugs) weight_line = weight_line || bug == name;
    const Tensor weights = causal_softmax(scores, bug == "scale_by_d_out" ? m.d_out : D, weight_line ? bug : "");
    if (bug == "merge_without_transpose") return m.out_proj.forward(view(matmul(weights, values), {b, T, m.d_out}));
    // (attn_weights @ values).transpose(1, 2): a view of (b, H, T, D) memory, strides (H·T·D, D, T·D, 1)
    const Tensor context = transpose(matmul(weights, values), 1, 2);
    if (bug == "missing_contiguous" && !view_compatible({b, T, H, D}, {H * T * D, D, T * D, 1}, {b, T, m.d_out})) {
        *raised = kViewNotContiguousError;
        return Tensor();
    }
    return m.out_proj.forward(view(context, {b, T, m.d_out}));
}

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

bool view_compatible(const Shape& sizes, const Shape& strides, const Shape& shape) {
    // ATen's computeStride_impl, answering only whether a stride exists
    if (sizes.empty()) return true;
    int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
    int64_t chunk_base_stride = strides.back(), tensor_numel = 1, view_numel = 1;
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; d--) {
        tensor_numel *= sizes[d];
        // a chunk ends where the next dimension out is not laid out right after this one
        if (d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) view_numel *= shape[view_d--];
            if (view_numel != tensor_numel) return false;
            if (d > 0) {
                chunk_base_stride = strides[d - 1];
                tensor_numel = view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

std::string bug_program(const std::string& bug) {
    bool known = false;
    for (const char* name : kBugNames) known = known || bug == name;
    if (!known) {
        std::string names;
        for (const char* name : kBugNames) names += std::string(names.empty() ? "" : ", ") + name;
        fail({"unknown bug \"", bug.substr(0, 40), "\"; use one of ", names});
    }
    for (const char* heads : {"view_without_transpose", "scale_by_d_out", "merge_without_transpose", "missing_contiguous"})
        if (bug == heads) return "heads";
    return "causal";
}

BugHunt bug_hunt(const Tensor& inputs, int64_t d_out, uint64_t seed, const std::string& bug) {
    const std::string program = bug_program(bug);
    Generator gen;
    gen.manual_seed(seed);
    const int64_t T = inputs.shape[0], d_in = inputs.shape[1];
    BugHunt run;
    run.program = program;
    if (program == "heads") {
        const MultiHeadAttention mha(d_in, d_out, T, 0.0, 2, false, gen);
        const Tensor batch = stack({inputs});
        run.tensor = "context_vecs";
        run.correct = plain(row(mha_forward_with_bug(mha, batch, "", nullptr), 0));
        const Tensor buggy = mha_forward_with_bug(mha, batch, bug, &run.raised);
        if (run.raised.empty()) run.buggy = plain(row(buggy, 0));
        return run;
    }
    run.tensor = "attn_weights";
    const Linear W_query(d_in, d_out, false, gen), W_key(d_in, d_out, false, gen);
    run.keep = Tensor::zeros({T, T});  // torch.empty(T, T).bernoulli_(1 - p)
    for (float& k : run.keep.data) k = gen.uniform_double() < 1.0 - kBugDropout ? 1.0f : 0.0f;
    const Tensor& keep = run.keep;
    const Tensor queries = matmul(inputs, transpose_2d(W_query.weight));
    const Tensor keys = matmul(inputs, transpose_2d(W_key.weight));
    // the program from attn_scores on, with the scores it is given
    const auto weights_of = [&](const Tensor& scores) { return causal_softmax(scores, d_out); };
    const Tensor scores = plain(matmul(queries, transpose_2d(keys)));
    run.weights = plain(weights_of(scores));
    run.correct = plain(hand_dropout(run.weights, keep, 1.0 - kBugDropout));
    Tensor buggy;
    if (bug == "weight_without_T") {
        // keys = inputs @ W_key.weight: (T, d_in) @ (d_out, d_in), which PyTorch multiplies only when d_in = d_out
        if (d_in != d_out) {
            run.raised = matmul_shapes_error(T, d_in, d_out);
            return run;
        }
        buggy = hand_dropout(weights_of(matmul(queries, transpose_2d(matmul(inputs, W_key.weight)))), keep, 1.0 - kBugDropout);
    } else if (bug == "dropout_inverse_p") buggy = hand_dropout(run.weights, keep, kBugDropout);
    else if (bug == "dropout_unscaled") buggy = mul(run.weights, keep);
    else if (bug == "dropout_on_scores") buggy = weights_of(hand_dropout(scores, keep, 1.0 - kBugDropout));
    else buggy = hand_dropout(causal_softmax(scores, d_out, bug), keep, 1.0 - kBugDropout);  // the weights' line
    run.buggy = plain(buggy);
    return run;
}

}  // namespace attn
