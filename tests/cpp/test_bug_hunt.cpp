// The bug hunt's pairs (replay/bug_hunt.h) against PyTorch (tests/fixtures/bug_hunt_cases.json, written by
// scripts/make_bug_hunt_cases.py): each planted mistake and its correct line, the same print and the same
// numbers, on the book's inputs and other sizes; the section's cells and exercise 3.1's choices.
#include <catch2/catch.hpp>

#include "replay/bug_hunt.h"
#include "requests/request.h"
#include "page/sections.h"
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
        CHECK(static_cast<float>(json_value(got["values"][i])) == static_cast<float>(json_value(want["values"][i])));
    }
}

}  // namespace

TEST_CASE("every planted bug and its correct line give PyTorch's numbers", "[bug_hunt]") {
    const nlohmann::json fixture = fixture_json("bug_hunt_cases.json");
    REQUIRE(fixture["cases"].size() >= 24);
    for (const auto& c : fixture["cases"]) {
        INFO(c["request"].dump().substr(0, 120));
        const attn::EvalResult r = attn::eval_request(c["request"].dump());
        REQUIRE(r.ok);
        const nlohmann::json got = nlohmann::json::parse(r.json);
        CHECK(got["tensor"] == c["tensor"]);
        check_result(got["correct"], c["correct"]);
        check_result(got["buggy"], c["buggy"]);
        CHECK(got["buggy"]["print"] != got["correct"]["print"]);  // every bug shows on these inputs
    }
}

TEST_CASE("the bug-hunt section: right, wrong and their difference, and sentences for what cannot run", "[bug_hunt][sections]") {
    for (const char* bug : attn::kBugNames) {
        INFO(bug);
        const auto answer = section(std::string(",\"bug\":\"") + bug + "\"");
        const auto& res = answer["results"];
        REQUIRE(res.contains("bug/diff"));
        const auto &correct = res["bug/correct"], &buggy = res["bug/buggy"], &diff = res["bug/diff"];
        for (size_t i = 0; i < diff["values"].size(); i++) {
            const float d = static_cast<float>(json_value(buggy["values"][i])) - static_cast<float>(json_value(correct["values"][i]));
            CHECK(static_cast<float>(json_value(diff["values"][i])) == d);
        }
    }
    // the heads split in two: d_out = 3 cannot
    const auto odd = section(",\"bug\":\"view_without_transpose\"", 3);
    CHECK(odd["results"]["bug/buggy"]["error"] == "d_out (3) must be divisible by num_heads (2)");
    // a name that is not a bug
    const attn::EvalResult bad = attn::section_data(std::string("{\"section\":\"bug-hunt\",\"d_out\":2,\"bug\":\"typo\"}"));
    CHECK(bad.ok);
    CHECK(nlohmann::json::parse(bad.json)["results"]["bug/buggy"]["error"].get<std::string>().rfind("unknown bug \"typo\"", 0) == 0);
    CHECK(error_of("{\"op\":\"bug_hunt\",\"bug\":\"typo\",\"seed\":1,\"d_out\":2,\"x\":[[1,2],[3,4]]}").rfind("unknown bug", 0) == 0);
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
