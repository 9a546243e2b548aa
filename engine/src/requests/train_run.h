// TrainRun: the `train` op run in slices (request_train.cpp), for a page that trains between frames.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "requests/answer.h"

namespace attn {

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

private:
    std::unique_ptr<TrainRunState> state_;
};

}  // namespace attn
