// Chapter 3 of the book, cell by cell: every tensor it prints, computed by the engine in the
// chapter's order, with what Python's print shows for it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chapter/modules.h"
#include "core/tensor.h"

namespace attn {

struct BookCell {
    std::string id;                    // e.g. "3.4.1/query_2"
    std::optional<std::string> label;  // print(label, value) when set
    std::string print;                 // str(value): tensor text, torch.Size text, or an integer
    Shape shape;                       // the value's shape (a Size's length; [] for a number)
    std::vector<double> values;        // flattened row-major
    std::string grad_fn;               // PyTorch's grad_fn name, "" for none
    std::string print_plain;           // print without ", grad_fn=<...>" (equal to print when none)
    Refusal error;                     // set instead of the value when this statement cannot run
                                       // on the learner's sizes (e.g. d_out not divisible by heads)
    std::string print_line() const;    // exactly what Python's print writes, without the newline
};

// A cell for a statement that cannot run: the Error's sentence, key and parameters.
BookCell error_cell(const std::string& id, const Error& e);

// A cell of a tensor (print as print(t) shows it, grad_fn included) or of a torch.Size.
BookCell tensor_cell(const std::string& id, const Tensor& t, std::optional<std::string> label = std::nullopt);
// The same for a literal id and label (nullptr: none): the strings made in one place, not at each call.
BookCell tensor_cell(const char* id, const Tensor& t, const char* label = nullptr);
BookCell size_cell(const std::string& id, const Shape& s, std::optional<std::string> label = std::nullopt);

// Which seed each torch.manual_seed(...) of the book's code uses: the book's own (123, and 789 for
// Listing 3.2), or, when the learner gives one, the learner's seed in every one of them.
struct Seeds {
    std::optional<uint64_t> learner;
    uint64_t operator()(uint64_t book_seed) const { return learner.value_or(book_seed); }
};

// The chapter's parts, each replayable alone (each starts from its own torch.manual_seed), in order.
enum class ChapterPart {
    simplified,    // inputs, 3.3.1, 3.3.2 and the batched toy
    step_by_step,  // 3.4.1 and the slider's sample temperatures
    classes,       // 3.4.2 (Listings 3.1, 3.2) and exercise 3.1
    causal,        // 3.5
    multi_head,    // 3.6 and exercise 3.2 (not exercise 3.3's GPT-2-sized module)
};

// The chapter's six input tokens ("Your journey starts with one step"), as (6, 3).
Tensor book_inputs();

std::vector<BookCell> chapter3_cells();

// The same cells replayed on other inputs (tokens, d_in) and the chapter's d_out: every statement and
// seed as the book has them, so a learner's edits flow through every step. Exercise 3.3's
// GPT-2-sized module, which ignores the inputs, is left out. Throws Error on bad sizes.
std::vector<BookCell> chapter3_cells(const Tensor& inputs, int64_t d_out);

// One part of that replay, with the learner's seed policy; only the cells `wanted` accepts (all when
// it is empty) are printed and returned. With `weights` (a reader's module), each module whose weights
// those are takes them after its seeded build: §3.4.1's W_query, W_key, W_value, Listings 3.1 and 3.2,
// §3.5's sa_v2 and CausalAttention, Listing 3.5's MultiHeadAttention (§3.6.1's wrapper keeps its
// seed: its heads are other modules). Throws Error on bad sizes.
std::vector<BookCell> chapter3_part(ChapterPart part, const Tensor& inputs, int64_t d_out, Seeds seeds = {},
                                    const std::function<bool(const std::string&)>& wanted = {},
                                    const ModuleWeights* weights = nullptr);

// `attention-lab book`: "# <id>\n<print line>\n" for every cell.
std::string book_text();

}  // namespace attn
