// The page's bug hunt: causal self-attention on the learner's inputs run as the book writes it and
// with one planted mistake that learners make, both computed by the engine so the page can draw them
// and their difference. Each bug names the one line it changes (web/src/learn/bugs.js shows the code).
#pragma once

#include <cstdint>
#include <string>

#include "core/tensor.h"

namespace attn {

// The planted mistakes, as the `bug` field names them.
inline constexpr const char* kBugNames[] = {"mask_after_softmax", "mask_with_zero", "divide_by_dk",
                                            "softmax_dim0", "dropout_inverse_p", "view_without_transpose"};

// The dropout rate of the dropout bug: GPT-2's 0.1 (at the book's 0.5, 1/p and 1/(1-p) are both 2).
inline constexpr double kBugDropout = 0.1;

// What the bug changes, right and wrong: for the weight bugs the causal attention weights (T, T) of
// SelfAttention_v1's projections (torch.manual_seed(seed), three torch.rand(d_in, d_out)); for the
// dropout bug those weights after a hand-written dropout(0.1) whose keep-mask comes next from the
// same generator; for the view bug MultiHeadAttention(d_in, d_out, T, 0.0, num_heads=2)'s output
// for inputs.unsqueeze(0), as (T, d_out). Throws Error with a sentence for an unknown bug or sizes
// it cannot run (d_out odd for the view bug).
struct BugHunt {
    std::string tensor;  // what correct and buggy are, e.g. "attn_weights"
    Tensor correct, buggy;
};
BugHunt bug_hunt(const Tensor& inputs, int64_t d_out, uint64_t seed, const std::string& bug);

// torch.softmax(x, dim=0) for a 2-D x, as PyTorch 1.13's CPU kernel for a dimension that is not the
// last one computes it (_vec_softmax): per column max, exp(x - max) (Sleef's exp for the columns in
// whole groups of 8, std::exp for the rest), sequential sum, then a division.
Tensor softmax_dim0(const Tensor& x);

}  // namespace attn
