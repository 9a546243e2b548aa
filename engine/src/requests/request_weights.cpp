// The "weights" field (request_weights.h): every sentence about a reader's weights is here.
#include "requests/request_weights.h"

#include <string>

#include "core/limits.h"
#include "rules/checks.h"
#include "requests/request_fields.h"

namespace attn {

const char* const kWeightNames[11] = {"W_query", "W_key", "W_value", "W_query.weight", "W_key.weight", "W_value.weight",
                                      "W_query.bias", "W_key.bias", "W_value.bias", "out_proj.weight", "out_proj.bias"};

namespace {

std::string dims(const Shape& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); i++) out += (i ? " × " : "") + std::to_string(s[i]);
    return s.empty() ? "a number" : out;
}

// One of W_query/W_key/W_value in the layout its name says, as nn.Linear's (d_out, d_in). d_out is
// the first projection's (0 until then). The sentence for a shape that is the other layout names it.
Tensor projection(Request& f, const std::string& stem, bool v1, int64_t d_in, int64_t& d_out) {
    const std::string name = v1 ? stem : stem + ".weight";
    const Shape s = f.tensor_shape(name.c_str(), 0);
    const int64_t din_at = v1 ? 0 : 1, dout_at = v1 ? 1 : 0;
    const std::string layout = v1 ? cat({name, " is SelfAttention_v1's nn.Parameter, d_in × d_out"})
                                  : cat({name, " is nn.Linear's weight, d_out × d_in"});
    const std::string other = v1 ? cat({"that is nn.Linear's layout, name it ", stem, ".weight"})
                                 : cat({"that is nn.Parameter's layout, name it ", stem});
    // d_out as the first projection gives it: read in the other layout's order when only that fits
    const int64_t want_out = d_out ? d_out : s.size() != 2 ? 0 : s[din_at] != d_in && s[dout_at] == d_in ? s[din_at] : s[dout_at];
    const std::string want = want_out ? cat({" = ", v1 ? d_in : want_out, " × ", v1 ? want_out : d_in}) : "";
    const bool fits = s.size() == 2 && s[din_at] == d_in && (d_out == 0 || s[dout_at] == d_out);
    if (!fits) {
        const bool swapped = s.size() == 2 && s[dout_at] == d_in && (d_out == 0 || s[din_at] == d_out);
        if (swapped && s[0] != s[1]) fail({layout, want, "; you gave ", dims(s), " — ", other});
        fail({layout, want, " (d_in = ", d_in, ", the numbers in a row of the inputs", d_out ? cat({", d_out = ", d_out, " from W_query"}) : "",
              "); you gave ", dims(s)});
    }
    if (s[dout_at] > limits::kMaxReplayDim) fail({name, " has d_out = ", s[dout_at], "; at most ", limits::kMaxReplayDim});
    d_out = s[dout_at];
    Tensor t = f.tensor(name.c_str(), s, true);
    return v1 ? transpose_2d(t) : t;
}

Tensor vector_of(Request& f, const char* name, int64_t d_out, const char* what) {
    const Shape s = f.tensor_shape(name, 0);
    if (s.size() != 1 || s[0] != d_out) fail({name, " is ", what, ", ", d_out, " numbers (d_out); you gave ", dims(s)});
    return f.tensor(name, s, true);
}

}  // namespace

ModuleWeights read_weights(const json::Value& weights, int64_t d_in) {
    Request f(weights, "{\"W_query.weight\": [[...]], \"W_key.weight\": [[...]], \"W_value.weight\": [[...]]}");
    f.reject_unknown_fields_of("\"weights\" (the names of the chapter's state_dict)",
                               std::vector<const char*>(std::begin(kWeightNames), std::end(kWeightNames)));
    ModuleWeights w;
    const bool v1 = f.has("W_query") || f.has("W_key") || f.has("W_value");
    const bool linear = f.has("W_query.weight") || f.has("W_key.weight") || f.has("W_value.weight");
    if (v1 && linear) {
        throw Error("\"weights\" mixes SelfAttention_v1's W_query (d_in × d_out) and nn.Linear's W_query.weight (d_out × d_in); "
                    "give one module's state_dict, all three in one layout");
    }
    const char* stems[3] = {"W_query", "W_key", "W_value"};
    for (const char* stem : stems) {
        const std::string name = v1 ? stem : cat({stem, ".weight"});
        if (!f.has(name.c_str())) {
            fail({"\"weights\" needs ", v1 ? "W_query, W_key and W_value" : "W_query.weight, W_key.weight and W_value.weight",
                  "; ", name, " is missing"});
        }
    }
    w.v1_layout = v1;
    int64_t d_out = 0;
    w.W_query = projection(f, "W_query", v1, d_in, d_out);
    w.W_key = projection(f, "W_key", v1, d_in, d_out);
    w.W_value = projection(f, "W_value", v1, d_in, d_out);
    const int biases = f.has("W_query.bias") + f.has("W_key.bias") + f.has("W_value.bias");
    if (biases && v1) throw Error("SelfAttention_v1's W_query has no bias: W_query.bias goes with nn.Linear's W_query.weight (d_out × d_in)");
    if (biases && biases != 3) throw Error("\"weights\" needs all three of W_query.bias, W_key.bias and W_value.bias (qkv_bias=True), or none");
    if (biases) {
        w.b_query = vector_of(f, "W_query.bias", d_out, "nn.Linear's bias");
        w.b_key = vector_of(f, "W_key.bias", d_out, "nn.Linear's bias");
        w.b_value = vector_of(f, "W_value.bias", d_out, "nn.Linear's bias");
    }
    if (f.has("out_proj.weight") != f.has("out_proj.bias")) {
        throw Error("\"weights\" needs both out_proj.weight and out_proj.bias (MultiHeadAttention's out_proj has a bias), or neither");
    }
    if (f.has("out_proj.weight")) {
        const Shape s = f.tensor_shape("out_proj.weight", 0);
        if (s.size() != 2 || s[0] != d_out || s[1] != d_out) {
            fail({"out_proj.weight is nn.Linear(d_out, d_out)'s weight, d_out × d_out = ", d_out, " × ", d_out, "; you gave ", dims(s)});
        }
        w.out_weight = f.tensor("out_proj.weight", s, true);
        w.out_bias = vector_of(f, "out_proj.bias", d_out, "out_proj's bias");
    }
    return w;
}

}  // namespace attn
