// `eval`'s grad and train ops: torch.manual_seed(seed), build the module as the chapter does, put it
// in training mode, then one loss.backward() (grad) or an optimizer loop (train). Every field and
// size is checked before anything is allocated; a bad request throws Error with a sentence.
#include "requests/request_train.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include "chapter/autograd.h"
#include "core/float_text.h"
#include "core/limits.h"
#include "chapter/optim.h"
#include "replay/train_task.h"
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
    // the page's train task (replay/train_task.h): its inputs (T × d) and seed, when the request names it
    std::optional<Tensor> task_inputs;
    uint64_t seed = 0;

    checks::Work step_work(checks::Optimizer optimizer) const { return checks::train_step_work(sizes, kind, bias, optimizer); }
    // the numbers `steps` steps with `records` records answer (checks::train_answer_numbers)
    int64_t answer_numbers(int64_t steps, int64_t records, bool record_parameters) const {
        return checks::train_answer_numbers(sizes, kind, bias, steps, records, record_parameters);
    }
};

// A request naming the train task ("task": "previous_token"): its "inputs" make the module and batch
// (replay/train_task.h), in place of "module", "x", "target", "d_out" and "dropout".
Setup task_setup(Request& f, Generator& gen) {
    const std::string task = f.text("task");
    if (task != train_task::kName) fail({"unknown task ", quoted(task), "; the one task is \"", train_task::kName, "\""});
    const Shape shape = f.tensor_shape("inputs", 2);
    const int64_t T = shape[0], d = shape[1];
    if (T < train_task::kMinTokens || T > lim::kMaxReplayTokens || d > lim::kMaxReplayDim) {
        fail({"\"inputs\" is ", shape_text(shape), "; the train task takes ", train_task::kMinTokens,
                    " to ", lim::kMaxReplayTokens, " tokens of 1 to ", lim::kMaxReplayDim,
                    " values, one row per token"});
    }
    Tensor inputs = f.tensor("inputs", shape);
    const uint64_t seed = f.seed(train_task::kSeed);
    gen.manual_seed(seed);
    train_task::Batch batch = train_task::batch(inputs);
    const int64_t B = batch.x.shape[0];
    const checks::AttentionSizes sizes{B, T, d + T, d, 1, T, 0.0};
    checks::attention_sizes(sizes, checks::Module::causal_attention);
    auto make = [=](Generator& g) { return TrainableModule::causal_attention(d + T, d, T, 0.0, false, g); };
    Setup s{make, std::move(batch.x), std::move(batch.target), sizes, checks::Module::causal_attention, false, std::nullopt, 0};
    s.task_inputs = std::move(inputs);
    s.seed = seed;
    return s;
}

Setup setup(Request& f, Generator& gen) {
    if (f.has("task")) return task_setup(f, gen);
    gen.manual_seed(f.seed());
    const std::string name = f.text("module");
    const bool batched = name == "causal_attention" || name == "mha";
    if (!batched && name != "self_attention_v1" && name != "self_attention_v2") {
        fail({"unknown module ", quoted(name), "; use one of self_attention_v1, self_attention_v2, "
                    "causal_attention, mha"});
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
        fail({"\"target\" is ", shape_text(target.shape), " but the module's output is ", shape_text(out_shape),
                    " (", (batched ? "batch × tokens × d_out" : "tokens × d_out"), "): give one target row per token"});
    }
    auto make = [=](Generator& g) {
        return name == "self_attention_v1"   ? TrainableModule::self_attention_v1(d_in, d_out, g)
               : name == "self_attention_v2" ? TrainableModule::self_attention_v2(d_in, d_out, qkv_bias, g)
               : name == "causal_attention"  ? TrainableModule::causal_attention(d_in, d_out, T, p, qkv_bias, g)
                                             : TrainableModule::mha(d_in, d_out, T, p, num_heads, qkv_bias, g);
    };
    return Setup{make, std::move(x), std::move(target), sizes, kind, qkv_bias, std::nullopt, 0};
}

}  // namespace

std::string evaluate_grad(Request& f) {
    Generator gen;
    Setup s = setup(f, gen);
    f.reject_unread_fields("grad");
    checks::check_train_run(s.step_work(checks::Optimizer::none), 1, s.answer_numbers(1, 0, false), true);  // the loss, the grads
    TrainableModule module = s.make(gen);
    std::vector<Tensor> grads;
    const Tensor loss = module.loss_and_grads(s.x, s.target, gen, grads);
    std::string out = cat({"{\"loss\":", result_json(loss), ",\"grads\":{"});
    const std::vector<NamedParameter> params = module.parameters();
    for (size_t i = 0; i < params.size(); i++) {
        out += cat({(i ? "," : ""), json_quote(params[i].name), ":", result_json(grads[i])});
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

    // the train task's run: every loss, and the attention weights of the forward after the last update
    std::vector<float> task_losses;
    Tensor task_final_weights;

    std::string tensor_json(const Tensor& t) const { return prints ? result_json(t) : values_json(t); }
    // {name: R, ...} of the parameters as they are now; the train task's as its page draws them
    // ("W_query.weight.T": d_in × d_out, train_task::drawn)
    std::string parameters_json() const {
        std::string out = "{";
        for (size_t i = 0; i < named.size(); i++) {
            if (i) out += ',';
            // a parameter has no grad_fn: printed as detach() prints it
            if (s.task_inputs) {
                out += json_quote(named[i].name + ".T") + ':' + tensor_json(train_task::drawn(*named[i].value));
            } else {
                out += json_quote(named[i].name) + ':' + tensor_json(*named[i].value);
            }
        }
        out += '}';
        return out;
    }

    // What the train task's program prints for the steps run so far (train_task::printed).
    std::string printed() const { return train_task::printed(task_losses, record_every, task_final_weights); }

    // The next n steps (at most those left): the train op's answer for them. Records fall on the
    // steps that are multiples of record_every, counted from the run's step 0.
    std::string advance(int64_t n) {
        const int64_t last = std::min(steps, step + std::max<int64_t>(0, n));
        const int64_t records = checks::train_records(step, last, record_every);
        const int64_t answer = s.answer_numbers(last - step, records, record_parameters);
        if (answer > answer_budget) {
            fail({"this TrainRun's answers would hold more than ", lim::kMaxResultNumbers,
                        " numbers in all (each repeats the parameters); advance more steps per call"});
        }
        answer_budget -= answer;
        std::string losses = "[", weights = "[", history = "[";
        for (; step < last; step++) {
            const bool record = step % record_every == 0;
            const bool task_final = s.task_inputs && step == train_task::kSteps;  // the program prints its weights
            Tensor attn_weights;
            const Tensor loss =
                module->loss_and_grads(s.x, s.target, gen, grads, record || task_final ? &attn_weights : nullptr);
            if (s.task_inputs) task_losses.push_back(loss.item());
            if (task_final) task_final_weights = attn_weights;
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

// A train request (op_name: the op, for the sentence refusing unknown fields), checked and built.
std::unique_ptr<TrainRunState> start_train(Request& f, const char* op_name) {
    auto run = std::make_unique<TrainRunState>();
    run->s = setup(f, run->gen);
    const Setup& s = run->s;
    const bool task = s.task_inputs.has_value();
    const std::string optimizer = f.text("optimizer");
    if (optimizer != "sgd" && optimizer != "adam") throw Error("\"optimizer\" must be \"sgd\" or \"adam\"");
    // the train task's optimizers have their default learning rates (train_task::kOptimizers)
    const double lr = f.finite_number("lr", 0.0, task ? std::optional<double>(train_task::optimizer_preset(optimizer)->lr) : std::nullopt);
    checks::Optimizer kind = checks::Optimizer::adam;
    if (optimizer == "sgd") {
        // the train task's SGD has its momentum (train_task::kOptimizers)
        const double momentum = task ? train_task::optimizer_preset("sgd")->momentum : f.finite_number("momentum", 0.0, 0.0);
        kind = momentum != 0.0 ? checks::Optimizer::sgd_momentum : checks::Optimizer::sgd;
        run->opt = std::make_unique<Sgd>(lr, momentum);
    } else {
        run->opt = std::make_unique<Adam>(lr);
    }
    // the train task's run: its steps and the forward after them, recorded at its stride
    const int64_t steps = run->steps =
        f.integer("steps", 0, lim::kMaxTrainSteps, task ? std::optional<int64_t>(train_task::kSteps + 1) : std::nullopt);
    const int64_t record_every = run->record_every = f.integer(
        "record_every", 1, lim::kMaxTrainSteps,
        task ? train_task::record_every(s.task_inputs->shape[0], s.task_inputs->shape[1]) : 1);
    run->record_parameters = f.boolean("record_parameters", false);
    // "prints": false leaves PyTorch's print out of every R: an animation needs only the values, and
    // printing is most of a long run's time
    run->prints = f.boolean("prints", true);
    f.reject_unread_fields(op_name);
    // the whole run's work and answer, before any step: the losses, the recorded weights (and
    // parameters), the final parameters
    checks::check_train_run(s.step_work(kind), steps,
                            s.answer_numbers(steps, checks::train_records(0, steps, record_every), run->record_parameters),
                            run->prints);
    run->answer_budget = lim::kMaxResultNumbers;

    run->module.emplace(s.make(run->gen));
    run->named = run->module->parameters();
    for (const NamedParameter& p : run->named) run->params.push_back(p.value);
    return run;
}

std::string evaluate_train(Request& f) {
    std::unique_ptr<TrainRunState> run = start_train(f, "train");
    std::string out = run->advance(run->steps);
    if (!run->s.task_inputs) return out;
    out.pop_back();  // the train task's answer also holds what its program prints
    return cat({out, ",\"printed\":", json_quote(run->printed()), "}"});
}

// The train task's train request spelled out: the module, x and target it makes, its optimizer's
// settings, its stride and its program, for whatever runs it elsewhere (the reference generator
// runs the request and the program in PyTorch; docs/cli.md).
std::string evaluate_train_task(Request& f) {
    if (!f.has("task")) throw Error("missing field \"task\": a train_task request names its task, \"task\": \"previous_token\"");
    std::vector<std::string> words;
    if (f.has("words")) words = f.texts("words", static_cast<size_t>(lim::kMaxReplayTokens));
    for (size_t i = 0; i < words.size(); i++) checks::train_word(words[i], i);  // the page's rules
    const std::string optimizer = f.has("optimizer") && f.text("optimizer") == "sgd" ? "sgd" : "adam";
    std::unique_ptr<TrainRunState> run = start_train(f, "train_task");
    const TrainRunState& r = *run;
    const Tensor& inputs = *r.s.task_inputs;
    const int64_t T = inputs.shape[0], d = inputs.shape[1];
    if (!words.empty() && static_cast<int64_t>(words.size()) != T) {
        fail({"\"words\" has ", words.size(), " words but the inputs have ", T,
                    " rows; give one word per row"});
    }
    const train_task::OptimizerPreset& preset = *train_task::optimizer_preset(optimizer);
    const double lr = f.finite_number("lr", 0.0, preset.lr);
    const auto number = [](double v) { return double_text(v); };
    std::string request = cat({"{\"op\":\"train\",\"seed\":", r.s.seed,
                          ",\"module\":\"causal_attention\",\"x\":", nested_json(r.s.x),
                          ",\"target\":", nested_json(r.s.target), ",\"d_out\":", d,
                          ",\"dropout\":0,\"optimizer\":", json_quote(optimizer), ",\"lr\":", number(lr)});
    if (preset.momentum != 0.0) request += ",\"momentum\":" + number(preset.momentum);
    request += cat({",\"steps\":", r.steps, ",\"record_every\":", r.record_every,
               ",\"record_parameters\":", (r.record_parameters ? "true" : "false"),
               ",\"prints\":", (r.prints ? "true" : "false"), "}"});
    std::string orders = "[";
    for (const std::vector<int64_t>& o : train_task::orders(T)) {
        orders += orders.size() > 1 ? ",[" : "[";
        for (size_t i = 0; i < o.size(); i++) orders += (i ? "," : "") + std::to_string(o[i]);
        orders += "]";
    }
    std::string labels = "[", presets = "[";
    for (const std::string& l : train_task::input_labels(T, d)) labels += (labels.size() > 1 ? "," : "") + json_quote(l);
    for (const train_task::OptimizerPreset& o : train_task::kOptimizers) {
        presets += cat({(presets.size() > 1 ? "," : ""), "{\"name\":", json_quote(o.name),
                   ",\"label\":", json_quote(o.label), ",\"lr\":", number(o.lr),
                   (o.momentum != 0.0 ? ",\"momentum\":" + number(o.momentum) : ""), "}"});
    }
    return cat({"{\"task\":", json_quote(train_task::kName), ",\"steps\":", train_task::kSteps,
           ",\"print_every\":", train_task::kPrintEvery,
           ",\"record_every\":", r.record_every, ",\"orders\":", orders, "]",
           ",\"input_labels\":", labels, "],\"optimizers\":", presets, "],\"request\":", request,
           ",\"program\":", json_quote(train_task::program(inputs, words, r.s.seed, optimizer, lr)), "}"});
}

TrainRun::TrainRun() = default;
TrainRun::~TrainRun() = default;

std::string TrainRun::start(const std::string& request_json) {
    state_.reset();
    return checks::sentence_of([&] {
        const json::Value j = parse_request(request_json);
        Request r(j);
        if (r.op() != "train") fail({"a TrainRun runs a train request; this one's op is ", quoted(r.op())});
        state_ = start_train(r, "train");
    });
}

std::optional<std::string> TrainRun::printed() const {
    if (!state_ || !state_->s.task_inputs) return std::nullopt;
    return state_->printed();
}

int64_t TrainRun::steps_left() const { return state_ ? state_->steps - state_->step : 0; }

EvalResult TrainRun::advance(int64_t steps) {
    if (!state_) return failed_request("this TrainRun has no request: start it with a train request first");
    std::string answer;
    const Refusal error = checks::refusal_of([&] { answer = state_->advance(steps); });
    return answer_unless(error, std::move(answer));
}

}  // namespace attn
