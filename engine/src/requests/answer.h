// What every entry point that takes JSON answers (`eval`, TrainRun, the page's sectionData): an
// ok flag, the JSON text and, when refused, the sentence. Below request.cpp and request_train.cpp,
// which both answer this way.
#pragma once

#include <string>

#include "core/tensor.h"

namespace attn {

// The answer of eval and of the page's sectionData (page/sections.h).
struct EvalResult {
    bool ok;
    std::string json;   // the answer, or {"error":"<sentence>"} when !ok, with "error_key" and
                        // "error_params" when the sentence has them (core/tensor.h's Error)
    std::string error;  // that sentence when !ok (the WebAssembly binding throws it as a JS Error)
    std::string key;    // its key, "" when it has none
    std::string params_json;  // its parameters as a JSON object, when it has a key
};

// The error answer for a request larger than limits::kMaxRequestBytes, for callers that see its size
// before they hold its text (the WebAssembly binding).
EvalResult oversized_request();

// The failed answer: {"error": sentence}, and the sentence.
EvalResult failed_request(const std::string& sentence);
// The same for a Refusal, with its key and parameters when it has them.
EvalResult failed_request(const Refusal& refusal);
// The answer json, or the failed one when refused.
EvalResult answer_unless(const Refusal& refusal, std::string json);

}  // namespace attn
