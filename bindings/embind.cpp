// The Embind layer: the JS API of bindings/API.md as conversions between JS values and the engine's
// C++ calls (requests/request.h, replay/book.h, page/lab.h, attn/bench.h). No logic lives here.
// Errors: every entry point answers its result, or for anything it cannot take an Error object
// holding the engine's sentence, which bindings/loader.js throws. No C++ exception crosses into JS:
// Emscripten 3.1.6 would hand JS only the exception's address (no message) and never free it.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "attn/bench.h"
#include "replay/book.h"
#include "core/format.h"
#include "page/lab.h"
#include "core/limits.h"
#include "requests/request.h"
#include "page/sections.h"

using emscripten::val;

namespace {

// A failed call's answer: a JS Error with the sentence (the loader throws it; bindings/API.md).
val failure(const std::string& sentence) { return val::global("Error").new_(sentence); }

bool is_float32_array(const val& v) { return v.instanceof(val::global("Float32Array")); }

// Copies a Float32Array into engine memory, once the engine has checked its length.
attn::lab::FillFn fill_from(const val& array) {
    return [array](float* dst) {
        const size_t n = array["length"].as<size_t>();
        val(emscripten::typed_memory_view(n, dst)).call<void>("set", array);
    };
}

size_t length_of(const val& array) { return array["length"].as<size_t>(); }

// A JS string argument, a name: its first 256 UTF-16 units at most are copied into wasm memory (no
// name is longer; the engine reports an unknown one); anything else reads as "".
std::string text_of(const val& v) {
    if (!v.isString()) return "";
    return v["length"].as<double>() > 256 ? v.call<val>("slice", 0, 256).as<std::string>() : v.as<std::string>();
}

val float_array_copy(const attn::Tensor& t) {
    return val(emscripten::typed_memory_view(t.data.size(), t.data.data())).call<val>("slice");
}

val shape_array(const attn::Shape& shape) {
    val out = val::array();
    for (int64_t d : shape) out.call<void>("push", static_cast<double>(d));
    return out;
}

// Whether a JS string is longer than a request may be, in the UTF-8 bytes the engine would get,
// counted before anything is copied into wasm memory (which never shrinks). A UTF-16 unit is 1 to 3
// bytes: only a string between a third of the limit and the limit in units needs a count, which
// TextEncoder makes in JS memory, collected when done.
bool over_request_limit(const val& text) {
    const double units = text["length"].as<double>(), limit = static_cast<double>(attn::limits::kMaxRequestBytes);
    if (units > limit) return true;
    if (units * 3 <= limit) return false;
    return val::global("TextEncoder").new_().call<val>("encode", text)["length"].as<double>() > limit;
}

// --- the CLI's contract ---

// (a sentence the page words in the reader's language also carries its key and parameters: e.key,
// e.params; core/tensor.h's Error)
val answer(const attn::EvalResult& r) {
    if (r.ok) return val(r.json);
    val e = failure(r.error);
    if (!r.key.empty()) {
        e.set("key", r.key);
        e.set("params", val::global("JSON").call<val>("parse", r.params_json));
    }
    return e;
}

val eval_request(const val& json) {
    if (!json.isString()) {
        return failure("evalRequest takes the request as a JSON string, e.g. JSON.stringify({op: 'softmax', x: [1, 2]})");
    }
    if (over_request_limit(json)) return answer(attn::oversized_request());
    return answer(attn::eval_request(json.as<std::string>()));
}

// The page's data path: one call per section and update (page/sections.h).
val section_data(const val& json) {
    if (!json.isString()) {
        return failure("sectionData takes the request as a JSON string, e.g. JSON.stringify({section: 'temperature', inputs, d_out: 2})");
    }
    if (over_request_limit(json)) return answer(attn::oversized_request());
    return answer(attn::section_data(json.as<std::string>()));
}

std::string book_text() { return attn::book_text(); }
std::string limits() { return attn::limits_json(); }
std::string book_cells() { return attn::lab::book_cells_json(); }

val text_answer(const attn::lab::TextResult& r) { return r.error.empty() ? val(r.text) : failure(r.error); }

// The chapter on the learner's inputs: the cells' JSON.
val book_cells_for(const val& inputs, double tokens, double d_in, double d_out) {
    if (!is_float32_array(inputs)) return failure("inputs must be a Float32Array of tokens × d_in numbers");
    return text_answer(attn::lab::book_cells_for(length_of(inputs), fill_from(inputs), tokens, d_in, d_out));
}

val format_tensor(const val& values, const val& shape) {
    if (!is_float32_array(values)) return failure("values must be a Float32Array");
    if (!val::global("Array").call<bool>("isArray", shape)) return failure("shape must be an array of sizes, e.g. [2, 3]");
    std::vector<double> sizes;
    const size_t dims = length_of(shape);
    if (dims > 4) return failure("the shape has " + std::to_string(dims) + " sizes; give at most 4");
    for (size_t i = 0; i < dims; i++) sizes.push_back(shape[i].isNumber() ? shape[i].as<double>() : -1.0);
    return text_answer(attn::lab::format_values(length_of(values), fill_from(values), sizes));
}

// --- the step-by-step view ---

val done(const std::string& error) { return error.empty() ? val::undefined() : failure(error); }

val run_compute(attn::lab::AttentionRun& run, const val& variant, const val& inputs, double tokens, double d_in,
                double seed, double d_out) {
    if (!is_float32_array(inputs)) return failure("inputs must be a Float32Array of tokens × d_in numbers, row by row");
    return done(run.compute(text_of(variant), length_of(inputs), fill_from(inputs), tokens, d_in, seed, d_out));
}

val run_names(const attn::lab::AttentionRun& run) {
    val out = val::array();
    for (const std::string& name : run.names()) out.call<void>("push", name);
    return out;
}

val run_shape(const attn::lab::AttentionRun& run, const val& name) {
    const attn::Tensor* t = run.find(text_of(name));
    return t ? shape_array(t->shape) : failure(run.no_tensor(text_of(name)));
}

// A view into wasm memory, valid until the next call into the engine.
val run_tensor(const attn::lab::AttentionRun& run, const val& name) {
    const attn::Tensor* t = run.find(text_of(name));
    return t ? val(emscripten::typed_memory_view(t->data.size(), t->data.data())) : failure(run.no_tensor(text_of(name)));
}

val run_print(const attn::lab::AttentionRun& run, const val& name) { return text_answer(run.print(text_of(name))); }

val run_set_temperature(attn::lab::AttentionRun& run, double temperature) { return done(run.set_temperature(temperature)); }

// --- training a few steps at a time (requests/request.h's TrainRun) ---

val train_start(attn::TrainRun& run, const val& json) {
    if (!json.isString()) return failure("start takes a train request as a JSON string, e.g. JSON.stringify({op: 'train', ...})");
    if (over_request_limit(json)) return failure(attn::oversized_request().error);
    return done(run.start(json.as<std::string>()));
}

val train_advance(attn::TrainRun& run, double steps) {
    if (!(steps >= 0 && steps <= attn::limits::kMaxTrainSteps) || steps != static_cast<double>(static_cast<int64_t>(steps))) {
        return failure("advance takes a whole number of steps from 0 to " + std::to_string(attn::limits::kMaxTrainSteps));
    }
    return answer(run.advance(static_cast<int64_t>(steps)));
}

double train_steps_left(const attn::TrainRun& run) { return static_cast<double>(run.steps_left()); }

// What the train task's program prints for the steps run so far (replay/train_task.h).
val train_printed(const attn::TrainRun& run) {
    const std::optional<std::string> text = run.printed();
    return text ? val(*text) : failure("printed() answers for a run of the train task only: start it with a request holding \"task\": \"previous_token\"");
}

// --- long sequences ---

val mha_forward(const val& x, double batch, double tokens, double d_in, double d_out, double num_heads,
                double context_length, double dropout, double seed) {
    if (!is_float32_array(x)) return failure("x must be a Float32Array of batch × tokens × d_in numbers");
    const attn::lab::MhaResult r = attn::lab::mha_forward(length_of(x), fill_from(x), batch, tokens, d_in, d_out, num_heads,
                                                          context_length, dropout, seed, attn::bench::now_ms);
    if (!r.error.empty()) return failure(r.error);
    val out = val::object();
    out.set("shape", shape_array(r.out.shape));
    out.set("values", float_array_copy(r.out));
    out.set("ms", r.ms);
    out.set("print", attn::format_tensor(r.out));  // as print(mha(x)) shows it, grad_fn included
    return out;
}

// The median in ms.
val bench_result(const attn::bench::BenchResult& r) { return r.error.empty() ? val(r.ms) : failure(r.error); }
val bench_sgemm(double n, double runs) { return bench_result(attn::bench::bench_sgemm(n, runs)); }
val bench_mha(double tokens, double runs) { return bench_result(attn::bench::bench_mha(tokens, runs)); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab) {
    emscripten::function("evalRequest", &eval_request);
    emscripten::function("sectionData", &section_data);
    emscripten::function("limits", &limits);
    emscripten::function("bookText", &book_text);
    emscripten::function("bookCells", &book_cells);
    emscripten::function("bookCellsFor", &book_cells_for);
    emscripten::function("formatTensor", &format_tensor);
    emscripten::class_<attn::lab::AttentionRun>("AttentionRun")
        .constructor<>()
        .function("compute", &run_compute)
        .function("names", &run_names)
        .function("shape", &run_shape)
        .function("tensor", &run_tensor)
        .function("print", &run_print)
        .function("setTemperature", &run_set_temperature);
    emscripten::class_<attn::TrainRun>("TrainRun")
        .constructor<>()
        .function("start", &train_start)
        .function("advance", &train_advance)
        .function("stepsLeft", &train_steps_left)
        .function("printed", &train_printed);
    emscripten::function("mhaForward", &mha_forward);
    emscripten::function("benchSgemm", &bench_sgemm);
    emscripten::function("benchMha", &bench_mha);
}
