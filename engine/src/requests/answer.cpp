// The refused answer, {"error": sentence}, written once (answer.h).
#include "requests/answer.h"

#include "core/limits.h"
#include "requests/json_out.h"

namespace attn {

EvalResult failed_request(const std::string& sentence) {
    return {false, "{\"error\":" + json_quote(sentence) + "}", sentence};
}

EvalResult oversized_request() {
    return failed_request("the request is larger than " + std::to_string(limits::kMaxRequestBytes >> 20) +
                          " MiB; send a smaller one");
}

}  // namespace attn
