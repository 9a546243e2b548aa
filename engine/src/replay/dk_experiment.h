// Why the scores are divided by √d_k (§3.4.1): random queries and keys of unit variance give dot
// products whose spread grows like √d_k, and softmax of unscaled scores saturates (one weight near 1).
// The engine draws them exactly as PyTorch does; no I/O, and nothing throws: errors come back as sentences.
#pragma once

#include <string>

#include "core/tensor.h"

namespace attn::lab {

// One run of the experiment, every number bit for bit as PyTorch computes it (n = kDkRows = 8):
//
//   torch.manual_seed(seed)
//   queries = (torch.rand(8, d_k) * 2 - 1) * 3**0.5   # uniform on [-√3, √3): mean 0, variance 1
//   keys    = (torch.rand(8, d_k) * 2 - 1) * 3**0.5   # drawn after the queries, from the same generator
//   attn_scores = queries @ keys.T                    # (8, 8): each q·k has mean 0 and variance d_k
//   spread = attn_scores.std()                        # unbiased, over all 64 scores
//   weights_unscaled = torch.softmax(attn_scores[0], dim=-1)
//   weights_scaled   = torch.softmax(attn_scores[0] / d_k**0.5, dim=-1)
struct DkExperiment {
    std::string error;        // "" on success, else a sentence (and the tensors are empty)
    Tensor queries, keys;     // (8, d_k)
    Tensor attn_scores;       // (8, 8)
    float spread = 0;         // attn_scores.std()
    Tensor weights_unscaled;  // (8): softmax of query 1's scores; its max shows saturation
    Tensor weights_scaled;    // (n): the same scores divided by √d_k first
    float max_unscaled = 0;   // weights_unscaled.max()
    float max_scaled = 0;     // weights_scaled.max()
};

constexpr int kDkMin = 2, kDkMax = 1024;  // the page's d_k control
// Queries and keys drawn: 64 scores. Fixed, because PyTorch's BLAS rounds q @ k.T differently for
// other shapes, and this one is reproduced exactly (see dk_experiment.cpp).
constexpr int kDkRows = 8;

// d_k arrives as a JS number (a double) and must be whole, from 2 to 1024; the seed is
// torch.manual_seed's (negative seeds wrap as two's complement).
DkExperiment dk_experiment(double d_k, double seed);

}  // namespace attn::lab
