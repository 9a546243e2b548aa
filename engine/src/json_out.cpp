// The engine's JSON text out (json_out.h): result objects and book cells. float_text, the shortest
// float text, is float_text.cpp's.
#include "json_out.h"

#include <nlohmann/json.hpp>

#include "attn/format.h"

namespace attn {

namespace {

std::string sizes_json(const Shape& shape) {
    std::string out = "[";
    for (size_t i = 0; i < shape.size(); i++) out += (i ? "," : "") + std::to_string(shape[i]);
    return out + "]";
}

}  // namespace

std::string json_quote(const std::string& s) { return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

std::string result_json(const Tensor& t) {
    std::string out = "{\"shape\":" + sizes_json(t.shape) + ",\"values\":[";
    for (size_t i = 0; i < t.data.size(); i++) {
        if (i) out += ',';
        out += float_text(t.data[i]);
    }
    out += "],\"print\":" + json_quote(format_tensor(t, false));
    // what print(module(x)) shows in PyTorch: the same text with the autograd suffix
    if (!t.grad_fn.empty()) {
        out += ",\"grad_fn\":" + json_quote(t.grad_fn) + ",\"print_with_grad_fn\":" + json_quote(format_tensor(t, true));
    }
    return out + "}";
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
