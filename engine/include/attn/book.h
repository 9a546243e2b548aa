// Chapter 3 of the book, cell by cell: every tensor it prints, computed by the engine in the
// chapter's order, with what Python's print shows for it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/tensor.h"

namespace attn {

struct BookCell {
    std::string id;                    // e.g. "3.4.1/query_2"
    std::optional<std::string> label;  // print(label, value) when set
    std::string print;                 // str(value): tensor text, torch.Size text, or an integer
    Shape shape;                       // the value's shape (a Size's length; [] for a number)
    std::vector<double> values;        // flattened row-major
    std::string print_line() const;    // exactly what Python's print writes, without the newline
};

// The chapter's six input tokens ("Your journey starts with one step"), as (6, 3).
Tensor book_inputs();

std::vector<BookCell> chapter3_cells();

// The same cells replayed on other inputs (tokens, d_in) and the chapter's d_out: every statement and
// seed as the book has them, so a learner's edits flow through every step. Exercise 3.3's
// GPT-2-sized module, which ignores the inputs, is left out. Throws Error on bad sizes.
std::vector<BookCell> chapter3_cells(const Tensor& inputs, int64_t d_out);

// `attention-lab book`: "# <id>\n<print line>\n" for every cell.
std::string book_text();

}  // namespace attn
