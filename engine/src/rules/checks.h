// The rules a request must obey, each written once with its sentence: `eval` (request.cpp, through
// request_fields.h's reader), the page's entry points (sections.cpp through that same reader, lab.cpp,
// attention_run.cpp), the benchmarks and the modules' constructors and forwards all call these, so
// they accept and refuse the same requests. (What a JSON text must be, before its fields, is
// parse_request's, requests/request_fields.h.) Then the work a request
// asks for, estimated from its sizes alone before anything is allocated, and checked against the
// bounds in core/limits.h. Every check throws attn::Error. Shape legend: B = batch, T = tokens,
// H = heads.
#pragma once

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

#include "core/tensor.h"

namespace attn::checks {

// --- one value ---

// At most about 80 characters of a value a sentence quotes (a bad value may be megabytes), cut
// between UTF-8 characters, with "…" when cut.
std::string excerpt(const std::string& text);

// A number from JS that must be whole and in [lo, hi]; `name` is how the sentence names it.
int64_t whole(double v, double lo, double hi, const std::string& name);
// The sentence for a value that is not a whole number in [lo, hi]; `got` is its text.
Error not_whole(const std::string& name, double lo, double hi, const std::string& got);
// torch.manual_seed's argument as a JS number; negative seeds wrap as two's complement.
uint64_t seed(double v);
// A dropout probability: at least 0 and less than 1, as the chapter's modules need.
void dropout(double p, const std::string& name);
// softmax(x / temperature) needs a finite temperature above 0.
void temperature(double t);
// A module size (d_in, d_out, num_heads, context_length) of at least 1.
void positive(int64_t v, const std::string& name);

// --- sizes ---

// A tensor of n numbers, input or intermediate, within core/limits.h.
void elements(int64_t n, const std::string& what);
// The causal mask is context_length square: a sequence may not be longer.
void tokens_fit_context(int64_t tokens, int64_t context_length);
// MultiHeadAttention splits d_out into num_heads heads: returns head_dim = d_out / num_heads.
int64_t head_dim(int64_t d_out, int64_t num_heads);

// MultiHeadAttention's fused path (one kernel per head, no (B, H, T, T) weights built): without
// dropout, from kFusedMinTokens tokens on. The forward (modules.cpp) takes it, and the size rules
// below count its tensors, by this one rule; a forward asked to keep its intermediates never takes it.
constexpr int64_t kFusedMinTokens = 128;
inline bool mha_fused(double dropout, int64_t tokens) { return dropout == 0.0 && tokens >= kFusedMinTokens; }

// The attention modules a request can build, for the tensors their forwards make.
enum class Module { self_attention, causal_attention, mha_wrapper, mha };

struct AttentionSizes {
    int64_t batch = 1, tokens = 1, d_in = 1, d_out = 1, num_heads = 1, context_length = 1;
    double dropout = 0.0;
};

// Every size rule of one attention module on x (batch, tokens, d_in), before anything is allocated:
// the limits, tokens within context_length, d_out split into whole heads (mha), the dropout, every
// tensor the forward makes, and the work (below). MultiHeadAttentionWrapper holds num_heads whole
// CausalAttention modules; MultiHeadAttention one projection split into heads, and builds no
// (B, H, T, T) weights on its fused path.
void attention_sizes(const AttentionSizes& s, Module module);
// A word of the train task's program (one per row, written into a comment): the page's rules
// (web/src/inputs.js, parseWord) with its sentences: not empty, at most limits::page::kWordChars
// characters (UTF-16 units, as the page counts), no control character (C0, C1, U+2028, U+2029), so the
// program stays one Python comment a line and runs. `index` counts from 0.
void train_word(const std::string& word, size_t index);
// The bug_hunt op (replay/bug_hunt.h) on x (T, d_in): self-attention's sizes, and its work as what it runs
// and answers: the right and the planted version, two tensors of T × T (or T × d_out) in the answer.
void bug_hunt_sizes(int64_t T, int64_t d_in, int64_t d_out);

// Runs f and returns an empty Refusal or, for whatever the engine throws, its sentence (with the
// Error's key and parameters): the page's calls never throw.
template <typename F>
Refusal refusal_of(F&& f) {
    try {
        f();
        return {};
    } catch (const Error& e) {
        return e.refusal();
    } catch (const std::bad_alloc&) {
        return {"this needs more memory than is available; use smaller sizes", "", {}};
    } catch (const std::exception& e) {
        return {std::string("the engine failed: ") + e.what(), "", {}};
    }
}
// The same, its sentence alone ("" when nothing was refused).
template <typename F>
std::string sentence_of(F&& f) { return refusal_of(f).sentence; }

// --- work ---

struct Work {
    int64_t multiply_adds = 0;   // of every matrix product
    int64_t numbers = 0;         // every number computed: draws, elementwise results, intermediates
    int64_t result_numbers = 0;  // the numbers written into the answer
};

Work rand_work(const Shape& shape);
Work linear_work(int64_t d_in, int64_t d_out, bool bias);
Work softmax_work(const Shape& x);
Work matmul_work(const Shape& a, const Shape& b);  // an Error when the shapes do not multiply
Work dropout_work(const Shape& x);
Work self_attention_work(int64_t T, int64_t d_in, int64_t d_out);
Work bug_hunt_work(int64_t T, int64_t d_in, int64_t d_out);
// CausalAttention, or num_heads of them side by side (MultiHeadAttentionWrapper)
Work causal_attention_work(int64_t B, int64_t T, int64_t d_in, int64_t d_out, int64_t num_heads);
// MultiHeadAttention: d_out split into num_heads; fused = no (B, H, T, T) tensors are built
Work mha_work(int64_t B, int64_t T, int64_t d_in, int64_t d_out, int64_t num_heads, bool fused);

// Throws an Error naming the bound the work exceeds and what to make smaller.
void check_work(const Work& work);

// --- training (the grad and train ops) ---

enum class Optimizer { none, sgd, sgd_momentum, adam };  // none: grad's one backward

// The numbers of a module's parameters, with biases when `bias` (self_attention_v1 has none).
int64_t parameter_count(const AttentionSizes& s, Module module, bool bias);
// One training step: the forward with what the backward keeps, the loss, the backward, zeroing the
// gradients and the optimizer's update. multiply_adds counts every matrix product; numbers every
// other number computed, softmax's and Adam's weighted by their cost (checks.cpp). result_numbers is 0:
// what a run answers depends on its records (check_train_run).
Work train_step_work(const AttentionSizes& s, Module module, bool bias, Optimizer optimizer);
// The records a run takes among its steps [from, to): the steps that are multiples of record_every.
int64_t train_records(int64_t from, int64_t to, int64_t record_every);
// The numbers a run (or a slice of one) of `steps` steps answers: a loss per step, each of `records`
// records (the (B, H, T, T) attention weights, and the parameters when record_parameters), then the
// parameters after the last step. `grad` answers one step's: a loss and a gradient per parameter.
int64_t train_answer_numbers(const AttentionSizes& s, Module module, bool bias, int64_t steps, int64_t records,
                             bool record_parameters);
// A run of `steps` steps answering `answer_numbers` numbers (losses, records, parameters), each printed
// too when `prints`: its multiply-adds, numbers and printed numbers (kPrintedNumberWork each) together
// within kMaxTrainWork, the answer within kMaxResultNumbers, so the run answers within 2 s
// (core/limits.h). Throws an Error naming the bound and what to change.
void check_train_run(const Work& step, int64_t steps, int64_t answer_numbers, bool prints);

}  // namespace attn::checks
