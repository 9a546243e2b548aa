// Parses and evaluates one `eval` request. Every field is checked (unknown ones by exact name), every
// size against attn/limits.h and the work they imply (checks.h) before the engine allocates or
// computes; anything wrong becomes {"error": "<sentence>"}.
#include "attn/request.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <optional>
#include <nlohmann/json.hpp>

#include "attn/format.h"
#include "attn/limits.h"
#include "attn/modules.h"
#include "checks.h"
#include "json_out.h"
#include "request_train.h"

namespace attn {

namespace {

using nlohmann::json;
namespace lim = attn::limits;

std::string error_json(const std::string& message) { return "{\"error\":" + json_quote(message) + "}"; }

// A value from the request, quoted for an error sentence: whole, with NUL and quotes escaped.
std::string quoted(const std::string& s) { return json_quote(s); }

// Before the parser sees the text: refuse a NUL byte anywhere (the parser would read it as the end
// of the input and ignore what follows; JSON text never holds one, escaped or not) and deep nesting
// (the chapter's x is at most 4-D).
void check_text(const std::string& text) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); i++) {
        char c = text[i];
        if (c == '\0') {
            throw Error("the request has a NUL byte at offset " + std::to_string(i) +
                        "; send only the JSON object, with no bytes after it");
        }
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

    // Any field the op does not take is probably a typo: refused, by exact name, before computing.
    void reject_unknown_fields(const std::string& op, const std::vector<const char*>& fields) const {
        for (auto it = j_.begin(); it != j_.end(); ++it) {
            if (std::find_if(fields.begin(), fields.end(), [&](const char* f) { return it.key() == f; }) == fields.end()) {
                std::string list;
                for (const char* f : fields) list += std::string(list.empty() ? "" : ", ") + f;
                throw Error("unknown field " + quoted(it.key()) + " for op " + quoted(op) + "; the fields it takes are: " + list);
            }
        }
    }

    std::string op() {
        const json* v = find("op");
        if (!v) throw Error("the request needs an \"op\" field, e.g. \"op\": \"softmax\"");
        if (!v->is_string()) throw Error("\"op\" must be a string, e.g. \"softmax\"");
        return v->get<std::string>();
    }

    int64_t integer(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> def = std::nullopt) {
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
            throw checks::not_whole(quoted(name), static_cast<double>(lo), static_cast<double>(hi), v->dump());
        }
        if (out < lo || out > hi) {
            throw checks::not_whole(quoted(name), static_cast<double>(lo), static_cast<double>(hi), std::to_string(out));
        }
        return out;
    }

    // torch.manual_seed takes any 64-bit integer; negative seeds wrap as two's complement.
    uint64_t seed() {
        const json* v = find("seed");
        if (!v) throw Error("missing field \"seed\": give a whole number, e.g. \"seed\": 123");
        if (v->is_number_unsigned()) return v->get<uint64_t>();
        if (v->is_number_integer()) return static_cast<uint64_t>(v->get<int64_t>());
        throw Error("\"seed\" must be a whole number from -9223372036854775808 to 18446744073709551615");
    }

    double number(const char* name, std::optional<double> def = std::nullopt) {
        const json* v = find(name);
        if (!v) {
            if (def) return *def;
            throw Error(std::string("missing field \"") + name + "\": give a number");
        }
        return value_of(*v, name);
    }

    bool boolean(const char* name, bool def) {
        const json* v = find(name);
        if (!v) return def;
        if (!v->is_boolean()) throw Error(std::string("\"") + name + "\" must be true or false");
        return v->get<bool>();
    }

    // The shape of a nested array of numbers with the given number of dimensions (0 = any from 1 to
    // 4), read from its first entries; tensor() checks the rest while it copies the numbers.
    Shape tensor_shape(const char* name, int dims) const {
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
        return shape;
    }

    // The numbers of a field whose shape tensor_shape() gave.
    Tensor tensor(const char* name, const Shape& shape) const {
        std::vector<float> data;
        data.reserve(static_cast<size_t>(numel_of(shape)));
        fill(*find(name), shape, 0, name, data);
        return Tensor(shape, std::move(data));
    }

    // torch.rand's size: up to 4 whole numbers, none negative, within the element limit.
    Shape shape() {
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

    // The whole request, for ops that read their own fields (grad, train).
    const json& json_object() const { return j_; }

private:
    const json& j_;

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

// A dropout probability from a field, by the rule every caller shares.
double dropout_p(Request& r, const char* name) {
    const double p = r.number(name);
    checks::dropout(p, quoted(name));
    return p;
}

// --- the ops: each reads its fields, checks its sizes and work (checks.h) before reading the
// numbers, then computes. seed() is read first wherever there is one, so its errors come first.

std::string op_rand(Request& r) {
    const uint64_t seed = r.seed();
    const Shape shape = r.shape();
    checks::check_work(checks::rand_work(shape));
    Generator gen(seed);
    Tensor t = Tensor::zeros(shape);
    for (float& v : t.data) v = gen.uniform_float(0.0f, 1.0f);
    return result_json(t);
}

std::string op_linear(Request& r) {
    const uint64_t seed = r.seed();
    const int64_t d_in = r.integer("d_in", 1, lim::kMaxDim), d_out = r.integer("d_out", 1, lim::kMaxDim);
    const bool bias = r.boolean("bias", true);
    checks::check_work(checks::linear_work(d_in, d_out, bias));
    Generator gen(seed);
    Linear lin(d_in, d_out, bias, gen);
    return "{\"weight\":" + result_json(lin.weight) + ",\"bias\":" + (bias ? result_json(lin.bias) : "null") + "}";
}

std::string op_softmax(Request& r) {
    const Shape x_shape = r.tensor_shape("x", 0);
    const double t = r.number("temperature", 1.0);
    checks::temperature(t);
    checks::check_work(checks::softmax_work(x_shape));
    return result_json(temperature_softmax(r.tensor("x", x_shape), t));
}

// a @ b, as torch.matmul: the batched product of §3.3.2 and §3.6.2, and the page's checks
std::string op_matmul(Request& r) {
    const Shape a_shape = r.tensor_shape("a", 0), b_shape = r.tensor_shape("b", 0);
    checks::elements(numel_of(matmul_shape(a_shape, b_shape)), "the product");
    checks::check_work(checks::matmul_work(a_shape, b_shape));
    return result_json(matmul(r.tensor("a", a_shape), r.tensor("b", b_shape)));
}

std::string op_dropout(Request& r) {
    const uint64_t seed = r.seed();
    const Shape x_shape = r.tensor_shape("x", 0);
    const double p = dropout_p(r, "p");
    checks::check_work(checks::dropout_work(x_shape));
    Generator gen(seed);
    return result_json(Dropout{p}.forward(r.tensor("x", x_shape), gen));
}

template <bool kV2>
std::string op_self_attention(Request& r) {
    const uint64_t seed = r.seed();
    const Shape x_shape = r.tensor_shape("x", 2);
    const int64_t d_out = r.integer("d_out", 1, lim::kMaxDim);
    const int64_t T = x_shape[0], d_in = x_shape[1];
    const bool qkv_bias = kV2 && r.boolean("qkv_bias", false);
    checks::attention_sizes({1, T, d_in, d_out, 1, T, 0.0}, checks::Module::self_attention);
    Generator gen(seed);
    const Tensor x = r.tensor("x", x_shape);
    if (!kV2) return result_json(SelfAttentionV1(d_in, d_out, gen).forward(x));
    return result_json(SelfAttentionV2(d_in, d_out, qkv_bias, gen).forward(x));
}

// causal_attention, mha_wrapper and mha: x is (B, T, d_in)
template <checks::Module kModule>
std::string op_causal(Request& r) {
    const uint64_t seed = r.seed();
    const Shape x_shape = r.tensor_shape("x", 3);
    const int64_t B = x_shape[0], T = x_shape[1], d_in = x_shape[2];
    const int64_t d_out = r.integer("d_out", 1, lim::kMaxDim);
    const int64_t context_length = r.integer("context_length", 1, lim::kMaxTokens);
    const int64_t num_heads = kModule == checks::Module::causal_attention ? 1 : r.integer("num_heads", 1, lim::kMaxHeads);
    const double p = dropout_p(r, "dropout");
    const bool qkv_bias = r.boolean("qkv_bias", false);
    checks::attention_sizes({B, T, d_in, d_out, num_heads, context_length, p}, kModule);
    Generator gen(seed);
    const Tensor x = r.tensor("x", x_shape);
    switch (kModule) {
    case checks::Module::causal_attention:
        return result_json(CausalAttention(d_in, d_out, context_length, p, qkv_bias, gen).forward(x, gen));
    case checks::Module::mha_wrapper:
        return result_json(MultiHeadAttentionWrapper(d_in, d_out, context_length, p, num_heads, qkv_bias, gen).forward(x, gen));
    default:
        return result_json(MultiHeadAttention(d_in, d_out, context_length, p, num_heads, qkv_bias, gen).forward(x, gen));
    }
}

// Every op: its name, the fields it takes ("op" included; any other is refused before anything is
// computed) and what it does. The "use one of" sentence lists these names.
struct Op {
    const char* name;
    std::vector<const char*> fields;  // empty: the op's fields depend on its module, and it checks them itself
    std::string (*run)(Request&);
};

// grad and train (request_train.cpp) read the request whole: their fields follow the module.
std::string op_grad(Request& r) { return evaluate_grad(r.json_object()); }
std::string op_train(Request& r) { return evaluate_train(r.json_object()); }

const std::vector<Op>& ops() {
    using M = checks::Module;
    static const std::vector<Op> table = {
        {"rand", {"op", "seed", "shape"}, op_rand},
        {"linear", {"op", "seed", "d_in", "d_out", "bias"}, op_linear},
        {"softmax", {"op", "x", "temperature"}, op_softmax},
        {"matmul", {"op", "a", "b"}, op_matmul},
        {"dropout", {"op", "seed", "p", "x"}, op_dropout},
        {"self_attention_v1", {"op", "seed", "x", "d_out"}, op_self_attention<false>},
        {"self_attention_v2", {"op", "seed", "x", "d_out", "qkv_bias"}, op_self_attention<true>},
        {"causal_attention", {"op", "seed", "x", "d_out", "context_length", "dropout", "qkv_bias"},
         op_causal<M::causal_attention>},
        {"mha_wrapper", {"op", "seed", "x", "d_out", "context_length", "dropout", "qkv_bias", "num_heads"},
         op_causal<M::mha_wrapper>},
        {"mha", {"op", "seed", "x", "d_out", "context_length", "dropout", "qkv_bias", "num_heads"}, op_causal<M::mha>},
        {"grad", {}, op_grad},
        {"train", {}, op_train},
    };
    return table;
}

std::string evaluate(const json& j) {
    Request r(j);
    const std::string name = r.op();
    for (const Op& op : ops()) {
        if (name != op.name) continue;
        if (!op.fields.empty()) r.reject_unknown_fields(name, op.fields);
        return op.run(r);
    }
    std::string names;
    for (const Op& op : ops()) names += std::string(names.empty() ? "" : ", ") + op.name;
    throw Error("unknown op " + quoted(name) + "; use one of " + names);
}

}  // namespace

std::string oversized_request_json() {
    return error_json("the request is larger than " + std::to_string(lim::kMaxRequestBytes >> 20) + " MiB; send a smaller one");
}

EvalResult eval_request(const std::string& request_json) {
    try {
        if (static_cast<int64_t>(request_json.size()) > lim::kMaxRequestBytes) return {false, oversized_request_json()};
        check_text(request_json);
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
