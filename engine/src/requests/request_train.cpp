// `eval`'s grad and train ops: torch.manual_seed(seed), build the module as the chapter does, put it
// in training mode, then one loss.backward() (grad) or an optimizer loop (train). Every field and
// size is checked before anything is allocated; a bad request throws Error with a sentence.
#include "requests/request_train.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include "chapter/autograd.h"
#include "core/limits.h"
#include "chapter/optim.h"
#include "rules/checks.h"
#include "requests/json_out.h"
#include "requests/request_fields.h"
#include "requests/train_run.h"

namespace attn {

namespace {

namespace lim = attn::limits;

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
    checks::AttentionSizes sizes;  // what bounds its work (checks::train_step_work)
    checks::Module kind;
    bool bias;
    int64_t weights_numel;  // of one recorded attn_weights
    int64_t params_numel;   // of all the parameters together

    checks::Work step_work(checks::Optimizer optimizer) const { return checks::train_step_work(sizes, kind, bias, optimizer); }
};

Setup setup(Request& f, Generator& gen) {
    gen.manual_seed(f.seed());
    const std::string name = f.text("module");
    const bool batched = name == "causal_attention" || name == "mha";
    if (!batched && name != "self_attention_v1" && name != "self_attention_v2") {
        throw Error("unknown module " + quoted(name) + "; use one of self_attention_v1, self_attention_v2, "
                    "causal_attention, mha");
    }
    Tensor x = f.tensor("x", f.tensor_shape("x", batched ? 3 : 2));
    const int64_t d_out = f.integer("d_out", 1, lim::kMaxDim);
    const int64_t B = batched ? x.shape[0] : 1, T = x.shape[x.dim() - 2], d_in = x.shape.back();
    const bool qkv_bias = name != "self_attention_v1" && f.boolean("qkv_bias", false);
    const double p = batched ? f.dropout("dropout", 0.0) : 0.0;
    const int64_t num_heads = name == "mha" ? f.integer("num_heads", 1, lim::kMaxHeads) : 1;
    // eval's size rules for the module (context_length is T), then what training adds: every head's
    // weights are kept for the backward, so the fused path's saving does not apply
    const checks::Module kind = name == "mha"    ? checks::Module::mha
                                : batched        ? checks::Module::causal_attention
                                                 : checks::Module::self_attention;
    const checks::AttentionSizes sizes{B, T, d_in, d_out, num_heads, T, p};
    checks::attention_sizes(sizes, kind);
    checks::elements(B * num_heads * T * T, "the attention weights");

    Tensor target = f.tensor("target", f.tensor_shape("target", batched ? 3 : 2));
    Shape out_shape = batched ? Shape{B, T, d_out} : Shape{T, d_out};
    if (target.shape != out_shape) {
        throw Error("\"target\" is " + shape_text(target.shape) + " but the module's output is " + shape_text(out_shape) +
                    " (" + (batched ? "batch × tokens × d_out" : "tokens × d_out") + "): give one target row per token");
    }
    auto make = [=](Generator& g) {
        return name == "self_attention_v1"   ? TrainableModule::self_attention_v1(d_in, d_out, g)
               : name == "self_attention_v2" ? TrainableModule::self_attention_v2(d_in, d_out, qkv_bias, g)
               : name == "causal_attention"  ? TrainableModule::causal_attention(d_in, d_out, T, p, qkv_bias, g)
                                             : TrainableModule::mha(d_in, d_out, T, p, num_heads, qkv_bias, g);
    };
    return Setup{make, std::move(x), std::move(target), sizes, kind, qkv_bias, B * num_heads * T * T,
                 checks::parameter_count(sizes, kind, qkv_bias)};
}

}  // namespace

std::string evaluate_grad(Request& f) {
    Generator gen;
    Setup s = setup(f, gen);
    f.reject_unread_fields("grad");
    checks::check_train_run(s.step_work(checks::Optimizer::none), 1, 1 + s.params_numel);  // the loss, the grads
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

// A train request's run, checked and built, with the steps it has taken: the one-shot op runs it
// through; TrainRun (requests/request.h) runs it a few steps per call.
struct TrainRunState {
    Generator gen;
    Setup s;
    std::unique_ptr<Optimizer> opt;
    int64_t steps = 0, record_every = 1, step = 0;
    // numbers the run's answers may still hold: slices add up to at most what one answer may hold
    // (limits::kMaxResultNumbers), though each repeats the parameters
    int64_t answer_budget = 0;
    bool record_parameters = false, prints = true;
    std::optional<TrainableModule> module;
    std::vector<NamedParameter> named;  // point into *module: the state stays where it was made
    std::vector<Tensor*> params;
    std::vector<Tensor> grads;

    std::string tensor_json(const Tensor& t) const { return prints ? result_json(t) : values_json(t); }
    // {name: R, ...} of the parameters as they are now
    std::string parameters_json() const {
        std::string out = "{";
        for (size_t i = 0; i < named.size(); i++) {
            if (i) out += ',';
            out += json_quote(named[i].name);
            out += ':';
            out += tensor_json(*named[i].value);  // a parameter has no grad_fn: printed as detach() prints it
        }
        out += '}';
        return out;
    }

    // The next n steps (at most those left): the train op's answer for them. Records fall on the
    // steps that are multiples of record_every, counted from the run's step 0.
    std::string advance(int64_t n) {
        const int64_t last = std::min(steps, step + std::max<int64_t>(0, n));
        // the records among steps [step, last): multiples of record_every
        const int64_t records = (last + record_every - 1) / record_every - (step + record_every - 1) / record_every;
        const int64_t answer = (last - step) + records * (s.weights_numel + (record_parameters ? s.params_numel : 0)) +
                               s.params_numel;
        if (answer > answer_budget) {
            throw Error("this TrainRun's answers would hold more than " + std::to_string(lim::kMaxResultNumbers) +
                        " numbers in all (each repeats the parameters); advance more steps per call");
        }
        answer_budget -= answer;
        std::string losses = "[", weights = "[", history = "[";
        for (; step < last; step++) {
            const bool record = step % record_every == 0;
            Tensor attn_weights;
            const Tensor loss = module->loss_and_grads(s.x, s.target, gen, grads, record ? &attn_weights : nullptr);
            // optimizer.zero_grad() zeroes .grad in place from the second step on; backward adds into it
            if (step > 0) {
                for (Tensor& g : grads)
                    for (float& v : g.data) v = 0.0f + v;
            }
            // appended in place: the answer of a long run is megabytes, and each temporary copy shows
            if (losses.size() > 1) losses += ',';
            losses += float_text(loss.item());
            if (record) {
                if (weights.size() > 1) weights += ',';
                weights += tensor_json(detach(std::move(attn_weights)));
            }
            // the parameters this step's forward used, before its update
            if (record && record_parameters) {
                if (history.size() > 1) history += ',';
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
};

std::unique_ptr<TrainRunState> start_train(Request& f) {
    auto run = std::make_unique<TrainRunState>();
    run->s = setup(f, run->gen);
    const Setup& s = run->s;
    const std::string optimizer = f.text("optimizer");
    if (optimizer != "sgd" && optimizer != "adam") throw Error("\"optimizer\" must be \"sgd\" or \"adam\"");
    const double lr = f.finite_number("lr", 0.0, std::nullopt);
    checks::Optimizer kind = checks::Optimizer::adam;
    if (optimizer == "sgd") {
        const double momentum = f.finite_number("momentum", 0.0, 0.0);
        kind = momentum != 0.0 ? checks::Optimizer::sgd_momentum : checks::Optimizer::sgd;
        run->opt = std::make_unique<Sgd>(lr, momentum);
    } else {
        run->opt = std::make_unique<Adam>(lr);
    }
    const int64_t steps = run->steps = f.integer("steps", 0, lim::kMaxTrainSteps);
    const int64_t record_every = run->record_every = f.integer("record_every", 1, lim::kMaxTrainSteps, 1);
    run->record_parameters = f.boolean("record_parameters", false);
    // "prints": false leaves PyTorch's print out of every R: an animation needs only the values, and
    // printing is most of a long run's time
    run->prints = f.boolean("prints", true);
    f.reject_unread_fields("train");
    // the whole run's work and answer, before any step: the losses, the recorded weights (and
    // parameters), the final parameters
    const int64_t records = (steps + record_every - 1) / record_every;
    const int64_t per_record = s.weights_numel + (run->record_parameters ? s.params_numel : 0);
    checks::check_train_run(s.step_work(kind), steps, steps + records * per_record + s.params_numel);
    run->answer_budget = lim::kMaxResultNumbers;

    run->module.emplace(s.make(run->gen));
    run->named = run->module->parameters();
    for (const NamedParameter& p : run->named) run->params.push_back(p.value);
    return run;
}

std::string evaluate_train(Request& f) {
    std::unique_ptr<TrainRunState> run = start_train(f);
    return run->advance(run->steps);
}

TrainRun::TrainRun() = default;
TrainRun::~TrainRun() = default;

std::string TrainRun::start(const std::string& request_json) {
    state_.reset();
    return checks::sentence_of([&] {
        const nlohmann::json j = parse_request(request_json);
        Request r(j);
        if (r.op() != "train") throw Error("a TrainRun runs a train request; this one's op is " + quoted(r.op()));
        state_ = start_train(r);
    });
}

int64_t TrainRun::steps_left() const { return state_ ? state_->steps - state_->step : 0; }

EvalResult TrainRun::advance(int64_t steps) {
    if (!state_) return failed_request("this TrainRun has no request: start it with a train request first");
    std::string answer;
    const std::string error = checks::sentence_of([&] { answer = state_->advance(steps); });
    return error.empty() ? EvalResult{true, answer, ""} : failed_request(error);
}

}  // namespace attn
