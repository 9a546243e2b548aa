// The page's "Train it" task, defined once: the tokens in four orders with their positions as one-hots,
// the previous token as target, the record stride, the optimizers' presets, the loss lines the program
// prints and the program itself. The page, the reference generator and the tests read it through the
// engine: the `train` op's "task" field, the `train_task` op (docs/cli.md) and TrainRun::printed().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace attn::train_task {

inline constexpr const char* kName = "previous_token";  // the value of a request's "task" field
inline constexpr int64_t kSteps = 300;        // optimizer updates a run shows; the engine runs one more forward
inline constexpr int64_t kPrintEvery = 50;    // the program prints the loss every 50 steps
inline constexpr uint64_t kSeed = 123;        // the book's seed for CausalAttention (§3.5.3)
inline constexpr int64_t kAnswerBudget = 150000;  // recorded numbers in one run; larger inputs record every r-th step
inline constexpr int64_t kMinTokens = 2;      // a previous token to learn

// An optimizer as the page offers it: its default learning rate, and SGD's momentum.
struct OptimizerPreset {
    const char* name;   // the request's "optimizer"
    const char* label;  // what the page's menu says
    double lr;
    double momentum;    // 0: none (Adam takes none)
};
inline constexpr OptimizerPreset kOptimizers[] = {
    {"adam", "Adam", 0.02, 0.0},
    {"sgd", "SGD with momentum 0.9", 0.5, 0.9},
};
// The preset named, or nullptr.
const OptimizerPreset* optimizer_preset(const std::string& name);

// The four orders of T tokens: as written, reversed, even positions then odd, and odd then even
// reversed. In no two of them does one token always follow the same token, so content alone cannot
// tell the previous one: only attention to the previous position can.
std::vector<std::vector<int64_t>> orders(int64_t T);

// The batch from the learner's T × d inputs (rows rearranged, 0s and 1s: no arithmetic): x is
// 4 × T × (d + T), each token's row with its position's one-hot; target 4 × T × d, the previous
// token's row (token 1, with none before it: its own).
struct Batch {
    Tensor x, target;
};
Batch batch(const Tensor& inputs);

// Records every r-th step, r dividing kSteps, so a run's answer stays under kAnswerBudget numbers.
int64_t record_every(int64_t T, int64_t d);

// The rows of a drawn weight: x1… the token's values, p1… its position's one-hot.
std::vector<std::string> input_labels(int64_t T, int64_t d);

// A Linear's weight (d_out × d_in) as the page draws it: transposed, d_in × d_out, as §3.4.1 draws W_q.
Tensor drawn(const Tensor& weight);

// What the program prints for a run's losses so far (one a step) and the attention weights of its
// forward after the last update (4 × T × T; unused before the run reached it): the loss every
// kPrintEvery steps and after the last, then the first order's weights. A loss that is not finite
// at step b stops the run at its last record at or before b (record_every): the lines before it and
// a sentence saying so.
std::string printed(const std::vector<float>& losses, int64_t record_every, const Tensor& final_weights);

// The PyTorch 1.13 program that computes what the page shows for these inputs (T × d, one word a row).
std::string program(const Tensor& inputs, const std::vector<std::string>& words, uint64_t seed,
                    const std::string& optimizer, double lr);

}  // namespace attn::train_task
