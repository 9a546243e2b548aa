// Tensor operations. Heavy loops (matrix products, softmax) go through the kernel table; the rest
// are plain loops over contiguous data. Shapes are checked here so kernels can trust them.
#include "core/tensor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "core/kernels.h"
#include "core/pytorch_cpu.h"

namespace attn {

namespace {

constexpr int kMaxDims = 4;

std::string shape_str(const Shape& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); i++) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

// The grad_fn bookkeeping: an op's result requires grad when any input does.
Tensor tracked(Tensor out, const char* grad_fn, std::initializer_list<const Tensor*> inputs) {
    for (const Tensor* in : inputs) {
        if (in->requires_grad) {
            out.requires_grad = true;
            out.grad_fn = grad_fn;
        }
    }
    return out;
}

int wrap_dim(int d, int ndim) {
    int w = d < 0 ? d + ndim : d;
    if (w < 0 || w >= ndim) {
        fail({"dimension ", d, " is out of range for a ",
                    ndim, "-D tensor"});
    }
    return w;
}

// Elementwise a ∘ b where b's shape is a suffix of a's, or matches a with 1s (keepdim results): the
// checks and strides once (not inlined: one copy, not one an op), the loop in each op's template.
struct Broadcast {
    Tensor out;  // zeros of a's shape
    std::vector<int64_t> a_stride, b_stride;
};
__attribute__((noinline)) Broadcast broadcast_plan(const Tensor& a, const Tensor& b, const char* what) {
    Tensor out = Tensor::zeros(a.shape);
    if (b.dim() > a.dim()) fail({"cannot ", what, " tensors of shapes ",
                                       shape_str(a.shape), " and ", shape_str(b.shape)});
    // Align b to a from the right; each of b's dimensions must equal a's or be 1.
    Shape bs(a.dim(), 1);
    for (int i = 0; i < b.dim(); i++) bs[a.dim() - b.dim() + i] = b.shape[i];
    for (int i = 0; i < a.dim(); i++) {
        if (bs[i] != 1 && bs[i] != a.shape[i]) {
            fail({"cannot ", what, " tensors of shapes ", shape_str(a.shape),
                        " and ", shape_str(b.shape)});
        }
    }
    std::vector<int64_t> a_stride(a.dim(), 1), b_stride(a.dim(), 0);
    int64_t sa = 1, sb = 1;
    for (int i = a.dim() - 1; i >= 0; i--) {
        a_stride[i] = sa;
        b_stride[i] = bs[i] == 1 ? 0 : sb;
        sa *= a.shape[i];
        sb *= bs[i];
    }
    return {std::move(out), std::move(a_stride), std::move(b_stride)};
}

template <typename Op>
Tensor broadcast_binary(const Tensor& a, const Tensor& b, const char* what, Op op) {
    Broadcast p = broadcast_plan(a, b, what);
    const std::vector<int64_t>&a_stride = p.a_stride, &b_stride = p.b_stride;
    for (int64_t i = 0; i < a.numel(); i++) {
        int64_t rem = i, bi = 0;
        for (int d = 0; d < a.dim(); d++) {
            bi += (rem / a_stride[d]) * b_stride[d];
            rem %= a_stride[d];
        }
        p.out.data[i] = op(a.data[i], b.data[bi]);
    }
    return std::move(p.out);
}


}  // namespace

void SentencePiece::append_to(std::string& out) const {
    if (kind_ == kText) out.append(text_, size_);
    else if (kind_ == kChar) out += static_cast<char>(bits_);
    else if (kind_ == kSigned) out += std::to_string(static_cast<int64_t>(bits_));
    else out += std::to_string(bits_);
}

std::string cat(std::initializer_list<SentencePiece> pieces) {
    std::string out;
    for (const SentencePiece& p : pieces) p.append_to(out);
    return out;
}

void fail(std::initializer_list<SentencePiece> pieces) { throw Error(cat(pieces)); }

Refusal Error::refusal() const { return {what(), key, params}; }

void fail(const Refusal& refusal) {
    Error e(refusal.sentence);
    e.key = refusal.key;
    e.params = refusal.params;
    throw e;
}

void fail_keyed(const char* key, std::initializer_list<SentenceParam> params, std::initializer_list<SentencePiece> sentence) {
    Refusal r{cat(sentence), key, {}};
    for (const SentenceParam& p : params) r.params.emplace_back(p.name, cat({p.value}));
    fail(r);
}

int64_t numel_of(const Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape) {
        if (d < 0) fail({"shape ", shape_str(shape), " has a negative dimension"});
        if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) {
            fail({"shape ", shape_str(shape), " has too many elements"});
        }
        n *= d;
    }
    return n;
}

Tensor::Tensor(Shape s, std::vector<float> d) : shape(std::move(s)), data(std::move(d)) {
    if (shape.size() > kMaxDims) throw Error("tensors have at most 4 dimensions");
    if (numel_of(shape) != static_cast<int64_t>(data.size())) {
        fail({"shape ", shape_str(shape), " does not match ", data.size(),
                    " values"});
    }
}

Tensor Tensor::zeros(const Shape& shape) { return full(shape, 0.0f); }
Tensor Tensor::ones(const Shape& shape) { return full(shape, 1.0f); }
Tensor Tensor::full(const Shape& shape, float value) {
    return Tensor(shape, std::vector<float>(static_cast<size_t>(numel_of(shape)), value));
}

Tensor Tensor::from_rows(std::initializer_list<std::initializer_list<float>> rows) {
    std::vector<float> data;
    int64_t cols = rows.size() ? static_cast<int64_t>(rows.begin()->size()) : 0;
    for (const auto& r : rows) {
        if (static_cast<int64_t>(r.size()) != cols) throw Error("rows have different lengths");
        data.insert(data.end(), r.begin(), r.end());
    }
    return Tensor({static_cast<int64_t>(rows.size()), cols}, std::move(data));
}

int64_t Tensor::size(int d) const { return shape[wrap_dim(d, dim())]; }

float Tensor::item() const {
    if (data.size() != 1) throw Error("item() needs a tensor with exactly one element");
    return data[0];
}

Tensor& Tensor::as_parameter() {
    requires_grad = true;
    grad_fn.clear();
    return *this;
}

Tensor row(const Tensor& t, int64_t index) {
    if (t.dim() == 0) throw Error("cannot index a 0-d tensor");
    int64_t n = t.shape[0];
    if (index < -n || index >= n) fail({"index ", index, " is out of range"});
    if (index < 0) index += n;
    Shape s(t.shape.begin() + 1, t.shape.end());
    int64_t inner = numel_of(s);
    std::vector<float> d(t.data.begin() + index * inner, t.data.begin() + (index + 1) * inner);
    return tracked(Tensor(s, std::move(d)), "SelectBackward0", {&t});
}

Tensor view(const Tensor& t, Shape shape) {
    int infer = -1;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); i++) {
        if (shape[i] == -1) {
            if (infer >= 0) throw Error("only one dimension of a view can be -1");
            infer = static_cast<int>(i);
        } else {
            if (shape[i] < 0) fail({"view shape ", shape_str(shape), " is invalid"});
            known *= shape[i];
        }
    }
    if (infer >= 0) shape[infer] = known ? t.numel() / known : 0;
    if (numel_of(shape) != t.numel()) {
        fail({"cannot view a tensor of shape ", shape_str(t.shape), " as ", shape_str(shape)});
    }
    return tracked(Tensor(std::move(shape), t.data), "ViewBackward0", {&t});
}

Tensor transpose(const Tensor& t, int dim0, int dim1) {
    int n = t.dim();
    int d0 = wrap_dim(dim0, n), d1 = wrap_dim(dim1, n);
    Shape out_shape = t.shape;
    std::swap(out_shape[d0], out_shape[d1]);
    Tensor out = Tensor::zeros(out_shape);
    // strides of t, permuted so that walking out's index reads the right element of t
    std::vector<int64_t> in_stride(n, 1);
    for (int i = n - 2; i >= 0; i--) in_stride[i] = in_stride[i + 1] * t.shape[i + 1];
    std::swap(in_stride[d0], in_stride[d1]);
    std::vector<int64_t> idx(n, 0);
    for (int64_t i = 0; i < out.numel(); i++) {
        int64_t src = 0;
        for (int d = 0; d < n; d++) src += idx[d] * in_stride[d];
        out.data[i] = t.data[src];
        for (int d = n - 1; d >= 0; d--) {
            if (++idx[d] < out_shape[d]) break;
            idx[d] = 0;
        }
    }
    return tracked(std::move(out), "TransposeBackward0", {&t});
}

Tensor transpose_2d(const Tensor& t) {
    if (t.dim() != 2) throw Error(".T is used here on 2-D tensors only");
    Tensor out = transpose(t, 0, 1);
    if (out.requires_grad) out.grad_fn = "PermuteBackward0";
    return out;
}

Tensor stack(const std::vector<Tensor>& ts) {
    if (ts.empty()) throw Error("stack needs at least one tensor");
    Shape s = ts[0].shape;
    std::vector<float> d;
    bool grad = false;
    for (const Tensor& t : ts) {
        if (t.shape != s) throw Error("stack needs tensors of the same shape");
        d.insert(d.end(), t.data.begin(), t.data.end());
        grad = grad || t.requires_grad;
    }
    s.insert(s.begin(), static_cast<int64_t>(ts.size()));
    Tensor out(s, std::move(d));
    if (grad) {
        out.requires_grad = true;
        out.grad_fn = "StackBackward0";
    }
    return out;
}

Tensor cat_last(const std::vector<Tensor>& ts) {
    if (ts.empty()) throw Error("cat needs at least one tensor");
    Shape s = ts[0].shape;
    int64_t rows = ts[0].numel() / ts[0].shape.back();
    int64_t width = 0;
    bool grad = false;
    for (const Tensor& t : ts) {
        if (t.dim() != ts[0].dim() || t.numel() / t.shape.back() != rows) {
            throw Error("cat needs tensors that differ only in the last dimension");
        }
        width += t.shape.back();
        grad = grad || t.requires_grad;
    }
    s.back() = width;
    Tensor out = Tensor::zeros(s);
    int64_t col = 0;
    for (const Tensor& t : ts) {
        int64_t w = t.shape.back();
        for (int64_t r = 0; r < rows; r++) {
            for (int64_t c = 0; c < w; c++) out.data[r * width + col + c] = t.data[r * w + c];
        }
        col += w;
    }
    if (grad) {
        out.requires_grad = true;
        out.grad_fn = "CatBackward0";
    }
    return out;
}

void mm(float* c, const float* a, const float* b, int64_t M, int64_t N, int64_t K, bool b_transposed) {
    if (M * N * K > kExactProductWork) {
        kernels::active().matmul(c, static_cast<int>(N), a, static_cast<int>(K), b,
                                 static_cast<int>(b_transposed ? K : N), static_cast<int>(M),
                                 static_cast<int>(N), static_cast<int>(K), b_transposed);
        return;
    }
    pytorch_cpu::gemm_fma(c, a, b, M, N, K, b_transposed);
}

Tensor matmul(const Tensor& a, const Tensor& b) {
    auto mismatch = [&] {
        return Error("cannot multiply shapes " + shape_str(a.shape) + " and " + shape_str(b.shape) +
                     ": the inner dimensions must match");
    };
    if (a.dim() == 0 || b.dim() == 0) throw Error("matmul needs tensors with at least 1 dimension");
    if (a.dim() == 1 && b.dim() == 1) {
        if (a.shape[0] != b.shape[0]) throw mismatch();
        return dot(a, b);
    }
    if (a.dim() == 1 && b.dim() == 2) {  // (K) @ (K,N) -> (N): PyTorch runs it as a (1,K) mm
        if (a.shape[0] != b.shape[0]) throw mismatch();
        Tensor out = Tensor::zeros({b.shape[1]});
        mm(out.ptr(), a.ptr(), b.ptr(), 1, b.shape[1], b.shape[0], false);
        return tracked(std::move(out), "SqueezeBackward1", {&a, &b});
    }
    if (b.dim() == 1) {  // (..., M, K) @ (K) -> (..., M)
        if (a.shape.back() != b.shape[0]) throw mismatch();
        Shape s(a.shape.begin(), a.shape.end() - 1);
        Tensor out = Tensor::zeros(s);
        mm(out.ptr(), a.ptr(), b.ptr(), a.numel() / b.shape[0], 1, b.shape[0], false);
        return tracked(std::move(out), a.dim() == 2 ? "MvBackward0" : "ViewBackward0", {&a, &b});
    }
    // (..., M, K) @ (K, N): a's batch dimensions fold into rows, one mm, as PyTorch folds them
    const int64_t K = a.shape.back(), N = b.shape.back();
    if (b.shape[b.dim() - 2] != K) throw mismatch();
    if (b.dim() == 2) {
        Shape s = a.shape;
        s.back() = N;
        Tensor out = Tensor::zeros(s);
        mm(out.ptr(), a.ptr(), b.ptr(), a.numel() / K, N, K, false);
        return tracked(std::move(out), a.dim() == 2 ? "MmBackward0" : "UnsafeViewBackward0", {&a, &b});
    }
    // (B_a..., M, K) @ (B_b..., K, N) with b at least 3-D: the batch dimensions broadcast, and a 1-D a
    // is one row (M = 1) whose dimension is dropped from the result, as torch.matmul does
    const Shape s = matmul_shape(a.shape, b.shape);
    const int64_t M = a.dim() == 1 ? 1 : a.shape[a.dim() - 2];
    const Shape batch(s.begin(), s.end() - (a.dim() == 1 ? 1 : 2));
    // each batch index's offset into a and b: stride 0 along a dimension that is 1 or missing
    const int nb = static_cast<int>(batch.size());
    const int a_batch_dims = std::max(a.dim() - 2, 0), b_batch_dims = b.dim() - 2;
    std::array<int64_t, kMaxDims> a_stride{}, b_stride{};
    int64_t step_a = M * K, step_b = K * N;
    for (int d = nb - 1; d >= 0; d--) {
        const int da = d - (nb - a_batch_dims), db = d - (nb - b_batch_dims);
        a_stride[d] = da >= 0 && a.shape[da] != 1 ? step_a : 0;
        b_stride[d] = db >= 0 && b.shape[db] != 1 ? step_b : 0;
        if (da >= 0) step_a *= a.shape[da];
        if (db >= 0) step_b *= b.shape[db];
    }
    Tensor out = Tensor::zeros(s);
    const int64_t batch_count = numel_of(batch);
    for (int64_t i = 0; i < batch_count; i++) {
        int64_t rem = i, a_off = 0, b_off = 0;
        for (int d = nb - 1; d >= 0; d--) {
            const int64_t idx = rem % batch[d];
            rem /= batch[d];
            a_off += idx * a_stride[d];
            b_off += idx * b_stride[d];
        }
        float* c_i = out.ptr() + i * M * N;
        if (M * N * K < 400) pytorch_cpu::bmm_small(c_i, a.ptr() + a_off, b.ptr() + b_off, M, N, K);
        else mm(c_i, a.ptr() + a_off, b.ptr() + b_off, M, N, K, false);
    }
    return tracked(std::move(out), "UnsafeViewBackward0", {&a, &b});
}

Shape matmul_shape(const Shape& a, const Shape& b) {
    const int a_dim = static_cast<int>(a.size()), b_dim = static_cast<int>(b.size());
    if (a_dim == 0 || b_dim == 0) throw Error("matmul needs tensors with at least 1 dimension");
    const int64_t K = a.back(), b_rows = b_dim == 1 ? b[0] : b[b_dim - 2];
    if (K != b_rows) {
        fail({"cannot multiply shapes ", shape_str(a), " and ", shape_str(b), ": the inner dimensions must match"});
    }
    // batch dimensions, aligned from the right: equal, or one of them 1 (or missing)
    const Shape a_batch(a.begin(), a.end() - std::min(a_dim, 2)), b_batch(b.begin(), b.end() - std::min(b_dim, 2));
    Shape out(std::max(a_batch.size(), b_batch.size()), 1);
    for (size_t i = 0; i < out.size(); i++) {
        const size_t from_right = out.size() - 1 - i;
        const int64_t da = from_right < a_batch.size() ? a_batch[a_batch.size() - 1 - from_right] : 1;
        const int64_t db = from_right < b_batch.size() ? b_batch[b_batch.size() - 1 - from_right] : 1;
        if (da != db && da != 1 && db != 1) {
            fail({"cannot multiply shapes ", shape_str(a), " and ", shape_str(b),
                        ": the batch dimensions must match or be 1"});
        }
        out[i] = da == 1 ? db : da;
    }
    if (a_dim >= 2) out.push_back(a[a_dim - 2]);
    if (b_dim >= 2) out.push_back(b.back());
    return out;
}

Tensor dot(const Tensor& a, const Tensor& b) {
    if (a.dim() != 1 || b.dim() != 1 || a.shape[0] != b.shape[0]) {
        fail({"dot needs two 1-D tensors of the same length, got ", shape_str(a.shape),
                    " and ", shape_str(b.shape)});
    }
    Tensor out = Tensor::zeros({});
    int K = static_cast<int>(a.shape[0]);
    out.data[0] = pytorch_cpu::dot(a.ptr(), b.ptr(), K);
    return tracked(std::move(out), "DotBackward0", {&a, &b});
}

Tensor mul(const Tensor& a, const Tensor& b) {
    return tracked(broadcast_binary(a, b, "multiply", [](float x, float y) { return x * y; }),
                   "MulBackward0", {&a, &b});
}

Tensor mul(const Tensor& a, float s) {
    Tensor out = a;
    for (float& x : out.data) x *= s;
    return tracked(std::move(out), "MulBackward0", {&a});
}

Tensor div(const Tensor& a, const Tensor& b) {
    return tracked(broadcast_binary(a, b, "divide", [](float x, float y) { return x / y; }),
                   "DivBackward0", {&a, &b});
}

Tensor div(const Tensor& a, double s) {
    Tensor out = a;
    const float sf = static_cast<float>(s);
    for (float& x : out.data) x = x / sf;
    out.requires_grad = a.requires_grad;
    out.grad_fn = a.requires_grad ? "DivBackward0" : "";
    return out;
}

Tensor add(const Tensor& a, const Tensor& b) {
    return tracked(broadcast_binary(a, b, "add", [](float x, float y) { return x + y; }),
                   "AddBackward0", {&a, &b});
}

Tensor exp(const Tensor& a) {
    Tensor out = a;
    for (float& x : out.data) x = pytorch_cpu::expf_u10(x);
    return tracked(std::move(out), "ExpBackward0", {&a});
}

Tensor sum(const Tensor& a) {
    return tracked(Tensor({}, {pytorch_cpu::sum(a.ptr(), a.numel(), 1)}), "SumBackward0", {&a});
}

Tensor sum(const Tensor& a, int dim, bool keepdim) {
    int d = wrap_dim(dim, a.dim());
    int64_t outer = 1, inner = 1, n = a.shape[d];
    for (int i = 0; i < d; i++) outer *= a.shape[i];
    for (int i = d + 1; i < a.dim(); i++) inner *= a.shape[i];
    Shape s = a.shape;
    if (keepdim) s[d] = 1; else s.erase(s.begin() + d);
    Tensor out = Tensor::zeros(s);
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t i = 0; i < inner; i++) out.data[o * inner + i] = pytorch_cpu::sum(a.ptr() + o * n * inner + i, n, inner);
    }
    return tracked(std::move(out), "SumBackward1", {&a});
}

Tensor softmax(const Tensor& a, int dim) {
    if (a.dim() == 0) throw Error("softmax needs a tensor with at least 1 dimension");
    if (wrap_dim(dim, a.dim()) != a.dim() - 1) throw Error("softmax is computed over the last dimension");
    Tensor out = a;
    const int64_t n = a.shape.back();
    // the kernel table's softmax: PyTorch's bits on every back end, vectorised where it can be
    const int64_t rows = n > 0 ? a.numel() / n : 0;
    if (rows > 0) kernels::active().softmax_rows(out.ptr(), static_cast<int>(n), static_cast<int>(rows), static_cast<int>(n), 1.0f, false, 0);
    return tracked(std::move(out), "SoftmaxBackward0", {&a});
}

Tensor tril_ones(int64_t n) {
    Tensor out = Tensor::zeros({n, n});
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j <= i; j++) out.data[i * n + j] = 1.0f;
    return out;
}

Tensor triu_ones(int64_t n, int64_t diagonal) {
    Tensor out = Tensor::zeros({n, n});
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            if (j - i >= diagonal) out.data[i * n + j] = 1.0f;
    return out;
}

Tensor masked_fill(const Tensor& t, const Tensor& mask, float value) {
    Tensor out = broadcast_binary(t, mask, "mask", [value](float x, float m) { return m != 0.0f ? value : x; });
    return tracked(std::move(out), "MaskedFillBackward0", {&t});
}

}  // namespace attn
