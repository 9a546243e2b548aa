// The engine's JSON text out (json_out.h): result objects and book cells. float_text, the shortest
// float text, is float_text.cpp's.
#include "requests/json_out.h"

#include <nlohmann/json.hpp>

#include "core/format.h"

namespace attn {

namespace {

std::string sizes_json(const Shape& shape) {
    std::string out = "[";
    for (size_t i = 0; i < shape.size(); i++) out += (i ? "," : "") + std::to_string(shape[i]);
    return out + "]";
}

}  // namespace

// ASCII text (every print is) is escaped here, a byte at a time; anything else goes through nlohmann,
// which also replaces invalid UTF-8. Prints are most of a `train` answer, so this runs often.
std::string json_quote(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 8);
    out += '"';
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80) return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 && (c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r')) {
            out += '\\';  // the short escapes nlohmann writes
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
    std::string out = "{\"shape\":" + sizes_json(t.shape) + ",\"values\":[";
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

std::string cells_json(const std::vector<BookCell>& cells) {
    std::string out = "[";
    for (const BookCell& cell : cells) {
        if (out.size() > 1) out += ",";
        out += "{\"id\":" + json_quote(cell.id) + ",\"label\":" + (cell.label ? json_quote(*cell.label) : "null") +
               ",\"print\":" + json_quote(cell.print) + ",\"shape\":" + sizes_json(cell.shape) + ",\"values\":[";
        // every cell's values are float32s (sizes and counts included, all below 2^24)
        for (size_t i = 0; i < cell.values.size(); i++) out += (i ? "," : "") + float_text(static_cast<float>(cell.values[i]));
        out += "]}";
    }
    return out + "]";
}

}  // namespace attn
