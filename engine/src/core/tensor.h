// A small float32 tensor: row-major, contiguous, up to 4 dimensions, with the operations chapter 3
// uses. Each op records the grad_fn name PyTorch would attach, so printed tensors carry the same
// `grad_fn=<...>` suffix; there is no autograd beyond that name.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace attn {

using Shape = std::vector<int64_t>;

// Every error the engine reports: a sentence a learner can act on. One a learner can meet on the page
// (a paste Check my code cannot read, weights with biases for SelfAttention_v1) also has a key and parameters,
// which the page words in the reader's language: its catalogues' "engine.<key>", whose English is this
// sentence (tests/node/engine_words.test.js). Other sentences answer a request's author, in English.
struct Refusal;
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
    std::string key;                                          // "" when only a request's author sees it
    std::vector<std::pair<std::string, std::string>> params;  // name -> its text in the sentence
    Refusal refusal() const;                                  // the sentence, key and parameters
};

// One piece of an error's sentence for fail(): text, a character, or a whole number as std::to_string
// writes it. Holds no string of its own (text outlives the fail call: the throw's full expression).
class SentencePiece {
public:
    SentencePiece(const char* text) : text_(text), size_(std::char_traits<char>::length(text)) {}
    SentencePiece(const std::string& text) : text_(text.data()), size_(text.size()) {}
    SentencePiece(char c) : text_(nullptr), size_(0), kind_(kChar), bits_(static_cast<unsigned char>(c)) {}
    template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
    SentencePiece(I v) : text_(nullptr), size_(0), kind_(std::is_signed_v<I> ? kSigned : kUnsigned), bits_(static_cast<uint64_t>(v)) {}
    template <typename F, typename = std::enable_if_t<std::is_floating_point_v<F>>, typename = void>
    SentencePiece(F) = delete;  // a double is written by one of the engine's own rules, not to_string
    void append_to(std::string& out) const;

private:
    enum Kind { kText, kChar, kSigned, kUnsigned };
    const char* text_;
    size_t size_;
    Kind kind_ = kText;
    uint64_t bits_ = 0;
};

// The pieces joined: a sentence or a text built in one call, not a temporary string per `+`.
std::string cat(std::initializer_list<SentencePiece> pieces);
// throw Error(the pieces joined): one call where it is thrown, not a temporary string per `+` (in the
// scalar engine each of those is a call through JS with a landing pad to destroy the ones before it).
[[noreturn]] void fail(std::initializer_list<SentencePiece> pieces);
// One parameter of a keyed sentence: its name in the catalogues' message, and its text.
struct SentenceParam {
    const char* name;
    SentencePiece value;
};
// fail() for a sentence a learner can meet on the page: the Error also carries its key and parameters.
[[noreturn]] void fail_keyed(const char* key, std::initializer_list<SentenceParam> params,
                             std::initializer_list<SentencePiece> sentence);

// What a refused call answers: the sentence, and its key and parameters when it has them (Error).
struct Refusal {
    std::string sentence;  // "" when nothing was refused
    std::string key;
    std::vector<std::pair<std::string, std::string>> params;
    bool empty() const { return sentence.empty(); }
};
// throw the Error a Refusal describes
[[noreturn]] void fail(const Refusal& refusal);

struct Tensor {
    Shape shape;
    std::vector<float> data;
    bool requires_grad = false;  // a Parameter, or computed from one
    std::string grad_fn;         // PyTorch's name for the op that made it, "" for leaves

    Tensor() = default;
    Tensor(Shape shape, std::vector<float> data);
    static Tensor zeros(const Shape& shape);
    static Tensor ones(const Shape& shape);
    static Tensor full(const Shape& shape, float value);
    // A 2-D tensor from nested rows, as torch.tensor([[...], ...]) builds it.
    static Tensor from_rows(std::initializer_list<std::initializer_list<float>> rows);

    int dim() const { return static_cast<int>(shape.size()); }
    int64_t numel() const { return static_cast<int64_t>(data.size()); }
    int64_t size(int d) const;  // negative d counts from the end

    float item() const;  // the one element of a 1-element tensor
    float* ptr() { return data.data(); }
    const float* ptr() const { return data.data(); }

    // A trainable leaf (nn.Parameter): requires_grad, no grad_fn.
    Tensor& as_parameter();
};

int64_t numel_of(const Shape& shape);  // throws Error when a dimension is negative or it overflows

// --- indexing and views (all return contiguous copies) ---
Tensor row(const Tensor& t, int64_t index);                // t[i]
Tensor view(const Tensor& t, Shape shape);                 // one dimension may be -1
Tensor transpose(const Tensor& t, int dim0, int dim1);     // t.transpose(d0, d1)
Tensor transpose_2d(const Tensor& t);                      // t.T for 2-D t
Tensor stack(const std::vector<Tensor>& ts);               // torch.stack(ts, dim=0)
Tensor cat_last(const std::vector<Tensor>& ts);            // torch.cat(ts, dim=-1)

// --- the raw product behind matmul and nn.Linear ---
// c (M,N) = a (M,K) · b (K,N), or b read as (N,K) when b_transposed, rounded as PyTorch's CPU path
// rounds it: BLAS computes each output as one fused multiply-add chain over k, so teaching-size
// products (up to kExactProductWork multiply-adds) are computed here exactly that way, bit for bit
// the same in every back end and in wasm; larger ones go to the kernel table (within float tolerance).
constexpr int64_t kExactProductWork = int64_t(1) << 16;
void mm(float* c, const float* a, const float* b, int64_t M, int64_t N, int64_t K, bool b_transposed);

// --- arithmetic ---
Tensor matmul(const Tensor& a, const Tensor& b);  // torch.matmul on 1-D..4-D tensors, batch dimensions broadcast
Shape matmul_shape(const Shape& a, const Shape& b);  // its result's shape, or an Error saying why none
Tensor dot(const Tensor& a, const Tensor& b);     // 1-D · 1-D
Tensor mul(const Tensor& a, const Tensor& b);     // elementwise, b broadcast from the right
Tensor mul(const Tensor& a, float s);
Tensor div(const Tensor& a, const Tensor& b);     // elementwise, b broadcast (keepdim sums)
Tensor div(const Tensor& a, double s);            // a / s, s rounded to float as PyTorch does
Tensor add(const Tensor& a, const Tensor& b);     // elementwise, b broadcast from the right (bias)
Tensor exp(const Tensor& a);
Tensor sum(const Tensor& a);                      // all elements, a 0-d tensor
Tensor sum(const Tensor& a, int dim, bool keepdim = false);
Tensor softmax(const Tensor& a, int dim = -1);    // numerically stable; dim must be the last one

// --- masks ---
Tensor tril_ones(int64_t n);                      // torch.tril(torch.ones(n, n))
Tensor triu_ones(int64_t n, int64_t diagonal);    // torch.triu(torch.ones(n, n), diagonal)
// t.masked_fill(mask.bool(), value), mask (.., r, c) broadcast over t's leading dimensions.
Tensor masked_fill(const Tensor& t, const Tensor& mask, float value);

}  // namespace attn
