// The engine's JSON reader: a request's text (RFC 8259, strictly) into a small tree for Request
// (request_fields.h). Strict where a lenient parser would guess: a key twice in one object, a number
// beyond a double (1e999), ill-formed UTF-8 and anything after the value are refused, each with a
// sentence. Its own, instead of a general library, to keep the WebAssembly engines small.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attn::json {

class Value {
public:
    enum class Kind { null, boolean, number, string, array, object };

    Kind kind() const { return kind_; }
    bool is_null() const { return kind_ == Kind::null; }
    bool is_boolean() const { return kind_ == Kind::boolean; }
    bool is_number() const { return kind_ == Kind::number; }
    bool is_string() const { return kind_ == Kind::string; }
    bool is_array() const { return kind_ == Kind::array; }
    bool is_object() const { return kind_ == Kind::object; }

    bool boolean() const { return boolean_; }
    // A number's value as a double (what JavaScript reads).
    double number() const { return number_; }
    // A number written as a whole number (no fraction, no exponent) that fits: as int64, or as
    // uint64 when it is not negative. nullopt for any other value.
    std::optional<int64_t> int64() const;
    std::optional<uint64_t> uint64() const;
    bool is_integer() const { return kind_ == Kind::number && integer_; }
    const std::string& string() const { return text_; }  // a string's text (UTF-8)

    // An array's entries or an object's members, in the text's order.
    size_t size() const { return kind_ == Kind::object ? members_.size() : items_.size(); }
    bool empty() const { return size() == 0; }
    const Value& operator[](size_t i) const { return items_[i]; }
    const std::vector<Value>& items() const { return items_; }
    const std::vector<std::pair<std::string, Value>>& members() const { return members_; }
    const Value* find(const std::string& key) const;  // an object's member, or nullptr

    // Compact JSON text of the value, numbers as the request wrote them (for sentences).
    std::string dump() const;

private:
    friend class Parser;
    Kind kind_ = Kind::null;
    bool boolean_ = false;
    bool integer_ = false, negative_ = false;
    uint64_t magnitude_ = 0;  // of an integer
    double number_ = 0;
    std::string text_;        // a string's text, or a number's as written
    std::vector<Value> items_;
    std::vector<std::pair<std::string, Value>> members_;
};

// The value of a whole text; throws attn::Error with a sentence when it is not one JSON value.
// (parse_request checks the nesting depth and NUL bytes first, with sentences of their own.)
Value parse(const std::string& text);

}  // namespace attn::json
