// A line-by-line port of PyTorch 1.13's torch/_tensor_str.py with the default print options
// (precision 4, threshold 1000, edgeitems 3, linewidth 80). Values are formatted as the doubles
// their float32 bits represent, exactly as Python's format() does.
#include "core/format.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/decimal.h"

namespace attn {

namespace {

constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 80;

// Exact powers of ten as doubles (10^22 is the largest).
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// The digits of n, at least `width` of them (zero-padded), appended to out.
void append_digits(std::string& out, uint64_t n, int width) {
    char buf[24];
    int len = 0;
    do {
        buf[len++] = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n);
    while (len < width) buf[len++] = '0';
    while (len) out += buf[--len];
}

}  // namespace

// '{:.Nf}' and '{:.4e}' without printf: Emscripten's printf formats through software 128-bit long
// doubles (~20 µs a number), which made printing most of a `train` run's time. Both round the exact
// binary value half to even, as printf does. Fixed: a float32 times 10^N (N ≤ 4, |v| < 1e15) is exact in
// a double, so rint rounds it exactly. Scientific: v · 10^(4−k), in steps of at most 10^22 (a tiny softmax
// weight needs 10^49), is a few roundings away from exact (relative error < 2^-50); when it lies within
// 1e-6 of a half, an FMA tells whether the product was exact (then its half is a tie, rounded to even) and
// only an inexact near-half goes to printf_double's big integers (issue 43: every value below 1e-18 did).
// Writes at most 63 characters and a NUL into buf; returns the length.
size_t python_format_to(char* buf, double v, char style, int precision) {
    auto put = [buf](const char* text) {
        const size_t n = std::strlen(text);
        std::memcpy(buf, text, n + 1);
        return n;
    };
    if (std::isnan(v)) return put("nan");
    if (std::isinf(v)) return put(v > 0 ? "inf" : "-inf");
    const double a = std::fabs(v);
    std::string out = std::signbit(v) ? "-" : "";
    if (style == 'f' && precision >= 0 && precision <= 4 && a < 1e15) {
        const uint64_t n = static_cast<uint64_t>(std::rint(a * kPow10[precision]));
        const uint64_t unit = static_cast<uint64_t>(kPow10[precision]);
        append_digits(out, n / unit, 1);
        if (precision > 0) {
            out += '.';
            append_digits(out, n % unit, precision);
        }
        return put(out.c_str());
    }
    if (style == 'e' && precision == 4) {
        if (a == 0.0) return put(std::signbit(v) ? "-0.0000e+00" : "0.0000e+00");
        int k = static_cast<int>(std::floor(std::log10(a)));
        for (int tries = 0; tries < 3; tries++) {
            const int j = 4 - k;  // scale so that 5 significant digits are left of the point
            double scaled = a;
            int rest = j;
            for (; rest > 22; rest -= 22) scaled *= 1e22;
            for (; rest < -22; rest += 22) scaled /= 1e22;
            const bool one_step = rest == j;  // a single product or quotient: its exactness can be checked
            scaled = rest >= 0 ? scaled * kPow10[rest] : scaled / kPow10[-rest];
            if (scaled < 1e4) { k--; continue; }
            if (scaled >= 1e5) { k++; continue; }
            double whole = std::floor(scaled);
            const double frac = scaled - whole;
            if (std::fabs(frac - 0.5) < 1e-6) {
                // too near a half to be sure, unless the scaling was exact: then a half is a tie
                const bool exact = one_step && (j >= 0 ? std::fma(a, kPow10[j], -scaled) == 0.0
                                                       : std::fma(scaled, kPow10[-j], -a) == 0.0);
                if (!exact) break;  // the exact route rounds it
                if (frac > 0.5 || (frac == 0.5 && std::fmod(whole, 2.0) == 1.0)) whole += 1.0;
            } else if (frac > 0.5) {
                whole += 1.0;
            }
            uint64_t n = static_cast<uint64_t>(whole);
            int exp10 = k;
            if (n == 100000) { n = 10000; exp10++; }  // 9.99996 rounds to 1.0000e+01
            append_digits(out, n / 10000, 1);
            out += '.';
            append_digits(out, n % 10000, 4);
            out += exp10 < 0 ? "e-" : "e+";
            append_digits(out, static_cast<uint64_t>(exp10 < 0 ? -exp10 : exp10), 2);
            return put(out.c_str());
        }
    }
    const std::string text = printf_double(v, style, precision);
    const size_t n = std::min<size_t>(text.size(), 63);
    std::memcpy(buf, text.data(), n);
    buf[n] = '\0';
    return n;
}

std::string python_format(double v, char style, int precision) {
    char buf[64];
    return std::string(buf, python_format_to(buf, v, style, precision));
}

namespace {

// torch._tensor_str._Formatter for a floating tensor, given the values the print shows in the order it
// shows them. Each is formatted once (issue 43: the width pass and the print formatted each twice); the
// print then takes the texts in order, right-aligned to the widest.
class Formatter {
public:
    explicit Formatter(const std::vector<float>& values) {
        bool int_mode = true, sci_mode = false, any = false;
        double lo = 0, hi = 0;
        for (float f : values) {  // the nonzero finite values decide the style and the width
            if (!std::isfinite(f) || f == 0.0f) continue;
            const double a = std::fabs(static_cast<double>(f));
            lo = any ? std::min(lo, a) : a;
            hi = any ? std::max(hi, a) : a;
            any = true;
            if (int_mode && static_cast<double>(f) != std::ceil(static_cast<double>(f))) int_mode = false;
        }
        if (any) {
            if (int_mode) sci_mode = hi / lo > 1000.0 || hi > 1.0e8;
            else sci_mode = hi / lo > 1000.0 || hi > 1.0e8 || lo < 1.0e-4;
        } else {
            int_mode = true;  // only zeros and non-finite values: PyTorch's defaults
        }
        const char style = sci_mode ? 'e' : 'f';
        const int precision = sci_mode || !int_mode ? kPrecision : 0;
        const bool dot = int_mode && !sci_mode;  // "3." for an integer-valued print
        texts_.reserve(values.size() * 8);
        ends_.reserve(values.size());
        char buf[64];
        for (float f : values) {
            size_t n = python_format_to(buf, static_cast<double>(f), style, precision);
            if (dot && std::isfinite(f)) buf[n++] = '.';
            if (std::isfinite(f) && f != 0.0f) max_width_ = std::max(max_width_, n);
            texts_.append(buf, n);
            ends_.push_back(texts_.size());
        }
    }

    size_t max_width() const { return max_width_; }

    // Appends the next value's text, right-aligned to max_width.
    void append_next(std::string& out) const {
        const size_t begin = next_ ? ends_[next_ - 1] : 0, n = ends_[next_] - begin;
        next_++;
        if (n < max_width_) out.append(max_width_ - n, ' ');
        out.append(texts_, begin, n);
    }

private:
    std::string texts_;
    std::vector<size_t> ends_;
    size_t max_width_ = 1;
    mutable size_t next_ = 0;
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

// The next items of f (its texts are in the print's order), so no offset is needed here.
std::string vector_str(const Sub& s, int indent, bool summarize, const Formatter& f) {
    // length includes spaces and comma between elements
    size_t element_length = f.max_width() + 2;
    size_t elements_per_line =
        std::max<size_t>(1, static_cast<size_t>((kLineWidth - indent) / static_cast<double>(element_length)));
    const int64_t n = s.t.shape.back();
    // the items, " ..." one of them when summarised, joined by ", " within a line and by ",\n" + indent
    // between lines, written straight into one string
    const bool cut = summarize && n > 2 * kEdgeItems;
    const int64_t items = cut ? 2 * kEdgeItems + 1 : n;
    const std::string line_sep = ",\n" + std::string(static_cast<size_t>(indent + 1), ' ');
    std::string out = "[";
    out.reserve(static_cast<size_t>(items) * element_length + 2);
    for (int64_t item = 0; item < items; item++) {
        if (item) out += static_cast<size_t>(item) % elements_per_line == 0 ? line_sep : std::string(", ");
        if (cut && item == kEdgeItems) {
            out += " ...";
            continue;
        }
        f.append_next(out);
    }
    return out + "]";
}

std::string tensor_str(const Sub& s, int dim, int64_t offset, int indent, bool summarize, const Formatter& f) {
    int ndim = s.t.dim() - dim;
    if (ndim == 1) return vector_str(s, indent, summarize, f);
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
        body.clear();
        Formatter(t.data).append_next(body);
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
