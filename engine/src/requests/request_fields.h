// The one reader of a request's fields, shared by every `eval` op (request.cpp, request_train.cpp) and
// the page's sectionData (page/sections.cpp): each field read by name, checked, and turned into a
// sentence naming it when it is wrong. Reads are remembered, so an op whose fields depend on its
// module (grad, train) can refuse the rest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "requests/json_in.h"

namespace attn {

class Request {
public:
    // Throws unless j is an object; `example` is the object the sentence shows.
    explicit Request(const json::Value& j, const char* example = "{\"op\": \"softmax\", ...}");

    // Any field the op does not take is probably a typo: refused, by exact name, before computing.
    void reject_unknown_fields(const std::string& op, const std::vector<const char*>& fields) const;
    // The same for what `owner` names (e.g. section "causal"; reject_unknown_fields says op "...").
    void reject_unknown_fields_of(const std::string& owner, const std::vector<const char*>& fields) const;
    // The same, for an op that takes exactly the fields it has read ("op" among them).
    void reject_unread_fields(const std::string& op) const;

    std::string op();
    // The field's JSON value as it is (nullptr when absent), for a field that takes more than one kind.
    const json::Value* value(const char* name) { return find(name); }
    // Present, even as null (not counted as read).
    bool has(const char* name) const { return j_.find(name) != nullptr; }
    // Whether the field is there and not null (null asks for the default, as absent does).
    bool given(const char* name);
    std::string text(const char* name, std::optional<std::string> def = std::nullopt);
    // A string that must be one of `options`.
    std::string choice(const char* name, const std::vector<std::string>& options, std::optional<std::string> def = std::nullopt);
    // An object holding exactly the fields `keys`, each a string among `options`; nullopt when absent.
    std::optional<std::vector<std::string>> choices(const char* name, const std::vector<std::string>& keys,
                                                    const std::vector<std::string>& options);
    // A list of at most `most` strings, e.g. one word per row of the inputs.
    std::vector<std::string> texts(const char* name, size_t most);
    int64_t integer(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> def = std::nullopt);
    uint64_t seed(std::optional<uint64_t> def = std::nullopt);
    uint64_t seed_of(const char* name);  // the same rule, for a seed field of another name  // torch.manual_seed takes any 64-bit integer; negative seeds wrap as two's complement
    // A number, or "inf", "-inf", "nan".
    double number(const char* name, std::optional<double> def = std::nullopt);
    // A finite number at least `lo` (and below `below`, when given).
    double finite_number(const char* name, double lo, std::optional<double> def, std::optional<double> below = std::nullopt);
    double dropout(const char* name, std::optional<double> def = std::nullopt);  // at least 0, less than 1
    bool boolean(const char* name, bool def);

    // The shape of a nested array of numbers with the given number of dimensions (0 = any from 1 to
    // 4), read from its first entries; tensor() checks the rest while it copies the numbers.
    Shape tensor_shape(const char* name, int dims);
    // The numbers of a field whose shape tensor_shape() gave; with `finite`, "inf", "-inf" and "nan"
    // are refused.
    Tensor tensor(const char* name, const Shape& shape, bool finite = false);
    // torch.rand's size: up to 4 whole numbers, none negative, within the element limit.
    Shape shape();

private:
    const json::Value& j_;
    std::vector<std::string> read_ = {"op"};

    const json::Value* find(const char* name);
};

// A request's text, within the size limit, checked (no NUL byte, no deep nesting) and parsed; throws
// Error with a sentence otherwise (request.cpp).
json::Value parse_request(const std::string& request_json);

// A value from the request, quoted for an error sentence: at most about 80 characters of it
// (checks::excerpt), with NUL and quotes escaped.
std::string quoted(const std::string& s);

}  // namespace attn
