// The print formatter against PyTorch 1.13's own output (tests/fixtures/format_cases.json, made by
// scripts/make_reference_cases.py) and a few cases whose text is easy to check by eye.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/format.h"
#include "requests/json_out.h"
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

namespace {
// The text float_text must give: %.<p>g at the fewest p whose text reads back as v (when that p's
// correctly rounded text is the shortest round trip, which holds except at a few powers of 2).
std::string printf_shortest(float v) {
    char buf[32];
    for (int p = 1; p <= 9; p++) {
        std::snprintf(buf, sizeof buf, "%.*g", p, static_cast<double>(v));
        if (std::strtof(buf, nullptr) == v) break;
    }
    return buf;
}
}  // namespace

TEST_CASE("float_text writes the shortest text that reads back, as %g writes it", "[format][float_text]") {
    CHECK(attn::float_text(0.0f) == "0");
    CHECK(attn::float_text(-0.0f) == "-0");
    CHECK(attn::float_text(1.0f) == "1");
    CHECK(attn::float_text(0.1f) == "0.1");
    CHECK(attn::float_text(100.0f) == "1e+02");  // %.1g
    CHECK(attn::float_text(120.5f) == "120.5");
    CHECK(attn::float_text(1e-5f) == "1e-05");
    CHECK(attn::float_text(123456792.0f) == "1.2345679e+08");
    CHECK(attn::float_text(3.4028235e38f) == "3.4028235e+38");
    CHECK(attn::float_text(1e-45f) == "1e-45");
    CHECK(attn::float_text(0.25159547f) == "0.25159547");
    CHECK(attn::float_text(std::nanf("")) == "\"nan\"");
    CHECK(attn::float_text(-INFINITY) == "\"-inf\"");
    // a spread of bit patterns over every exponent, subnormals included
    int checked = 0;
    for (uint64_t k = 0; k < 200000; k++) {
        const uint32_t bits = static_cast<uint32_t>(k * 21475 + (k >> 3));
        float v;
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v)) continue;
        const std::string text = attn::float_text(v);
        INFO("bits " << bits);
        CHECK(std::strtof(text.c_str(), nullptr) == v);
        CHECK(text == printf_shortest(v));
        checked++;
    }
    CHECK(checked > 190000);
}

// python_format (the print's numbers) skips printf; it must write what printf writes, rounding the
// exact binary value half to even, for every float32: a spread over every exponent, and the ties.
TEST_CASE("python_format writes what printf writes for '.4f', '.0f' and '.4e'", "[format]") {
    auto printf_text = [](double v, const char* fmt) {
        char buf[128];
        std::snprintf(buf, sizeof buf, fmt, v);
        return std::string(buf);
    };
    auto check_all = [&](float v) {
        INFO("value " << printf_text(v, "%.9g"));
        CHECK(attn::python_format(v, 'e', 4) == printf_text(v, "%.4e"));
        if (std::fabs(v) < 1e9f) {
            CHECK(attn::python_format(v, 'f', 4) == printf_text(v, "%.4f"));
            CHECK(attn::python_format(v, 'f', 0) == printf_text(v, "%.0f"));
        }
    };
    for (uint64_t k = 0; k < 200000; k++) {
        const uint32_t bits = static_cast<uint32_t>(k * 21475 + (k >> 3));
        float v;
        std::memcpy(&v, &bits, sizeof v);
        if (std::isfinite(v)) check_all(v);
    }
    // exact halves at the last printed digit: 0.5, 2.5, 1.00005 (not a float: its neighbours), 2^-k
    for (float v : {0.5f, 1.5f, 2.5f, -2.5f, 0.00005f, 1.00005f, 0.000125f, 9.99995f, 99999.5f, 0.0f, -0.0f, 1e-45f, 3.4028235e38f}) check_all(v);
    for (int e = -149; e <= 127; e++) check_all(std::ldexp(1.0f, e));
    CHECK(attn::python_format(0.30609f, 'f', 4) == "0.3061");
    CHECK(attn::python_format(9.99996f, 'e', 4) == "1.0000e+01");
    CHECK(attn::python_format(-0.0, 'f', 4) == "-0.0000");
    CHECK(attn::python_format(NAN, 'e', 4) == "nan");
}
