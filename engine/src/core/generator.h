// PyTorch's CPU random generator, bit for bit: MT19937 seeded as torch.manual_seed does, and the
// exact draws torch.rand, nn.Linear's initialisation and nn.Dropout make from it.
#pragma once

#include <cstdint>

namespace attn {

class Generator {
public:
    explicit Generator(uint64_t seed = 67280421310721ULL) { manual_seed(seed); }

    // torch.manual_seed(s): MT19937 init_genrand with the low 32 bits of s.
    void manual_seed(uint64_t seed);

    uint32_t random();    // one MT19937 output
    uint64_t random64();  // two outputs a, b as (a << 32) | b

    // torch.rand's float path: the low 24 bits of one output, times 2^-24, then x*(to-from)+from.
    float uniform_float(float from, float to);
    // The double path (bernoulli, dropout): 53 bits of random64(), times 2^-53.
    double uniform_double();

private:
    static constexpr int kN = 624;
    uint32_t state_[kN];
    int next_ = kN;
};

}  // namespace attn
