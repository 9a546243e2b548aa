// attention-lab: a thin command line over the engine. All I/O lives here; the engine does none.
#include <cstdio>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "replay/book.h"
#include "core/kernels.h"
#include "core/limits.h"
#include "page/sections.h"
#include "requests/request.h"

namespace {

const char* kUsage =
    "usage: attention-lab <command>\n"
    "  book      print every cell of chapter 3, as PyTorch prints it\n"
    "  eval      read one JSON request on stdin, write one JSON answer on stdout\n"
    "  section   the same for the page's sectionData request ({\"section\": ...}; docs/cli.md)\n"
    "  kernels   list the kernel back ends; * marks the active one (ATTN_KERNELS forces one)\n"
    "  bench     time every back end (one thread); --json prints one JSON object per line\n";

int cmd_book() {
    std::fputs(attn::book_text().c_str(), stdout);
    return 0;
}

// Reads at most one byte more than a request may have, so an endless or oversized input is refused
// at once (eval_request names the limit) instead of being read to its end.
int cmd_eval(attn::EvalResult (*answer)(const std::string&)) {
    std::string request;
    char chunk[1 << 16];
    size_t n;
    while (static_cast<int64_t>(request.size()) <= attn::limits::kMaxRequestBytes &&
           (n = std::fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        request.append(chunk, n);
    }
    if (static_cast<int64_t>(request.size()) > attn::limits::kMaxRequestBytes) request.resize(attn::limits::kMaxRequestBytes + 1);
    attn::EvalResult result = answer(request);
    std::printf("%s\n", result.json.c_str());
    return result.ok ? 0 : 2;
}

int cmd_kernels() {
    const attn::kernels::KernelTable& active = attn::kernels::active();
    for (const attn::kernels::KernelTable* k : attn::kernels::available()) {
        std::printf("%s %-10s %s\n", k == &active ? "*" : " ", k->name, k->instructions);
    }
    return 0;
}

// glibc hands blocks of more than 128 KB back to the kernel when they are freed, and a forward of
// GPT-2-size attention allocates and frees tens of MB of tensors, so every call faulted them in
// again: 13% of that forward's time. This process keeps what it frees, up to the largest block
// malloc may take from its heap, for the next call (docs/performance.md, "Native").
void keep_freed_memory() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's ceiling for this setting
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace

namespace attn::bench {
int run(int argc, char** argv);  // cli/bench.cpp
}

int main(int argc, char** argv) {
    keep_freed_memory();
    const std::string cmd = argc > 1 ? argv[1] : "";
    try {
        if (cmd == "book") return cmd_book();
        if (cmd == "eval") return cmd_eval(attn::eval_request);
        if (cmd == "section") return cmd_eval(attn::section_data);
        if (cmd == "kernels") return cmd_kernels();
        if (cmd == "bench") return attn::bench::run(argc - 2, argv + 2);
    } catch (const std::exception& e) {
        // only a bad ATTN_KERNELS reaches here; eval reports its own errors as JSON
        std::fprintf(stderr, "attention-lab: %s\n", e.what());
        return 2;
    }
    std::fputs(kUsage, cmd == "help" || cmd == "--help" ? stdout : stderr);
    return cmd == "help" || cmd == "--help" ? 0 : 2;
}
