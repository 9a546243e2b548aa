// `attention-lab eval`'s contract: one JSON request in, one JSON answer out. Shared by the CLI and
// the WebAssembly binding so both answer identically. Never throws: errors come back as values.
#pragma once

#include <string>

#include "requests/answer.h"     // EvalResult, failed_request, oversized_request
#include "requests/train_run.h"  // TrainRun: the train op in slices

namespace attn {

EvalResult eval_request(const std::string& request_json);

}  // namespace attn
