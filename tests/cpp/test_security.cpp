// Security pass 3 (issue 21), the engine's part: train's work estimate counts everything (the
// review's minute-long requests are refused before a step, the page's largest run is not), train's
// answer is within the answer limit, TrainRun's slices add up within it, error sentences quote at
// most about 80 characters, and overflowing numbers and duplicate keys are refused with sentences.
#include <catch2/catch.hpp>
#include <string>

#include "rules/checks.h"
#include "core/limits.h"
#include "requests/request.h"
#include "fixtures.h"

using nlohmann::json;
namespace checks = attn::checks;
namespace lim = attn::limits;

namespace {

// rows × cols of one value
json rows(int64_t n, int64_t cols, double v) { return json::array_t(n, json::array_t(cols, v)); }

// a train request for x of (B,) T × d_in and d_out, the other fields given
json train(const std::string& module, int64_t B, int64_t T, int64_t d_in, int64_t d_out, int64_t steps,
           const std::string& optimizer = "sgd") {
    const bool batched = module == "causal_attention" || module == "mha";
    json r = {{"op", "train"}, {"seed", 1}, {"module", module}, {"d_out", d_out}, {"optimizer", optimizer},
              {"lr", 0.01}, {"steps", steps}, {"prints", false}};
    r["x"] = batched ? json(json::array_t(B, rows(T, d_in, 0.5))) : rows(T, d_in, 0.5);
    r["target"] = batched ? json(json::array_t(B, rows(T, d_out, 0.25))) : rows(T, d_out, 0.25);
    if (batched) r["dropout"] = 0;
    return r;
}

}  // namespace

TEST_CASE("train: minute-long runs within the old bound are refused before a step, naming the bound", "[limits][train]") {
    // The review's runs, at the sizes the answer limit leaves (T = 1024: one record is 2^20 weights).
    // 2^33 multiply-adds were the only bound, though the T×T softmax, masks and their gradients are
    // most of the work: CausalAttention, T = 1024, d = 1, 1000 steps (6.3e9 multiply-adds, 30 s)
    json causal = train("causal_attention", 1, 1024, 1, 1, 1000);
    causal["record_every"] = 1000;
    CHECK_THAT(error_of(causal.dump()), Catch::Contains("multiply-adds and computed numbers to train, more than the limit of " +
                                                        std::to_string(lim::kMaxTrainWork)));
    // mha, T = 724, 4 heads, 500 steps
    json mha = train("mha", 1, 724, 1, 4, 500);
    mha["num_heads"] = 4;
    mha["record_every"] = 1000;
    CHECK_THAT(error_of(mha.dump()), Catch::Contains("computed numbers to train"));
    // Adam over 2 million parameters (self_attention_v2, d_in = 1024, d_out = 640) for 1000 steps:
    // within the answer limit, with few multiply-adds, but 20 s of gradients and updates
    json adam = train("self_attention_v2", 1, 1, 1024, 640, 1000, "adam");
    adam["record_every"] = 1000;
    CHECK_THAT(error_of(adam.dump()), Catch::Contains("computed numbers to train"));
    // grad is one step: its backward counts too (forward 2^31 multiply-adds, backward twice that)
    json grad = train("self_attention_v2", 1, 2048, 1, 256, 1);
    for (const char* f : {"optimizer", "lr", "steps", "prints"}) grad.erase(f);
    grad["op"] = "grad";
    CHECK_THAT(error_of(grad.dump()), Catch::Contains("multiply-adds and computed numbers to train"));
}

TEST_CASE("train: the page's largest run and the bounds' own edges are accepted", "[limits][train]") {
    // web/src/sections/train.js with 16 tokens of 16 values: x is 4 orders × 16 × (16 + 16 one-hot),
    // d_out 16, 301 steps recorded every 6th, parameters recorded
    json page = train("causal_attention", 4, 16, 32, 16, 301, "adam");
    page["record_every"] = 6;
    page["record_parameters"] = true;
    page["lr"] = 0.02;
    const attn::EvalResult r = attn::eval_request(page.dump());
    INFO(r.error);
    CHECK(r.ok);
    // the estimate itself: one step more than the bound allows is refused, the bound accepted
    const checks::AttentionSizes s{1, 2048, 1, 1, 1, 2048, 0.0};
    const checks::Work step = checks::train_step_work(s, checks::Module::causal_attention, false, checks::Optimizer::sgd);
    const int64_t most = lim::kMaxTrainWork / (step.numbers + step.multiply_adds);
    CHECK_NOTHROW(checks::check_train_run(step, most, 1, false));
    CHECK_THROWS_AS(checks::check_train_run(step, most + 1, 1, false), attn::Error);
    // Adam costs more per parameter than SGD, and dropout more per score than none
    const checks::AttentionSizes wide{1, 1, 512, 512, 1, 1, 0.0};
    CHECK(checks::train_step_work(wide, checks::Module::self_attention, false, checks::Optimizer::adam).numbers >
          checks::train_step_work(wide, checks::Module::self_attention, false, checks::Optimizer::sgd).numbers);
    checks::AttentionSizes dropped = s;
    dropped.dropout = 0.1;
    CHECK(checks::train_step_work(dropped, checks::Module::causal_attention, false, checks::Optimizer::sgd).numbers >
          step.numbers);
}

TEST_CASE("train: printing counts in the work bound", "[limits][train]") {
    // issue 43: a 618-byte request, SelfAttention_v1, T = 31, lr 0, 2,170 steps, prints on: 2 million
    // printed weights (many below 1e-18), 3-4 s of CPU and 53 MB; within the answer limit, refused for
    // its printing, and answered with "prints": false
    json v1 = train("self_attention_v1", 1, 31, 1, 1, 2170);
    v1["lr"] = 0;
    for (size_t i = 0; i < 31; i++) v1["x"][i][0] = -30.0 + 2.0 * static_cast<double>(i);
    v1["prints"] = true;
    CHECK_THAT(error_of(v1.dump()), Catch::Contains("units of work to train and print") &&
                                        Catch::Contains("set \"prints\": false"));
    v1["prints"] = false;
    const attn::EvalResult quiet = attn::eval_request(v1.dump());
    INFO(quiet.error);
    CHECK(quiet.ok);
    // the page's largest run prints nothing; a short printed run is answered
    json shortrun = train("self_attention_v1", 1, 31, 1, 1, 100);
    shortrun["prints"] = true;
    CHECK(attn::eval_request(shortrun.dump()).ok);
}

TEST_CASE("train: the answer limit covers recorded weights, history and parameters together", "[limits][train]") {
    // mha, d_in 2040, d_out 2048, 1 step, record_parameters: 400 MB of answer from 157 KB of request
    json mha = train("mha", 1, 2, 2040, 2048, 1);
    mha["num_heads"] = 1;
    mha["record_parameters"] = true;
    CHECK_THAT(error_of(mha.dump()), Catch::Contains("numbers in the answer, more than the limit of " +
                                                     std::to_string(lim::kMaxResultNumbers)));
    // SelfAttention_v1, T = 2048, 4 recorded steps: 4 × 2048² weights
    json v1 = train("self_attention_v1", 1, 2048, 1, 1, 4);
    CHECK_THAT(error_of(v1.dump()), Catch::Contains("numbers in the answer"));
    // the parameter history and the final parameters together: 65,664 parameters (self_attention_v1,
    // d_in 128, d_out 171) recorded at each of 30 steps, and once more at the end, fit; at 31 steps
    // the history alone would fit (2,035,584 numbers) but with the final parameters it does not
    json parts = train("self_attention_v1", 1, 2, 128, 171, 30);
    parts["record_parameters"] = true;
    const attn::EvalResult fits = attn::eval_request(parts.dump());
    INFO(fits.error);
    CHECK(fits.ok);
    parts["steps"] = 31;
    CHECK_THAT(error_of(parts.dump()), Catch::Contains("numbers in the answer"));
}

TEST_CASE("TrainRun: its slices' answers add up within the answer limit", "[limits][train]") {
    // 196,608 parameters: one answer holds them once, each slice repeats them
    const json request = train("self_attention_v1", 1, 2, 256, 256, 20);
    REQUIRE(attn::eval_request(request.dump()).ok);
    attn::TrainRun run;
    REQUIRE(run.start(request.dump()).empty());
    int answered = 0;
    attn::EvalResult r;
    while ((r = run.advance(1)).ok) answered++;
    CHECK(answered == 10);  // 10 × 196,609 numbers; the 11th would pass 2^21
    CHECK_THAT(r.error, Catch::Contains("advance more steps per call"));
    // in slices of 10 steps, the same run answers to the end
    attn::TrainRun in_tens;
    REQUIRE(in_tens.start(request.dump()).empty());
    CHECK(in_tens.advance(10).ok);
    CHECK(in_tens.advance(10).ok);
    CHECK(in_tens.steps_left() == 0);
}

TEST_CASE("error sentences quote at most about 80 characters of a bad value", "[errors]") {
    const std::string long_name(1 << 20, 'a');
    const std::vector<std::string> requests = {
        json{{"op", long_name}}.dump(),                                         // unknown op
        json{{"op", "softmax"}, {"x", {1}}, {long_name, 1}}.dump(),             // unknown field
        json{{"op", "linear"}, {"seed", 1}, {"d_in", long_name}, {"d_out", 2}}.dump(),  // not a whole number
        json{{"op", "softmax"}, {"x", {long_name}}}.dump(),                     // not a number
        R"({"op":"softmax","x":[1],"s":")" + long_name + "\x01\"}",             // invalid JSON: a control character
        R"({"op":"softmax","x":[1)" + std::string(1 << 20, '0') + "ex]}",      // invalid JSON: a long bad number
        train(long_name, 1, 2, 2, 2, 1).dump(),                                 // unknown module
    };
    for (const std::string& request : requests) {
        const std::string error = error_of(request);
        INFO(error.substr(0, 300));
        CHECK(error.size() < 400);
    }
    CHECK(checks::excerpt(std::string(100, 'x')) == std::string(80, 'x') + "…");
    CHECK(checks::excerpt(std::string(79, 'x') + "€€") == std::string(79, 'x') + "…");  // not inside a character
    CHECK(checks::excerpt("short") == "short");
}

TEST_CASE("numbers too large for a double and duplicate keys are refused with sentences", "[errors]") {
    const std::string overflow = error_of(R"({"op":"softmax","x":[1e999]})");
    CHECK_THAT(overflow, Catch::Contains("a number too large for a double (1e999)"));
    CHECK(overflow.find("json.exception") == std::string::npos);
    CHECK_THAT(error_of(R"({"op":"softmax","x":[-1)" + std::string(400, '0') + "]}"), Catch::Contains("too large for a double"));
    CHECK_THAT(error_of(R"({"op":"softmax","x":[1],"x":[2]})"), Catch::Contains("the key \"x\" twice in one object"));
    CHECK_THAT(error_of(R"({"op":"softmax","op":"softmax","x":[1]})"), Catch::Contains("the key \"op\" twice"));
    CHECK_THAT(error_of(R"({"op":"softmax","x":[1],"y":[{"a":1},{"b":{"c":1,"c":2}}]})"), Catch::Contains("the key \"c\" twice"));
    // the same key in different objects is no duplicate; the request is refused for its unknown field only
    CHECK_THAT(error_of(R"({"op":"softmax","x":[1],"y":[{"a":1},{"a":2}]})"), Catch::Contains("unknown field \"y\""));
    // still numbers: the largest double, and 1e-999 (0)
    CHECK(attn::eval_request(R"({"op":"softmax","x":[1.7976931348623157e308, 1e-999]})").ok);
}

TEST_CASE("bug_hunt is sized by what it answers: two T × T tensors", "[limits][bug_hunt]") {
    // issue 43: sized as self-attention (T × d_out), an 18 KB request (x 2048 × 1) answered 8.4 M numbers,
    // 57-89 MB, with a 324 MB peak (496 MB in wasm)
    auto bug_hunt = [](int64_t T) {
        json r = {{"op", "bug_hunt"}, {"seed", 1}, {"d_out", 1}, {"bug", "mask_with_zero"}};
        r["x"] = rows(T, 1, 0.5);
        return r.dump();
    };
    CHECK_THAT(error_of(bug_hunt(2048)), Catch::StartsWith("the request would need"));
    CHECK_THAT(error_of(bug_hunt(1025)), Catch::Contains("numbers in the answer, more than the limit of " +
                                                         std::to_string(lim::kMaxResultNumbers)));
    CHECK(attn::eval_request(bug_hunt(64)).ok);
    // the rule itself: two T × T answers at d_out ≤ T, two T × d_out beyond
    CHECK(checks::bug_hunt_work(1024, 1, 1).result_numbers == 2 * 1024 * 1024);
    CHECK(checks::bug_hunt_work(4, 1, 16).result_numbers == 2 * 4 * 16);
}

TEST_CASE("train_task's words follow the page's rules, with its sentences", "[limits][train]") {
    // issue 43: any word was taken (NUL, VT, U+2028, 4 MiB); a NUL made the printed program fail to run
    auto task = [](const json& words) {
        json r = {{"op", "train_task"}, {"task", "previous_token"}, {"optimizer", "adam"}, {"inputs", rows(2, 2, 0.5)}};
        r["words"] = words;
        return r.dump();
    };
    const std::string control = "A word cannot hold control characters";
    CHECK_THAT(error_of(task({"ok", std::string("a\0b", 3)})), Catch::StartsWith("\"words\" word 2: " + control));
    CHECK_THAT(error_of(task({"a\vb", "ok"})), Catch::StartsWith("\"words\" word 1: " + control));
    CHECK_THAT(error_of(task({"ok", "a\xE2\x80\xA8" "b"})), Catch::Contains(control));   // U+2028
    CHECK_THAT(error_of(task({"ok", "a\xC2\x85"})), Catch::Contains(control));          // U+0085, a C1 control
    CHECK_THAT(error_of(task({std::string(21, 'w'), "ok"})), Catch::Contains("word 1: Use at most 20 characters."));
    CHECK_THAT(error_of(task({std::string(1 << 20, 'w'), "ok"})), Catch::Contains("Use at most 20 characters."));
    CHECK_THAT(error_of(task({" ", "ok"})), Catch::Contains("word 1: Enter a word for this token."));
    // twenty characters, accents and an emoji (two UTF-16 units, as the page counts them) are words
    CHECK(attn::eval_request(task({std::string(20, 'w'), "caf\xC3\xA9 \xF0\x9F\x98\x80"})).ok);
}
