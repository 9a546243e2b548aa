// The benchmarks (attn/bench.h): the median of timed runs after a warm-up, on the engine's kernels
// and modules. The only code of the engine's build that reads a clock.
#include "attn/bench.h"

#include <algorithm>
#include <chrono>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif
#include <vector>

#include "rules/checks.h"  // the rules for JS-number arguments
#include "core/generator.h"
#include "core/kernels.h"
#include "core/limits.h"
#include "chapter/modules.h"

namespace attn::bench {

namespace {

namespace lim = attn::limits;

// The median time of `runs` calls of f, after one warm-up call.
template <typename F>
double median_ms_after_warmup(int64_t runs, F&& f) {
    f();
    std::vector<double> times;
    for (int64_t i = 0; i < runs; i++) {
        const double start = now_ms();
        f();
        times.push_back(now_ms() - start);
    }
    std::sort(times.begin(), times.end());
    const size_t n = times.size();
    return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

Tensor random_tensor(const Shape& shape, Generator& gen) {
    Tensor t = Tensor::zeros(shape);
    for (float& v : t.data) v = gen.uniform_float(0.0f, 1.0f);
    return t;
}

}  // namespace

double now_ms() {
#ifdef __EMSCRIPTEN__
    // the clock steady_clock reads there (performance.now()), without libc++'s system_error for a
    // failed clock_gettime, which links printf into the engine
    return emscripten_get_now();
#endif
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

BenchResult bench_sgemm_with(double n, double runs, const SgemmFn& sgemm) {
    BenchResult r;
    r.error = checks::sentence_of([&] {
        const int64_t N = checks::whole(n, 1, lim::kMaxDim, "n");
        const int64_t R = checks::whole(runs, 1, lim::kMaxBenchRuns, "runs");
        Generator gen(123);
        const Tensor a = random_tensor({N, N}, gen), b = random_tensor({N, N}, gen);
        Tensor c = Tensor::zeros({N, N});
        r.ms = median_ms_after_warmup(R, [&] { sgemm(c.ptr(), a.ptr(), b.ptr(), static_cast<int>(N)); });
    });
    return r;
}

BenchResult bench_sgemm(double n, double runs) {
    return bench_sgemm_with(n, runs, [](float* c, const float* a, const float* b, int ni) {
        kernels::active().matmul(c, ni, a, ni, b, ni, ni, ni, ni, false);
    });
}

BenchResult bench_mha(double tokens, double runs) {
    namespace gpt2 = gpt2_small;
    BenchResult r;
    r.error = checks::sentence_of([&] {
        const int64_t T = checks::whole(tokens, 1, lim::kMaxTokens, "tokens");
        const int64_t R = checks::whole(runs, 1, lim::kMaxBenchRuns, "runs");
        Generator gen(123);
        const MultiHeadAttention mha(gpt2::kEmbDim, gpt2::kEmbDim, std::max<int64_t>(gpt2::kContextLength, T), 0.0,
                                     gpt2::kNumHeads, false, gen);
        const Tensor x = random_tensor({1, T, gpt2::kEmbDim}, gen);
        r.ms = median_ms_after_warmup(R, [&] { mha.forward(x, gen); });
    });
    return r;
}

// The q, k, v and output projections, 2·T·d·d each, and under the causal mask only the T(T+1)/2
// visible query-key pairs of q·kᵀ and of weights·v, 2·head_dim each, over all heads (= 2·d).
// Softmax, scaling and bias adds are left out, as in the usual GEMM FLOP counts.
double mha_flops(int64_t tokens) {
    const double d = static_cast<double>(gpt2_small::kEmbDim), T = static_cast<double>(tokens);
    return 4 * 2.0 * T * d * d + 2 * (2.0 * d) * (T * (T + 1) / 2);
}

}  // namespace attn::bench
