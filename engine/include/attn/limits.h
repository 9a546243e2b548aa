// The sizes a request may ask for. They are checked before anything is allocated, and are the
// same in the native CLI and in WebAssembly (whose memory is capped, see CMakeLists.txt).
#pragma once

#include <cstdint>

namespace attn::limits {

constexpr int64_t kMaxRequestBytes = 32 << 20;  // 32 MiB of JSON text
constexpr int kMaxJsonDepth = 16;               // x is at most 4-D; deeper nesting is refused early
constexpr int64_t kMaxTokens = 2048;            // T, context_length
constexpr int64_t kMaxDim = 2048;               // d_in, d_out
constexpr int64_t kMaxBatch = 64;
constexpr int64_t kMaxHeads = 256;
// Largest tensor a request may create, inputs and intermediates alike (64 MiB of float32).
constexpr int64_t kMaxElements = int64_t(1) << 24;

}  // namespace attn::limits

// GPT-2 small's attention (the book's GPT_CONFIG_124M): exercise 3.3, the page's long-sequence
// demo and the benchmarks.
namespace attn::gpt2_small {

constexpr int64_t kEmbDim = 768;  // d_in = d_out
constexpr int64_t kNumHeads = 12;
constexpr int64_t kContextLength = 1024;

}  // namespace attn::gpt2_small
