// libFuzzer target: any bytes through the request parser and evaluator. A well-formed answer
// (an object, or {"error": ...}) is the only acceptable outcome; sanitizers catch the rest.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "requests/request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const attn::EvalResult r = attn::eval_request(std::string(reinterpret_cast<const char*>(data), size));
    if (r.json.empty() || r.json.front() != '{' || r.json.back() != '}') std::abort();
    if (!r.ok && r.json.rfind("{\"error\":", 0) != 0) std::abort();
    return 0;
}
