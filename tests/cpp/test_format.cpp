// The print formatter against PyTorch 1.13's own output (tests/fixtures/format_cases.json, made by
// scripts/make_reference_cases.py) and a few cases whose text is easy to check by eye.
#include <catch2/catch.hpp>
#include <cmath>

#include <cstring>

#include "attn/format.h"
#include "attn/request.h"
#include "fixtures.h"

using attn::Tensor;

TEST_CASE("integer style, sizes and 0-d tensors", "[format]") {
    CHECK(attn::format_tensor(Tensor({2}, {2.0f, 0.0f})) == "tensor([2., 0.])");
    CHECK(attn::format_tensor(Tensor({}, {1.0f})) == "tensor(1.)");
    CHECK(attn::format_size({6, 2}) == "torch.Size([6, 2])");
    CHECK(attn::format_tensor(Tensor({0}, {})) == "tensor([])");
    CHECK(attn::format_tensor(Tensor({2, 0}, {})) == "tensor([], size=(2, 0))");
}

TEST_CASE("non-finite values print as PyTorch prints them", "[format]") {
    const float inf = INFINITY;
    CHECK(attn::format_tensor(Tensor({3}, {-inf, inf, NAN})) == "tensor([-inf, inf, nan])");
    CHECK(attn::format_tensor(Tensor({2}, {0.5f, -inf})) == "tensor([0.5000,   -inf])");
}

TEST_CASE("every PyTorch-printed reference tensor is reproduced exactly", "[format]") {
    const auto cases = fixture_json("format_cases.json");
    for (const auto& c : cases["cases"]) {
        std::vector<float> values;
        for (const auto& v : c["values"]) values.push_back(static_cast<float>(json_value(v)));
        Tensor t(c["shape"].get<attn::Shape>(), values);
        t.requires_grad = c.contains("grad_fn") || c.contains("requires_grad");
        if (c.contains("grad_fn")) t.grad_fn = c["grad_fn"].get<std::string>();
        INFO("case " << c["name"].get<std::string>());
        CHECK(attn::format_tensor(t) == c["print"].get<std::string>());
    }
}

TEST_CASE("float_text is the shortest %g text that reads back, as snprintf and strtof find it", "[format]") {
    // every power-of-two boundary, ties and carries in range, then pseudo-random bit patterns
    std::vector<float> values = {1.0f, 0.5f, 100.0f, 1e-10f, 9.99999e9f, 0.125f, 1e-5f, 1e-4f, 123456.7f,
                                 9.5f, 0.95f, 99999.5f, 1e9f, 3.0e-7f, 8388608.0f, 16777216.0f, 0.1f, 0.2f, 0.3f};
    for (int e = -40; e <= 40; e++) {
        const float p = std::ldexp(1.0f, e);
        values.insert(values.end(), {p, std::nextafter(p, 0.0f), std::nextafter(p, 1e30f)});
    }
    uint32_t state = 12345;
    for (int i = 0; i < 60000; i++) {
        state = state * 1664525u + 1013904223u;
        float v;
        std::memcpy(&v, &state, sizeof v);
        if (std::isfinite(v)) values.push_back(v);
        values.push_back(static_cast<float>(state % 2000000) / 1000.0f - 1000.0f);
    }
    for (float v : values) {
        for (float s : {v, -v}) {
            INFO("value " << std::hexfloat << s);
            REQUIRE(attn::float_text(s) == attn::float_text_reference(s));
        }
    }
}
