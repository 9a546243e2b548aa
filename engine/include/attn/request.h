// `attention-lab eval`'s contract: one JSON request in, one JSON answer out. Shared by the CLI and
// the WebAssembly binding so both answer identically. Never throws: errors come back as values.
#pragma once

#include <string>

#include "attn/tensor.h"

namespace attn {

// The answer of eval and of the page's sectionData (attn/sections.h).
struct EvalResult {
    bool ok;
    std::string json;   // the answer, or {"error":"<sentence>"} when !ok
    std::string error;  // that sentence when !ok (the WebAssembly binding throws it as a JS Error)
};

EvalResult eval_request(const std::string& request_json);

// The error answer for a request larger than limits::kMaxRequestBytes, for callers that see its size
// before they hold its text (the WebAssembly binding).
EvalResult oversized_request();

// The failed answer: {"error": sentence}, and the sentence.
EvalResult failed_request(const std::string& sentence);

}  // namespace attn
