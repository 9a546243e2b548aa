// The one reader of a request's fields, shared by every `eval` op (request.cpp, request_train.cpp):
// each field read by name, checked, and turned into a sentence naming it when it is wrong. Reads are
// remembered, so an op whose fields depend on its module (grad, train) can refuse the rest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tensor.h"

namespace attn {

class Request {
public:
    explicit Request(const nlohmann::json& j);  // throws unless j is an object

    // Any field the op does not take is probably a typo: refused, by exact name, before computing.
    void reject_unknown_fields(const std::string& op, const std::vector<const char*>& fields) const;
    // The same, for an op that takes exactly the fields it has read ("op" among them).
    void reject_unread_fields(const std::string& op) const;

    std::string op();
    std::string text(const char* name);
    int64_t integer(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> def = std::nullopt);
    uint64_t seed();  // torch.manual_seed takes any 64-bit integer; negative seeds wrap as two's complement
    // A number, or "inf", "-inf", "nan".
    double number(const char* name, std::optional<double> def = std::nullopt);
    // A finite number at least `lo` (and below `below`, when given).
    double finite_number(const char* name, double lo, std::optional<double> def, std::optional<double> below = std::nullopt);
    double dropout(const char* name, std::optional<double> def = std::nullopt);  // at least 0, less than 1
    bool boolean(const char* name, bool def);

    // The shape of a nested array of numbers with the given number of dimensions (0 = any from 1 to
    // 4), read from its first entries; tensor() checks the rest while it copies the numbers.
    Shape tensor_shape(const char* name, int dims);
    // The numbers of a field whose shape tensor_shape() gave.
    Tensor tensor(const char* name, const Shape& shape);
    // torch.rand's size: up to 4 whole numbers, none negative, within the element limit.
    Shape shape();

private:
    const nlohmann::json& j_;
    std::vector<std::string> read_ = {"op"};

    const nlohmann::json* find(const char* name);
};

// A request's text, within the size limit, checked (no NUL byte, no deep nesting) and parsed; throws
// Error with a sentence otherwise (request.cpp).
nlohmann::json parse_request(const std::string& request_json);

// A value from the request, quoted for an error sentence: at most about 80 characters of it
// (checks::excerpt), with NUL and quotes escaped.
std::string quoted(const std::string& s);

}  // namespace attn
