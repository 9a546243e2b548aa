// Chooses the kernel back end once: ATTN_KERNELS when set (an unknown or unsupported name is an
// error, never a silent fallback), otherwise the best one this CPU supports.
#include <cstdlib>

#include "attn/kernels.h"
#include "attn/tensor.h"

namespace attn::kernels {

extern const KernelTable kScalarTable;

namespace {

const KernelTable* g_active = nullptr;

}  // namespace

std::vector<const KernelTable*> available() { return {&kScalarTable}; }

std::string select(const std::string& name) {
    for (const KernelTable* t : available()) {
        if (name == t->name) {
            g_active = t;
            return "";
        }
    }
    return "unknown kernel back end '" + name + "': this build has scalar";
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
