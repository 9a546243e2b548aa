// `attention-lab bench [--json]`: single-thread speed of every available kernel back end: the
// FMA peak (avx2), sgemm at n = 256, 512, 1024, and the chapter's MultiHeadAttention at GPT-2-small
// size (ATTN_KERNELS limits it to one back end). Each figure is the median of several runs after
// a warm-up; timing lives here, never in tests. When OpenBLAS is installed, its sgemm is timed
// right after ours on the same matrices, as the peer of the sgemm figures. Last, training: 1,000
// Adam steps of SelfAttention_v2 on the book's inputs through `eval` (kernel-independent: every
// product is teaching-size, so exact).
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

#include "core/kernels.h"
#include "attn/bench.h"
#include "core/limits.h"
#include "requests/request.h"

namespace attn::bench {

#ifdef ATTN_AVX2
double fma_peak_once__avx2(int64_t iterations);  // cli/bench_fma_avx2.cpp
#endif

namespace {

// The benchmarks' arguments are constants here, so an error would be a bug: say so and stop.
double checked(const BenchResult& r) {
    if (!r.error.empty()) {
        std::fprintf(stderr, "attention-lab bench: %s\n", r.error.c_str());
        std::exit(1);
    }
    return r.ms;
}

// OpenBLAS's cblas_sgemm, loaded at run time if Debian's libopenblas0 is installed (the BLAS
// PyTorch uses here), on one thread like everything else in this bench.
SgemmFn load_openblas() {
    setenv("OPENBLAS_NUM_THREADS", "1", 1);  // read when the library loads: no idle worker threads
    void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    using SetThreads = void (*)(int);
    using Sgemm = void (*)(int order, int trans_a, int trans_b, int M, int N, int K, float alpha, const float* a,
                           int lda, const float* b, int ldb, float beta, float* c, int ldc);
    if (auto set_threads = reinterpret_cast<SetThreads>(dlsym(lib, "openblas_set_num_threads"))) set_threads(1);
    const auto sgemm = reinterpret_cast<Sgemm>(dlsym(lib, "cblas_sgemm"));
    if (!sgemm) return nullptr;
    return [sgemm](float* c, const float* a, const float* b, int n) {
        constexpr int kRowMajor = 101, kNoTrans = 111;
        sgemm(kRowMajor, kNoTrans, kNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    };
}

struct Reporter {
    bool json;
    void fma_peak(double gflops) const {
        if (json) std::printf("{\"bench\":\"fma_peak\",\"gflops\":%.1f}\n", gflops);
        else std::printf("FMA peak (avx2, 1 core)        %8.1f GFLOP/s\n", gflops);
    }
    void sgemm(const char* kernel, int n, double ms, double gflops) const {
        if (json) {
            std::printf("{\"bench\":\"sgemm\",\"kernel\":\"%s\",\"n\":%d,\"ms\":%.3f,\"gflops\":%.2f}\n",
                        kernel, n, ms, gflops);
        } else {
            std::printf("sgemm %-9s n=%-4d %10.3f ms %8.2f GFLOP/s\n", kernel, n, ms, gflops);
        }
    }
    // peak_gflops <= 0: not measured (no avx2 back end in this run), so no fraction either
    void mha(const char* kernel, int T, double ms, double gflops, double peak_gflops) const {
        if (json) {
            std::printf("{\"bench\":\"mha_gpt2_small\",\"kernel\":\"%s\",\"T\":%d,\"ms\":%.2f,\"gflops\":%.2f", kernel, T,
                        ms, gflops);
            if (peak_gflops > 0) std::printf(",\"fraction_of_fma_peak\":%.3f", gflops / peak_gflops);
            std::printf("}\n");
        } else {
            std::printf("MHA gpt2-small %-9s T=%-4d %8.2f ms %8.2f GFLOP/s", kernel, T, ms, gflops);
            if (peak_gflops > 0) std::printf("  %4.1f%% of the FMA peak", 100.0 * gflops / peak_gflops);
            std::printf("\n");
        }
    }
    void train(int steps, double ms) const {
        if (json) std::printf("{\"bench\":\"train_adam_v2_book\",\"steps\":%d,\"ms\":%.2f}\n", steps, ms);
        else std::printf("train v2 book, Adam %5d steps %8.2f ms\n", steps, ms);
    }
};

// The training benchmark's request, the same as scripts/bench_train.mjs times in wasm: the book's
// six tokens, each asked to give the first two numbers of the next token's embedding; the
// weights recorded every 10 steps, as a page animating the run would ask.
std::string train_request(int steps) {
    const float book[6][3] = {{0.43f, 0.15f, 0.89f}, {0.55f, 0.87f, 0.66f}, {0.57f, 0.85f, 0.64f},
                              {0.22f, 0.58f, 0.33f}, {0.77f, 0.25f, 0.10f}, {0.05f, 0.80f, 0.55f}};
    std::string x = "[", target = "[";
    char row[96];
    for (int t = 0; t < 6; t++) {
        std::snprintf(row, sizeof row, "%s[%.2f,%.2f,%.2f]", t ? "," : "", book[t][0], book[t][1], book[t][2]);
        x += row;
        std::snprintf(row, sizeof row, "%s[%.2f,%.2f]", t ? "," : "", book[(t + 1) % 6][0], book[(t + 1) % 6][1]);
        target += row;
    }
    return "{\"op\":\"train\",\"seed\":789,\"module\":\"self_attention_v2\",\"d_out\":2,\"x\":" + x +
           "],\"target\":" + target + "],\"optimizer\":\"adam\",\"lr\":0.01,\"steps\":" + std::to_string(steps) +
           ",\"record_every\":10}";
}

double time_train(int steps, int runs) {
    const std::string request = train_request(steps);
    std::vector<double> ms;
    for (int i = 0; i <= runs; i++) {  // the first run is the warm-up
        const auto start = std::chrono::steady_clock::now();
        const EvalResult r = eval_request(request);
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
        if (!r.ok) {
            std::fprintf(stderr, "attention-lab bench: %s\n", r.json.c_str());
            std::exit(1);
        }
        if (i) ms.push_back(took.count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

int run(int argc, char** argv) {
    bool json = false;
    for (int i = 0; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--json") {
            json = true;
        } else {
            std::fprintf(stderr, "attention-lab bench: unknown option '%s' (use --json or nothing)\n", arg.c_str());
            return 2;
        }
    }
    const Reporter out{json};
    const kernels::KernelTable& was_active = kernels::active();  // also reports a bad ATTN_KERNELS
    double peak_gflops = 0;
    // every available back end, or only the one ATTN_KERNELS names
    const char* forced = std::getenv("ATTN_KERNELS");
    const std::vector<const kernels::KernelTable*> backends =
        forced && *forced ? std::vector<const kernels::KernelTable*>{&was_active} : kernels::available();
#ifdef ATTN_AVX2
    for (const kernels::KernelTable* k : backends) {
        if (std::string(k->name) != "avx2") continue;
        std::vector<double> runs;
        fma_peak_once__avx2(20'000'000);  // warm-up, lets the clock settle
        for (int i = 0; i < 7; i++) runs.push_back(fma_peak_once__avx2(50'000'000));
        std::sort(runs.begin(), runs.end());
        peak_gflops = runs[runs.size() / 2];
        out.fma_peak(peak_gflops);
    }
#endif

    // sgemm and the chapter's MultiHeadAttention at GPT-2-small size (d_in = d_out = 768, 12 heads,
    // causal, dropout 0, batch 1, T = 1024, through the module's own forward): the engine's own
    // benchmarks, the same code the browser's bench page times in wasm
    const SgemmFn openblas = load_openblas();
    for (int n : {256, 512, 1024}) {
        const auto gflops = [n](double ms) { return 2.0 * n * n * n / (ms * 1e-3) * 1e-9; };
        for (const kernels::KernelTable* k : backends) {
            kernels::select(k->name);
            const bool slow = std::string(k->name) == "scalar" && n >= 512;
            const double ms = checked(bench_sgemm(n, slow ? 3 : 9));
            out.sgemm(k->name, n, ms, gflops(ms));
        }
        if (openblas) {
            const double ms = checked(bench_sgemm_with(n, 9, openblas));
            out.sgemm("openblas", n, ms, gflops(ms));
        }
    }
    const int T = static_cast<int>(gpt2_small::kContextLength);
    for (const kernels::KernelTable* k : backends) {
        kernels::select(k->name);
        const double ms = checked(bench_mha(T, std::string(k->name) == "scalar" ? 3 : 9));
        out.mha(k->name, T, ms, mha_flops(T) / (ms * 1e-3) * 1e-9, peak_gflops);
    }
    kernels::select(was_active.name);
    out.train(1000, time_train(1000, 9));
    return 0;
}

}  // namespace attn::bench
