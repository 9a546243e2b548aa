// The grad and train ops against PyTorch 1.13 (tests/fixtures/reference_cases.json): losses and
// gradients within 1e-6 relative and printed alike, 100 optimizer steps within 1e-4; and the
// backward pieces that the reference cases alone would not pin down.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "chapter/autograd.h"
#include "chapter/optim.h"
#include "core/pytorch_cpu.h"
#include "replay/train_task.h"
#include "requests/request.h"
#include "fixtures.h"

using nlohmann::json;

namespace {

json eval_ok(const json& request) {
    const attn::EvalResult r = attn::eval_request(request.dump());
    INFO(r.json.substr(0, 300));
    REQUIRE(r.ok);
    return json::parse(r.json);
}

// The same print, and every value within rel of PyTorch's (abs_floor for values near 0).
void check_tensor(const json& got, const json& want, double rel, double abs_floor) {
    CHECK(got["shape"] == want["shape"]);
    CHECK(got["print"].get<std::string>() == want["print"].get<std::string>());
    REQUIRE(got["values"].size() == want["values"].size());
    for (size_t i = 0; i < want["values"].size(); i++) {
        const double g = json_value(got["values"][i]), w = json_value(want["values"][i]);
        INFO("value " << i << ": got " << g << ", PyTorch " << w);
        CHECK(std::fabs(g - w) <= std::max(rel * std::fabs(w), abs_floor));
    }
}

std::vector<std::string> keys_of(const json& object) {
    std::vector<std::string> out;
    for (auto it = object.begin(); it != object.end(); ++it) out.push_back(it.key());
    return out;
}

// Keys in the order the answer text has them (json objects sort theirs).
std::vector<std::string> names_in_order(const std::string& answer, const json& object) {
    std::vector<std::pair<size_t, std::string>> at;
    for (const std::string& k : keys_of(object)) at.emplace_back(answer.find("\"" + k + "\":{"), k);
    std::sort(at.begin(), at.end());
    std::vector<std::string> out;
    for (const auto& p : at) out.push_back(p.second);
    return out;
}

}  // namespace

TEST_CASE("grad answers every reference case as PyTorch's loss.backward() does", "[train]") {
    int seen = 0;
    const json cases = fixture_json("reference_cases.json");
    for (const auto& c : cases["cases"]) {
        if (c["request"]["op"] != "grad") continue;
        INFO("case " << c["name"].get<std::string>());
        const json got = eval_ok(c["request"]);
        check_tensor(got["loss"], c["answer"]["loss"], 1e-6, 0.0);
        CHECK(got["loss"]["print_with_grad_fn"] == c["answer"]["loss"]["print_with_grad_fn"]);
        REQUIRE(keys_of(got["grads"]) == keys_of(c["answer"]["grads"]));
        for (const std::string& name : keys_of(c["answer"]["grads"])) {
            INFO("gradient of " << name);
            check_tensor(got["grads"][name], c["answer"]["grads"][name], 1e-6, 1e-12);
        }
        seen++;
    }
    CHECK(seen >= 8);
}

// One train answer against PyTorch's: every loss within 1e-4 relative, the recorded weights within 1e-4
// and printed alike, the final parameters (and those of each recorded step, when asked) within 1e-4.
static void check_train(const json& got, const json& want) {
    REQUIRE(got["losses"].size() == want["losses"].size());
    for (size_t i = 0; i < want["losses"].size(); i++) {
        INFO("loss at step " << i);
        CHECK(std::fabs(json_value(got["losses"][i]) - json_value(want["losses"][i])) <=
              1e-4 * std::fabs(json_value(want["losses"][i])));
    }
    REQUIRE(got["weights"].size() == want["weights"].size());
    for (size_t i = 0; i < want["weights"].size(); i++) {
        INFO("attention weights record " << i);
        check_tensor(got["weights"][i], want["weights"][i], 1e-4, 1e-6);
    }
    REQUIRE(keys_of(got["parameters"]) == keys_of(want["parameters"]));
    for (const std::string& name : keys_of(want["parameters"])) {
        INFO("final " << name);
        check_tensor(got["parameters"][name], want["parameters"][name], 0.0, 1e-4);
    }
    REQUIRE(got.contains("parameter_history") == want.contains("parameter_history"));
    if (!want.contains("parameter_history")) return;
    REQUIRE(got["parameter_history"].size() == want["parameter_history"].size());
    for (size_t i = 0; i < want["parameter_history"].size(); i++) {
        for (const std::string& name : keys_of(want["parameters"])) {
            INFO(name << " at record " << i);
            check_tensor(got["parameter_history"][i][name], want["parameter_history"][i][name], 0.0, 1e-4);
        }
    }
}

TEST_CASE("train answers every reference case as PyTorch's SGD and Adam loops do", "[train]") {
    int seen = 0;
    const json cases = fixture_json("reference_cases.json");
    for (const auto& c : cases["cases"]) {
        if (c["request"]["op"] != "train") continue;
        INFO("case " << c["name"].get<std::string>());
        check_train(eval_ok(c["request"]), c["answer"]);
        seen++;
    }
    CHECK(seen >= 17);
}

// The page's "Train it" run (web/src/sections/train.js): 300 steps, with the parameters of each record.
TEST_CASE("train answers the page's task as PyTorch does, parameters of every record included", "[train]") {
    const json cases = fixture_json("train_page_cases.json");
    REQUIRE(cases["cases"].size() == 3);
    for (const auto& c : cases["cases"]) {
        INFO("case " << c["name"].get<std::string>());
        check_train(eval_ok(c["request"]), c["answer"]);
    }
}

TEST_CASE("record_parameters: each record holds the parameters its forward used, before that step's update", "[train]") {
    json request = {{"op", "train"}, {"seed", 1}, {"module", "self_attention_v2"}, {"d_out", 2},
                    {"x", {{1, 0}, {0, 1}, {1, 1}}}, {"target", {{0, 1}, {1, 0}, {0, 0}}},
                    {"optimizer", "adam"}, {"lr", 0.1}, {"steps", 7}, {"record_every", 3}, {"record_parameters", true}};
    const json got = eval_ok(request);
    REQUIRE(got["parameter_history"].size() == 3);  // steps 0, 3, 6
    for (int k : {0, 3, 6}) {
        request["steps"] = k;
        request.erase("record_parameters");
        CHECK(got["parameter_history"][k / 3] == eval_ok(request)["parameters"]);
    }
    request["steps"] = 7;
    CHECK_FALSE(eval_ok(request).contains("parameter_history"));  // not asked: not written
    // "prints": false: the same values, no print in any R
    request["record_parameters"] = true;
    request["prints"] = false;
    const json bare = eval_ok(request);
    CHECK(bare["losses"] == got["losses"]);
    CHECK(bare["weights"][1]["values"] == got["weights"][1]["values"]);
    CHECK_FALSE(bare["weights"][1].contains("print"));
    CHECK(bare["parameter_history"][2]["W_key.weight"]["values"] == got["parameter_history"][2]["W_key.weight"]["values"]);
    CHECK_FALSE(bare["parameter_history"][2]["W_key.weight"].contains("print"));
    CHECK_FALSE(bare["parameters"]["W_value.weight"].contains("print"));
    request.erase("prints");
    request["record_parameters"] = 1;
    const attn::EvalResult bad = attn::eval_request(request.dump());
    CHECK_FALSE(bad.ok);
    CHECK_THAT(json::parse(bad.json)["error"].get<std::string>(), Catch::Contains("\"record_parameters\" must be true or false"));
}

// The page trains a few steps per task (TrainRun): the chunks together are the one-shot answer, bit
// for bit, whatever their sizes; records stay on the run's steps 0, K, 2K, ...
TEST_CASE("TrainRun in chunks answers what one train request does", "[train]") {
    const json cases = fixture_json("train_page_cases.json");
    json request = cases["cases"][0]["request"];
    request["steps"] = 23;
    request["record_every"] = 4;
    request["prints"] = false;
    const json whole = eval_ok(request);
    for (int chunk : {1, 3, 4, 7, 23, 100}) {
        INFO("chunks of " << chunk << " steps");
        attn::TrainRun run;
        REQUIRE(run.start(request.dump()).empty());
        json losses = json::array(), weights = json::array(), history = json::array(), last;
        for (int64_t left = 23; left > 0; left -= chunk) {
            REQUIRE(run.steps_left() == left);
            const attn::EvalResult r = run.advance(chunk);
            REQUIRE(r.ok);
            last = json::parse(r.json);
            for (const auto& v : last["losses"]) losses.push_back(v);
            for (const auto& v : last["weights"]) weights.push_back(v);
            for (const auto& v : last["parameter_history"]) history.push_back(v);
        }
        CHECK(run.steps_left() == 0);
        CHECK(losses == whole["losses"]);
        CHECK(weights == whole["weights"]);
        CHECK(history == whole["parameter_history"]);
        CHECK(last["parameters"] == whole["parameters"]);
        // past the end: nothing more, the same parameters
        const json after = json::parse(run.advance(5).json);
        CHECK(after["losses"].empty());
        CHECK(after["parameters"] == whole["parameters"]);
    }
}

TEST_CASE("TrainRun refuses what the train op refuses, and a run not started", "[train][errors]") {
    attn::TrainRun run;
    const attn::EvalResult early = run.advance(1);
    CHECK_FALSE(early.ok);
    CHECK_THAT(early.error, Catch::Contains("start it with a train request"));
    CHECK_THAT(run.start(R"({"op": "softmax", "x": [1, 2]})"), Catch::Contains("this one's op is \"softmax\""));
    CHECK_THAT(run.start("{"), Catch::Contains("not valid JSON"));
    json request = fixture_json("train_page_cases.json")["cases"][0]["request"];
    request["lr"] = -1;
    CHECK_THAT(run.start(request.dump()), Catch::Contains("\"lr\""));
    CHECK(run.steps_left() == 0);
    CHECK_FALSE(run.advance(1).ok);  // a refused start leaves no run behind
}

TEST_CASE("grad names the parameters in named_parameters() order", "[train]") {
    const json request = {{"op", "grad"}, {"seed", 123}, {"module", "mha"}, {"d_out", 2}, {"num_heads", 2},
                          {"qkv_bias", true}, {"x", {{{1, 2}, {3, 4}}}}, {"target", {{{0, 1}, {1, 0}}}}};
    const attn::EvalResult r = attn::eval_request(request.dump());
    REQUIRE(r.ok);
    CHECK(names_in_order(r.json, json::parse(r.json)["grads"]) ==
          std::vector<std::string>{"W_query.weight", "W_query.bias", "W_key.weight", "W_key.bias", "W_value.weight",
                                   "W_value.bias", "out_proj.weight", "out_proj.bias"});
}

TEST_CASE("train records the weights at steps 0, K, 2K, ... and reports the final parameters", "[train]") {
    json request = {{"op", "train"}, {"seed", 1}, {"module", "self_attention_v1"}, {"d_out", 2},
                    {"x", {{1, 0}, {0, 1}, {1, 1}}}, {"target", {{0, 1}, {1, 0}, {0, 0}}},
                    {"optimizer", "sgd"}, {"lr", 0.5}, {"steps", 7}, {"record_every", 3}};
    const json got = eval_ok(request);
    CHECK(got["losses"].size() == 7);
    CHECK(got["weights"].size() == 3);  // steps 0, 3, 6
    // step 0's weights are the untrained module's: the same as a grad request's forward
    request["steps"] = 1;
    CHECK(eval_ok(request)["weights"][0] == got["weights"][0]);
    // zero steps: no losses, the initial parameters
    request["steps"] = 0;
    const json none = eval_ok(request);
    CHECK(none["losses"].empty());
    request = {{"op", "grad"}, {"seed", 1}, {"module", "self_attention_v1"}, {"d_out", 2},
               {"x", {{1, 0}, {0, 1}, {1, 1}}}, {"target", {{0, 1}, {1, 0}, {0, 0}}}};
    CHECK(json_value(eval_ok(request)["loss"]["values"][0]) == json_value(got["losses"][0]));
    CHECK(none["parameters"]["W_query"]["shape"] == json::array({2, 2}));
}

TEST_CASE("softmax's backward sums grad·out as PyTorch's vectorised kernel does", "[train]") {
    // rows of 1..20: under 8 a sequential sum; from 8, 8 lanes of FMA chains and the shuffle tree.
    // Reference: the exact sum in double, which the float result must be within a few ulps of.
    for (int n = 1; n <= 20; n++) {
        std::vector<float> grad(n), out(n), grad_in(n, NAN);
        for (int j = 0; j < n; j++) {
            grad[j] = std::sin(1.0f + j) * 0.7f;
            out[j] = 1.0f / static_cast<float>(n) + 0.01f * static_cast<float>(j % 3);
        }
        attn::pytorch_cpu::softmax_backward_row(grad_in.data(), grad.data(), out.data(), n);
        double total = 0.0;
        for (int j = 0; j < n; j++) total += static_cast<double>(grad[j]) * out[j];
        for (int j = 0; j < n; j++) {
            INFO("n = " << n << ", j = " << j);
            CHECK(std::fabs(grad_in[j] - (grad[j] - total) * out[j]) <= 1e-6);
        }
    }
}

TEST_CASE("sum over rows (a bias gradient) visits every column, under 8 columns and from 8", "[train]") {
    for (int64_t cols : {1, 3, 4, 5, 8, 9, 17, 32, 33, 45}) {
        const int64_t rows = 13;
        std::vector<float> x(rows * cols), out(cols, NAN);
        for (int64_t i = 0; i < rows * cols; i++) x[i] = static_cast<float>((i * 7) % 11) * 0.25f;
        attn::pytorch_cpu::sum_dim0(out.data(), x.data(), rows, cols);
        for (int64_t j = 0; j < cols; j++) {
            float want = 0.0f;  // quarters: every order sums them exactly
            for (int64_t i = 0; i < rows; i++) want += x[i * cols + j];
            INFO("cols = " << cols << ", column " << j);
            CHECK(out[j] == want);
        }
    }
}

TEST_CASE("grad and train refuse bad requests with a sentence", "[train][errors]") {
    auto error_of = [](const json& request) {
        const attn::EvalResult r = attn::eval_request(request.dump());
        CHECK_FALSE(r.ok);
        return json::parse(r.json).value("error", std::string());
    };
    auto with = [](json request, const std::string& key, const json& value) {
        if (value.is_null()) request.erase(key);
        else request[key] = value;
        return request;
    };
    const json v2 = {{"op", "grad"}, {"seed", 1}, {"module", "self_attention_v2"}, {"d_out", 2},
                     {"x", {{1, 0}, {0, 1}}}, {"target", {{0, 1}, {1, 0}}}};
    CHECK_THAT(error_of(with(v2, "target", nullptr)), Catch::Contains("missing field \"target\""));
    CHECK_THAT(error_of(with(v2, "target", {{0, 1, 2}, {1, 0, 2}})), Catch::Contains("\"target\" is 2 × 3 but the module's output is 2 × 2"));
    CHECK_THAT(error_of(with(v2, "module", "gpt2")), Catch::Contains("unknown module \"gpt2\""));
    CHECK_THAT(error_of(with(v2, "dropout", 0.1)), Catch::Contains("unknown field \"dropout\""));
    CHECK_THAT(error_of(with(v2, "x", {{{1, 0}, {0, 1}}})), Catch::Contains("must be 2-D"));
    CHECK_THAT(error_of(with(v2, "steps", 5)), Catch::Contains("unknown field \"steps\" for op \"grad\""));
    json causal = with(with(v2, "module", "causal_attention"), "x", {{{1, 0}, {0, 1}}});
    causal["target"] = {{{0, 1}, {1, 0}}};
    CHECK(error_of(with(causal, "dropout", 1.0)).find("less than 1") != std::string::npos);
    CHECK_THAT(error_of(with(causal, "context_length", 2)), Catch::Contains("unknown field \"context_length\""));
    json mha = with(causal, "module", "mha");
    CHECK_THAT(error_of(mha), Catch::Contains("missing field \"num_heads\""));
    CHECK_THAT(error_of(with(mha, "num_heads", 3)), Catch::Contains("d_out (2) must be divisible by num_heads (3)"));
    json train = with(with(v2, "op", "train"), "optimizer", "adam");
    train["lr"] = 0.01;
    train["steps"] = 10;
    CHECK_THAT(error_of(with(train, "optimizer", "rmsprop")), Catch::Contains("\"sgd\" or \"adam\""));
    CHECK_THAT(error_of(with(train, "momentum", 0.9)), Catch::Contains("unknown field \"momentum\""));
    CHECK_THAT(error_of(with(train, "steps", 10001)), Catch::Contains("\"steps\" must be a whole number from 0 to 10000, got 10001"));
    CHECK_THAT(error_of(with(train, "lr", -1)), Catch::Contains("\"lr\" must be at least 0"));
    CHECK_THAT(error_of(with(train, "lr", "inf")), Catch::Contains("\"lr\" must be a finite number"));
    CHECK_THAT(error_of(with(train, "record_every", 0)), Catch::Contains("\"record_every\" must be a whole number from 1 to 10000, got 0"));
    CHECK_THAT(error_of(with(train, "lr", nullptr)), Catch::Contains("missing field \"lr\""));
    // the work bound: 10,000 steps of a large module are refused before any is run
    json big = train;
    big["steps"] = 10000;
    big["d_out"] = 512;
    big["x"] = json::array();
    big["target"] = json::array();
    for (int t = 0; t < 64; t++) {
        big["x"].push_back(std::vector<float>(512, 0.5f));
        big["target"].push_back(std::vector<float>(512, 0.0f));
    }
    CHECK_THAT(error_of(big), Catch::Contains("to train, more than the limit"));
    // one grad is bounded by eval's rules for the module: 2048 tokens of d_out 512 need 2^32 and more
    json long_grad = v2;
    long_grad["d_out"] = 512;
    long_grad["x"] = json::array();
    long_grad["target"] = json::array();
    for (int t = 0; t < 2048; t++) {
        long_grad["x"].push_back({0});
        long_grad["target"].push_back(std::vector<int>(512, 0));
    }
    CHECK_THAT(error_of(long_grad), Catch::Contains("multiply-adds, more than the limit"));
}

TEST_CASE("SGD with momentum and Adam update as PyTorch's single-tensor loops do", "[train]") {
    // One parameter, hand-computed in float the way _single_tensor_sgd / _single_tensor_adam do.
    attn::Tensor p({2}, {1.0f, -2.0f});
    std::vector<attn::Tensor*> params = {&p};
    attn::Sgd sgd(0.5, 0.25);
    sgd.step(params, {attn::Tensor({2}, {0.5f, 1.0f})});  // buf = g; p -= 0.5·g
    CHECK(p.data == std::vector<float>{0.75f, -2.5f});
    sgd.step(params, {attn::Tensor({2}, {1.0f, 0.0f})});  // buf = 0.25·buf + g = (1.125, 0.25)
    CHECK(p.data == std::vector<float>{0.75f - 0.5625f, -2.625f});
    attn::Tensor q({1}, {1.0f});
    std::vector<attn::Tensor*> qs = {&q};
    attn::Adam adam(0.1);
    adam.step(qs, {attn::Tensor({1}, {2.0f})});  // first step: m̂ = g, v̂ = g², so q -= lr·g/(|g| + eps)
    CHECK(q.data[0] == Approx(0.9f).epsilon(1e-6));
}

// At the editor's largest inputs (16 tokens of 16 values: T·d·T ≥ 400, so the attention products go
// through OpenBLAS's blocks) every loss and recorded weight is PyTorch's float to the bit, not only
// within 1e-4: the page prints the program's output, and a last bit can flip a printed digit. (Keys'
// gradient computed as gradᵀ·queries instead of BmmBackward0's (queriesᵀ·grad)ᵀ broke this from step 8.)
TEST_CASE("train at the editor's largest inputs is PyTorch's to the bit", "[train]") {
    const json c = fixture_json("train_page_cases.json")["cases"][2];
    const json got = eval_ok(c["request"]);
    const json& want = c["answer"];
    REQUIRE(got["losses"].size() == want["losses"].size());
    for (size_t i = 0; i < want["losses"].size(); i++) {
        INFO("loss at step " << i);
        CHECK(static_cast<float>(json_value(got["losses"][i])) == static_cast<float>(json_value(want["losses"][i])));
    }
    REQUIRE(got["weights"].size() == want["weights"].size());
    for (size_t r = 0; r < want["weights"].size(); r++) {
        const json& g = got["weights"][r]["values"];
        const json& w = want["weights"][r]["values"];
        REQUIRE(g.size() == w.size());
        size_t differ = 0;
        for (size_t i = 0; i < w.size(); i++) differ += static_cast<float>(json_value(g[i])) != static_cast<float>(json_value(w[i]));
        INFO("attention weights record " << r);
        CHECK(differ == 0);
    }
}

// Issue 27 item 1: the page's train task, defined once in the engine (replay/train_task.h).
TEST_CASE("the train task: four orders in which a token's predecessor differs, a batch PyTorch trained, its stride", "[train][task]") {
    for (int64_t T : {2, 5, 6, 16}) {
        const auto orders = attn::train_task::orders(T);
        REQUIRE(orders.size() == 4);
        for (const auto& o : orders) {
            std::vector<int64_t> sorted = o;
            std::sort(sorted.begin(), sorted.end());
            for (int64_t i = 0; i < T; i++) CHECK(sorted[i] == i);  // each a permutation of the tokens
        }
        // content alone cannot tell the previous token: some token has different predecessors in two orders
        bool differs = false;
        for (int64_t tok = 0; tok < T; tok++) {
            std::vector<int64_t> before;
            for (const auto& o : orders) {
                const auto at = std::find(o.begin(), o.end(), tok) - o.begin();
                before.push_back(at == 0 ? -1 : o[at - 1]);
            }
            differs |= std::adjacent_find(before.begin(), before.end(), std::not_equal_to<>()) != before.end();
        }
        CHECK(differs);
    }
    // the batch is the one PyTorch trained for the fixture (its request, spelled out by the train_task op)
    const json fixture = fixture_json("train_page_cases.json");   // kept alive: the loop reads into it
    for (const json& c : fixture["cases"]) {
        json ask = c["task"];
        ask["op"] = "train_task";
        const json spelled = eval_ok(ask);
        CHECK(spelled["request"] == c["request"]);
    }
    // the stride: the smallest divisor of the steps whose records fit the answer budget
    for (auto [T, d] : {std::pair<int64_t, int64_t>{6, 3}, {16, 16}, {2, 1}, {64, 64}}) {
        const int64_t r = attn::train_task::record_every(T, d), per_record = 4 * T * T + 3 * d * (d + T);
        INFO("T " << T << ", d " << d << ": every " << r);
        CHECK(attn::train_task::kSteps % r == 0);
        if (r < attn::train_task::kSteps) CHECK((attn::train_task::kSteps / r + 1) * per_record <= attn::train_task::kAnswerBudget);
        for (int64_t smaller = 1; smaller < r; smaller++) {
            if (attn::train_task::kSteps % smaller == 0) CHECK((attn::train_task::kSteps / smaller + 1) * per_record > attn::train_task::kAnswerBudget);
        }
    }
    CHECK(attn::train_task::record_every(6, 3) == 1);
    CHECK(attn::train_task::record_every(16, 16) == 6);
}

TEST_CASE("a train task run is its spelled-out request's run, its weights drawn transposed, and prints what PyTorch printed", "[train][task]") {
    const json c = fixture_json("train_page_cases.json")["cases"][1];  // SGD with the task's momentum
    const json task = eval_ok(c["task"]), plain = eval_ok(c["request"]);
    CHECK(task["losses"] == plain["losses"]);
    CHECK(task["weights"] == plain["weights"]);
    CHECK(task["printed"].get<std::string>() == c["output"].get<std::string>());
    for (size_t k = 0; k < plain["parameter_history"].size(); k++) {
        for (const char* name : {"W_query.weight", "W_key.weight", "W_value.weight"}) {
            const json& w = plain["parameter_history"][k][name];
            const json& drawn = task["parameter_history"][k][std::string(name) + ".T"];
            const int64_t rows = w["shape"][0], cols = w["shape"][1];
            REQUIRE(drawn["shape"] == json::array({cols, rows}));
            for (int64_t i = 0; i < rows; i++)
                for (int64_t j = 0; j < cols; j++) CHECK(drawn["values"][j * rows + i] == w["values"][i * cols + j]);
        }
    }
}

TEST_CASE("the train task's printed lines stop at a loss that is not finite", "[train][task]") {
    std::vector<float> losses(120, 0.25f);
    losses[107] = std::numeric_limits<float>::infinity();
    CHECK(attn::train_task::printed(losses, 4, attn::Tensor()) ==
          "step 0: loss 0.2500\nstep 50: loss 0.2500\nstep 100: loss 0.2500\n"
          "(the loss became inf at step 107: the page stopped the run there; PyTorch would go on printing nan)");
    losses[107] = 0.25f;
    losses[52] = std::nanf("");
    CHECK(attn::train_task::printed(losses, 6, attn::Tensor()) ==
          "step 0: loss 0.2500\n(the loss became nan at step 52: the page stopped the run there; PyTorch would go on printing nan)");
}

TEST_CASE("a train task request refuses what the task does not take, with sentences", "[train][task][errors]") {
    const json task = fixture_json("train_page_cases.json")["cases"][0]["task"];
    const auto refusal = [](const json& request) {
        const attn::EvalResult r = attn::eval_request(request.dump());
        CHECK_FALSE(r.ok);
        return r.error;
    };
    json bad = task;
    bad["task"] = "next_token";
    CHECK_THAT(refusal(bad), Catch::Contains("unknown task \"next_token\""));
    bad = task;
    bad["inputs"] = {{1, 2}};
    CHECK_THAT(refusal(bad), Catch::Contains("the train task takes 2 to 64 tokens"));
    bad = task;
    bad["momentum"] = 0.5;  // the task's SGD has its own
    CHECK_THAT(refusal(bad), Catch::Contains("unknown field \"momentum\""));
    bad = task;
    bad["x"] = task["inputs"];
    CHECK_THAT(refusal(bad), Catch::Contains("unknown field \"x\""));
    bad = task;
    bad["op"] = "train_task";
    bad["words"] = {"one", "two"};
    CHECK_THAT(refusal(bad), Catch::Contains("\"words\" has 2 words but the inputs have 6 rows"));
    bad.erase("words");
    bad.erase("task");
    CHECK_THAT(refusal(bad), Catch::Contains("missing field \"task\""));
}
