// The refused answer, {"error": sentence}, written once (answer.h).
#include "requests/answer.h"

#include <utility>

#include "core/limits.h"
#include "requests/json_out.h"

namespace attn {

EvalResult failed_request(const std::string& sentence) { return failed_request(Refusal{sentence, "", {}}); }

EvalResult failed_request(const Refusal& refusal) {
    std::string params;
    for (const auto& [name, text] : refusal.params) params += (params.empty() ? "" : ",") + json_quote(name) + ":" + json_quote(text);
    return {false, refusal_json(refusal), refusal.sentence, refusal.key, refusal.key.empty() ? "" : "{" + params + "}"};
}

EvalResult answer_unless(const Refusal& refusal, std::string json) {
    return refusal.empty() ? EvalResult{true, std::move(json), "", "", ""} : failed_request(refusal);
}

EvalResult oversized_request() {
    return failed_request("the request is larger than " + std::to_string(limits::kMaxRequestBytes >> 20) +
                          " MiB; send a smaller one");
}

}  // namespace attn
