// The engine's JSON text out: `eval`'s result objects, the book's cells (bookCells) and the page's
// section cells (sectionData), and the string spelling they share; every number is core/float_text's.
// Only the refusal {"error": ...} (answer.cpp) and the small fixed objects of the ops are written
// beside these. (Reading JSON is json_in.h's.) Internal to the engine: request.h
// and lab.h hand out finished text, not these helpers.
#pragma once

#include <string>
#include <vector>

#include "replay/book.h"
#include "core/float_text.h"  // float_text, the numbers' spelling
#include "core/tensor.h"

namespace attn {

// A JSON-quoted string; ill-formed UTF-8 becomes U+FFFD.
std::string json_quote(const std::string& s);
// {"error": sentence}, with "error_key" and "error_params" (an object of texts) when it has a key.
std::string refusal_json(const Refusal& refusal);
// Its "error_params": {"name": "text", ...}
std::string refusal_params_json(const Refusal& refusal);

// The UTF-8 character at s[i] (Unicode's table 3-7): whole is its length when well-formed, else 0, and
// prefix the bytes of its longest well-formed start (one U+FFFD replaces those; 0 for a byte no
// character starts with). The reader (json_in.cpp) refuses what the writer replaces.
struct Utf8Span {
    size_t whole, prefix;
};
Utf8Span utf8_at(const std::string& s, size_t i);

// A result object {"shape":[...],"values":[...],"print":"..."}. A module's output also carries
// "grad_fn" and "print_with_grad_fn", as PyTorch's print shows it.
std::string result_json(const Tensor& t);
// The same without "print" (and the grad_fn fields): {"shape", "values"}, for train's "prints": false.
std::string values_json(const Tensor& t);

// The values alone, as nested arrays of the tensor's shape (as a request writes its "x").
std::string nested_json(const Tensor& t);

// Book cells as [{"id","label","print","shape","values"}], values as result_json writes them.
std::string cells_json(const std::vector<BookCell>& cells);
// Section cells as {id: R, ...} (page/sections.h): R as result_json's with print without grad_fn,
// plus "label" when print has one and "line", what Python's print writes; or {"error": sentence}.
std::string section_cells_json(const std::vector<BookCell>& cells);

}  // namespace attn
