// What the page asks of the engine beyond `eval`: the step-by-step run with every intermediate
// (attention_run.cpp), the long-sequence MultiHeadAttention forward, the chapter as JSON and any
// tensor's print. Plain C++ for bindings/ to expose; no I/O and no clock (timing is attn/bench.h's),
// and nothing throws: errors come back as sentences, by the same rules as `eval` (checks.h).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"

namespace attn::lab {

// Copies `count` floats into the destination; called only after every argument has been checked,
// so a caller never copies (or allocates for) an input that is going to be refused.
using FillFn = std::function<void(float* dst)>;

// The input tensor of `shape`, filled by `fill` once `count` has been checked against the shape
// (and the shape against the element limit); an attn::Error otherwise.
Tensor input_tensor(const Shape& shape, size_t count, const FillFn& fill, const std::string& name);

// A text, or the sentence saying why there is none.
struct TextResult {
    std::string error;  // "" on success
    std::string text;
};

// One attention forward of the chapter with every intermediate kept, for the step-by-step view.
class AttentionRun {
public:
    // variant: "simplified", "self_attention_v1", "self_attention_v2" or "causal"; inputs are
    // (tokens, d_in), row-major, `count` floats. Returns "" or a sentence (and the run is then empty).
    // Sizes arrive as JS numbers, so they are doubles here and must be whole and within core/limits.h.
    std::string compute(const std::string& variant, size_t count, const FillFn& fill, double tokens,
                        double d_in, double seed, double d_out);

    // softmax(attn_scores / T) into "temperature_weights"; T is kept for later computes. "" or a sentence.
    std::string set_temperature(double temperature);

    std::vector<std::string> names() const;
    const Tensor* find(const std::string& name) const;  // nullptr when the run has no such tensor
    TextResult print(const std::string& name) const;    // PyTorch's print without grad_fn, or a sentence
    std::string no_tensor(const std::string& name) const;  // the sentence for a name the run does not have

private:
    std::vector<std::pair<std::string, Tensor>> tensors_;  // in the order names() lists them
    double temperature_ = 1.0;
    void put(const char* name, const Tensor& t);  // a literal name, a copy: one call where it is made
    void update_temperature_weights();
};

struct MhaResult {
    std::string error;  // "" on success
    Tensor out;         // (batch, tokens, d_out)
    double ms = 0;      // the forward's own time, without building the module (when given a clock)
};

// Milliseconds on a monotonic clock, from the caller (attn::bench::now_ms): the engine reads none.
using ClockFn = double (*)();

// The chapter's MultiHeadAttention (Listing 3.5) after torch.manual_seed(seed), on x (batch, tokens, d_in),
// checked by the same rules as `eval`'s "mha" op; the forward is timed with `clock` when one is given.
MhaResult mha_forward(size_t count, const FillFn& fill, double batch, double tokens, double d_in, double d_out,
                      double num_heads, double context_length, double dropout, double seed, ClockFn clock = nullptr);

// Every golden cell, computed live: [{"id","label","print","shape","values"}], values as `eval` writes them.
std::string book_cells_json();



// The chapter replayed on the learner's inputs (tokens, d_in) and d_out (replay/book.h), as
// book_cells_json's JSON; or a sentence when the sizes are outside 2..64 tokens and 1..64 values.
TextResult book_cells_for(size_t count, const FillFn& fill, double tokens, double d_in, double d_out);

// PyTorch's print (without grad_fn) of `count` floats in `shape`, up to 4 sizes.
TextResult format_values(size_t count, const FillFn& fill, const std::vector<double>& shape);

}  // namespace attn::lab
