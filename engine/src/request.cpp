// Parses and evaluates one `eval` request. Every field is checked, and every size against
// attn/limits.h, before the engine allocates; anything wrong becomes {"error": "<sentence>"}.
#include "attn/request.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <optional>
#include <nlohmann/json.hpp>

#include "attn/format.h"
#include "attn/limits.h"
#include "attn/modules.h"
#include "request_train.h"

namespace attn {

namespace {

using nlohmann::json;
namespace lim = attn::limits;

std::string error_json(const std::string& message) { return "{\"error\":" + json_quote(message) + "}"; }

// Refuse deep nesting before the parser sees it (the chapter's x is at most 4-D).
void check_depth(const std::string& text) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > lim::kMaxJsonDepth) {
                throw Error("the request nests arrays or objects more than " +
                            std::to_string(lim::kMaxJsonDepth) + " levels deep; x has at most 4 dimensions");
            }
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
}

class Request {
public:
    explicit Request(const json& j) : j_(j) {
        if (!j_.is_object()) throw Error("the request must be a JSON object like {\"op\": \"softmax\", ...}");
    }

    // Every field the op reads is marked used; anything left over is probably a typo.
    void reject_unknown_fields() const {
        for (auto it = j_.begin(); it != j_.end(); ++it) {
            if (used_.find("," + it.key() + ",") == std::string::npos) {
                throw Error("unknown field \"" + it.key() + "\" for op \"" + j_["op"].get<std::string>() +
                            "\"; the fields it takes are: " + fields_list());
            }
        }
    }

    std::string op() {
        mark("op");
        const json* v = find("op");
        if (!v) throw Error("the request needs an \"op\" field, e.g. \"op\": \"softmax\"");
        if (!v->is_string()) throw Error("\"op\" must be a string, e.g. \"softmax\"");
        return v->get<std::string>();
    }

    int64_t integer(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> def = std::nullopt) {
        mark(name);
        const json* v = find(name);
        if (!v) {
            if (def) return *def;
            throw Error(std::string("missing field \"") + name + "\": give a whole number from " +
                        std::to_string(lo) + " to " + std::to_string(hi));
        }
        int64_t out;
        if (v->is_number_integer() && !(v->is_number_unsigned() && v->get<uint64_t>() > uint64_t(INT64_MAX))) {
            out = v->get<int64_t>();
        } else if (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>() &&
                   std::fabs(v->get<double>()) < 9.0e15) {
            out = static_cast<int64_t>(v->get<double>());
        } else {
            throw Error(std::string("\"") + name + "\" must be a whole number from " + std::to_string(lo) +
                        " to " + std::to_string(hi));
        }
        if (out < lo || out > hi) {
            throw Error(std::string("\"") + name + "\" is " + std::to_string(out) + " but must be from " +
                        std::to_string(lo) + " to " + std::to_string(hi));
        }
        return out;
    }

    // torch.manual_seed takes any 64-bit integer; negative seeds wrap as two's complement.
    uint64_t seed() {
        mark("seed");
        const json* v = find("seed");
        if (!v) throw Error("missing field \"seed\": give a whole number, e.g. \"seed\": 123");
        if (v->is_number_unsigned()) return v->get<uint64_t>();
        if (v->is_number_integer()) return static_cast<uint64_t>(v->get<int64_t>());
        throw Error("\"seed\" must be a whole number from -9223372036854775808 to 18446744073709551615");
    }

    double number(const char* name, std::optional<double> def = std::nullopt) {
        mark(name);
        const json* v = find(name);
        if (!v) {
            if (def) return *def;
            throw Error(std::string("missing field \"") + name + "\": give a number");
        }
        return value_of(*v, name);
    }

    bool boolean(const char* name, bool def) {
        mark(name);
        const json* v = find(name);
        if (!v) return def;
        if (!v->is_boolean()) throw Error(std::string("\"") + name + "\" must be true or false");
        return v->get<bool>();
    }

    // A nested array of numbers with the given number of dimensions (0 = any from 1 to 4).
    Tensor tensor(const char* name, int dims) {
        mark(name);
        const json* v = find(name);
        const std::string want = dims == 2 ? "a list of rows, e.g. [[0.43, 0.15], [0.55, 0.87]]"
                                 : dims == 3 ? "a batch of token rows, e.g. [[[0.43, 0.15], [0.55, 0.87]]]"
                                             : "a (nested) list of numbers, e.g. [1.0, 2.0, 3.0]";
        if (!v) throw Error(std::string("missing field \"") + name + "\": give " + want);
        Shape shape;
        for (const json* p = v; p->is_array(); p = &(*p)[0]) {
            if (p->empty()) throw Error(std::string("\"") + name + "\" has an empty list; give " + want);
            shape.push_back(static_cast<int64_t>(p->size()));
            if (shape.size() > 4) throw Error(std::string("\"") + name + "\" has more than 4 dimensions");
        }
        if (shape.empty()) throw Error(std::string("\"") + name + "\" must be " + want);
        if (dims && static_cast<int>(shape.size()) != dims) {
            throw Error(std::string("\"") + name + "\" must be " + std::to_string(dims) + "-D (" + want +
                        "), but it is " + std::to_string(shape.size()) + "-D");
        }
        if (numel_of(shape) > lim::kMaxElements) {
            throw Error(std::string("\"") + name + "\" has too many numbers (at most " +
                        std::to_string(lim::kMaxElements) + ")");
        }
        std::vector<float> data;
        data.reserve(static_cast<size_t>(numel_of(shape)));
        fill(*v, shape, 0, name, data);
        return Tensor(shape, std::move(data));
    }

    // torch.rand's size: up to 4 whole numbers, none negative, within the element limit.
    Shape shape() {
        mark("shape");
        const json* v = find("shape");
        if (!v || !v->is_array() || v->size() > 4) throw Error("\"shape\" must be a list of up to 4 sizes, e.g. [2, 3]");
        Shape shape;
        int64_t n = 1;
        for (const json& d : *v) {
            if (!d.is_number_integer()) throw Error("\"shape\" must hold whole numbers, e.g. [2, 3]");
            if (!d.is_number_unsigned() && d.get<int64_t>() < 0) throw Error("\"shape\" sizes must not be negative");
            if (d.is_number_unsigned() && d.get<uint64_t>() > uint64_t(lim::kMaxElements)) n = lim::kMaxElements + 1;
            else n = d.get<int64_t>() == 0 ? 0 : std::min<int64_t>(n * d.get<int64_t>(), lim::kMaxElements + 1);
            shape.push_back(d.get<int64_t>());
        }
        for (int64_t d : shape) if (d == 0) n = 0;
        if (n > lim::kMaxElements) {
            throw Error("\"shape\" asks for more than " + std::to_string(lim::kMaxElements) + " numbers; use smaller sizes");
        }
        return shape;
    }

private:
    const json& j_;
    std::string used_ = ",";

    void mark(const char* name) { used_ += std::string(name) + ","; }
    std::string fields_list() const { return used_.substr(1, used_.size() - 2); }
    const json* find(const char* name) const {
        auto it = j_.find(name);
        return it == j_.end() ? nullptr : &*it;
    }

    static double value_of(const json& v, const std::string& where) {
        if (v.is_number()) return v.get<double>();
        if (v.is_string()) {
            const std::string& s = v.get_ref<const std::string&>();
            if (s == "inf") return std::numeric_limits<double>::infinity();
            if (s == "-inf") return -std::numeric_limits<double>::infinity();
            if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        }
        throw Error("\"" + where + "\" must be a number (or \"inf\", \"-inf\", \"nan\"), got " + v.dump().substr(0, 40));
    }

    void fill(const json& v, const Shape& shape, size_t dim, const char* name, std::vector<float>& out) const {
        if (dim == shape.size()) {
            if (v.is_array()) throw Error(std::string("\"") + name + "\" is ragged: its rows nest to different depths");
            out.push_back(static_cast<float>(value_of(v, std::string(name) + "\" element \"")));
            return;
        }
        if (!v.is_array() || static_cast<int64_t>(v.size()) != shape[dim]) {
            throw Error(std::string("\"") + name + "\" is ragged: every row at depth " + std::to_string(dim + 1) +
                        " must have " + std::to_string(shape[dim]) + " entries, like the first one");
        }
        for (const json& e : v) fill(e, shape, dim + 1, name, out);
    }
};

void check_elements(int64_t n, const std::string& what) {
    if (n > lim::kMaxElements) {
        throw Error(what + " would need " + std::to_string(n) + " numbers, more than the limit of " +
                    std::to_string(lim::kMaxElements) + "; use fewer tokens, heads or a smaller batch");
    }
}

// A dropout probability, in [0, 1) as the chapter's modules need.
double dropout_p(Request& r, const char* name) {
    double p = r.number(name);
    if (!(p >= 0.0 && p < 1.0)) throw Error(std::string("\"") + name + "\" must be at least 0 and less than 1");
    return p;
}

// The (B, T, d_in) input of the causal modules, checked against the limits.
struct CausalArgs {
    Tensor x;
    int64_t d_out, context_length, num_heads;
    double p;
    bool qkv_bias;
};

CausalArgs causal_args(Request& r, bool heads) {
    CausalArgs a{r.tensor("x", 3), r.integer("d_out", 1, lim::kMaxDim),
                 r.integer("context_length", 1, lim::kMaxTokens), heads ? r.integer("num_heads", 1, lim::kMaxHeads) : 1,
                 dropout_p(r, "dropout"), r.boolean("qkv_bias", false)};
    const int64_t B = a.x.shape[0], T = a.x.shape[1], d_in = a.x.shape[2];
    if (B > lim::kMaxBatch) throw Error("x has a batch of " + std::to_string(B) + "; the limit is " + std::to_string(lim::kMaxBatch));
    if (T > lim::kMaxTokens) throw Error("x has " + std::to_string(T) + " tokens; the limit is " + std::to_string(lim::kMaxTokens));
    if (d_in > lim::kMaxDim) throw Error("x rows have " + std::to_string(d_in) + " values; the limit is " + std::to_string(lim::kMaxDim));
    if (T > a.context_length) {
        throw Error("x has " + std::to_string(T) + " tokens but context_length is " + std::to_string(a.context_length) +
                    ": raise context_length or use fewer tokens");
    }
    check_elements(B * T * a.d_out * (heads ? a.num_heads : 1), "the projections");
    check_elements(d_in * a.d_out * (heads ? a.num_heads : 1), "the weights");
    return a;
}

std::string evaluate(const json& j) {
    if (is_train_request(j)) return j["op"] == "grad" ? evaluate_grad(j) : evaluate_train(j);  // request_train.cpp
    Request r(j);
    const std::string op = r.op();
    Generator gen;
    std::string answer;
    if (op == "rand") {
        gen.manual_seed(r.seed());
        Tensor t = Tensor::zeros(r.shape());
        for (float& v : t.data) v = gen.uniform_float(0.0f, 1.0f);
        answer = result_json(t);
    } else if (op == "linear") {
        gen.manual_seed(r.seed());
        const int64_t d_in = r.integer("d_in", 1, lim::kMaxDim), d_out = r.integer("d_out", 1, lim::kMaxDim);
        const bool bias = r.boolean("bias", true);
        Linear lin(d_in, d_out, bias, gen);
        answer = "{\"weight\":" + result_json(lin.weight) + ",\"bias\":" + (bias ? result_json(lin.bias) : "null") + "}";
    } else if (op == "softmax") {
        Tensor x = r.tensor("x", 0);
        const double t = r.number("temperature", 1.0);
        if (!(t > 0.0) || !std::isfinite(t)) throw Error("\"temperature\" must be a finite number greater than 0");
        answer = result_json(temperature_softmax(x, t));
    } else if (op == "matmul") {
        // a @ b, as torch.matmul: the batched product of §3.3.2 and §3.6.2, and the page's checks
        Tensor a = r.tensor("a", 0), b = r.tensor("b", 0);
        const int64_t rows = a.dim() == 1 ? 1 : a.numel() / a.shape.back();
        check_elements(rows * b.shape.back(), "the product");
        answer = result_json(matmul(a, b));
    } else if (op == "dropout") {
        gen.manual_seed(r.seed());
        Tensor x = r.tensor("x", 0);
        const double p = dropout_p(r, "p");
        answer = result_json(Dropout{p}.forward(x, gen));
    } else if (op == "self_attention_v1" || op == "self_attention_v2") {
        gen.manual_seed(r.seed());
        Tensor x = r.tensor("x", 2);
        const int64_t d_out = r.integer("d_out", 1, lim::kMaxDim);
        if (x.shape[0] > lim::kMaxTokens) throw Error("x has " + std::to_string(x.shape[0]) + " tokens; the limit is " + std::to_string(lim::kMaxTokens));
        if (x.shape[1] > lim::kMaxDim) throw Error("x rows have " + std::to_string(x.shape[1]) + " values; the limit is " + std::to_string(lim::kMaxDim));
        check_elements(x.shape[0] * x.shape[0], "the attention scores");
        check_elements(x.shape[1] * d_out, "the weights");
        if (op == "self_attention_v1") {
            answer = result_json(SelfAttentionV1(x.shape[1], d_out, gen).forward(x));
        } else {
            const bool qkv_bias = r.boolean("qkv_bias", false);
            answer = result_json(SelfAttentionV2(x.shape[1], d_out, qkv_bias, gen).forward(x));
        }
    } else if (op == "causal_attention" || op == "mha_wrapper" || op == "mha") {
        gen.manual_seed(r.seed());
        const bool heads = op != "causal_attention";
        CausalArgs a = causal_args(r, heads);
        const int64_t B = a.x.shape[0], T = a.x.shape[1], d_in = a.x.shape[2];
        if (op == "causal_attention") {
            check_elements(B * T * T, "the attention weights");
            answer = result_json(CausalAttention(d_in, a.d_out, a.context_length, a.p, a.qkv_bias, gen).forward(a.x, gen));
        } else if (op == "mha_wrapper") {
            check_elements(B * T * T, "the attention weights");
            answer = result_json(MultiHeadAttentionWrapper(d_in, a.d_out, a.context_length, a.p, a.num_heads, a.qkv_bias, gen).forward(a.x, gen));
        } else {
            if (a.d_out % a.num_heads != 0) {
                throw Error("d_out (" + std::to_string(a.d_out) + ") must be divisible by num_heads (" + std::to_string(a.num_heads) + ")");
            }
            const bool fused = a.p == 0.0 && T >= kFusedMinTokens;
            if (!fused) check_elements(B * a.num_heads * T * T, "the attention weights");
            answer = result_json(MultiHeadAttention(d_in, a.d_out, a.context_length, a.p, a.num_heads, a.qkv_bias, gen).forward(a.x, gen));
        }
    } else {
        throw Error("unknown op \"" + op + "\"; use one of rand, linear, softmax, matmul, dropout, self_attention_v1, "
                    "self_attention_v2, causal_attention, mha_wrapper, mha, grad, train");
    }
    r.reject_unknown_fields();
    return answer;
}

}  // namespace

std::string json_quote(const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); }

// float_text: float_text.cpp

std::string result_json(const Tensor& t) {
    std::string out = "{\"shape\":[";
    for (size_t i = 0; i < t.shape.size(); i++) out += (i ? "," : "") + std::to_string(t.shape[i]);
    out += "],\"values\":[";
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

EvalResult eval_request(const std::string& request_json) {
    try {
        if (static_cast<int64_t>(request_json.size()) > lim::kMaxRequestBytes) {
            throw Error("the request is larger than " + std::to_string(lim::kMaxRequestBytes >> 20) + " MiB");
        }
        check_depth(request_json);
        json j;
        try {
            j = json::parse(request_json);
        } catch (const json::parse_error& e) {
            throw Error(std::string("the request is not valid JSON (") + e.what() + ")");
        }
        return {true, evaluate(j)};
    } catch (const Error& e) {
        return {false, error_json(e.what())};
    } catch (const std::bad_alloc&) {
        return {false, error_json("the request needs more memory than is available; use smaller sizes")};
    } catch (const std::exception& e) {
        return {false, error_json(std::string("the request could not be evaluated: ") + e.what())};
    }
}

}  // namespace attn
