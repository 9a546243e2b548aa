// The refused answer, {"error": sentence}, written once (answer.h).
#include "requests/answer.h"

#include <utility>

#include "core/limits.h"
#include "requests/json_out.h"

namespace attn {

EvalResult failed_request(const std::string& sentence) { return failed_request(Refusal{sentence, "", {}}); }

EvalResult failed_request(const Refusal& refusal) {
    return {false, refusal_json(refusal), refusal.sentence, refusal.key, refusal.key.empty() ? "" : refusal_params_json(refusal)};
}

EvalResult answer_unless(const Refusal& refusal, std::string json) {
    return refusal.empty() ? EvalResult{true, std::move(json), "", "", ""} : failed_request(refusal);
}

EvalResult oversized_request() {
    return failed_request("the request is larger than " + std::to_string(limits::kMaxRequestBytes >> 20) +
                          " MiB; send a smaller one");
}

}  // namespace attn
