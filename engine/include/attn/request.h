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

// The error answer for a request larger than limits::kMaxRequestBytes, for callers that see its size
// before they hold its text (the WebAssembly binding).
std::string oversized_request_json();

}  // namespace attn
