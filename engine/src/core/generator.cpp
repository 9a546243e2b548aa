// MT19937 as in at::mt19937 (the reference init_genrand and twist), plus PyTorch's transformations.
#include "core/generator.h"


namespace attn {

void Generator::manual_seed(uint64_t seed) {
    state_[0] = static_cast<uint32_t>(seed & 0xffffffffULL);
    for (int i = 1; i < kN; i++) {
        state_[i] = 1812433253U * (state_[i - 1] ^ (state_[i - 1] >> 30)) + static_cast<uint32_t>(i);
    }
    next_ = kN;
}

uint32_t Generator::random() {
    constexpr int M = 397;
    constexpr uint32_t kUpper = 0x80000000U, kLower = 0x7fffffffU, kMatrixA = 0x9908b0dfU;
    if (next_ >= kN) {
        // the twist: regenerate all 624 words at once
        for (int i = 0; i < kN; i++) {
            uint32_t y = (state_[i] & kUpper) | (state_[(i + 1) % kN] & kLower);
            state_[i] = state_[(i + M) % kN] ^ (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
        }
        next_ = 0;
    }
    uint32_t y = state_[next_++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

uint64_t Generator::random64() {
    uint64_t hi = random();
    uint64_t lo = random();
    return (hi << 32) | lo;
}

float Generator::uniform_float(float from, float to) {
    float x = static_cast<float>(random() & ((1U << 24) - 1)) * (1.0f / static_cast<float>(1U << 24));
    // PyTorch's AVX2 build contracts x*(to-from)+from into one fused multiply-add (checked against
    // 1.13 here), so it is rounded once. In double the product (24x24 bits) and, for the ranges the
    // engine draws ([0, 1) and [-b, b): |from| <= to - from), the sum are exact, so one rounding to
    // float gives the fma's bits without wasm's slow software fmaf.
    return static_cast<float>(static_cast<double>(x) * static_cast<double>(to - from) + static_cast<double>(from));
}

double Generator::uniform_double() {
    uint64_t bits = random64() & ((1ULL << 53) - 1);
    return static_cast<double>(bits) * (1.0 / static_cast<double>(1ULL << 53));
}

}  // namespace attn
