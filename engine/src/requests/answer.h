// What every entry point that takes JSON answers (`eval`, TrainRun, the page's sectionData): an
// ok flag, the JSON text and, when refused, the sentence. Below request.cpp and request_train.cpp,
// which both answer this way.
#pragma once

#include <string>

namespace attn {

// The answer of eval and of the page's sectionData (page/sections.h).
struct EvalResult {
    bool ok;
    std::string json;   // the answer, or {"error":"<sentence>"} when !ok
    std::string error;  // that sentence when !ok (the WebAssembly binding throws it as a JS Error)
};

// The error answer for a request larger than limits::kMaxRequestBytes, for callers that see its size
// before they hold its text (the WebAssembly binding).
EvalResult oversized_request();

// The failed answer: {"error": sentence}, and the sentence.
EvalResult failed_request(const std::string& sentence);

}  // namespace attn
