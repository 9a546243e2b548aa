// The "why √d_k" experiment (replay/dk_experiment.h) against PyTorch (tests/fixtures/dk_cases.json,
// made by scripts/make_reference_cases.py): the draws, the scores, their spread and both softmaxes.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "replay/dk_experiment.h"
#include "core/format.h"
#include "fixtures.h"

using nlohmann::json;

namespace {

uint32_t bits_of(float v) {
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

// The engine's floats against PyTorch's, bit for bit.
void check_values(const float* got, int64_t count, const json& want) {
    REQUIRE(static_cast<size_t>(count) == want["values"].size());
    for (int64_t i = 0; i < count; i++) {
        const float w = static_cast<float>(json_value(want["values"][i]));
        INFO("value " << i << ": engine " << got[i] << ", PyTorch " << w);
        CHECK(bits_of(got[i]) == bits_of(w));
    }
}

void check_tensor(const attn::Tensor& got, const json& want) {
    CHECK(json(got.shape) == want["shape"]);
    check_values(got.ptr(), got.numel(), want);
    CHECK(attn::format_tensor(got, false) == want["print"].get<std::string>());
}

}  // namespace

TEST_CASE("the sqrt(d_k) experiment draws and computes exactly what PyTorch does", "[dk]") {
    const auto cases = fixture_json("dk_cases.json")["cases"];
    REQUIRE(cases.size() >= 20);
    for (const auto& c : cases) {
        const int64_t d_k = c["d_k"], n = attn::lab::kDkRows;
        REQUIRE(c["n"] == n);
        INFO("d_k = " << d_k << ", seed = " << c["seed"]);
        const attn::lab::DkExperiment r = attn::lab::dk_experiment(double(d_k), c["seed"].get<double>());
        REQUIRE(r.error.empty());
        check_values(r.queries.ptr(), d_k, c["queries_0"]);            // the generator, the transform
        check_values(r.keys.ptr() + (n - 1) * d_k, d_k, c["keys_last"]);
        check_tensor(r.attn_scores, c["attn_scores"]);                 // OpenBLAS's rounding of q @ k.T
        check_tensor(r.weights_unscaled, c["weights_unscaled"]);
        check_tensor(r.weights_scaled, c["weights_scaled"]);
        CHECK(bits_of(r.spread) == bits_of(static_cast<float>(c["spread"].get<double>())));
        CHECK(r.max_unscaled == static_cast<float>(c["max_unscaled"].get<double>()));
        CHECK(r.max_scaled == static_cast<float>(c["max_scaled"].get<double>()));
    }
}

TEST_CASE("the sqrt(d_k) experiment shows what the book says", "[dk]") {
    // spread grows like sqrt(d_k), softmax saturates unscaled, and stays spread out when scaled
    const auto small = attn::lab::dk_experiment(4, 123), large = attn::lab::dk_experiment(1024, 123);
    REQUIRE(small.error.empty());
    REQUIRE(large.error.empty());
    CHECK(large.spread / small.spread > 8);  // sqrt(1024 / 4) = 16, within sampling noise
    CHECK(large.max_unscaled > 0.99f);
    CHECK(large.max_scaled < 0.9f);
    float sum = 0;
    for (float w : large.weights_scaled.data) sum += w;
    CHECK(std::fabs(sum - 1.0f) < 1e-5f);
}

TEST_CASE("the sqrt(d_k) experiment refuses sizes it cannot draw, in a sentence", "[dk]") {
    CHECK(attn::lab::dk_experiment(1, 1).error == "d_k must be a whole number from 2 to 1024, got 1");
    CHECK(attn::lab::dk_experiment(1025, 1).error == "d_k must be a whole number from 2 to 1024, got 1025");
    CHECK(attn::lab::dk_experiment(2.5, 1).error == "d_k must be a whole number from 2 to 1024, got 2.5");
    CHECK(attn::lab::dk_experiment(std::nan(""), 1).error.rfind("d_k must be a whole number", 0) == 0);
    CHECK(attn::lab::dk_experiment(16, 0.5).error.rfind("seed must be a whole number", 0) == 0);
    const auto bad = attn::lab::dk_experiment(0, 1);
    CHECK(bad.attn_scores.numel() == 0);
}
