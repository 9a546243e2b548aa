// PyTorch's CPU generator: MT19937 and the float, double and nn.Linear transformations.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/generator.h"
#include "chapter/modules.h"

TEST_CASE("MT19937 matches the reference generator's outputs", "[generator]") {
    attn::Generator gen(5489);  // the reference seed; its 1st and 10000th outputs are published
    CHECK(gen.random() == 3499211612U);
    for (int i = 1; i < 9999; i++) gen.random();
    CHECK(gen.random() == 4123659995U);
}

TEST_CASE("manual_seed keeps the low 32 bits of the seed", "[generator]") {
    attn::Generator a(123), b((uint64_t(7) << 32) | 123);
    for (int i = 0; i < 5; i++) CHECK(a.random() == b.random());
}

TEST_CASE("torch.rand(3, 2) after manual_seed(123) is the book's W_query", "[generator]") {
    attn::Generator gen(123);
    const float want[] = {0.2961f, 0.5166f, 0.2517f, 0.6886f, 0.0740f, 0.8665f};
    for (float w : want) CHECK(gen.uniform_float(0.0f, 1.0f) == Approx(w).margin(5e-5));
}

TEST_CASE("the double path uses 53 bits of two outputs", "[generator]") {
    attn::Generator a(42), b(42);
    const uint64_t hi = a.random(), lo = a.random();
    const double want = static_cast<double>(((hi << 32) | lo) & ((uint64_t(1) << 53) - 1)) / 9007199254740992.0;
    CHECK(b.uniform_double() == want);
}

TEST_CASE("nn.Linear(3, 2) after manual_seed(789) is the book's W_query.weight", "[generator]") {
    attn::Generator gen(789);
    attn::Linear lin(3, 2, false, gen);
    const float want[] = {0.3161f, 0.4568f, 0.5118f, -0.1683f, -0.3379f, -0.0918f};
    REQUIRE(lin.weight.shape == attn::Shape{2, 3});
    for (int i = 0; i < 6; i++) CHECK(lin.weight.data[i] == Approx(want[i]).margin(5e-5));
}

TEST_CASE("the float draw rounds once, as PyTorch's fused multiply-add does", "[generator]") {
    // nn.Linear's bounds for several fan-ins, and torch.rand's [0, 1)
    for (int64_t d_in : {1, 2, 3, 7, 768, 2048}) {
        const float b = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_in)));
        attn::Generator a(99), ref(99);
        for (int i = 0; i < 20000; i++) {
            const float x = static_cast<float>(ref.random() & ((1U << 24) - 1)) * (1.0f / (1U << 24));
            INFO("d_in " << d_in << " draw " << i);
            REQUIRE(a.uniform_float(-b, b) == std::fma(x, b - -b, -b));
        }
    }
}
