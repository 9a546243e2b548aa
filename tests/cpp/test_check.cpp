// "Check my code" (replay/check.h, eval's `check` op) against PyTorch (tests/fixtures/check_cases.json,
// written by scripts/make_check_cases.py): the book's four modules run as written and with each planted
// mistake written into their code, on the book's inputs and an author example, with their own weights.
// Each print (and each full-precision tensor, compared as PyTorch prints it) is diagnosed as PyTorch's
// code made it: the book's, the mistake by name, or the first number that differs; bad input gets a sentence.
#include <catch2/catch.hpp>

#include "replay/check.h"
#include "requests/request.h"

#include "fixtures.h"

namespace {

nlohmann::json check(const nlohmann::json& request) {
    const attn::EvalResult r = attn::eval_request(request.dump());
    INFO(r.error);
    REQUIRE(r.ok);
    return nlohmann::json::parse(r.json);
}

std::string refusal(const nlohmann::json& request) {
    const attn::EvalResult r = attn::eval_request(request.dump());
    REQUIRE_FALSE(r.ok);
    return r.error;
}

const nlohmann::json& case_of(const nlohmann::json& fixture, const std::string& module, const std::string& mistake) {
    for (const auto& c : fixture["cases"]) if (c["request"]["module"] == module && c["mistake"] == mistake) return c;
    throw std::runtime_error("no case " + module + " " + mistake);
}

}  // namespace

TEST_CASE("each planted mistake written into the book's modules is named, from PyTorch's print and from its tensor", "[check]") {
    const nlohmann::json fixture = fixture_json("check_cases.json");
    REQUIRE(fixture["cases"].size() >= 60);
    for (const auto& c : fixture["cases"]) {
        INFO(c["example"] << " " << c["request"]["module"] << " " << c["mistake"]);
        nlohmann::json request = c["request"];
        std::vector<nlohmann::json> answers{check(request)};
        if (!c["full"].is_null()) {  // the same tensor at full precision, nested as PyTorch's shape
            nlohmann::json rows = nlohmann::json::array();
            const int64_t cols = c["shape"].back();
            for (size_t i = 0; i < c["full"].size(); i += cols)
                rows.push_back(nlohmann::json(std::vector<nlohmann::json>(c["full"].begin() + i, c["full"].begin() + i + cols)));
            request["output"] = rows;
            answers.push_back(check(request));
        }
        for (const nlohmann::json& got : answers) {
            if (c["mistake"] == "book") {
                CHECK(got["verdict"] == "book");
                // the book's computation with the reader's weights: PyTorch's float32 numbers
                REQUIRE(got["book"]["values"].size() == c["full"].size());
                for (size_t i = 0; i < c["full"].size(); i++)
                    CHECK(static_cast<float>(json_value(got["book"]["values"][i])) == static_cast<float>(json_value(c["full"][i])));
            } else if (c["same_as_book"] == true) {
                CHECK(got["verdict"] == "book");   // a mistake these sizes hide (head_dim 1)
            } else if (c["bug"].is_null()) {
                CHECK(got["verdict"] == "differs");
                CHECK(got["matches"].empty());
                CHECK(got["first_difference"] == c["first_difference"]);
            } else {
                CHECK(got["verdict"] == "mistake");
                CHECK(std::find(got["matches"].begin(), got["matches"].end(), c["bug"]) != got["matches"].end());
                if (c.contains("first_difference")) CHECK(got["first_difference"] == c["first_difference"]);
            }
            CHECK(std::find(got["tried"].begin(), got["tried"].end(), c["bug"].is_null() ? "divide_by_dk" : c["bug"]) != got["tried"].end());
        }
        if (c["mistake"] == "book") {
            // without weights, the module torch.manual_seed(123) builds (as the fixture's were): the same diagnosis
            nlohmann::json seeded = c["request"];
            seeded.erase("weights");
            seeded["seed"] = 123;
            seeded["d_out"] = c["shape"].back();
            CHECK(check(seeded)["verdict"] == "book");
        }
    }
}

TEST_CASE("a pasted print is read as PyTorch writes it: grad_fn, a batch of one, scientific numbers, a traceback", "[check]") {
    const attn::ReaderOutput a = attn::read_pasted_output("tensor([[[ 0.3061, -0.8210],\n         [1.0000e-05, nan]]], grad_fn=<UnsafeViewBackward0>)");
    REQUIRE(a.printed);
    CHECK(a.printed->shape == attn::Shape{1, 2, 2});
    CHECK(a.printed->texts == std::vector<std::string>{"0.3061", "-0.8210", "1.0000e-05", "nan"});
    const attn::ReaderOutput b = attn::read_pasted_output(
        "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nRuntimeError: mat1 and mat2 shapes cannot be multiplied (6x3 and 2x3)\n");
    CHECK_FALSE(b.printed);
    CHECK(b.raised == "RuntimeError: mat1 and mat2 shapes cannot be multiplied (6x3 and 2x3)");
    // the engine's own print of a tensor reads back as its texts
    CHECK(attn::printed_of(attn::Tensor::from_rows({{0.5f, 1.0f}})).texts == std::vector<std::string>{"0.5000", "1.0000"});
}

TEST_CASE("bad input gets one sentence: a wrong shape, a paste that is no print, an unknown module, missing output", "[check]") {
    const nlohmann::json fixture = fixture_json("check_cases.json");
    const nlohmann::json base = case_of(fixture, "SelfAttention_v2", "book")["request"];
    auto with = [&](const char* key, nlohmann::json v) { nlohmann::json r = base; r[key] = std::move(v); return r; };
    CHECK_THAT(refusal(with("output", "tensor([[0.1, 0.2, 0.3]])")), Catch::Contains("your output is 1 × 3, but SelfAttention_v2 with these weights gives 6 × 2"));
    CHECK_THAT(refusal(with("output", "hello")), Catch::Contains("neither a tensor as PyTorch prints it"));
    CHECK_THAT(refusal(with("output", "tensor([[0.1, 0.2], [0.3]])")), Catch::Contains("rows have different lengths"));
    CHECK_THAT(refusal(with("output", "tensor([[0.1, abc]])")), Catch::Contains("\"abc\", which is not a number"));
    CHECK_THAT(refusal(with("output", "tensor([[0.1, 0.2], ..., [0.3, 0.4]])")), Catch::Contains("summarised"));
    CHECK_THAT(refusal(with("output", "tensor([[0.1, 0.2]")), Catch::Contains("ends before its last"));
    CHECK_THAT(refusal(with("module", "Transformer")), Catch::Contains("\"module\" must be one of"));
    CHECK_THAT(refusal(with("seed", 5)), Catch::Contains("give \"weights\" or \"seed\", not both"));
    nlohmann::json no_output = base;
    no_output.erase("output");
    CHECK_THAT(refusal(no_output), Catch::Contains("missing field \"output\""));
    nlohmann::json mha = case_of(fixture, "MultiHeadAttention", "book")["request"];
    mha["weights"].erase("out_proj.weight");
    mha["weights"].erase("out_proj.bias");
    CHECK_THAT(refusal(mha), Catch::Contains("give its out_proj.weight and out_proj.bias too"));
    nlohmann::json dropout = case_of(fixture, "CausalAttention", "book")["request"];
    dropout["dropout"] = 0.1;
    CHECK_THAT(refusal(dropout), Catch::Contains("give the seed"));
    // an error no planted mistake raises
    const nlohmann::json got = check(with("output", "ValueError: too many values to unpack (expected 2)"));
    CHECK(got["verdict"] == "unknown_error");
}
