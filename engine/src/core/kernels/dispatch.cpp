// Chooses the kernel back end once: ATTN_KERNELS when set (an unknown or unsupported name is an
// error, never a silent fallback), otherwise the best one this CPU supports.
// Compiled without -mavx2: it must run on any CPU to find out what that CPU has.
#include <cstdlib>

#include "core/kernels.h"
#include "core/tensor.h"

#ifdef ATTN_AVX2  // set by CMake when it compiles engine/src/core/kernels/avx2/
#include <cpuid.h>
#endif

namespace attn::kernels {

extern const KernelTable kScalarTable;
#ifdef ATTN_AVX2
extern const KernelTable kAvx2Table;
#endif
#ifdef ATTN_WASM_SIMD
extern const KernelTable kWasmSimdTable;
#endif

namespace {

const KernelTable* g_active = nullptr;

#ifdef ATTN_AVX2
// AVX2 and FMA in CPUID, and the OS saving the YMM registers on context switches (OSXSAVE set and
// XCR0 bits 1 and 2, SSE and AVX state, enabled): without the latter AVX code faults or corrupts.
bool cpu_has_avx2_fma() {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    const bool fma = ecx & (1u << 12), osxsave = ecx & (1u << 27), avx = ecx & (1u << 28);
    if (!(fma && osxsave && avx)) return false;
    unsigned xcr0_lo, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    if ((xcr0_lo & 0x6u) != 0x6u) return false;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    return ebx & (1u << 5);
}
#endif

struct Backend {
    const KernelTable* table;
    bool supported;
};

// Every back end compiled into this binary, best last, and whether this machine can run it.
std::vector<Backend> compiled() {
    std::vector<Backend> out = {{&kScalarTable, true}};
#ifdef ATTN_AVX2
    static const bool avx2 = cpu_has_avx2_fma();
    out.push_back({&kAvx2Table, avx2});
#endif
#ifdef ATTN_WASM_SIMD
    out.push_back({&kWasmSimdTable, true});  // a wasm engine without SIMD128 would not have loaded
#endif
    return out;
}

}  // namespace

std::vector<const KernelTable*> available() {
    std::vector<const KernelTable*> out;
    for (const Backend& b : compiled())
        if (b.supported) out.push_back(b.table);
    return out;
}

std::string select(const std::string& name) {
    std::string names;
    for (const Backend& b : compiled()) {
        if (name == b.table->name) {
            if (!b.supported) {
                return "the " + name + " kernel back end needs " + b.table->instructions +
                       ", which this machine does not support";
            }
            g_active = b.table;
            return "";
        }
        names += (names.empty() ? "" : ", ") + std::string(b.table->name);
    }
    return "unknown kernel back end '" + name + "': this build has " + names;
}

const KernelTable& active() {
    if (!g_active) {
        const char* env = std::getenv("ATTN_KERNELS");
        if (env && *env) {
            std::string err = select(env);
            if (!err.empty()) throw Error("ATTN_KERNELS: " + err);
        } else {
            g_active = available().back();
        }
    }
    return *g_active;
}

}  // namespace attn::kernels
