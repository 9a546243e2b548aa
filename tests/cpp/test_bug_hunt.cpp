// The bug hunt's programs (replay/bug_hunt.h) against PyTorch (tests/fixtures/bug_hunt_cases.json, written by
// scripts/make_bug_hunt_cases.py from the lines the page shows): each planted mistake and its correct line,
// the same print and the same numbers (or PyTorch's error line), on the book's inputs, an author example and
// other sizes; view's stride rule; the section's cells, and its agreement with §3.5; exercise 3.1's choices.
#include <catch2/catch.hpp>

#include "replay/bug_hunt.h"
#include "requests/request.h"
#include "page/sections.h"
#include "replay/book.h"

#include <cmath>
#include <iterator>
#include "fixtures.h"

namespace {

const char* kBookRows = "[[0.43,0.15,0.89],[0.55,0.87,0.66],[0.57,0.85,0.64],[0.22,0.58,0.33],[0.77,0.25,0.10],[0.05,0.80,0.55]]";

nlohmann::json section(const std::string& extra, int d_out = 2, const std::string& id = "bug-hunt") {
    const std::string request = "{\"section\":\"" + id + "\",\"inputs\":" + kBookRows + ",\"d_out\":" + std::to_string(d_out) + extra + "}";
    return nlohmann::json::parse(attn::section_data(request).json);
}

void check_result(const nlohmann::json& got, const nlohmann::json& want) {
    CHECK(got["print"] == want["print"]);
    CHECK(got["shape"] == want["shape"]);
    REQUIRE(got["values"].size() == want["values"].size());
    for (size_t i = 0; i < want["values"].size(); i++) {
        INFO("value " << i);
        // the same float: the engine writes each value's shortest text, PyTorch's tolist() its double
        const float g = static_cast<float>(json_value(got["values"][i])), w = static_cast<float>(json_value(want["values"][i]));
        CHECK((g == w || (std::isnan(g) && std::isnan(w))));  // nan: the inverted mask's row with nothing to see
    }
}

}  // namespace

TEST_CASE("every planted bug and its correct line give PyTorch's numbers, or PyTorch's error", "[bug_hunt]") {
    const nlohmann::json fixture = fixture_json("bug_hunt_cases.json");
    REQUIRE(fixture["cases"].size() >= 4 * std::size(attn::kBugNames));
    for (const auto& c : fixture["cases"]) {
        INFO(c["request"].dump().substr(0, 120));
        const attn::EvalResult r = attn::eval_request(c["request"].dump());
        REQUIRE(r.ok);
        const nlohmann::json got = nlohmann::json::parse(r.json);
        CHECK(got["program"] == c["program"]);
        CHECK(got["tensor"] == c["tensor"]);
        check_result(got["correct"], c["correct"]);
        if (c.contains("raised")) {
            CHECK(got["raised"] == c["raised"]);
            CHECK_FALSE(got.contains("buggy"));
            continue;
        }
        check_result(got["buggy"], c["buggy"]);
        // every bug shows on these inputs, but for the missing .contiguous() with head_dim 1: there
        // PyTorch's view works (a dimension of size 1 has no stride to break) and gives the same numbers
        const bool invisible = c["request"]["bug"] == "missing_contiguous" && c["request"]["d_out"] == 2;
        CHECK((got["buggy"]["print"] == got["correct"]["print"]) == invisible);
    }
}

TEST_CASE("view's stride rule: a transposed tensor's merged dimensions need contiguous memory", "[bug_hunt]") {
    // (b, T, H, D) transposed from (b, H, T, D): merging H and D works only when D or T is 1
    CHECK_FALSE(attn::view_compatible({1, 6, 2, 2}, {24, 2, 12, 1}, {1, 6, 4}));
    CHECK(attn::view_compatible({1, 6, 2, 1}, {12, 1, 6, 1}, {1, 6, 2}));
    CHECK(attn::view_compatible({1, 1, 2, 2}, {4, 2, 2, 1}, {1, 1, 4}));
    CHECK(attn::view_compatible({2, 3}, {3, 1}, {6}));
    CHECK_FALSE(attn::view_compatible({2, 3}, {1, 2}, {6}));  // a transposed (3, 2)
    CHECK(attn::view_compatible({2, 3}, {1, 2}, {2, 3}));
}

TEST_CASE("the bug-hunt section: right, wrong and their difference, and sentences for what cannot run", "[bug_hunt][sections]") {
    for (const char* bug : attn::kBugNames) {
        INFO(bug);
        const auto answer = section(std::string(",\"bug\":\"") + bug + "\"", 4);
        const auto& res = answer["results"];
        CHECK(res["bug/program"]["print"] == attn::bug_program(bug));
        CHECK(res.contains("bug/keep") == (attn::bug_program(bug) == "causal"));
        if (res.contains("bug/raised")) {  // .weight without .T (d_in 3, d_out 4), the missing .contiguous(): PyTorch's error line
            CHECK_FALSE(res.contains("bug/buggy"));
            CHECK(res["bug/raised"]["print"].get<std::string>().rfind("RuntimeError: ", 0) == 0);
            continue;
        }
        REQUIRE(res.contains("bug/diff"));
        const auto &correct = res["bug/correct"], &buggy = res["bug/buggy"], &diff = res["bug/diff"];
        for (size_t i = 0; i < diff["values"].size(); i++) {
            const float d = static_cast<float>(json_value(buggy["values"][i])) - static_cast<float>(json_value(correct["values"][i]));
            if (std::isnan(d)) CHECK(std::isnan(static_cast<float>(json_value(diff["values"][i]))));
            else CHECK(static_cast<float>(json_value(diff["values"][i])) == d);
        }
    }
    // keys = inputs @ W_key.weight with d_in = 3, d_out = 2: PyTorch's error, the correct weights beside it
    const auto untransposed = section(",\"bug\":\"weight_without_T\"");
    CHECK(untransposed["results"]["bug/raised"]["print"] == "RuntimeError: mat1 and mat2 shapes cannot be multiplied (6x3 and 2x3)");
    // the heads split in two: d_out = 3 cannot
    const auto odd = section(",\"bug\":\"view_without_transpose\"", 3);
    CHECK(odd["results"]["bug/buggy"]["error"] == "d_out (3) must be divisible by num_heads (2)");
    // a name that is not a bug
    const attn::EvalResult bad = attn::section_data(std::string("{\"section\":\"bug-hunt\",\"d_out\":2,\"bug\":\"typo\"}"));
    CHECK(bad.ok);
    CHECK(nlohmann::json::parse(bad.json)["results"]["bug/buggy"]["error"].get<std::string>().rfind("unknown bug \"typo\"", 0) == 0);
    CHECK(error_of("{\"op\":\"bug_hunt\",\"bug\":\"typo\",\"seed\":1,\"d_out\":2,\"x\":[[1,2],[3,4]]}").rfind("unknown bug", 0) == 0);
}

TEST_CASE("the causal program without its dropout line is §3.5's attn_weights, for the book's and the learner's seed", "[bug_hunt][sections]") {
    for (const std::string seed : {"", ",\"seed\":5"}) {
        INFO(seed);
        const auto causal = section(seed, 2, "causal")["results"];
        const attn::BugHunt run = attn::bug_hunt(attn::book_inputs(), 2, seed.empty() ? 789 : 5, "mask_with_zero");
        const auto& want = causal["3.5.1/attn_weights_causal"]["values"];
        REQUIRE(want.size() == run.weights.data.size());
        for (size_t i = 0; i < run.weights.data.size(); i++) CHECK(run.weights.data[i] == static_cast<float>(json_value(want[i])));
        // and the section asks the engine with the same seed
        const auto hunt = section(seed + ",\"bug\":\"mask_with_zero\"")["results"];
        for (size_t i = 0; i < run.correct.data.size(); i++) CHECK(static_cast<float>(json_value(hunt["bug/correct"]["values"][i])) == run.correct.data[i]);
    }
}

TEST_CASE("exercise 3.1's choices: only the transposed weights of the matching layers give sa_v2's output", "[bug_hunt][sections]") {
    const auto right = section(",\"ex3_1\":{\"W_query\":\"W_query.weight.T\",\"W_key\":\"W_key.weight.T\",\"W_value\":\"W_value.weight.T\"}", 2, "classes");
    CHECK(right["results"]["ex3.1/chosen"]["print"] == right["results"]["3.4.2/sa_v2"]["print"]);
    const auto swapped = section(",\"ex3_1\":{\"W_query\":\"W_key.weight.T\",\"W_key\":\"W_query.weight.T\",\"W_value\":\"W_value.weight.T\"}", 2, "classes");
    CHECK(swapped["results"]["ex3.1/chosen"]["print"] != swapped["results"]["3.4.2/sa_v2"]["print"]);
    const auto untransposed = section(",\"ex3_1\":{\"W_query\":\"W_query.weight\",\"W_key\":\"W_key.weight.T\",\"W_value\":\"W_value.weight.T\"}", 2, "classes");
    CHECK(untransposed["results"]["ex3.1/chosen"].contains("error"));
    const attn::EvalResult bad = attn::section_data(std::string("{\"section\":\"classes\",\"d_out\":2,\"ex3_1\":{\"W_query\":\"W\"}}"));
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.rfind("\"ex3_1\" must be", 0) == 0);
}
