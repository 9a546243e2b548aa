// Timing, kept out of the engine (which reads no clock): the benchmarks of `attention-lab bench`
// and of the page's bench, and the clock the page's long-sequence forward is timed with.
// Nothing throws: errors come back as sentences.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace attn::bench {

// Milliseconds on a monotonic clock.
double now_ms();

struct BenchResult {
    std::string error;  // "" on success
    double ms = 0;      // median of `runs` timings, after one warm-up
};

// The active matmul kernel on (n, n) · (n, n).
BenchResult bench_sgemm(double n, double runs);
// The same benchmark (sizes, data, timing) for another row-major sgemm, c = a · b: a peer's.
using SgemmFn = std::function<void(float* c, const float* a, const float* b, int n)>;
BenchResult bench_sgemm_with(double n, double runs, const SgemmFn& sgemm);
// A GPT-2-small-sized MultiHeadAttention (d_in = d_out = 768, 12 heads, no dropout) on (1, tokens, 768).
BenchResult bench_mha(double tokens, double runs);

// Floating-point operations of that forward on `tokens` tokens, for GFLOP/s.
double mha_flops(int64_t tokens);

}  // namespace attn::bench
