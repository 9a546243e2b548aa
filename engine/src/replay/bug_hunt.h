// The page's bug hunt: one of two short programs in the book's style run on the learner's inputs as
// the book writes it and with one line wrong, both computed by the engine so the page can draw them
// and their difference. web/src/learn/bugs.js holds the programs' lines and which line each bug changes.
#pragma once

#include <cstdint>
#include <string>

#include "chapter/modules.h"
#include "core/tensor.h"

namespace attn {

// The planted mistakes, as the `bug` field names them. The first nine are lines of the causal program
// (§3.5's causal attention weights with a hand-written dropout), the last four of the heads program
// (Listing 3.5's MultiHeadAttention with a split_heads method).
inline constexpr const char* kBugNames[] = {"mask_after_softmax", "mask_with_zero", "divide_by_dk", "softmax_dim0",
                                            "inverted_mask", "weight_without_T", "dropout_inverse_p",
                                            "dropout_unscaled", "dropout_on_scores", "view_without_transpose",
                                            "scale_by_d_out", "merge_without_transpose", "missing_contiguous"};

// The causal program's dropout rate: GPT-2's 0.1 (at the book's 0.5, 1/p and 1/(1-p) are both 2).
inline constexpr double kBugDropout = 0.1;

// The causal program (seeded 789 like §3.4.2's sa_v2, so without its dropout line it computes §3.5's
// attn_weights):
//   torch.manual_seed(seed); W_query, W_key = two nn.Linear(d_in, d_out, bias=False)
//   keep = torch.empty(T, T).bernoulli_(1 - p)
//   queries, keys = inputs @ W_query.weight.T, inputs @ W_key.weight.T; attn_scores = queries @ keys.T
//   masked = attn_scores.masked_fill(triu(ones(T, T), 1).bool(), -inf); softmax(masked / √d_k, dim=-1)
//   attn_weights * keep / (1 - p)
// The heads program (seeded 123 like §3.6.2): MultiHeadAttention(d_in, d_out, T, 0.0, num_heads=2)'s
// output for inputs.unsqueeze(0), as (T, d_out).
// A buggy line PyTorch refuses gives `raised`, PyTorch's error line (e.g. "RuntimeError: mat1 and mat2
// shapes cannot be multiplied (6x3 and 2x3)"), instead of `buggy`. Throws Error with a sentence for an
// unknown bug or sizes the program cannot run (d_out odd for the heads).
struct BugHunt {
    std::string program;  // "causal" or "heads"
    std::string tensor;   // what correct and buggy are: "attn_weights" or "context_vecs"
    Tensor correct, buggy;
    std::string raised;   // set when the buggy line raised; buggy is then empty
    Tensor weights, keep; // causal: the correct weights before dropout (§3.5's attn_weights) and keep
};
BugHunt bug_hunt(const Tensor& inputs, int64_t d_out, uint64_t seed, const std::string& bug);

// The attention weights' line as the book writes it (bug ""): softmax(scores.masked_fill(future, -inf)
// / √d_k, dim=-1), the future being triu(ones(T, T), 1) of the last two dimensions; or with one of the
// causal program's bugs of that line (mask_after_softmax, mask_with_zero, divide_by_dk, softmax_dim0 for
// 2-D scores, inverted_mask). Not causal (Listings 3.1 and 3.2): softmax(scores / √d_k) with divide_by_dk
// or softmax_dim0 only. One home for these mistakes: the bug hunt's causal program, its heads
// program's extra checks and "Check my code" (replay/check.h) all compute them here.
Tensor causal_softmax(const Tensor& scores, int64_t d_k, const std::string& bug = "", bool causal = true);
inline constexpr const char* kWeightLineBugs[] = {"mask_after_softmax", "mask_with_zero", "divide_by_dk", "softmax_dim0", "inverted_mask"};

// Listing 3.5's MultiHeadAttention forward on x (b, T, d_in), as the book writes it (bug "") or with one
// of the heads program's bugs, or one of causal_softmax's (with head_dim as d_k). A bug PyTorch refuses
// (missing_contiguous unless head_dim is 1) sets *raised to PyTorch's error line and returns an empty tensor.
Tensor mha_forward_with_bug(const MultiHeadAttention& m, const Tensor& x, const std::string& bug, std::string* raised);

// PyTorch's error line for `inputs @ W.weight` with W an nn.Linear(d_in, d_out) and inputs of T rows
// (the product needs d_in = d_out).
std::string matmul_shapes_error(int64_t T, int64_t d_in, int64_t d_out);
// PyTorch's error line for .view on the transposed heads (missing_contiguous).
extern const char* const kViewNotContiguousError;

// "causal" or "heads": the program a bug is a line of (throws for an unknown bug); its book seed.
std::string bug_program(const std::string& bug);
inline uint64_t bug_book_seed(const std::string& program) { return program == "heads" ? 123 : 789; }

// torch.softmax(x, dim=0) for a 2-D x, as PyTorch 1.13's CPU kernel for a dimension that is not the
// last one computes it (_vec_softmax): per column max, exp(x - max) (Sleef's exp for the columns in
// whole groups of 8, std::exp for the rest), sequential sum, then a division.
Tensor softmax_dim0(const Tensor& x);

// Whether t.view(shape) works on a tensor of `sizes` and `strides` (ATen's computeStride): a view
// needs every group of dimensions it merges or splits to be contiguous in memory.
bool view_compatible(const Shape& sizes, const Shape& strides, const Shape& shape);

}  // namespace attn
