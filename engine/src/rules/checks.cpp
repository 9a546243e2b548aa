// The request rules (checks.h): each limit and its sentence once. Then the work estimates: each
// counts what the op's forward computes, in the order modules.cpp (one layer up) computes it; sizes are already
// within core/limits.h, so no product overflows.
#include "rules/checks.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/decimal.h"
#include "core/limits.h"

namespace attn::checks {

namespace lim = attn::limits;

namespace {

// JS numbers hold whole numbers exactly up to 2^53.
constexpr double kMaxSafeInteger = 9007199254740992.0;

std::string number_text(double v) {
    return printf_double(v, 'g', 17);
}

std::string count(int64_t n) { return std::to_string(n); }

}  // namespace

std::string excerpt(const std::string& text) {
    constexpr size_t kMaxQuoted = 80;
    if (text.size() <= kMaxQuoted) return text;
    size_t end = kMaxQuoted;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) end--;  // not inside a character
    return text.substr(0, end) + "…";
}

Error not_whole(const std::string& name, double lo, double hi, const std::string& got) {
    return Error(name + " must be a whole number from " + number_text(lo) + " to " + number_text(hi) + ", got " + got);
}

int64_t whole(double v, double lo, double hi, const std::string& name) {
    if (!(std::floor(v) == v && v >= lo && v <= hi)) throw not_whole(name, lo, hi, number_text(v));
    return static_cast<int64_t>(v);
}

uint64_t seed(double v) { return static_cast<uint64_t>(whole(v, -kMaxSafeInteger, kMaxSafeInteger, "seed")); }

void dropout(double p, const std::string& name) {
    if (!(p >= 0.0 && p < 1.0)) fail({name, " must be at least 0 and less than 1, got ", number_text(p)});
}

void temperature(double t) {
    if (!(t > 0.0) || !std::isfinite(t)) {
        fail({"the temperature must be a finite number greater than 0, got ", number_text(t)});
    }
}

void positive(int64_t v, const std::string& name) {
    if (v <= 0) fail({name, " must be at least 1, got ", count(v)});
}

void elements(int64_t n, const std::string& what) {
    if (n > lim::kMaxElements) {
        fail({what, " would need ", count(n), " numbers, more than the limit of ", count(lim::kMaxElements),
                    "; use fewer tokens, heads or a smaller batch"});
    }
}

void tokens_fit_context(int64_t tokens, int64_t context_length) {
    if (tokens > context_length) {
        fail({"x has ", count(tokens), " tokens but context_length is ", count(context_length),
                    ": raise context_length or use fewer tokens"});
    }
}

int64_t head_dim(int64_t d_out, int64_t num_heads) {
    positive(num_heads, "num_heads");
    positive(d_out, "d_out");
    if (d_out % num_heads != 0) {
        fail({"d_out (", count(d_out), ") must be divisible by num_heads (", count(num_heads), ")"});
    }
    return d_out / num_heads;
}

void attention_sizes(const AttentionSizes& s, Module module) {
    const int64_t B = s.batch, T = s.tokens, H = s.num_heads;
    if (B > lim::kMaxBatch) fail({"x has a batch of ", count(B), "; the limit is ", count(lim::kMaxBatch)});
    if (T > lim::kMaxTokens) fail({"x has ", count(T), " tokens; the limit is ", count(lim::kMaxTokens)});
    if (s.d_in > lim::kMaxDim) fail({"x rows have ", count(s.d_in), " values; the limit is ", count(lim::kMaxDim)});
    if (module != Module::self_attention) tokens_fit_context(T, s.context_length);
    if (module == Module::mha) head_dim(s.d_out, H);
    dropout(s.dropout, "dropout");
    // the tensors the forward makes: the wrapper runs num_heads whole CausalAttention modules, while
    // MultiHeadAttention splits one projection (this rule once multiplied its sizes by num_heads too)
    const int64_t copies = module == Module::mha_wrapper ? H : 1;
    elements(B * T * s.d_out * copies, "the projections");
    elements(s.d_in * s.d_out * copies, "the weights");
    const bool fused = module == Module::mha && mha_fused(s.dropout, T);
    switch (module) {
    case Module::self_attention:
        elements(T * T, "the attention scores");
        check_work(self_attention_work(T, s.d_in, s.d_out));
        break;
    case Module::causal_attention:
    case Module::mha_wrapper:
        elements(B * T * T, "the attention weights");
        check_work(causal_attention_work(B, T, s.d_in, s.d_out, H));
        break;
    case Module::mha:
        if (!fused) elements(B * H * T * T, "the attention weights");  // the fused path builds none
        check_work(mha_work(B, T, s.d_in, s.d_out, H, fused));
        break;
    }
}

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
        fail({"the request would need ", amount, " ", unit, ", more than the limit of ",
                    limit, "; ", hint});
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

Work bug_hunt_work(int64_t T, int64_t d_in, int64_t d_out) {
    // two forwards (the book's and the planted one; MultiHeadAttention's twice for the view bug), each
    // with the causal mask, and an answer of both tensors: sized as self-attention's T × d_out it let an
    // 18 KB request answer 8 million numbers (issue 43)
    const Work one = self_attention_work(T, d_in, d_out);
    Work w;
    w.multiply_adds = 2 * one.multiply_adds + T * d_out * d_out;  // the view bug's out_proj
    w.numbers = 2 * (one.numbers + 2 * T * T);                      // each with its mask and masked scores
    w.result_numbers = 2 * T * std::max(T, d_out);                  // right and wrong: weights or context
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

void train_word(const std::string& word, size_t index) {
    const auto refuse = [&](const char* why) { fail({"\"words\" word ", index + 1, ": ", why}); };
    if (word.find_first_not_of(" \t\r\n\f\v") == std::string::npos) refuse("Enter a word for this token.");
    int64_t units = 0;
    bool control = false;
    for (size_t i = 0; i < word.size();) {
        const unsigned char c = static_cast<unsigned char>(word[i]);
        const int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;  // the reader passed only valid UTF-8
        uint32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (int k = 1; k < len && i + k < word.size(); k++) cp = (cp << 6) | (static_cast<unsigned char>(word[i + k]) & 0x3F);
        control = control || cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029;
        units += cp >= 0x10000 ? 2 : 1;
        i += static_cast<size_t>(len);
    }
    if (units > lim::page::kWordChars) {
        fail({"\"words\" word ", index + 1, ": Use at most ", lim::page::kWordChars, " characters."});
    }
    if (control) {
        refuse("A word cannot hold control characters (a tab, a line break, NUL, …); use letters, digits, spaces and punctuation.");
    }
}

void bug_hunt_sizes(int64_t T, int64_t d_in, int64_t d_out) {
    attention_sizes({1, T, d_in, d_out, 1, T, 0.0}, Module::self_attention);
    check_work(bug_hunt_work(T, d_in, d_out));
}

int64_t parameter_count(const AttentionSizes& s, Module module, bool bias) {
    const int64_t qkv = 3 * (s.d_in * s.d_out + (bias ? s.d_out : 0));
    return qkv + (module == Module::mha ? s.d_out * s.d_out + s.d_out : 0);  // out_proj always has a bias
}

namespace {

// What one number costs beyond a copy or an add, measured natively (scripts/train_limits.py): a
// softmax output, forward or backward (an exp, a max and a sum per row), about 4; a parameter, about
// 4 per step before the update (its gradient, an outer product when T is small, zeroed; out_proj's
// weight transposed for the forward), and its update 1 (SGD), 2 (momentum) or 3 (Adam).
constexpr int64_t kSoftmaxCost = 4;
constexpr int64_t kParameterCost = 4;
// dropout: a random draw per score (about 8), the mask applied forward and backward
constexpr int64_t kDropoutCost = 10;

}  // namespace

Work train_step_work(const AttentionSizes& s, Module module, bool bias, Optimizer optimizer) {
    const bool mha = module == Module::mha, causal = module != Module::self_attention, dropout = s.dropout > 0.0;
    const int64_t B = s.batch, T = s.tokens, H = mha ? s.num_heads : 1;
    const int64_t X = B * T * s.d_in, Y = B * T * s.d_out, N = B * H * T * T, P = parameter_count(s, module, bias);
    Work w;
    // forward: the projections, scores and context, out_proj; backward: the weights' gradients of
    // the projections and out_proj, the gradient into context, then four products per attention
    // core (weights, values, queries, keys). x needs no gradient.
    w.multiply_adds = 6 * B * T * s.d_in * s.d_out + 6 * B * T * T * s.d_out + (mha ? 3 * B * T * s.d_out * s.d_out : 0);
    // the (B, H, T, T) tensors: forward scores, [masked], scaled, softmax, [dropout];
    // backward the weights' gradient, attn_weightsᵀ, [dropout], softmax, / √d_k, [masked], the scoresᵀ;
    // the causal mask, built for the forward and the backward
    const int64_t per_score = 2 + 5 + 2 * kSoftmaxCost + (causal ? 2 : 0) + (dropout ? kDropoutCost : 0);
    w.numbers = per_score * N + (causal ? 2 * T * T : 0)
                // queries, keys, values and their copies, context, out_proj, the loss, and backward the
                // same again with the head splits and transposes; x transposed for each weight gradient
                + 24 * Y + 3 * X
                // the gradients and the update
                + P * (kParameterCost + (optimizer == Optimizer::adam         ? 3
                                         : optimizer == Optimizer::sgd_momentum ? 2
                                         : optimizer == Optimizer::sgd          ? 1
                                                                                : 0));
    return w;
}

int64_t train_records(int64_t from, int64_t to, int64_t record_every) {
    return (to + record_every - 1) / record_every - (from + record_every - 1) / record_every;
}

int64_t train_answer_numbers(const AttentionSizes& s, Module module, bool bias, int64_t steps, int64_t records,
                             bool record_parameters) {
    const int64_t H = module == Module::mha ? s.num_heads : 1;
    const int64_t weights = s.batch * H * s.tokens * s.tokens, P = parameter_count(s, module, bias);
    return steps + records * (weights + (record_parameters ? P : 0)) + P;
}

void check_train_run(const Work& step, int64_t steps, int64_t answer_numbers, bool prints) {
    // each per-step amount is bounded by the tensor limits, so these products stay far below 2^63
    // one bound for both: a multiply-add of the small products training makes (16 × 16 matrices,
    // per batch and head) costs about what an elementwise number does, 2 ns
    const int64_t work = steps * (step.numbers + step.multiply_adds);
    check_one(work, lim::kMaxTrainWork, "multiply-adds and computed numbers to train",
              "use fewer steps, fewer tokens, a smaller batch or smaller d_in and d_out");
    // printing every recorded number costs more than computing it (the losses are not printed: counted anyway)
    if (prints) {
        const std::string unit = cat({"units of work to train and print (a printed number counts as ", lim::kPrintedNumberWork, ")"});
        check_one(work + answer_numbers * lim::kPrintedNumberWork, lim::kMaxTrainWork, unit.c_str(),
                  "set \"prints\": false to answer the values alone, or record fewer steps (raise record_every)");
    }
    check_one(answer_numbers, lim::kMaxResultNumbers, "numbers in the answer",
              "record fewer steps (raise record_every), leave out record_parameters or use smaller sizes");
}

}  // namespace attn::checks
