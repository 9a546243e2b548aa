// Inputs that once crashed or hung the request evaluator (found by tests/fuzz), kept forever:
// each must now get a well-formed answer. The sanitizer build runs these too.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "requests/request.h"
#include "fixtures.h"

TEST_CASE("every kept fuzzer input gets a well-formed answer", "[eval][regressions]") {
    const std::filesystem::path dir = std::filesystem::path(ATTN_FIXTURES_DIR) / ".." / "fuzz" / "regressions";
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        INFO("input " << entry.path().filename().string());
        const attn::EvalResult r = attn::eval_request(ss.str());
        const nlohmann::json answer = nlohmann::json::parse(r.json);
        CHECK(answer.is_object());
        if (!r.ok) CHECK(answer.contains("error"));
        count++;
    }
    CHECK(count > 0);
}
