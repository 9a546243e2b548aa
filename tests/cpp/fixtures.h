// Reading the committed fixtures (the golden chapter and the PyTorch reference cases), and eval's refusals.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "requests/request.h"

inline std::string read_fixture(const std::string& name) {
    std::ifstream in(std::string(ATTN_FIXTURES_DIR) + "/" + name, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read fixture " + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline nlohmann::json fixture_json(const std::string& name) { return nlohmann::json::parse(read_fixture(name)); }

// A JSON number, or one of the strings "inf", "-inf", "nan".
inline double json_value(const nlohmann::json& v) {
    if (v.is_number()) return v.get<double>();
    const std::string s = v.get<std::string>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
}

// Equal within float tolerance, with inf and nan matching themselves.
inline bool close(double got, double want, double tol = 1e-5) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    return std::fabs(got - want) <= tol * (1.0 + std::fabs(want));
}

// The sentence `eval` answers a request it refuses (and a failed check if it does not refuse it).
inline std::string error_of(const std::string& request) {
    const attn::EvalResult r = attn::eval_request(request);
    CHECK_FALSE(r.ok);
    const nlohmann::json j = nlohmann::json::parse(r.json);
    REQUIRE(j.contains("error"));
    CHECK(r.error == j["error"].get<std::string>());  // the sentence the WebAssembly binding throws
    return r.error;
}
