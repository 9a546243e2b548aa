// PyTorch 1.13's CPU arithmetic, reproduced. See pytorch_cpu.h for what each function mirrors.
#include "core/pytorch_cpu.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#if defined(__wasm_simd128__)
#include "core/fma_f32x4.h"
#endif

namespace attn::pytorch_cpu {

namespace {

// --- sum: SumKernel.cpp. Its order of additions decides the last bit, and so whether a sum of
// softmax weights prints as "1." or "1.0000". Lane is a float on the scalar path and an 8-float
// AVX2 vector on the vectorised one. ---
template <typename Lane>
Lane row_sum(const std::vector<Lane>& x, int64_t begin, int64_t stride, int64_t size);

struct Lanes8 {
    float v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    Lanes8& operator+=(const Lanes8& o) {
        for (int i = 0; i < 8; i++) v[i] += o.v[i];
        return *this;
    }
};
inline void add_to(float& a, float b) { a += b; }
inline void add_to(Lanes8& a, const Lanes8& b) { a += b; }

// multi_row_sum: nrows interleaved partial sums, accumulated in 4 cascade levels.
template <typename Lane, int64_t nrows>
std::array<Lane, nrows> multi_row_sum(const std::vector<Lane>& x, int64_t begin, int64_t row_stride,
                                      int64_t col_stride, int64_t size) {
    constexpr int64_t num_levels = 4;
    int64_t ceil_log2 = 0;
    while ((int64_t(1) << ceil_log2) < size) ceil_log2++;
    const int64_t level_power = std::max<int64_t>(4, ceil_log2 / num_levels);
    const int64_t level_step = int64_t(1) << level_power;
    const int64_t level_mask = level_step - 1;
    Lane acc[num_levels][nrows] = {};
    int64_t i = 0;
    for (; i + level_step <= size;) {
        for (int64_t j = 0; j < level_step; ++j, ++i)
            for (int64_t k = 0; k < nrows; k++) add_to(acc[0][k], x[begin + i * row_stride + k * col_stride]);
        for (int64_t j = 1; j < num_levels; j++) {
            for (int64_t k = 0; k < nrows; k++) {
                add_to(acc[j][k], acc[j - 1][k]);
                acc[j - 1][k] = Lane{};
            }
            if ((i & (level_mask << (j * level_power))) != 0) break;
        }
    }
    for (; i < size; ++i)
        for (int64_t k = 0; k < nrows; k++) add_to(acc[0][k], x[begin + i * row_stride + k * col_stride]);
    for (int64_t j = 1; j < num_levels; j++)
        for (int64_t k = 0; k < nrows; k++) add_to(acc[0][k], acc[j][k]);
    std::array<Lane, nrows> ret;
    for (int64_t k = 0; k < nrows; k++) ret[k] = acc[0][k];
    return ret;
}

template <typename Lane>
Lane row_sum(const std::vector<Lane>& x, int64_t begin, int64_t stride, int64_t size) {
    constexpr int64_t ilp = 4;
    const int64_t size_ilp = size / ilp;
    auto partial = multi_row_sum<Lane, ilp>(x, begin, stride * ilp, stride, size_ilp);
    for (int64_t i = size_ilp * ilp; i < size; ++i) add_to(partial[0], x[begin + i * stride]);
    for (int64_t k = 1; k < ilp; k++) add_to(partial[0], partial[k]);
    return partial[0];
}

// vec_reduce_all's AVX2 shuffle tree over 8 lanes: halves, then pairs, then neighbours.
float reduce_lanes(float lanes[8]) {
    float t[8];
    for (int l = 0; l < 8; l++) t[l] = lanes[l] + lanes[l ^ 4];
    for (int l = 0; l < 8; l++) lanes[l] = t[l] + t[l ^ 2];
    return lanes[0] + lanes[1];
}

}  // namespace

void sum_dim0(float* out, const float* x, int64_t rows, int64_t cols) {
    const std::vector<float> v(x, x + rows * cols);
    int64_t j = 0;
    if (cols < 8) {
        // scalar_outer_sum: 4 columns at a time through multi_row_sum, then one by one
        for (; j + 4 <= cols; j += 4) {
            const auto sums = multi_row_sum<float, 4>(v, j, cols, 1, rows);
            for (int k = 0; k < 4; k++) out[j + k] = sums[k];
        }
    } else {
        // vectorized_outer_sum: 8-float vectors, 4 of them at a time, then one vector, then columns
        const int64_t per_row = cols / 8;
        std::vector<Lanes8> vecs(static_cast<size_t>(rows * per_row));
        for (int64_t i = 0; i < rows; i++)
            for (int64_t c = 0; c < per_row * 8; c++) vecs[i * per_row + c / 8].v[c % 8] = x[i * cols + c];
        for (; j + 32 <= cols; j += 32) {
            const auto sums = multi_row_sum<Lanes8, 4>(vecs, j / 8, per_row, 1, rows);
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 8; l++) out[j + 8 * k + l] = sums[k].v[l];
        }
        for (; j + 8 <= cols; j += 8) {
            const Lanes8 s = row_sum(vecs, j / 8, per_row, rows);
            for (int l = 0; l < 8; l++) out[j + l] = s.v[l];
        }
    }
    for (; j < cols; j++) out[j] = row_sum(v, j, cols, rows);
}

void softmax_backward_row(float* grad_in, const float* grad, const float* out, int64_t n) {
    float total;
    if (n < 8) {
        total = grad[0] * out[0];
        for (int64_t j = 1; j < n; j++) total += grad[j] * out[j];
    } else {
        float lanes[8];
        for (int l = 0; l < 8; l++) lanes[l] = grad[l] * out[l];
        // the compiler fuses acc + grad·out into one FMA in PyTorch's build
        int64_t d = 8;
        for (; d + 8 <= n; d += 8)
            for (int l = 0; l < 8; l++) lanes[l] = fma_round_once(grad[d + l], out[d + l], lanes[l]);
        for (int l = 0; d + l < n; l++) lanes[l] = fma_round_once(grad[d + l], out[d + l], lanes[l]);
        total = reduce_lanes(lanes);
    }
    for (int64_t j = 0; j < n; j++) grad_in[j] = (grad[j] - total) * out[j];
}

float sum(const float* x, int64_t n, int64_t stride) {
    if (stride != 1 || n < 8) {
        std::vector<float> v(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; i++) v[i] = x[i * stride];
        return row_sum(v, 0, 1, n);
    }
    // contiguous: 8-wide vectors through row_sum, the scalar tail first, then the lanes in order
    const int64_t vec_size = n / 8;
    std::vector<Lanes8> vecs(static_cast<size_t>(vec_size));
    for (int64_t i = 0; i < vec_size; i++)
        for (int l = 0; l < 8; l++) vecs[i].v[l] = x[i * 8 + l];
    Lanes8 vec_acc = row_sum(vecs, 0, 1, vec_size);
    float final_acc = 0.0f;
    for (int64_t k = vec_size * 8; k < n; k++) final_acc += x[k];
    for (int l = 0; l < 8; l++) final_acc += vec_acc.v[l];
    return final_acc;
}


float fma_round_once(float a, float b, float c) {
    const double p = static_cast<double>(a) * b;  // exact: 48 significant bits
    const double s = p + c;
    const double bb = s - p, err = (p - (s - bb)) + (c - bb);  // s + err == p + c exactly (TwoSum)
    uint64_t bits;
    std::memcpy(&bits, &s, sizeof bits);
    // inexact and the last bit even: one step toward the exact value makes it odd; an infinite or NaN
    // sum stays as it is (selects rather than an early return: 10% faster in gemm_fma's rows)
    const bool finite = (bits & 0x7FF0000000000000ull) != 0x7FF0000000000000ull;
    const bool nudge = finite && err != 0 && (bits & 1) == 0;
    const uint64_t toward = (err > 0) == (s > 0) ? 1 : ~uint64_t(0);
    bits += nudge ? toward : 0;
    double odd;
    std::memcpy(&odd, &bits, sizeof odd);
    return static_cast<float>(odd);
}

// --- exp: Sleef 3's xexpf (sleefsimdsp.c), AVX2 flavour: every vmla is a fused multiply-add ---
namespace {

float pow2i(int q) {  // 2^q for q in the normal range, built from the exponent bits as Sleef does
    const uint32_t bits = static_cast<uint32_t>(q + 0x7f) << 23;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

}  // namespace

float expf_u10(float d) {
    const float R_LN2f = 1.442695040888963407359924681001892137426645954152985934135449406931f;
    const float L2Uf = 0.693145751953125f, L2Lf = 1.428606765330187045e-06f;
    if (std::isnan(d)) return d;
    if (d < -104.0f) return 0.0f;
    if (d > 100.0f) return INFINITY;
    const int q = static_cast<int>(std::nearbyint(d * R_LN2f));  // round half to even, as cvtps2dq
    float s = fma_round_once(static_cast<float>(q), -L2Uf, d);
    s = fma_round_once(static_cast<float>(q), -L2Lf, s);
    float u = 0.000198527617612853646278381f;
    u = fma_round_once(u, s, 0.00139304355252534151077271f);
    u = fma_round_once(u, s, 0.00833336077630519866943359f);
    u = fma_round_once(u, s, 0.0416664853692054748535156f);
    u = fma_round_once(u, s, 0.166666671633720397949219f);
    u = fma_round_once(u, s, 0.5f);
    u = 1.0f + fma_round_once(s * s, u, s);
    // ldexp in two steps so that neither factor overflows
    const int half = q >> 1;
    return (u * pow2i(half)) * pow2i(q - half);
}

void softmax_row(float* x, int64_t n) {
    // pass 1: the row max (subtracted only for numerical stability); NaN propagates as in vec::maximum
    float max_val = x[0];
    for (int64_t j = 1; j < n; j++) max_val = (std::isnan(x[j]) || x[j] > max_val) ? x[j] : max_val;
    // pass 2: exponentiate and sum in vec::reduce_all's order
    for (int64_t j = 0; j < n; j++) x[j] = expf_u10(x[j] - max_val);
    float total;
    if (n < 8) {
        total = x[0];
        for (int64_t j = 1; j < n; j++) total += x[j];
    } else {
        float lanes[8];
        std::memcpy(lanes, x, sizeof lanes);
        int64_t d = 8;
        for (; d + 8 <= n; d += 8)
            for (int l = 0; l < 8; l++) lanes[l] += x[d + l];
        for (int l = 0; d + l < n; l++) lanes[l] += x[d + l];
        total = reduce_lanes(lanes);
    }
    // pass 3: multiply by the reciprocal, as PyTorch does (not a division per element)
    const float inv = 1.0f / total;
    for (int64_t j = 0; j < n; j++) x[j] *= inv;
}

namespace {

// Which outputs of c (M,N) OpenBLAS sums in two chains (see gemm_fma). BLAS's columns are c's rows:
// its level-3 driver hands the kernel 12 of them at a time while at least 12 remain, else 4 while
// more than 4 remain, else the rest. The kernel runs a 4-wide block as "m8n4" (two chains) over
// c's first N/8·8 columns. A 12-wide block, when N ≥ 16, is two halves of 6 rows walked in
// 16-column "m16n6" steps (one chain), staggered by 8: the left half's first 8 columns ("H") and
// the last 8 columns of whichever half ends second ("T") are m8n6 blocks (two chains).
std::vector<char> two_chain_outputs(int64_t M, int64_t N) {
    std::vector<char> two(static_cast<size_t>(M * N), 0);
    auto mark = [&](int64_t row0, int64_t rows, int64_t col0, int64_t cols) {
        for (int64_t i = row0; i < row0 + rows; i++)
            for (int64_t j = col0; j < col0 + cols; j++) two[i * N + j] = 1;
    };
    for (int64_t i = 0; i < M;) {
        const int64_t left = M - i;
        const int64_t chunk = left >= 12 ? 12 : left > 4 ? 4 : left;
        if (chunk == 4) mark(i, 4, 0, N / 8 * 8);
        if (chunk == 12 && N >= 16) {
            mark(i, 6, 0, 8);  // H: the left half's first panel
            bool right = true;  // the m16n6 steps alternate right, left, right, ...
            for (int64_t start = 0, rest = N;; start++, right = !right) {
                rest -= 8;
                if (rest < 16) {  // T: the other half's last panel
                    mark(right ? i : i + 6, 6, (start + 1) * 8, 8);
                    break;
                }
            }
        }
        i += chunk;
    }
    return two;
}

}  // namespace

// acc[j] = a·b[j] + acc[j], each rounded once: four at a time where WebAssembly SIMD128 is on (the
// same bits: tests/cpp/test_kernels.cpp), since wasm has no FMA and emulating one is the train op's cost.
static void fma_into(float* acc, float a, const float* b, int64_t n) {
    int64_t j = 0;
#if defined(__wasm_simd128__)
    const v128_t a4 = wasm_f32x4_splat(a);
    for (; j + 4 <= n; j += 4)
        wasm_v128_store(acc + j, kernels::wasm_simd::fma_f32x4(a4, wasm_v128_load(b + j), wasm_v128_load(acc + j)));
#endif
    for (; j < n; j++) acc[j] = fma_round_once(a, b[j], acc[j]);
}

void gemm_fma(float* c, const float* a, const float* b, int64_t M, int64_t N, int64_t K, bool b_transposed) {
    const std::vector<char> two = K >= 8 ? two_chain_outputs(M, N) : std::vector<char>();
    const int64_t paired = K / 8 * 8;  // the k the two-chain blocks alternate; the rest go to chain 0
    // b as (K,N) rows, so that the inner loop walks a row of c: each output still adds its k in order,
    // and a row's N chains are independent, so the emulated FMA's latency overlaps (one output at a
    // time waited on each FMA: the train op took 1.7x as long). The scratch for b and the chains is on
    // the stack at the book's sizes (a heap block per call cost the scalar engine's training 10%).
    float stack[256];
    std::vector<float> heap;
    auto scratch = [&](int64_t n) {
        if (n <= 256) return stack;
        heap.resize(static_cast<size_t>(n));
        return heap.data();
    };
    float* b_rows = nullptr;
    if (b_transposed) {
        b_rows = scratch(K * N + 2 * N);
        for (int64_t j = 0; j < N; j++)
            for (int64_t p = 0; p < K; p++) b_rows[p * N + j] = b[j * K + p];
        b = b_rows;
    }
    float* first = b_rows ? b_rows + K * N : scratch(2 * N);  // each output's chains
    float* second = first + N;
    for (int64_t i = 0; i < M; i++) {
        std::fill(first, first + 2 * N, 0.0f);
        const char* split = two.empty() ? nullptr : &two[i * N];
        const float* a_row = a + i * K;
        for (int64_t p = 0; p < K; p++) {
            const float* b_row = b + p * N;
            if (split && p < paired && (p & 1)) {  // odd k: the split outputs' second chain
                for (int64_t j = 0; j < N; j++) {
                    float& chain = split[j] ? second[j] : first[j];
                    chain = fma_round_once(a_row[p], b_row[j], chain);
                }
            } else {
                fma_into(first, a_row[p], b_row, N);
            }
        }
        for (int64_t j = 0; j < N; j++) c[i * N + j] = split && split[j] ? first[j] + second[j] : first[j];
    }
}

void bmm_small(float* c, const float* a, const float* b, int64_t M, int64_t N, int64_t K) {
    for (int64_t i = 0; i < M; i++) {
        for (int64_t j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int64_t p = 0; p < K; p++) {
                const float prod = a[i * K + p] * b[p * N + j];
                acc = acc + prod;
            }
            c[i * N + j] = acc;
        }
    }
}

float dot(const float* x, const float* y, int64_t n) {
    double acc = 0.0;  // float products, summed in double (OpenBLAS's sdot tail loop)
    for (int64_t i = 0; i < n; i++) acc += static_cast<double>(x[i] * y[i]);
    return static_cast<float>(acc);
}

}  // namespace attn::pytorch_cpu
