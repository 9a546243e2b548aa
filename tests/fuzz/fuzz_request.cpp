// libFuzzer target: any bytes through the request parser and evaluator. A well-formed answer
// (an object, or {"error": ...}) is the only acceptable outcome; sanitizers catch the rest. The same
// bytes through the engine's JSON reader and nlohmann's: it accepts what nlohmann accepts, with the
// same values, but for a key twice in one object (and nesting past its stack guard).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "../cpp/json_reference.h"
#include "core/tensor.h"
#include "requests/request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const attn::EvalResult r = attn::eval_request(std::string(reinterpret_cast<const char*>(data), size));
    if (r.json.empty() || r.json.front() != '{' || r.json.back() != '}') std::abort();
    if (!r.ok && r.json.rfind("{\"error\":", 0) != 0) std::abort();

    const std::string text(reinterpret_cast<const char*>(data), size);
    // nlohmann reads a NUL byte as the end of the text (parse_request refuses one before reading)
    if (text.find('\0') != std::string::npos) return 0;
    const nlohmann::json theirs = nlohmann::json::parse(text, nullptr, false);  // discarded when refused
    std::optional<nlohmann::json> ours;  // the engine's reading, as nlohmann's types
    std::string why;                     // or its sentence
    try {
        ours = as_nlohmann(attn::json::parse(text));
    } catch (const attn::Error& e) {
        why = e.what();
    }
    if (ours && (theirs.is_discarded() || *ours != theirs)) std::abort();
    if (!ours && !theirs.is_discarded() && why.find("twice in one object") == std::string::npos &&
        why.find("nest too deeply") == std::string::npos) {
        std::abort();
    }
    return 0;
}
