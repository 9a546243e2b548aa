// The engine's JSON reader: a request's text (RFC 8259, strictly) into a small tree for Request
// (request_fields.h). Strict where a lenient parser would guess: a key twice in one object, a number
// beyond a double (1e999), ill-formed UTF-8 and anything after the value are refused, each with a
// sentence. Its own, instead of a general library, to keep the WebAssembly engines small.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attn::json {

// 32 bytes a value (issue 43: at 112, 4 MiB of "0," peaked at 300 MB): a number's text inline when
// short, anything larger (a string, a long number's text, an array's items, an object's members) in
// one heap block.
class Value {
public:
    enum class Kind : uint8_t { null, boolean, number, string, array, object };

    Value() = default;
    Value(const Value& o) { *this = o; }
    Value(Value&& o) noexcept = default;
    Value& operator=(const Value& o) {
        if (this == &o) return *this;
        kind_ = o.kind_;
        boolean_ = o.boolean_;
        integer_ = o.integer_;
        negative_ = o.negative_;
        inline_len_ = o.inline_len_;
        std::memcpy(inline_, o.inline_, sizeof inline_);
        number_ = o.number_;
        payload_ = o.payload_ ? std::make_unique<Payload>(*o.payload_) : nullptr;
        return *this;
    }
    Value& operator=(Value&& o) noexcept = default;

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
    const std::string& string() const { return payload_ ? payload_->text : empty_text(); }  // a string's text (UTF-8)

    // An array's entries or an object's members, in the text's order.
    size_t size() const { return kind_ == Kind::object ? members().size() : items().size(); }
    bool empty() const { return size() == 0; }
    const Value& operator[](size_t i) const { return items()[i]; }
    const std::vector<Value>& items() const;
    const std::vector<std::pair<std::string, Value>>& members() const;
    const Value* find(const std::string& key) const;  // an object's member, or nullptr

    // Compact JSON text of the value, numbers as the request wrote them (for sentences).
    std::string dump() const;

private:
    friend class Parser;
    struct Payload {
        std::string text;  // a string's text, or a number's as written when longer than kInline
        std::vector<Value> items;
        std::vector<std::pair<std::string, Value>> members;
    };
    static constexpr size_t kInline = 11;
    static const std::string& empty_text();
    Payload& own() {
        if (!payload_) payload_ = std::make_unique<Payload>();
        return *payload_;
    }
    std::string number_text() const;  // a number as written
    uint64_t magnitude() const;       // of an integer: its digits' value

    Kind kind_ = Kind::null;
    bool boolean_ = false;
    bool integer_ = false, negative_ = false;
    uint8_t inline_len_ = 0;
    char inline_[kInline] = {};  // a number's text, when it has at most kInline characters
    double number_ = 0;
    std::unique_ptr<Payload> payload_;
};

// The value of a whole text; throws attn::Error with a sentence when it is not one JSON value.
// (parse_request checks the nesting depth and NUL bytes first, with sentences of their own.)
Value parse(const std::string& text);

}  // namespace attn::json
