// `eval` requests: PyTorch's answers for cases beyond the book, and clear errors for bad requests.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

#include "requests/request.h"
#include "fixtures.h"

using nlohmann::json;

namespace {

void check_result(const json& got, const json& want) {
    REQUIRE(got.is_object());
    CHECK(got["shape"] == want["shape"]);
    CHECK(got["print"].get<std::string>() == want["print"].get<std::string>());
    CHECK(got.value("grad_fn", "") == want.value("grad_fn", ""));
    CHECK(got.value("print_with_grad_fn", "") == want.value("print_with_grad_fn", ""));
    REQUIRE(got["values"].size() == want["values"].size());
    double worst = 0.0;
    for (size_t i = 0; i < want["values"].size(); i++) {
        const double g = json_value(got["values"][i]), w = json_value(want["values"][i]);
        INFO("value " << i << ": got " << g << ", PyTorch " << w);
        CHECK(close(g, w));
        if (std::isfinite(w)) worst = std::max(worst, std::fabs(g - w));
    }
    INFO("largest difference " << worst);
}

}  // namespace

TEST_CASE("eval answers every reference case as PyTorch does", "[eval]") {
    const auto cases = fixture_json("reference_cases.json");
    for (const auto& c : cases["cases"]) {
        if (c["request"]["op"] == "grad" || c["request"]["op"] == "train") continue;  // test_training.cpp
        INFO("case " << c["name"].get<std::string>());
        const attn::EvalResult r = attn::eval_request(c["request"].dump());
        INFO(r.json.substr(0, 300));
        REQUIRE(r.ok);
        const json got = json::parse(r.json);
        if (c["request"]["op"] == "linear") {
            check_result(got["weight"], c["answer"]["weight"]);
            if (c["answer"]["bias"].is_null()) CHECK(got["bias"].is_null());
            else check_result(got["bias"], c["answer"]["bias"]);
        } else {
            check_result(got, c["answer"]);
        }
    }
}

TEST_CASE("products with k >= 8 sum as OpenBLAS's kernel blocks do, bit for bit", "[eval]") {
    const auto cases = fixture_json("reference_cases.json");
    int seen = 0;
    for (const auto& c : cases["cases"]) {
        if (c["name"].get<std::string>().find("(OpenBLAS two-chain blocks)") == std::string::npos) continue;
        INFO("case " << c["name"].get<std::string>());
        const json got = json::parse(attn::eval_request(c["request"].dump()).json);
        REQUIRE(got["values"].size() == c["answer"]["values"].size());
        for (size_t i = 0; i < got["values"].size(); i++) {
            INFO("value " << i);
            CHECK(static_cast<float>(json_value(got["values"][i])) == static_cast<float>(json_value(c["answer"]["values"][i])));
        }
        seen++;
    }
    CHECK(seen == 2);
}

TEST_CASE("non-finite numbers travel as strings both ways", "[eval]") {
    const attn::EvalResult r = attn::eval_request(R"({"op":"softmax","x":["-inf",0.0,"nan"]})");
    REQUIRE(r.ok);
    const json j = json::parse(r.json);
    CHECK(j["values"][0] == "nan");
    CHECK(j["print"] == "tensor([nan, nan, nan])");
}

TEST_CASE("bad requests get a sentence that says what to change", "[eval][errors]") {
    CHECK_THAT(error_of("{\"op\": \"softmax\", "), Catch::Contains("not valid JSON"));
    CHECK_THAT(error_of("[1, 2]"), Catch::Contains("must be a JSON object"));
    CHECK_THAT(error_of("{}"), Catch::Contains("needs an \"op\""));
    CHECK_THAT(error_of(R"({"op": 3})"), Catch::Contains("\"op\" must be a string"));
    CHECK_THAT(error_of(R"({"op": "attend"})"), Catch::Contains("unknown op \"attend\""));
    CHECK_THAT(error_of(R"({"op": "softmax"})"), Catch::Contains("missing field \"x\""));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": [1, 2], "temprature": 2})"), Catch::Contains("unknown field \"temprature\""));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": "abc"})"), Catch::Contains("\"x\" must be"));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": [1, "two"]})"), Catch::Contains("must be a number"));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": [[1, 2], [3]]})"), Catch::Contains("ragged"));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": [[1, 2], 3]})"), Catch::Contains("ragged"));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": []})"), Catch::Contains("empty"));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": [1], "temperature": 0})"), Catch::Contains("greater than 0"));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": [1], "temperature": -2})"), Catch::Contains("greater than 0"));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": [1], "temperature": "inf"})"), Catch::Contains("finite"));
    CHECK_THAT(error_of(R"({"op": "softmax", "x": [1], "temperature": "nan"})"), Catch::Contains("finite"));
    CHECK_THAT(error_of(R"({"op": "matmul", "a": [[1, 2]], "b": [[1, 2]]})"), Catch::Contains("inner dimensions must match"));
    CHECK_THAT(error_of(R"({"op": "matmul", "a": [[1, 2]]})"), Catch::Contains("missing field \"b\""));
    CHECK_THAT(error_of(R"({"op": "dropout", "seed": 1, "p": 1, "x": [[1]]})"), Catch::Contains("less than 1"));
    CHECK_THAT(error_of(R"({"op": "dropout", "seed": 1, "p": -0.1, "x": [[1]]})"), Catch::Contains("at least 0"));
    CHECK_THAT(error_of(R"({"op": "dropout", "seed": 1.5, "p": 0.1, "x": [[1]]})"), Catch::Contains("\"seed\" must be a whole number"));
    CHECK_THAT(error_of(R"({"op": "rand", "seed": 1, "shape": [2, -3]})"), Catch::Contains("negative"));
    CHECK_THAT(error_of(R"({"op": "rand", "seed": 1, "shape": [100000, 100000]})"), Catch::Contains("more than"));
    CHECK_THAT(error_of(R"({"op": "rand", "seed": 1, "shape": [18446744073709551615]})"), Catch::Contains("more than"));
    CHECK_THAT(error_of(R"({"op": "linear", "seed": 1, "d_in": 0, "d_out": 2, "bias": true})"), Catch::Contains("\"d_in\" must be a whole number from 1 to 2048, got 0"));
    CHECK_THAT(error_of(R"({"op": "linear", "seed": 1, "d_in": 3, "d_out": 2, "bias": "yes"})"), Catch::Contains("true or false"));
    CHECK_THAT(error_of(R"({"op": "self_attention_v1", "seed": 1, "x": [1, 2], "d_out": 2})"), Catch::Contains("2-D"));
    const std::string x3 = R"("x": [[[1, 2], [3, 4], [5, 6]]])";
    CHECK_THAT(error_of(R"({"op": "mha", "seed": 1, )" + x3 + R"(, "d_out": 5, "context_length": 3, "dropout": 0, "num_heads": 2})"),
               Catch::Contains("d_out (5) must be divisible by num_heads (2)"));
    CHECK_THAT(error_of(R"({"op": "causal_attention", "seed": 1, )" + x3 + R"(, "d_out": 2, "context_length": 2, "dropout": 0})"),
               Catch::Contains("3 tokens but context_length is 2"));
    CHECK_THAT(error_of(R"({"op": "mha", "seed": 1, )" + x3 + R"(, "d_out": 2, "context_length": 3, "dropout": 0})"),
               Catch::Contains("missing field \"num_heads\""));
    CHECK_THAT(error_of(std::string(100, '[') + std::string(100, ']')), Catch::Contains("levels deep"));
}

TEST_CASE("the answer after a bad request is unaffected", "[eval][errors]") {
    const std::string good = fixture_json("reference_cases.json")["cases"][0]["request"].dump();
    const std::string first = attn::eval_request(good).json;
    error_of(R"({"op": "softmax", "x": [[1, 2], [3]]})");
    CHECK(attn::eval_request(good).json == first);
}

#ifdef ATTN_CLI_PATH
namespace {
int run_cli_eval(const std::string& request, std::string& out) {
    // the request goes through a temporary file, not the working folder
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("attn-cli-request-" + std::to_string(::getpid()) + ".json")).string();
    FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fputs(request.c_str(), f);
    std::fclose(f);
    FILE* p = popen((std::string(ATTN_CLI_PATH) + " eval < '" + path + "'").c_str(), "r");
    REQUIRE(p != nullptr);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = pclose(p);
    std::remove(path.c_str());
    return WEXITSTATUS(status);
}
}  // namespace

TEST_CASE("attention-lab eval: answers on stdout, exit 2 with an error for a bad request", "[eval][cli]") {
    std::string out;
    CHECK(run_cli_eval(R"({"op":"softmax","x":[0,0]})", out) == 0);
    CHECK(json::parse(out)["print"] == "tensor([0.5000, 0.5000])");
    out.clear();
    CHECK(run_cli_eval(R"({"op":"softmax","x":[0,0],"temperature":0})", out) == 2);
    CHECK(json::parse(out).contains("error"));
    out.clear();
    CHECK(run_cli_eval("not json", out) == 2);
    CHECK(json::parse(out).contains("error"));
}
#endif
