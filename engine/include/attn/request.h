// `attention-lab eval`'s contract: one JSON request in, one JSON answer out. Shared by the CLI and
// the WebAssembly binding so both answer identically. Never throws: errors come back as values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
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

// A `train` request run a few steps per call, so that a page can train between frames. start()
// checks the request as eval does and builds the module (an empty sentence, or why it refused);
// advance(n) runs the next n steps (at most those left) and answers what `train` answers, for those
// steps: their losses, the records among them (record_every counts from the run's step 0) and the
// parameters after them. The chunks together hold the one-shot answer's numbers, bit for bit.
struct TrainRunState;
class TrainRun {
public:
    TrainRun();
    ~TrainRun();
    std::string start(const std::string& request_json);
    int64_t steps_left() const;
    EvalResult advance(int64_t steps);
    // The train task's run (a request with "task"): what its program prints for the steps run so far
    // (attn/train_task.h); nothing for another request's run.
    std::optional<std::string> printed() const;

private:
    std::unique_ptr<TrainRunState> state_;
};

}  // namespace attn
