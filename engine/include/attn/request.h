// `attention-lab eval`'s contract: one JSON request in, one JSON answer out. Shared by the CLI and
// the WebAssembly binding so both answer identically. Never throws: errors come back as values.
#pragma once

#include <string>

#include "attn/tensor.h"

namespace attn {

struct EvalResult {
    bool ok;
    std::string json;  // the answer, or {"error":"..."} when !ok
};

EvalResult eval_request(const std::string& request_json);

// A result object {"shape":[...],"values":[...],"print":"..."}; non-finite values as "inf"/"-inf"/"nan".
// A module's output also carries "grad_fn" and "print_with_grad_fn", as PyTorch's print shows it.
std::string result_json(const Tensor& t);

// A JSON-quoted string.
std::string json_quote(const std::string& s);

// The shortest decimal text that reads back as the same float32: %.<p>g for the least p (1..9).
std::string float_text(float v);
// The same through snprintf and strtof (the definition float_text is tested against).
std::string float_text_reference(float v);

}  // namespace attn
