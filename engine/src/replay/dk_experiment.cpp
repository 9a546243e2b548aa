// The "why √d_k" experiment (replay/dk_experiment.h): unit-variance random queries and keys, their dot
// products, the spread of those, and softmax of one row with and without the 1/√d_k scaling.
#include "replay/dk_experiment.h"

#include <cmath>
#include <new>
#include <string>

#include "core/decimal.h"
#include "core/generator.h"
#include "core/pytorch_cpu.h"

namespace attn::lab {

namespace {

// A JS number that must be a whole number in [lo, hi], as an int64.
int64_t whole_in(double v, int64_t lo, int64_t hi, const char* name) {
    if (std::floor(v) == v && v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) return static_cast<int64_t>(v);
    fail({name, " must be a whole number from ", lo, " to ", hi,
                ", got ", printf_double(v, 'g', 17)});
}

// (torch.rand(n, d_k) * 2 - 1) * 3**0.5: each op rounds to float32 as PyTorch's does; 2r - 1 is
// exact, and the Python float 3**0.5 becomes the float32 1.7320508 before the product.
Tensor unit_variance_rand(int64_t n, int64_t d_k, Generator& gen) {
    const float sqrt3 = static_cast<float>(std::sqrt(3.0));
    Tensor t = Tensor::zeros({n, d_k});
    for (float& v : t.data) {
        const float r = gen.uniform_float(0.0f, 1.0f);
        v = (r * 2.0f - 1.0f) * sqrt3;
    }
    return t;
}

// t.std() over all elements, as ATen's std_var_all_cpu: the float mean (a float sum divided by the
// count), then the squared deviations summed in double, divided by count - 1, sqrt, rounded to float.
float std_all(const Tensor& t) {
    const int64_t count = t.numel();
    const float mean = pytorch_cpu::sum(t.ptr(), count, 1) / static_cast<float>(count);
    double sum_dx2 = 0.0;
    for (float x : t.data) {
        const double dx = static_cast<double>(x) - mean;
        sum_dx2 += dx * dx;
    }
    return static_cast<float>(std::sqrt(sum_dx2 / static_cast<double>(count - 1)));
}

// attn_scores = queries @ keys.T for (kDkRows, d_k) queries and keys, rounded as PyTorch's CPU build
// rounds it: OpenBLAS's sgemm (Haswell kernels) on this 8 × 8 shape. K is cut into blocks (320 at a
// time; when 321..639 remain, two halves rounded up to a multiple of 8). In each block, a score is two
// fused multiply-add chains, over the even and the odd k of the block's multiple of 8, the rest of the
// block continuing the even chain; the two chains are added, and the blocks are added into the score in
// order. The engine's mm() keeps one chain, which is exact only below d_k = 8. Checked against
// python3-torch 1.13 with OpenBLAS for d_k = 2..1024 in steps of 7 (and tests/fixtures/dk_cases.json).
Tensor scores_as_openblas(const Tensor& queries, const Tensor& keys) {
    const int64_t n = queries.shape[0], K = queries.shape[1];
    constexpr int64_t kBlock = 320, kUnroll = 8;
    Tensor out = Tensor::zeros({n, n});
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
            const float* q_i = queries.ptr() + i * K;
            const float* k_j = keys.ptr() + j * K;
            float score = 0.0f;
            for (int64_t lo = 0; lo < K;) {
                const int64_t left = K - lo;
                const int64_t len = left >= 2 * kBlock ? kBlock
                                    : left > kBlock  ? (left / 2 + kUnroll - 1) / kUnroll * kUnroll
                                                     : left;
                const int64_t unrolled = lo + len / kUnroll * kUnroll;
                float even = 0.0f, odd = 0.0f;
                for (int64_t p = lo; p < unrolled; p += 2) {
                    even = pytorch_cpu::fma_round_once(q_i[p], k_j[p], even);
                    odd = pytorch_cpu::fma_round_once(q_i[p + 1], k_j[p + 1], odd);
                }
                for (int64_t p = unrolled; p < lo + len; p++) even = pytorch_cpu::fma_round_once(q_i[p], k_j[p], even);
                const float block = even + odd;
                score = lo == 0 ? block : score + block;
                lo += len;
            }
            out.data[i * n + j] = score;
        }
    }
    return out;
}

float max_of(const Tensor& t) {
    float m = t.data.at(0);
    for (float v : t.data) m = std::fmax(m, v);
    return m;
}

}  // namespace

DkExperiment dk_experiment(double d_k_arg, double seed) {
    DkExperiment out;
    try {
        const int64_t d_k = whole_in(d_k_arg, kDkMin, kDkMax, "d_k");
        const int64_t n = kDkRows;
        // torch.manual_seed's argument; negative seeds wrap as two's complement, as everywhere else
        const int64_t s = whole_in(seed, -9007199254740992LL, 9007199254740992LL, "seed");
        Generator gen(static_cast<uint64_t>(s));
        out.queries = unit_variance_rand(n, d_k, gen);
        out.keys = unit_variance_rand(n, d_k, gen);
        out.attn_scores = scores_as_openblas(out.queries, out.keys);
        out.spread = std_all(out.attn_scores);
        const Tensor scores_1 = row(out.attn_scores, 0);
        out.weights_unscaled = softmax(scores_1);
        out.weights_scaled = softmax(div(scores_1, std::sqrt(static_cast<double>(d_k))));
        out.max_unscaled = max_of(out.weights_unscaled);
        out.max_scaled = max_of(out.weights_scaled);
    } catch (const Error& e) {
        out = DkExperiment{};
        out.error = e.what();
    } catch (const std::bad_alloc&) {
        out = DkExperiment{};
        out.error = "this needs more memory than is available; use a smaller d_k";
    }
    return out;
}

}  // namespace attn::lab
