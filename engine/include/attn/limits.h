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

namespace attn::limits {

// The `train` op: at most this many steps, and steps × (forward + backward multiply-adds) at most
// kMaxTrainWork, the order of the largest single forward a request may ask for.
constexpr int64_t kMaxTrainSteps = 10000;
constexpr int64_t kMaxTrainWork = int64_t(1) << 33;

}  // namespace attn::limits
