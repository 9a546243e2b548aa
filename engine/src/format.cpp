// A line-by-line port of PyTorch 1.13's torch/_tensor_str.py with the default print options
// (precision 4, threshold 1000, edgeitems 3, linewidth 80). Values are formatted as the doubles
// their float32 bits represent, exactly as Python's format() does.
#include "attn/format.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

namespace attn {

namespace {

constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 80;

std::string printf_double(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

// Python's '{:.Nf}' / '{:.Ne}' / '{:.0f}'; Python never prints a sign on nan.
std::string py_format(double v, char style, int precision) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char fmt[16];
    std::snprintf(fmt, sizeof fmt, "%%.%d%c", precision, style);
    return printf_double(fmt, v);
}

// torch._tensor_str._Formatter for a floating tensor
struct Formatter {
    bool int_mode = true;
    bool sci_mode = false;
    size_t max_width = 1;

    explicit Formatter(const std::vector<float>& values) {
        std::vector<double> finite;  // nonzero finite values
        for (float v : values) {
            if (std::isfinite(v) && v != 0.0f) finite.push_back(static_cast<double>(v));
        }
        if (finite.empty()) return;
        double lo = std::fabs(finite[0]), hi = lo;
        for (double v : finite) {
            lo = std::min(lo, std::fabs(v));
            hi = std::max(hi, std::fabs(v));
        }
        for (double v : finite) {
            if (v != std::ceil(v)) {
                int_mode = false;
                break;
            }
        }
        if (int_mode) {
            if (hi / lo > 1000.0 || hi > 1.0e8) {
                sci_mode = true;
                for (double v : finite) max_width = std::max(max_width, py_format(v, 'e', kPrecision).size());
            } else {
                for (double v : finite) max_width = std::max(max_width, py_format(v, 'f', 0).size() + 1);
            }
        } else if (hi / lo > 1000.0 || hi > 1.0e8 || lo < 1.0e-4) {
            sci_mode = true;
            for (double v : finite) max_width = std::max(max_width, py_format(v, 'e', kPrecision).size());
        } else {
            for (double v : finite) max_width = std::max(max_width, py_format(v, 'f', kPrecision).size());
        }
    }

    std::string format(float value) const {
        double v = static_cast<double>(value);
        std::string ret;
        if (sci_mode) {
            ret = py_format(v, 'e', kPrecision);
        } else if (int_mode) {
            ret = py_format(v, 'f', 0);
            if (std::isfinite(v)) ret += ".";
        } else {
            ret = py_format(v, 'f', kPrecision);
        }
        if (ret.size() < max_width) ret.insert(0, max_width - ret.size(), ' ');
        return ret;
    }
};

// A strided view into the tensor's data: the sub-tensor at `offset` with dims [dim, ndim).
struct Sub {
    const Tensor& t;
    std::vector<int64_t> strides;
};

// torch._tensor_str.get_summarized_data, flattened: the values a summarised print shows.
void collect_summarized(const Sub& s, int dim, int64_t offset, bool summarize, std::vector<float>& out) {
    int64_t n = s.t.shape[dim];
    auto visit = [&](int64_t i) {
        if (dim + 1 == s.t.dim()) out.push_back(s.t.data[offset + i]);
        else collect_summarized(s, dim + 1, offset + i * s.strides[dim], summarize, out);
    };
    if (summarize && n > 2 * kEdgeItems) {
        for (int64_t i = 0; i < kEdgeItems; i++) visit(i);
        for (int64_t i = n - kEdgeItems; i < n; i++) visit(i);
    } else {
        for (int64_t i = 0; i < n; i++) visit(i);
    }
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); i++) {
        if (i) out += sep;
        out += parts[i];
    }
    return out;
}

std::string vector_str(const Sub& s, int64_t offset, int indent, bool summarize, const Formatter& f) {
    // length includes spaces and comma between elements
    size_t element_length = f.max_width + 2;
    size_t elements_per_line =
        std::max<size_t>(1, static_cast<size_t>((kLineWidth - indent) / static_cast<double>(element_length)));
    int64_t n = s.t.shape.back();
    std::vector<std::string> data;
    if (summarize && n > 2 * kEdgeItems) {
        for (int64_t i = 0; i < kEdgeItems; i++) data.push_back(f.format(s.t.data[offset + i]));
        data.push_back(" ...");
        for (int64_t i = n - kEdgeItems; i < n; i++) data.push_back(f.format(s.t.data[offset + i]));
    } else {
        for (int64_t i = 0; i < n; i++) data.push_back(f.format(s.t.data[offset + i]));
    }
    std::vector<std::string> lines;
    for (size_t i = 0; i < data.size(); i += elements_per_line) {
        std::vector<std::string> line(data.begin() + i, data.begin() + std::min(data.size(), i + elements_per_line));
        lines.push_back(join(line, ", "));
    }
    return "[" + join(lines, ",\n" + std::string(indent + 1, ' ')) + "]";
}

std::string tensor_str(const Sub& s, int dim, int64_t offset, int indent, bool summarize, const Formatter& f) {
    int ndim = s.t.dim() - dim;
    if (ndim == 1) return vector_str(s, offset, indent, summarize, f);
    int64_t n = s.t.shape[dim];
    std::vector<std::string> slices;
    auto slice = [&](int64_t i) {
        return tensor_str(s, dim + 1, offset + i * s.strides[dim], indent + 1, summarize, f);
    };
    if (summarize && n > 2 * kEdgeItems) {
        for (int64_t i = 0; i < kEdgeItems; i++) slices.push_back(slice(i));
        slices.push_back("...");
        for (int64_t i = n - kEdgeItems; i < n; i++) slices.push_back(slice(i));
    } else {
        for (int64_t i = 0; i < n; i++) slices.push_back(slice(i));
    }
    std::string sep = "," + std::string(static_cast<size_t>(ndim - 1), '\n') + std::string(indent + 1, ' ');
    return "[" + join(slices, sep) + "]";
}

std::string shape_tuple(const Shape& shape) {
    std::string out = "(";
    for (size_t i = 0; i < shape.size(); i++) out += (i ? ", " : "") + std::to_string(shape[i]);
    if (shape.size() == 1) out += ",";
    return out + ")";
}

// torch._tensor_str._add_suffixes
std::string add_suffixes(const std::string& tensor_str, const std::vector<std::string>& suffixes, int indent) {
    std::string out = tensor_str;
    size_t nl = tensor_str.rfind('\n');
    // Python: len(s) - s.rfind('\n') + 1, where rfind gives -1 when there is no newline
    ptrdiff_t last_line_len = static_cast<ptrdiff_t>(tensor_str.size()) - (nl == std::string::npos ? -1 : static_cast<ptrdiff_t>(nl)) + 1;
    for (const std::string& suffix : suffixes) {
        ptrdiff_t suffix_len = static_cast<ptrdiff_t>(suffix.size());
        if (last_line_len + suffix_len + 2 > kLineWidth) {
            out += ",\n" + std::string(indent, ' ') + suffix;
            last_line_len = indent + suffix_len;
        } else {
            out += ", " + suffix;
            last_line_len += suffix_len + 2;
        }
    }
    return out + ")";
}

}  // namespace

std::string format_tensor(const Tensor& t, bool with_grad_fn) {
    const std::string prefix = "tensor(";
    const int indent = static_cast<int>(prefix.size());
    std::vector<std::string> suffixes;
    std::string body;
    if (t.numel() == 0) {
        // PyTorch spells out the shape of an empty tensor unless it is (0,)
        if (t.dim() != 1) suffixes.push_back("size=" + shape_tuple(t.shape));
        body = "[]";
    } else if (t.dim() == 0) {
        body = Formatter(t.data).format(t.data[0]);
    } else {
        Sub s{t, std::vector<int64_t>(t.dim(), 1)};
        for (int i = t.dim() - 2; i >= 0; i--) s.strides[i] = s.strides[i + 1] * t.shape[i + 1];
        bool summarize = t.numel() > kThreshold;
        std::vector<float> shown;
        if (summarize) collect_summarized(s, 0, 0, true, shown);
        Formatter f(summarize ? shown : t.data);
        body = tensor_str(s, 0, 0, indent, summarize, f);
    }
    if (with_grad_fn) {
        if (!t.grad_fn.empty()) suffixes.push_back("grad_fn=<" + t.grad_fn + ">");
        else if (t.requires_grad) suffixes.push_back("requires_grad=True");
    }
    return add_suffixes(prefix + body, suffixes, indent);
}

std::string format_size(const Shape& shape) {
    std::string out = "torch.Size([";
    for (size_t i = 0; i < shape.size(); i++) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "])";
}

}  // namespace attn
