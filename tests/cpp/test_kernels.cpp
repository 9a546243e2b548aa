// Kernel parity: every available back end against a double-precision reference and against the
// scalar back end, on shapes that hit every tail of the 6x16 / 4x8 tiles and the cache blocks.
// Outputs are pre-filled with NaN so an element a kernel forgets to write fails the test.
#include <catch2/catch.hpp>

#include <array>
#include <cfloat>
#include <cstddef>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/generator.h"
#include "core/kernels.h"
#include "chapter/modules.h"
#include "core/pytorch_cpu.h"
#include "core/tensor.h"
#include "rules/checks.h"

namespace {

using attn::kernels::KernelTable;
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kNegInf = -std::numeric_limits<float>::infinity();

const KernelTable& scalar_table() {
    for (const KernelTable* k : attn::kernels::available())
        if (std::string(k->name) == "scalar") return *k;
    FAIL("the scalar back end is always available");
    throw;
}

// Deterministic values in [lo, hi): a small LCG, so the test needs nothing from the engine.
struct Values {
    uint32_t state;
    explicit Values(uint32_t seed) : state(seed * 2654435761u + 1) {}
    float next(float lo, float hi) {
        state = state * 1664525u + 1013904223u;
        return lo + (hi - lo) * static_cast<float>(state >> 8) / 16777216.0f;
    }
    std::vector<float> fill(size_t n, float lo = -1.0f, float hi = 1.0f) {
        std::vector<float> v(n);
        for (float& x : v) x = next(lo, hi);
        return v;
    }
};

// Largest |got - want| / (atol + rtol·scale) over the checks: <= 1 passes.
struct Worst {
    double ratio = 0, got = 0, want = 0;
    ptrdiff_t index = -1;
    bool nan = false;
    void check(ptrdiff_t i, float g, double w, double tol) {
        if (std::isnan(w) != std::isnan(g)) nan = true;
        if (std::isnan(w) || std::isnan(g)) {
            if (std::isnan(w) != std::isnan(g)) index = i, got = g, want = w, ratio = INFINITY;
            return;
        }
        if (std::isinf(w) || std::isinf(g)) {
            if (g != w) index = i, got = g, want = w, ratio = INFINITY;
            return;
        }
        const double r = std::fabs(g - w) / tol;
        if (r > ratio) ratio = r, got = g, want = w, index = i;
    }
};

#define REQUIRE_WITHIN(worst)                                                                  \
    do {                                                                                       \
        INFO("largest difference at element " << (worst).index << ": got " << (worst).got     \
                                               << ", want " << (worst).want << " ("            \
                                               << (worst).ratio << " x tolerance)");           \
        REQUIRE((worst).ratio <= 1.0);                                                         \
    } while (0)

struct MatmulCase {
    int M, N, K;
    bool transposed;
    int pad_a, pad_b, pad_c;  // leading dimension = row length + pad
};

// Runs one case through `k` and checks it against a double-precision product. Each element's
// tolerance scales with Σ|a||b|, the bound on any float summation order's error.
void check_matmul(const KernelTable& k, const MatmulCase& mc, uint32_t seed) {
    const int M = mc.M, N = mc.N, K = mc.K;
    const int lda = K + mc.pad_a, ldc = N + mc.pad_c;
    const int ldb = (mc.transposed ? K : N) + mc.pad_b;
    Values values(seed);
    const std::vector<float> a = values.fill(static_cast<size_t>(M) * lda + 1);
    const std::vector<float> b = values.fill(static_cast<size_t>((mc.transposed ? N : K)) * ldb + 1);
    std::vector<float> c(static_cast<size_t>(M) * ldc, kNaN);
    k.matmul(c.data(), ldc, a.data(), lda, b.data(), ldb, M, N, K, mc.transposed);
    Worst worst;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            double want = 0, scale = 0;
            for (int p = 0; p < K; p++) {
                const double b_pj = mc.transposed ? b[static_cast<size_t>(j) * ldb + p] : b[static_cast<size_t>(p) * ldb + j];
                want += a[static_cast<size_t>(i) * lda + p] * b_pj;
                scale += std::fabs(a[static_cast<size_t>(i) * lda + p] * b_pj);
            }
            worst.check(i * ldc + j, c[static_cast<size_t>(i) * ldc + j], want, 1e-7 + 2.0 * K * FLT_EPSILON * scale);
        }
        // the gap between rows is not c's: it must stay untouched
        for (int j = N; j < ldc; j++) {
            if (!std::isnan(c[static_cast<size_t>(i) * ldc + j])) worst.check(i * ldc + j, c[static_cast<size_t>(i) * ldc + j], kNaN, 1);
        }
    }
    INFO(k.name << " matmul M=" << M << " N=" << N << " K=" << K << (mc.transposed ? " b transposed" : "")
                << " lda=" << lda << " ldb=" << ldb << " ldc=" << ldc);
    REQUIRE_WITHIN(worst);
}

}  // namespace

TEST_CASE("the kernel table lists scalar, and ATTN_KERNELS-style selection rejects unknown names", "[kernels]") {
    const auto available = attn::kernels::available();
    REQUIRE(!available.empty());
    CHECK(std::string(available.front()->name) == "scalar");
    const std::string err = attn::kernels::select("no-such-kernels");
    CHECK(err.find("unknown kernel back end 'no-such-kernels'") != std::string::npos);
    CHECK(err.find("scalar") != std::string::npos);
}

#if (defined(__x86_64__) || defined(_M_X64)) && !defined(__EMSCRIPTEN__)
// x86 only: the dispatcher's CPUID/XGETBV check must agree with the compiler's own CPU detection.
TEST_CASE("avx2 is available exactly when the CPU and OS support AVX2 and FMA", "[kernels]") {
    bool listed = false;
    for (const KernelTable* k : attn::kernels::available()) listed = listed || std::string(k->name) == "avx2";
    __builtin_cpu_init();
    CHECK(listed == (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")));
}
#endif

TEST_CASE("matmul of every back end matches a double-precision product on every tail", "[kernels]") {
    for (const KernelTable* k : attn::kernels::available()) {
        uint32_t seed = 1;
        // sizes 1..17 cover every remainder of 4-, 6-, 8- and 16-wide tiles
        for (int M = 1; M <= 17; M++)
            for (int N = 1; N <= 17; N++)
                for (int K : {1, 2, 3, 5, 8, 13, 16, 17})
                    for (bool tr : {false, true}) check_matmul(*k, {M, N, K, tr, 0, 0, 0}, seed++);
        // primes and sizes past the cache blocks (KC and MC: avx2 512 and 48, wasm_simd 256 and 128;
        // NC 1024), with strided operands
        const MatmulCase big[] = {
            {97, 131, 257, false, 0, 0, 0}, {97, 131, 257, true, 3, 5, 7},
            {149, 1031, 33, false, 1, 2, 3}, {149, 1031, 33, true, 0, 0, 0},
            {300, 263, 521, false, 5, 0, 1}, {300, 263, 521, true, 0, 9, 0},
            {1, 1000, 300, false, 0, 0, 0},  {1000, 1, 300, true, 0, 0, 0},
            {7, 19, 1, true, 4, 4, 4},       {289, 16, 6, false, 0, 0, 0},
        };
        for (const MatmulCase& mc : big) check_matmul(*k, mc, seed++);
    }
}

TEST_CASE("matmul with K = 0 writes zeros", "[kernels]") {
    for (const KernelTable* k : attn::kernels::available()) {
        std::vector<float> c(3 * 5, kNaN);
        const float a = 1.0f, b = 1.0f;
        k->matmul(c.data(), 5, &a, 1, &b, 5, 3, 5, 0, false);
        INFO(k->name);
        for (float x : c) CHECK(x == 0.0f);
    }
}

TEST_CASE("softmax_rows of every back end gives scalar's (PyTorch's) bits, masks and -inf included", "[kernels]") {
    const KernelTable& ref = scalar_table();
    for (const KernelTable* k : attn::kernels::available()) {
        uint32_t seed = 100;
        for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 67, 129, 257, 1000}) {
            for (int variant = 0; variant < 4; variant++) {
                const int rows = variant == 3 ? 9 : 5, ldx = n + (variant % 2 ? 3 : 0);
                const bool causal = variant >= 2;
                const int offset = variant == 3 ? -2 : 0;
                const float divisor = variant == 0 ? 1.0f : std::sqrt(static_cast<float>(n) + 1.0f);
                Values values(seed++);
                // wide range: e^(x - max) goes from 1 down past the denormals
                std::vector<float> x = values.fill(static_cast<size_t>(rows) * ldx, -60.0f, 60.0f);
                for (int r = 0; r < rows; r++)
                    for (int j = n; j < ldx; j++) x[static_cast<size_t>(r) * ldx + j] = kNaN;
                if (n > 2) x[1] = kNegInf;  // masked_fill(-inf) entries weigh exactly 0
                if (rows > 4)               // a row of only -inf is NaN, as in PyTorch
                    for (int j = 0; j < n; j++) x[static_cast<size_t>(4) * ldx + j] = kNegInf;
                std::vector<float> want = x, got = x;
                ref.softmax_rows(want.data(), ldx, rows, n, divisor, causal, offset);
                k->softmax_rows(got.data(), ldx, rows, n, divisor, causal, offset);
                // every back end rounds as PyTorch does, so the weights are equal bit for bit
                ptrdiff_t first_diff = -1;
                for (size_t i = 0; i < got.size() && first_diff < 0; i++) {
                    const bool same = std::isnan(got[i]) ? std::isnan(want[i]) : std::memcmp(&got[i], &want[i], sizeof(float)) == 0;
                    if (!same) first_diff = static_cast<ptrdiff_t>(i);
                }
                INFO(k->name << " softmax n=" << n << " rows=" << rows << " ldx=" << ldx
                             << (causal ? " causal offset " + std::to_string(offset) : ""));
                INFO("first differing element " << first_diff << ": got " << (first_diff < 0 ? 0.0f : got[first_diff])
                                                << ", want " << (first_diff < 0 ? 0.0f : want[first_diff]));
                REQUIRE(first_diff < 0);
                // what a learner checks: masked weights are exactly 0 and visible ones sum to 1
                for (int r = 0; r < rows; r++) {
                    const int visible = causal ? std::min(n, std::max(0, r + offset + 1)) : n;
                    if ((rows > 4 && r == 4) || visible == 0) {  // nothing visible: NaN, as in PyTorch
                        for (int j = 0; j < n; j++) CHECK(std::isnan(got[static_cast<size_t>(r) * ldx + j]));
                        continue;
                    }
                    double sum = 0;
                    for (int j = 0; j < n; j++) {
                        const float w = got[static_cast<size_t>(r) * ldx + j];
                        if (j >= visible || (r == 0 && j == 1 && n > 2)) CHECK(w == 0.0f);
                        sum += w;
                    }
                    if (visible > 0 && !(r == 0 && n > 2 && visible == 1)) CHECK(std::fabs(sum - 1.0) < 1e-5);
                }
            }
        }
    }
}

namespace {

// The materialised path with the scalar kernels: scores (T,T) = q kᵀ, softmax, times v.
std::vector<float> materialised_attention(const std::vector<float>& q, const std::vector<float>& k,
                                          const std::vector<float>& v, int ld, int T, int D,
                                          float divisor, bool causal) {
    const KernelTable& ref = scalar_table();
    std::vector<float> scores(static_cast<size_t>(T) * T), out(static_cast<size_t>(T) * D);
    ref.matmul(scores.data(), T, q.data(), ld, k.data(), ld, T, T, D, true);
    ref.softmax_rows(scores.data(), T, T, T, divisor, causal, 0);
    ref.matmul(out.data(), D, scores.data(), T, v.data(), ld, T, D, T, false);
    return out;
}

void check_fused(const KernelTable& kt, int T, int D, bool causal, int pad, uint32_t seed) {
    const int ld = D + pad;
    Values values(seed);
    const std::vector<float> q = values.fill(static_cast<size_t>(T) * ld, -2.0f, 2.0f);
    const std::vector<float> k = values.fill(static_cast<size_t>(T) * ld, -2.0f, 2.0f);
    const std::vector<float> v = values.fill(static_cast<size_t>(T) * ld);
    const float divisor = std::sqrt(static_cast<float>(D));
    const std::vector<float> want = materialised_attention(q, k, v, ld, T, D, divisor, causal);
    const int ld_out = D + 2 * pad + 1;
    std::vector<float> out(static_cast<size_t>(T) * ld_out, kNaN);
    kt.attention_fused(out.data(), ld_out, q.data(), ld, k.data(), ld, v.data(), ld, T, D, divisor, causal);
    Worst worst;
    for (int t = 0; t < T; t++) {
        for (int d = 0; d < D; d++) worst.check(t * ld_out + d, out[static_cast<size_t>(t) * ld_out + d], want[static_cast<size_t>(t) * D + d], 2e-6 + 2e-5 * std::fabs(want[static_cast<size_t>(t) * D + d]));
        for (int d = D; d < ld_out; d++)
            if (!std::isnan(out[static_cast<size_t>(t) * ld_out + d])) worst.check(t * ld_out + d, out[static_cast<size_t>(t) * ld_out + d], kNaN, 1);
    }
    INFO(kt.name << " fused attention T=" << T << " D=" << D << (causal ? " causal" : "") << " ld=" << ld);
    REQUIRE_WITHIN(worst);
}

}  // namespace

TEST_CASE("fused attention of every back end matches the materialised path", "[kernels]") {
    for (const KernelTable* k : attn::kernels::available()) {
        uint32_t seed = 500;
        for (bool causal : {true, false}) {
            // every token count up to past one query block (48) and one key block (64)
            for (int T = 1; T <= 17; T++)
                for (int D : {1, 3, 8, 16, 17}) check_fused(*k, T, D, causal, T % 3, seed++);
            for (int T : {47, 48, 49, 63, 64, 65, 97, 130, 200})
                check_fused(*k, T, 64, causal, T % 2 ? 5 : 0, seed++);
            // every head dimension 1..129 (tails of the 16-wide channel panels)
            for (int D = 1; D <= 129; D++) check_fused(*k, 53, D, causal, D % 4, seed++);
        }
    }
}

TEST_CASE("MultiHeadAttention's fused path matches its materialised path under every back end", "[kernels]") {
    const std::string was_active = attn::kernels::active().name;
    for (const KernelTable* k : attn::kernels::available()) {
        REQUIRE(attn::kernels::select(k->name).empty());
        for (int64_t T : {attn::checks::kFusedMinTokens, attn::checks::kFusedMinTokens + 37}) {
            attn::Generator gen(789);
            const attn::MultiHeadAttention mha(24, 36, 512, 0.0, 3, true, gen);
            attn::Tensor x = attn::Tensor::zeros({2, T, 24});
            for (float& value : x.data) value = gen.uniform_float(0.0f, 1.0f);
            attn::AttentionTrace trace;
            const attn::Tensor fused = mha.forward(x, gen);                  // no trace: fused
            const attn::Tensor materialised = mha.forward(x, gen, &trace);  // trace: (T,T) built
            REQUIRE(fused.shape == materialised.shape);
            Worst worst;
            for (size_t i = 0; i < fused.data.size(); i++)
                worst.check(static_cast<ptrdiff_t>(i), fused.data[i], materialised.data[i], 1e-6 + 1e-5 * std::fabs(materialised.data[i]));
            INFO(k->name << " MultiHeadAttention T=" << T);
            REQUIRE_WITHIN(worst);
        }
    }
    REQUIRE(attn::kernels::select(was_active).empty());
}

namespace {

// a·b + c where rounding to double first lands exactly between two floats, so a second rounding
// goes the wrong way (Emscripten's fmaf does that): just under a tie, and the same in denormals.
struct FmaCase {
    float a, b, c, want;
};
const FmaCase kFmaTraps[] = {
    {0x1.0002p+0f, 0x1.fffcp-25f, 0x1.000002p+0f, 0x1.000002p+0f},
    {-0x1.0002p+0f, 0x1.fffcp-25f, -0x1.000002p+0f, -0x1.000002p+0f},
    {0x1.000002p-75f, 0x1.fffffcp-76f, 0x1.008p-140f, 0x1.008p-140f},
    {1.0f, 2.0f, 3.0f, 5.0f},
};

std::vector<std::array<float, 3>> fma_operands() {
    std::vector<std::array<float, 3>> cases;
    for (const FmaCase& t : kFmaTraps) cases.push_back({t.a, t.b, t.c});
    Values values(7);
    for (int i = 0; i < 40000; i++) {  // and ordinary ones, over the range of Sleef's operands
        const float scale = std::ldexp(1.0f, static_cast<int>(values.next(-30.0f, 30.0f)));
        cases.push_back({values.next(-1.0f, 1.0f) * scale, values.next(-1.0f, 1.0f), values.next(-1.0f, 1.0f) * scale});
    }
    return cases;
}

bool same_bits(float x, float y) { return std::memcmp(&x, &y, sizeof x) == 0; }

}  // namespace

TEST_CASE("fma_round_once rounds a*b + c once, also where a double in between would round twice", "[kernels]") {
    for (const FmaCase& t : kFmaTraps) {
        INFO("fma(" << t.a << ", " << t.b << ", " << t.c << ")");
        CHECK(same_bits(attn::pytorch_cpu::fma_round_once(t.a, t.b, t.c), t.want));
    }
#if !defined(__EMSCRIPTEN__)  // glibc's fmaf is exact; Emscripten's is what this replaces
    for (const auto& [a, b, c] : fma_operands()) {
        INFO("fma(" << a << ", " << b << ", " << c << ")");
        REQUIRE(same_bits(attn::pytorch_cpu::fma_round_once(a, b, c), std::fma(a, b, c)));
    }
#endif
}

#if defined(__wasm_simd128__)
#include "core/fma_f32x4.h"

TEST_CASE("wasm_simd's fma_f32x4 gives fma_round_once's bits", "[kernels]") {
    const std::vector<std::array<float, 3>> cases = fma_operands();
    for (size_t i = 0; i + 4 <= cases.size(); i += 4) {
        alignas(16) float av[4], bv[4], cv[4], got[4];
        for (int l = 0; l < 4; l++) av[l] = cases[i + l][0], bv[l] = cases[i + l][1], cv[l] = cases[i + l][2];
        wasm_v128_store(got, attn::kernels::wasm_simd::fma_f32x4(wasm_v128_load(av), wasm_v128_load(bv), wasm_v128_load(cv)));
        for (int l = 0; l < 4; l++) {
            INFO("fma(" << av[l] << ", " << bv[l] << ", " << cv[l] << ")");
            REQUIRE(same_bits(got[l], attn::pytorch_cpu::fma_round_once(av[l], bv[l], cv[l])));
        }
    }
}
#endif

// gemm_fma walks a row of c at a time (wasm_simd: four outputs per emulated FMA); each output must
// still add its k in order. Below k = 8 every output is one chain from 0; at any k, b read transposed
// gives the same bits, and every output is written (c starts as NaN). Every tail of 4 columns.
TEST_CASE("gemm_fma: each output's chain in k order, b transposed or not, every row and column tail", "[kernels]") {
    Values values(11);
    for (int64_t M : {1, 3, 4, 5, 12, 13, 17})
        for (int64_t N = 1; N <= 19; N++)
            for (int64_t K : {1, 2, 7, 8, 9, 16, 19, 33}) {
                INFO("M=" << M << " N=" << N << " K=" << K);
                const std::vector<float> a = values.fill(static_cast<size_t>(M * K)), b = values.fill(static_cast<size_t>(K * N));
                std::vector<float> bt(b.size());
                for (int64_t p = 0; p < K; p++)
                    for (int64_t j = 0; j < N; j++) bt[j * K + p] = b[p * N + j];
                std::vector<float> c(static_cast<size_t>(M * N), NAN), ct(c);
                attn::pytorch_cpu::gemm_fma(c.data(), a.data(), b.data(), M, N, K, false);
                attn::pytorch_cpu::gemm_fma(ct.data(), a.data(), bt.data(), M, N, K, true);
                for (int64_t i = 0; i < M * N; i++) {
                    REQUIRE(same_bits(c[i], ct[i]));
                    double want = 0;
                    for (int64_t p = 0; p < K; p++) want += double(a[i / N * K + p]) * b[p * N + i % N];
                    REQUIRE(std::fabs(c[i] - want) <= 1e-5);
                    if (K >= 8) continue;
                    float chain = 0.0f;
                    for (int64_t p = 0; p < K; p++) chain = attn::pytorch_cpu::fma_round_once(a[i / N * K + p], b[p * N + i % N], chain);
                    REQUIRE(same_bits(c[i], chain));
                }
            }
}
