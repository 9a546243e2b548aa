// What a request may ask for. Sizes are checked before anything is allocated, and the work they
// imply before anything is computed; the same in the native CLI and in WebAssembly (whose memory
// is capped, see CMakeLists.txt). The work bounds are chosen so that every request they accept
// answers within 2 s natively on one core with the best kernel back end, in under 1 GiB
// (docs/cli.md, "Limits", has the measured figures), and every refusal takes well under 1 s.
#pragma once

#include <cstdint>

namespace attn::limits {

// JSON text: parsing costs up to ~50 ns and ~40 bytes of memory per byte of text (nested empty
// objects are the worst), so 4 MiB parse in well under 1 s, and the tensors it can hold stay small.
constexpr int64_t kMaxRequestBytes = 4 << 20;
constexpr int kMaxJsonDepth = 16;               // x is at most 4-D; deeper nesting is refused early
constexpr int64_t kMaxTokens = 2048;            // T, context_length
constexpr int64_t kMaxDim = 2048;               // d_in, d_out
constexpr int64_t kMaxBatch = 64;
constexpr int64_t kMaxHeads = 256;
// Largest tensor a request may create, inputs and intermediates alike (64 MiB of float32).
constexpr int64_t kMaxElements = int64_t(1) << 24;
// The chapter replayed on the learner's inputs (book.h, the page's sectionData and bookCellsFor)
// builds every module, dropout masks included: teaching sizes only.
constexpr int64_t kMinReplayTokens = 2;  // a sequence needs one token to attend to another
constexpr int64_t kMaxReplayTokens = 64;
constexpr int64_t kMaxReplayDim = 64;  // d_in, d_out
// Timed runs of one benchmark call (attn/bench.h).
constexpr int64_t kMaxBenchRuns = 1000;

// --- work (engine/src/rules/checks.cpp estimates it from the sizes) ---
// Multiply-adds of all the matrix products of one request.
constexpr int64_t kMaxMultiplyAdds = int64_t(1) << 32;
// Numbers computed by the whole request: random draws, elementwise results and intermediates.
constexpr int64_t kMaxComputedNumbers = int64_t(1) << 25;
// Numbers written into the answer: each becomes text.
constexpr int64_t kMaxResultNumbers = int64_t(1) << 21;

}  // namespace attn::limits

// GPT-2 small's attention (the book's GPT_CONFIG_124M): exercise 3.3, the page's long-sequence
// demo and the benchmarks.
namespace attn::gpt2_small {

constexpr int64_t kEmbDim = 768;  // d_in = d_out
constexpr int64_t kNumHeads = 12;
constexpr int64_t kContextLength = 1024;

}  // namespace attn::gpt2_small

namespace attn::limits {

// The `train` op (and `grad`, one step): at most this many steps, and over all of them at most
// kMaxTrainWork multiply-adds (of the forwards' and backwards' matrix products) and computed numbers
// (elementwise, softmax and optimizer; checks::train_step_work weighs them by cost) together: about
// 1 s natively whatever the sizes (scripts/train_limits.py), so a run answers within 2 s, its answer
// included (docs/cli.md, "Limits"). Its answers, TrainRun's slices added up, hold at most
// kMaxResultNumbers numbers.
constexpr int64_t kMaxTrainSteps = 10000;
constexpr int64_t kMaxTrainWork = int64_t(1) << 29;
// What one printed number of a train answer counts against kMaxTrainWork (with "prints": true): its
// format, its place in the print and its bytes in the answer, measured at 110-210 units (2 ns each).
// A T = 31 run printing 2 million weights took 3-4 s before printing counted (issue 43).
constexpr int64_t kPrintedNumberWork = 256;

}  // namespace attn::limits

// What the page's editor lets a learner type (web/src/model.js's LIMITS): web/build.mjs reads this
// table from the engine (limits(), page/sections.h) into the bundle, so the page keeps no copy. The
// sizes fit a phone's screen; all of them stay within the replay's bounds above.
namespace attn::limits::page {

constexpr double kValue = 1000;                // every input value within ±kValue
constexpr int64_t kWordChars = 20;             // a token's word
constexpr int64_t kSeedMax = 2147483647;       // seeds 0..kSeedMax
constexpr int64_t kTokensMin = kMinReplayTokens, kTokensMax = 16;
constexpr int64_t kDInMax = 16, kDOutMax = 16;
constexpr double kTemperatureMin = 0.01, kTemperatureMax = 100;  // the slider's range
static_assert(kTokensMax <= kMaxReplayTokens && kDInMax <= kMaxReplayDim && kDOutMax <= kMaxReplayDim,
              "the page's sizes are sizes sectionData accepts");

}  // namespace attn::limits::page
