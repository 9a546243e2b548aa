// The engine's JSON text out, in one place: `eval`'s result objects and the page's book cells, and
// the string and number spellings both use. (Reading JSON is request.cpp's, through nlohmann.)
// Internal to the engine: request.h and lab.h hand out finished text, not these helpers.
#pragma once

#include <string>
#include <vector>

#include "replay/book.h"
#include "core/float_text.h"  // float_text, the numbers' spelling
#include "core/tensor.h"

namespace attn {

// A JSON-quoted string.
std::string json_quote(const std::string& s);

// A result object {"shape":[...],"values":[...],"print":"..."}. A module's output also carries
// "grad_fn" and "print_with_grad_fn", as PyTorch's print shows it.
std::string result_json(const Tensor& t);
// The same without "print" (and the grad_fn fields): {"shape", "values"}, for train's "prints": false.
std::string values_json(const Tensor& t);

// Book cells as [{"id","label","print","shape","values"}], values as result_json writes them.
std::string cells_json(const std::vector<BookCell>& cells);

}  // namespace attn
