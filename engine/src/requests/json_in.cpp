// The JSON reader (json_in.h): one pass of recursive descent over the text, every refusal a sentence.
#include "requests/json_in.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/decimal.h"
#include "core/tensor.h"  // attn::Error
#include "requests/json_out.h"
#include "rules/checks.h"

namespace attn::json {

const std::string& Value::empty_text() {
    static const std::string empty;
    return empty;
}

const std::vector<Value>& Value::items() const {
    static const std::vector<Value> none;
    return payload_ ? payload_->items : none;
}

const std::vector<std::pair<std::string, Value>>& Value::members() const {
    static const std::vector<std::pair<std::string, Value>> none;
    return payload_ ? payload_->members : none;
}

std::string Value::number_text() const {
    return payload_ ? payload_->text : std::string(inline_, inline_len_);
}

uint64_t Value::magnitude() const {
    const std::string text = number_text();
    uint64_t m = 0;
    for (char c : text)
        if (c >= '0' && c <= '9') m = m * 10 + static_cast<uint64_t>(c - '0');  // integer_: it fits
    return m;
}

std::optional<int64_t> Value::int64() const {
    if (!is_integer()) return std::nullopt;
    const uint64_t magnitude_ = magnitude();
    if (!negative_) {
        if (magnitude_ > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
        return static_cast<int64_t>(magnitude_);
    }
    if (magnitude_ > uint64_t(1) << 63) return std::nullopt;
    return static_cast<int64_t>(0 - magnitude_);  // two's complement: -2^63 included
}

std::optional<uint64_t> Value::uint64() const {
    if (!is_integer() || negative_) return std::nullopt;
    return magnitude();
}

const Value* Value::find(const std::string& key) const {
    for (const auto& [k, v] : members()) {
        if (k == key) return &v;
    }
    return nullptr;
}

std::string Value::dump() const {
    switch (kind_) {
    case Kind::null: return "null";
    case Kind::boolean: return boolean_ ? "true" : "false";
    case Kind::number: return number_text();
    case Kind::string: return json_quote(string());
    case Kind::array: {
        std::string out = "[";
        for (const Value& v : items()) out += (out.size() > 1 ? "," : "") + v.dump();
        return out + "]";
    }
    case Kind::object: {
        std::string out = "{";
        for (const auto& [k, v] : members()) out += (out.size() > 1 ? "," : "") + json_quote(k) + ":" + v.dump();
        return out + "}";
    }
    }
    return "null";
}

class Parser {
public:
    explicit Parser(const std::string& text) : s_(text) {}

    Value document() {
        if (s_.compare(0, 3, "\xEF\xBB\xBF") == 0) i_ = 3;  // a UTF-8 byte order mark, as editors write it
        Value v = value(0);
        skip_space();
        if (i_ != s_.size()) fail("there is more text after the JSON value");
        return v;
    }

private:
    const std::string& s_;
    size_t i_ = 0;
    // Far beyond what parse_request's own depth check lets through; only keeps the stack bounded.
    static constexpr int kStackDepth = 512;

    [[noreturn]] void fail(const std::string& what) const {
        const std::string at = i_ < s_.size() ? "; last read: '" + checks::excerpt(s_.substr(i_, 40)) + "'" : "";
        attn::fail({"the request is not valid JSON (at byte ", i_, ": ", what, at, ")"});
    }

    void skip_space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) i_++;
    }

    bool take(char c) {
        skip_space();
        if (i_ < s_.size() && s_[i_] == c) {
            i_++;
            return true;
        }
        return false;
    }

    Value value(int depth) {
        skip_space();
        if (i_ >= s_.size()) fail("the text ends where a value should be");
        if (depth > kStackDepth) fail("arrays or objects nest too deeply");
        Value v;
        const char c = s_[i_];
        if (c == '{') {
            i_++;
            v.kind_ = Value::Kind::object;
            if (take('}')) return v;
            do {
                skip_space();
                if (i_ >= s_.size() || s_[i_] != '"') fail("expected a key in quotes");
                std::string key = string();
                for (const auto& member : v.members()) {
                    if (member.first == key) {
                        attn::fail({"the request has the key ", json_quote(checks::excerpt(key)),
                                    " twice in one object; give each field once"});
                    }
                }
                if (!take(':')) fail("expected ':' after a key");
                Value member = value(depth + 1);
                v.own().members.emplace_back(std::move(key), std::move(member));
            } while (take(','));
            if (!take('}')) fail("expected ',' or '}' in an object");
        } else if (c == '[') {
            i_++;
            v.kind_ = Value::Kind::array;
            if (take(']')) return v;
            std::vector<Value>& items = v.own().items;
            do {
                items.push_back(value(depth + 1));
            } while (take(','));
            if (!take(']')) fail("expected ',' or ']' in an array");
        } else if (c == '"') {
            v.kind_ = Value::Kind::string;
            v.own().text = string();
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            number(v);
        } else if (s_.compare(i_, 4, "true") == 0 || s_.compare(i_, 5, "false") == 0) {
            v.kind_ = Value::Kind::boolean;
            v.boolean_ = c == 't';
            i_ += v.boolean_ ? 4 : 5;
        } else if (s_.compare(i_, 4, "null") == 0) {
            i_ += 4;
        } else {
            fail("expected a value");
        }
        return v;
    }

    bool digit() const { return i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9'; }

    void number(Value& v) {
        const size_t start = i_;
        v.kind_ = Value::Kind::number;
        v.negative_ = s_[i_] == '-';
        if (v.negative_) i_++;
        if (!digit()) fail("expected a digit");
        bool overflow = false;
        uint64_t magnitude = 0;
        if (s_[i_] == '0') {
            i_++;
        } else {
            while (digit()) {
                const uint64_t d = static_cast<uint64_t>(s_[i_++] - '0');
                if (magnitude > (std::numeric_limits<uint64_t>::max() - d) / 10) overflow = true;
                else magnitude = magnitude * 10 + d;
            }
        }
        bool fraction = false;
        if (i_ < s_.size() && s_[i_] == '.') {
            i_++;
            if (!digit()) fail("expected a digit after '.'");
            while (digit()) i_++;
            fraction = true;
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            i_++;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) i_++;
            if (!digit()) fail("expected a digit in the exponent");
            while (digit()) i_++;
            fraction = true;
        }
        const size_t length = i_ - start;
        if (length <= Value::kInline) {
            std::memcpy(v.inline_, s_.data() + start, length);
            v.inline_len_ = static_cast<uint8_t>(length);
        } else {
            v.own().text.assign(s_, start, length);
        }
        // a whole number that fits int64 or uint64 is kept exactly; a larger one is read as a double
        v.integer_ = !fraction && !overflow && (!v.negative_ || magnitude <= uint64_t(1) << 63);
        v.number_ = decimal_to_double(s_.data() + start, length);
        if (std::isinf(v.number_)) {
            attn::fail({"the request has a number too large for a double (", checks::excerpt(s_.substr(start, length)),
                        "); numbers must be within ±1.7976931348623157e308, or write \"inf\", \"-inf\""});
        }
    }

    unsigned hex4() {
        unsigned u = 0;
        for (int k = 0; k < 4; k++, i_++) {
            const char h = i_ < s_.size() ? s_[i_] : '\0';
            const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
            if (d < 0) fail("\\u must be followed by four hexadecimal digits");
            u = u * 16 + static_cast<unsigned>(d);
        }
        return u;
    }

    static void append_utf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::string string() {
        i_++;  // the opening quote
        std::string out;
        for (;;) {
            if (i_ >= s_.size()) fail("a string is not closed");
            const auto c = static_cast<unsigned char>(s_[i_]);
            if (c == '"') {
                i_++;
                return out;
            }
            if (c < 0x20) fail("a string holds a control character; write it escaped, e.g. \\n");
            if (c >= 0x80) {
                const size_t n = utf8_at(s_, i_).whole;
                if (!n) fail("a string holds bytes that are not UTF-8");
                out.append(s_, i_, n);
                i_ += n;
                continue;
            }
            if (c != '\\') {
                out += static_cast<char>(c);
                i_++;
                continue;
            }
            i_++;
            const char e = i_ < s_.size() ? s_[i_] : '\0';
            const char* simple = "\"\\/bfnrt";
            const char* plain = "\"\\/\b\f\n\r\t";
            bool done = false;
            for (int k = 0; simple[k]; k++) {
                if (e == simple[k]) {
                    out += plain[k];
                    i_++;
                    done = true;
                    break;
                }
            }
            if (done) continue;
            if (e != 'u') fail("a string has an unknown escape");
            i_++;
            unsigned cp = hex4();
            if (cp >= 0xDC00 && cp <= 0xDFFF) fail("a string has a low surrogate \\u escape without a high one before it");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (s_.compare(i_, 2, "\\u") != 0) fail("a high surrogate \\u escape must be followed by a low one");
                i_ += 2;
                const unsigned low = hex4();
                if (low < 0xDC00 || low > 0xDFFF) fail("a high surrogate \\u escape must be followed by a low one");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            append_utf8(out, cp);
        }
    }
};

Value parse(const std::string& text) { return Parser(text).document(); }

}  // namespace attn::json
static_assert(sizeof(attn::json::Value) <= 32, "a JSON value stays 32 bytes: 4 MiB of \"0,\" is 2 million of them");
