// `eval`'s grad and train ops: torch.manual_seed(seed), build the module as the chapter does, put it
// in training mode, then one loss.backward() (grad) or an optimizer loop (train). Every field and
// size is checked before anything is allocated; a bad request throws Error with a sentence.
#include "request_train.h"

#include <algorithm>
#include <functional>
#include <cmath>
#include <memory>
#include <optional>

#include "attn/autograd.h"
#include "attn/limits.h"
#include "attn/optim.h"
#include "checks.h"
#include "json_out.h"

namespace attn {

namespace {

using nlohmann::json;
namespace lim = attn::limits;

// The fields of one request: each read marks its field used, so a leftover (a typo) is an error.
class Fields {
public:
    explicit Fields(const json& j) : j_(j) {}

    std::string text(const char* name) {
        const json* v = take(name);
        if (!v || !v->is_string()) throw Error(std::string("\"") + name + "\" must be a string");
        return v->get<std::string>();
    }

    int64_t integer(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> def = std::nullopt) {
        const json* v = take(name);
        if (!v && def) return *def;
        const std::string range = " from " + std::to_string(lo) + " to " + std::to_string(hi);
        if (!v) throw Error(std::string("missing field \"") + name + "\": give a whole number" + range);
        if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<uint64_t>() > uint64_t(INT64_MAX))) {
            throw Error(std::string("\"") + name + "\" must be a whole number" + range);
        }
        const int64_t out = v->get<int64_t>();
        if (out < lo || out > hi) {
            throw Error(std::string("\"") + name + "\" is " + std::to_string(out) + " but must be" + range);
        }
        return out;
    }

    // torch.manual_seed takes any 64-bit integer; negative seeds wrap as two's complement.
    uint64_t seed() {
        const json* v = take("seed");
        if (!v) throw Error("missing field \"seed\": give a whole number, e.g. \"seed\": 123");
        if (v->is_number_unsigned()) return v->get<uint64_t>();
        if (v->is_number_integer()) return static_cast<uint64_t>(v->get<int64_t>());
        throw Error("\"seed\" must be a whole number from -9223372036854775808 to 18446744073709551615");
    }

    // A finite number at least `lo` (and below `below`, when given).
    double number(const char* name, double lo, std::optional<double> def, std::optional<double> below = std::nullopt) {
        const json* v = take(name);
        if (!v && def) return *def;
        if (!v) throw Error(std::string("missing field \"") + name + "\": give a number");
        if (!v->is_number() || !std::isfinite(v->get<double>())) {
            throw Error(std::string("\"") + name + "\" must be a finite number");
        }
        const double out = v->get<double>();
        if (out < lo || (below && out >= *below)) {
            throw Error(std::string("\"") + name + "\" must be at least " + float_text(static_cast<float>(lo)) +
                        (below ? " and less than " + float_text(static_cast<float>(*below)) : std::string()));
        }
        return out;
    }

    bool boolean(const char* name, bool def) {
        const json* v = take(name);
        if (!v) return def;
        if (!v->is_boolean()) throw Error(std::string("\"") + name + "\" must be true or false");
        return v->get<bool>();
    }

    // A nested list of numbers ("inf", "-inf", "nan" allowed) with exactly `dims` dimensions.
    Tensor tensor(const char* name, int dims, const char* example) {
        const json* v = take(name);
        const std::string want = std::to_string(dims) + "-D, e.g. " + example;
        if (!v) throw Error(std::string("missing field \"") + name + "\": give a " + want);
        Shape shape;
        for (const json* p = v; p->is_array() && static_cast<int>(shape.size()) <= dims; p = &(*p)[0]) {
            if (p->empty()) throw Error(std::string("\"") + name + "\" has an empty list; give a " + want);
            shape.push_back(static_cast<int64_t>(p->size()));
        }
        if (static_cast<int>(shape.size()) != dims) {
            throw Error(std::string("\"") + name + "\" must be " + want + ", but it is " +
                        std::to_string(shape.size()) + "-D");
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

    void reject_unknown(const std::string& op) const {
        for (auto it = j_.begin(); it != j_.end(); ++it) {
            if (std::find(used_.begin(), used_.end(), it.key()) == used_.end()) {
                std::string list;
                for (const std::string& f : used_) list += (list.empty() ? "" : ", ") + f;
                throw Error("unknown field \"" + it.key() + "\" for op \"" + op + "\" with this module; the fields it takes are: " + list);
            }
        }
    }

private:
    const json& j_;
    std::vector<std::string> used_ = {"op"};

    const json* take(const char* name) {
        used_.push_back(name);
        auto it = j_.find(name);
        return it == j_.end() ? nullptr : &*it;
    }

    static void fill(const json& v, const Shape& shape, size_t dim, const char* name, std::vector<float>& out) {
        if (dim == shape.size()) {
            if (v.is_number()) {
                out.push_back(static_cast<float>(v.get<double>()));
            } else if (v.is_string() && (v == "inf" || v == "-inf" || v == "nan")) {
                const std::string& s = v.get_ref<const std::string&>();
                out.push_back(s == "nan" ? NAN : s == "inf" ? INFINITY : -INFINITY);
            } else {
                throw Error(std::string("\"") + name + "\" must hold numbers (or \"inf\", \"-inf\", \"nan\"), got " +
                            v.dump().substr(0, 40));
            }
            return;
        }
        if (!v.is_array() || static_cast<int64_t>(v.size()) != shape[dim]) {
            throw Error(std::string("\"") + name + "\" is ragged: every row at depth " + std::to_string(dim + 1) +
                        " must have " + std::to_string(shape[dim]) + " entries, like the first one");
        }
        for (const json& e : v) fill(e, shape, dim + 1, name, out);
    }
};

std::string shape_text(const Shape& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); i++) out += (i ? " × " : "") + std::to_string(s[i]);
    return out;
}

// The module a request names, built from the generator, and what bounds its work.
// The request read and checked; the module is built (the seed's draws) only by make(), after the
// caller has refused unknown fields and checked its own bounds, so a refused request computes nothing.
struct Setup {
    std::function<TrainableModule(Generator&)> make;
    Tensor x, target;
    int64_t weights_numel;  // of one recorded attn_weights
    int64_t params_numel;   // of all the parameters together
    int64_t step_work;      // multiply-adds of one forward and backward
};

Setup setup(Fields& f, Generator& gen) {
    gen.manual_seed(f.seed());
    const std::string name = f.text("module");
    const bool batched = name == "causal_attention" || name == "mha";
    if (!batched && name != "self_attention_v1" && name != "self_attention_v2") {
        throw Error("unknown module \"" + name + "\"; use one of self_attention_v1, self_attention_v2, "
                    "causal_attention, mha");
    }
    Tensor x = batched ? f.tensor("x", 3, "[[[0.43, 0.15], [0.55, 0.87]]] (batch × tokens × d_in)")
                       : f.tensor("x", 2, "[[0.43, 0.15], [0.55, 0.87]] (tokens × d_in)");
    const int64_t d_out = f.integer("d_out", 1, lim::kMaxDim);
    const int64_t B = batched ? x.shape[0] : 1, T = x.shape[x.dim() - 2], d_in = x.shape.back();
    const bool qkv_bias = name != "self_attention_v1" && f.boolean("qkv_bias", false);
    const double p = batched ? f.number("dropout", 0.0, 0.0, 1.0) : 0.0;
    const int64_t num_heads = name == "mha" ? f.integer("num_heads", 1, lim::kMaxHeads) : 1;
    // eval's size rules for the module (context_length is T), then what training adds: every head's
    // weights are kept for the backward, so the fused path's saving does not apply
    const checks::Module kind = name == "mha"    ? checks::Module::mha
                                : batched        ? checks::Module::causal_attention
                                                 : checks::Module::self_attention;
    checks::attention_sizes({B, T, d_in, d_out, num_heads, T, p}, kind);
    checks::elements(B * num_heads * T * T, "the attention weights");

    Tensor target = batched ? f.tensor("target", 3, "[[[0.1, 0.2], [0.3, 0.4]]] (batch × tokens × d_out)")
                            : f.tensor("target", 2, "[[0.1, 0.2], [0.3, 0.4]] (tokens × d_out)");
    Shape out_shape = batched ? Shape{B, T, d_out} : Shape{T, d_out};
    if (target.shape != out_shape) {
        throw Error("\"target\" is " + shape_text(target.shape) + " but the module's output is " + shape_text(out_shape) +
                    " (" + (batched ? "batch × tokens × d_out" : "tokens × d_out") + "): give one target row per token");
    }
    // forward: three projections, scores and context, out_proj; the backward about twice that
    const int64_t forward_work = B * T * d_in * d_out * 3 + 2 * B * T * T * d_out + (name == "mha" ? B * T * d_out * d_out : 0);
    auto make = [=](Generator& g) {
        return name == "self_attention_v1"   ? TrainableModule::self_attention_v1(d_in, d_out, g)
               : name == "self_attention_v2" ? TrainableModule::self_attention_v2(d_in, d_out, qkv_bias, g)
               : name == "causal_attention"  ? TrainableModule::causal_attention(d_in, d_out, T, p, qkv_bias, g)
                                             : TrainableModule::mha(d_in, d_out, T, p, num_heads, qkv_bias, g);
    };
    const int64_t params_numel = 3 * (d_in * d_out + (qkv_bias ? d_out : 0)) + (name == "mha" ? d_out * d_out + d_out : 0);
    return Setup{make, std::move(x), std::move(target), B * num_heads * T * T, params_numel, 3 * forward_work};
}

}  // namespace

std::string evaluate_grad(const json& request) {
    Fields f(request);
    Generator gen;
    Setup s = setup(f, gen);
    f.reject_unknown("grad");
    TrainableModule module = s.make(gen);
    std::vector<Tensor> grads;
    const Tensor loss = module.loss_and_grads(s.x, s.target, gen, grads);
    std::string out = "{\"loss\":" + result_json(loss) + ",\"grads\":{";
    const std::vector<NamedParameter> params = module.parameters();
    for (size_t i = 0; i < params.size(); i++) {
        out += (i ? "," : "") + json_quote(params[i].name) + ":" + result_json(grads[i]);
    }
    return out + "}}";
}

std::string evaluate_train(const json& request) {
    Fields f(request);
    Generator gen;
    Setup s = setup(f, gen);
    const std::string optimizer = f.text("optimizer");
    if (optimizer != "sgd" && optimizer != "adam") throw Error("\"optimizer\" must be \"sgd\" or \"adam\"");
    const double lr = f.number("lr", 0.0, std::nullopt);
    std::unique_ptr<Optimizer> opt;
    if (optimizer == "sgd") opt = std::make_unique<Sgd>(lr, f.number("momentum", 0.0, 0.0));
    else opt = std::make_unique<Adam>(lr);
    const int64_t steps = f.integer("steps", 0, lim::kMaxTrainSteps);
    const int64_t record_every = f.integer("record_every", 1, lim::kMaxTrainSteps, 1);
    const bool record_parameters = f.boolean("record_parameters", false);
    // "prints": false leaves PyTorch's print out of every R: an animation needs only the values, and
    // printing is most of a long run's time
    const bool prints = f.boolean("prints", true);
    auto tensor_json = [prints](const Tensor& t) { return prints ? result_json(t) : values_json(t); };
    f.reject_unknown("train");
    if (steps > 0 && s.step_work > lim::kMaxTrainWork / steps) {
        throw Error(std::to_string(steps) + " steps of this module would take about " +
                    std::to_string(steps * s.step_work) + " multiply-adds, more than the limit of " +
                    std::to_string(lim::kMaxTrainWork) + "; use fewer steps or smaller sizes");
    }
    const int64_t records = (steps + record_every - 1) / record_every;
    checks::elements(records * s.weights_numel, "the recorded attention weights (raise record_every)");
    if (record_parameters) checks::elements(records * s.params_numel, "the recorded parameters (raise record_every)");

    TrainableModule module = s.make(gen);
    std::vector<NamedParameter> named = module.parameters();
    std::vector<Tensor*> params;
    for (const NamedParameter& p : named) params.push_back(p.value);
    std::vector<Tensor> grads;
    std::string losses = "[", weights = "[", history = "[";
    // {name: R, ...} of the parameters as they are now
    auto parameters_json = [&named, &tensor_json]() {
        std::string out = "{";
        for (size_t i = 0; i < named.size(); i++) {
            if (i) out += ',';
            out += json_quote(named[i].name);
            out += ':';
            out += tensor_json(*named[i].value);  // a parameter has no grad_fn: printed as detach() prints it
        }
        out += '}';
        return out;
    };
    for (int64_t step = 0; step < steps; step++) {
        const bool record = step % record_every == 0;
        Tensor attn_weights;
        const Tensor loss = module.loss_and_grads(s.x, s.target, gen, grads, record ? &attn_weights : nullptr);
        // optimizer.zero_grad() zeroes .grad in place from the second step on; backward adds into it
        if (step > 0) {
            for (Tensor& g : grads)
                for (float& v : g.data) v = 0.0f + v;
        }
        // appended in place: the answer of a long run is megabytes, and each temporary copy shows
        if (step) losses += ',';
        losses += float_text(loss.item());
        if (record) {
            if (step) weights += ',';
            weights += tensor_json(detach(std::move(attn_weights)));
        }
        // the parameters this step's forward used, before its update
        if (record && record_parameters) {
            if (step) history += ',';
            history += parameters_json();
        }
        opt->step(params, grads);
    }
    std::string out;
    out.reserve(losses.size() + weights.size() + history.size() + 4096);
    out += "{\"losses\":";
    out += losses;
    out += "],\"weights\":";
    out += weights;
    out += "],\"parameters\":";
    out += parameters_json();
    if (record_parameters) {
        out += ",\"parameter_history\":";
        out += history;
        out += ']';
    }
    out += '}';
    return out;
}

}  // namespace attn
