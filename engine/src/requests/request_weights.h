// A request's "weights" field: a reader's own module weights, named as the chapter's state_dict names
// them, so the name says the layout: W_query, W_key, W_value (SelfAttention_v1's nn.Parameter,
// d_in × d_out) or W_query.weight, W_key.weight, W_value.weight (nn.Linear's weight, d_out × d_in),
// plus W_query.bias, ... (qkv_bias) and out_proj.weight, out_proj.bias (MultiHeadAttention).
#pragma once

#include <cstdint>

#include "chapter/modules.h"
#include "requests/json_in.h"

namespace attn {

// Reads and checks the weights for inputs of d_in numbers a row; a wrong name, a missing or doubled
// one, a mixed layout or a wrong shape gets one sentence naming the layout it expects.
ModuleWeights read_weights(const json::Value& weights, int64_t d_in);

// The names the field takes, in the order a sentence lists them.
extern const char* const kWeightNames[11];

}  // namespace attn
