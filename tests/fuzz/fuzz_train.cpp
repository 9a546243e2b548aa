// libFuzzer target for `train` requests: the first byte says how many steps each TrainRun call takes,
// the rest is the request. The one-shot op and the same request run in slices must each answer
// well-formed JSON (or a sentence), and when both answer, the slices' losses are the one-shot's.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "requests/request.h"

namespace {

void check_answer(const attn::EvalResult& r) {
    if (r.json.empty() || r.json.front() != '{' || r.json.back() != '}') std::abort();
    if (!r.ok && (r.json.rfind("{\"error\":", 0) != 0 || r.error.empty())) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    const int64_t per_call = data[0] % 16;  // 0 too: a call that takes no step
    const std::string request(reinterpret_cast<const char*>(data + 1), size - 1);
    const attn::EvalResult whole = attn::eval_request(request);
    check_answer(whole);

    attn::TrainRun run;
    const std::string refused = run.start(request);
    if (!refused.empty()) {
        if (run.steps_left() != 0) std::abort();  // a refused start leaves no run
        return 0;
    }
    if (!whole.ok) std::abort();  // TrainRun accepts only what the train op accepts
    nlohmann::json losses = nlohmann::json::array();
    for (int calls = 0; run.steps_left() > 0 && calls < 200; calls++) {
        const int64_t left = run.steps_left();
        const attn::EvalResult part = run.advance(per_call);
        check_answer(part);
        if (!part.ok) return 0;  // refused: its slices' answers would add up past the answer limit
        const nlohmann::json answer = nlohmann::json::parse(part.json);
        if (run.steps_left() != left - std::min(left, per_call)) std::abort();
        for (const auto& v : answer.at("losses")) losses.push_back(v);
    }
    if (run.steps_left() == 0 && losses != nlohmann::json::parse(whole.json).at("losses")) std::abort();
    return 0;
}
