// The print formatter against PyTorch 1.13's own output (tests/fixtures/format_cases.json, made by
// scripts/make_reference_cases.py) and a few cases whose text is easy to check by eye.
#include <catch2/catch.hpp>
#include <cmath>

#include "attn/format.h"
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
