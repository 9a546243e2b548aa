// Random examples across the editor's range (tests/fixtures/replay_cases.json, PyTorch's prints of the
// page's code cells): every print the page shows under a cell must be PyTorch's, digit for digit. Among
// them the sizes where OpenBLAS sums part of a full T × T product in two chains (issue 43, item 9).
#include <catch2/catch.hpp>
#include <string>

#include "page/sections.h"
#include "fixtures.h"

namespace {

nlohmann::json section(const std::string& id, const nlohmann::json& c, bool with_temperature = false) {
    nlohmann::json request = {{"section", id}, {"inputs", c["inputs"]}, {"d_out", c["d_out"]}};
    if (!c["seed"].is_null()) request["seed"] = c["seed"];
    if (with_temperature) request["temperature"] = c["temperature"];
    const nlohmann::json answer = nlohmann::json::parse(attn::section_data(request.dump()).json);
    REQUIRE(answer.contains("results"));
    return answer["results"];
}

}  // namespace

TEST_CASE("random examples across the editor's range print PyTorch's digits in every shown cell", "[sections][replay]") {
    const nlohmann::json cases = fixture_json("replay_cases.json")["cases"];
    REQUIRE(cases.size() >= 60);
    for (const auto& c : cases) {
        const nlohmann::json step = section("step-by-step", c), temperature = section("temperature", c, true),
                             classes = section("classes", c), causal = section("causal", c);
        for (const auto& [name, want] : c["cells"].items()) {
            const nlohmann::json& from = name == "temperature_weights_2" ? temperature
                                         : name.rfind("3.4.2/", 0) == 0 ? classes
                                         : name.rfind("3.5.3/", 0) == 0 ? causal : step;
            INFO(c["inputs"].size() << " tokens of " << c["inputs"][0].size() << " values, d_out " << c["d_out"]
                                    << ", seed " << c["seed"] << ": " << name);
            REQUIRE(from.contains(name));
            CHECK(from[name]["print"] == want);
        }
    }
}
