// The engine's JSON text out (json_out.h): result objects, book cells and the page's section cells.
// float_text, the shortest float text, is core/float_text.cpp's.
#include "requests/json_out.h"

#include <algorithm>

#include "core/format.h"

namespace attn {

namespace {

std::string sizes_json(const Shape& shape) {
    std::string out = "[";
    for (size_t i = 0; i < shape.size(); i++) out += (i ? "," : "") + std::to_string(shape[i]);
    return out + "]";
}

}  // namespace

Utf8Span utf8_at(const std::string& s, size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    size_t need;  // continuation bytes
    unsigned lo = 0x80, hi = 0xBF;  // the range of the first continuation byte
    if (b >= 0xC2 && b <= 0xDF) need = 1;
    else if (b == 0xE0) need = 2, lo = 0xA0;
    else if (b == 0xED) need = 2, hi = 0x9F;
    else if (b >= 0xE1 && b <= 0xEF) need = 2;
    else if (b == 0xF0) need = 3, lo = 0x90;
    else if (b == 0xF4) need = 3, hi = 0x8F;
    else if (b >= 0xF1 && b <= 0xF3) need = 3;
    else return {0, 0};
    for (size_t k = 1; k <= need; k++) {
        if (i + k >= s.size()) return {0, k};
        const auto c = static_cast<unsigned char>(s[i + k]);
        if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) return {0, k};
    }
    return {need + 1, need + 1};
}

// Text is escaped a byte at a time (as JSON.stringify does, but non-ASCII kept as UTF-8); ill-formed
// UTF-8, which a sentence quoting raw request bytes may hold, becomes U+FFFD. Prints are most of a
// `train` answer, so this runs often.
std::string json_quote(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 8);
    out += '"';
    for (size_t i = 0; i < s.size(); i++) {
        const char c = s[i];
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80) {
            const Utf8Span span = utf8_at(s, i);
            if (span.whole) out.append(s, i, span.whole);
            else out += "\xEF\xBF\xBD";  // U+FFFD for the longest well-formed start, or the one byte
            i += std::max<size_t>(1, span.whole ? span.whole : span.prefix) - 1;
            continue;
        }
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 && (c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r')) {
            out += '\\';  // the short escapes JSON.stringify writes
            out += c == '\b' ? 'b' : c == '\t' ? 't' : c == '\n' ? 'n' : c == '\f' ? 'f' : 'r';
        } else if (u < 0x20) {
            static const char hex[] = "0123456789abcdef";
            const char esc[] = {'\\', 'u', '0', '0', hex[u >> 4], hex[u & 15]};
            out.append(esc, sizeof esc);
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

namespace {

// {"shape":[...],"values":[... — the common start of result_json and values_json
std::string shape_and_values(const Tensor& t) {
    std::string out = cat({"{\"shape\":", sizes_json(t.shape), ",\"values\":["});
    out.reserve(out.size() + t.data.size() * 12 + 16);
    for (size_t i = 0; i < t.data.size(); i++) {
        if (i) out += ',';
        out += float_text(t.data[i]);
    }
    out += ']';
    return out;
}

}  // namespace

std::string values_json(const Tensor& t) { return shape_and_values(t) + "}"; }

namespace {
void nested(const Tensor& t, size_t dim, size_t& at, std::string& out) {
    out += '[';
    for (int64_t i = 0; i < t.shape[dim]; i++) {
        if (i) out += ',';
        if (dim + 1 == t.shape.size()) out += float_text(t.data[at++]);
        else nested(t, dim + 1, at, out);
    }
    out += ']';
}
}  // namespace

std::string nested_json(const Tensor& t) {
    std::string out;
    size_t at = 0;
    if (t.shape.empty()) return float_text(t.data.at(0));
    nested(t, 0, at, out);
    return out;
}

std::string result_json(const Tensor& t) {
    std::string out = shape_and_values(t);
    out += ",\"print\":";
    out += json_quote(format_tensor(t, false));
    // what print(module(x)) shows in PyTorch: the same text with the autograd suffix
    if (!t.grad_fn.empty()) {
        out += ",\"grad_fn\":";
        out += json_quote(t.grad_fn);
        out += ",\"print_with_grad_fn\":";
        out += json_quote(format_tensor(t, true));
    }
    out += '}';
    return out;
}

namespace {

// every cell's values are float32s (sizes and counts included, all below 2^24)
std::string cell_values(const BookCell& cell) {
    std::string out = "[";
    for (size_t i = 0; i < cell.values.size(); i++) out += (i ? "," : "") + float_text(static_cast<float>(cell.values[i]));
    return out + "]";
}

}  // namespace

std::string cells_json(const std::vector<BookCell>& cells) {
    std::string out = "[";
    for (const BookCell& cell : cells) {
        if (out.size() > 1) out += ",";
        out += cat({"{\"id\":", json_quote(cell.id), ",\"label\":", (cell.label ? json_quote(*cell.label) : "null"),
               ",\"print\":", json_quote(cell.print), ",\"shape\":", sizes_json(cell.shape),
               ",\"values\":", cell_values(cell), "}"});
    }
    return out + "]";
}

std::string refusal_params_json(const Refusal& refusal) {
    std::string out = "{";
    for (const auto& [name, text] : refusal.params) out += (out.size() > 1 ? "," : "") + json_quote(name) + ":" + json_quote(text);
    return out + "}";
}

std::string refusal_json(const Refusal& refusal) {
    std::string out = "{\"error\":" + json_quote(refusal.sentence);
    if (!refusal.key.empty()) out += ",\"error_key\":" + json_quote(refusal.key) + ",\"error_params\":" + refusal_params_json(refusal);
    return out + "}";
}

std::string section_cells_json(const std::vector<BookCell>& cells) {
    std::string out = "{";
    for (const BookCell& c : cells) {
        if (out.size() > 1) out += ",";
        out += json_quote(c.id) + ":";
        if (!c.error.empty()) {
            out += refusal_json(c.error);
            continue;
        }
        out += cat({"{\"shape\":", sizes_json(c.shape), ",\"values\":", cell_values(c), ",\"print\":", json_quote(c.print_plain)});
        if (!c.grad_fn.empty()) out += cat({",\"grad_fn\":", json_quote(c.grad_fn), ",\"print_with_grad_fn\":", json_quote(c.print)});
        if (c.label) out += ",\"label\":" + json_quote(*c.label);
        out += cat({",\"line\":", json_quote(c.print_line()), "}"});
    }
    return out + "}";
}

}  // namespace attn
