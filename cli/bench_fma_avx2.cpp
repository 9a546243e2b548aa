// The bench's FMA-peak probe: independent chains of 8-wide FMAs, the most one core can do, as the
// yardstick for sgemm. Compiled with -mavx2 -mfma; called only when the avx2 back end is available.
#include <immintrin.h>

#include <chrono>
#include <cstdint>

namespace attn::bench {

// GFLOP/s of one timed run of `iterations` steps over 12 independent FMA chains (2 FMA pipes x
// 4-cycle latency needs at least 8 in flight to keep them busy).
double fma_peak_once__avx2(int64_t iterations) {
    __m256 acc[12];
    for (int i = 0; i < 12; i++) acc[i] = _mm256_set1_ps(0.001f * i);
    const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    const auto t0 = std::chrono::steady_clock::now();
    for (int64_t it = 0; it < iterations; it++) {
#pragma GCC unroll 12
        for (int i = 0; i < 12; i++) acc[i] = _mm256_fmadd_ps(acc[i], a, b);  // stays in registers
    }
    const auto t1 = std::chrono::steady_clock::now();
    // keep the result alive so the loop is not removed
    __m256 sum = acc[0];
    for (int i = 1; i < 12; i++) sum = _mm256_add_ps(sum, acc[i]);
    volatile float sink = _mm256_cvtss_f32(sum);
    (void)sink;
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    return 12.0 * 8 * 2 * static_cast<double>(iterations) / seconds * 1e-9;
}

}  // namespace attn::bench
