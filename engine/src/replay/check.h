// "Check my code": a reader's output of one of the chapter's modules (their tensor, or what PyTorch
// printed, or the error line it raised), for their own inputs and weights, compared with the book's
// computation and with each planted mistake of the bug hunt (replay/bug_hunt.h) that applies to that
// module, all computed with the reader's weights. The comparison is at PyTorch's print precision: a
// pasted print as written, a full-precision tensor as PyTorch would print it (format_tensor).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chapter/modules.h"
#include "core/tensor.h"

namespace attn {

// The modules "Check my code" knows, by their names in the chapter.
inline constexpr const char* kCheckModules[] = {"SelfAttention_v1", "SelfAttention_v2", "CausalAttention", "MultiHeadAttention"};

// A tensor as PyTorch printed it: its shape and each number's text ("0.3061", "1.", "1.2345e-05", "nan").
struct PrintedTensor {
    Shape shape;
    std::vector<std::string> texts;
};

// The reader's output: a print (pasted, or the engine's print of their numbers) or PyTorch's error line.
struct ReaderOutput {
    std::optional<PrintedTensor> printed;
    std::string raised;  // e.g. "RuntimeError: mat1 and mat2 shapes cannot be multiplied (6x3 and 2x3)"
};

// Reads what a reader pasted: PyTorch's print of a tensor ("tensor([[0.3061, 0.8210], ...])", with or
// without "tensor(" and a grad_fn), or a traceback or error line, whose last "...Error: ..." line is
// taken. Throws Error with one sentence for anything else (a summarised print with "...", ragged rows,
// a word that is not a number).
ReaderOutput read_pasted_output(const std::string& text);
// A tensor's numbers as PyTorch 1.13 prints them (format_tensor), as a PrintedTensor.
PrintedTensor printed_of(const Tensor& t);

struct CheckRequest {
    std::string module;    // one of kCheckModules
    Tensor inputs;         // (T, d_in)
    ModuleWeights weights; // the reader's (read_weights); MultiHeadAttention needs out_proj's too
    int64_t num_heads = 2; // MultiHeadAttention's
    double dropout = 0.0;  // CausalAttention in training mode: its p, with the torch.manual_seed just before the call
    std::optional<uint64_t> call_seed;
    ReaderOutput output;
};

struct CheckResult {
    // "book" (the reader's output is the book's), "mistake" (it is a planted mistake's: matches),
    // "differs" (neither: first_* say where it first differs from the book's), "unknown_error" (the
    // reader's code raised an error no planted mistake raises).
    std::string verdict;
    std::vector<std::string> matches;  // the planted mistakes whose output (or error line) is the reader's
    std::vector<std::string> tried;    // every planted mistake compared, in kBugNames' order
    Tensor book;                       // the book's output, (T, d_out)
    Tensor mistake;                    // the first match's output (empty when it raised or none matched)
    int64_t first_row = -1, first_col = -1;  // the first number that differs from the book's (from 0)
    std::string first_reader, first_book;    // its text in the reader's print, and the book's at that precision
};

// The seed the chapter builds each module with (SelfAttention_v2's 789, the others' 123), and the weights
// torch.manual_seed(seed) then Module(d_in, d_out, ...) draws: for a reader who pastes the print of the
// book's code without giving weights.
uint64_t check_book_seed(const std::string& module);
ModuleWeights book_module_weights(const std::string& module, int64_t d_in, int64_t d_out, int64_t num_heads, uint64_t seed);

// Throws Error with a sentence for sizes the module cannot run, a shape of the output that is not the
// module's, or dropout without a seed.
CheckResult check_code(const CheckRequest& request);

}  // namespace attn
