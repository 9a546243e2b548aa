// The step-by-step run (page/lab.h's AttentionRun): one attention forward of the chapter with every
// intermediate kept under the book's names, and the temperature slider's re-weighting. Arguments
// arrive as JS numbers and are checked by checks.h's rules before anything is allocated.
#include <cmath>

#include "page/lab.h"
#include "core/limits.h"
#include "chapter/modules.h"
#include "core/format.h"
#include "rules/checks.h"

namespace attn::lab {

namespace {

namespace lim = attn::limits;

// Drops the leading batch dimension of 1 that CausalAttention works with.
Tensor unbatched(const Tensor& t) { return view(t, Shape(t.shape.begin() + 1, t.shape.end())); }

}  // namespace

void AttentionRun::put(const char* name, const Tensor& t) { tensors_.emplace_back(name, t); }

std::string AttentionRun::compute(const std::string& variant, size_t count, const FillFn& fill, double tokens_arg,
                                  double d_in_arg, double seed_arg, double d_out_arg) {
    tensors_.clear();
    std::string err = checks::sentence_of([&] {
        if (variant != "simplified" && variant != "self_attention_v1" && variant != "self_attention_v2" &&
            variant != "causal") {
            fail({"unknown variant \"", checks::excerpt(variant),
                        "\"; use simplified, self_attention_v1, self_attention_v2 or causal"});
        }
        const int64_t T = checks::whole(tokens_arg, 1, lim::kMaxTokens, "tokens");
        const int64_t d_in = checks::whole(d_in_arg, 1, lim::kMaxDim, "d_in");
        Tensor inputs = input_tensor({T, d_in}, count, fill, "inputs");
        AttentionTrace tr;
        Generator gen;
        if (variant == "simplified") {  // no weights: seed and d_out play no part
            SimplifiedAttention().forward(inputs, &tr);
            put("inputs", inputs);
            put("attn_scores", tr.attn_scores);
            put("attn_weights", tr.attn_weights);
            put("context_vec", tr.context_vec);
        } else {
            const int64_t d_out = checks::whole(d_out_arg, 1, lim::kMaxDim, "d_out");
            checks::attention_sizes({1, T, d_in, d_out, 1, T, 0.0}, variant == "causal"
                                                                        ? checks::Module::causal_attention
                                                                        : checks::Module::self_attention);
            gen.manual_seed(checks::seed(seed_arg));
            put("inputs", inputs);
            if (variant == "self_attention_v1") {
                SelfAttentionV1 sa(d_in, d_out, gen);
                sa.forward(inputs, &tr);
                put("W_query", sa.W_query);
                put("W_key", sa.W_key);
                put("W_value", sa.W_value);
            } else if (variant == "self_attention_v2") {
                SelfAttentionV2 sa(d_in, d_out, false, gen);
                sa.forward(inputs, &tr);
                put("W_query", sa.W_query.weight);
                put("W_key", sa.W_key.weight);
                put("W_value", sa.W_value.weight);
            } else {  // CausalAttention on a batch of one, without dropout; shown without the batch dimension
                CausalAttention ca(d_in, d_out, T, 0.0, false, gen);
                ca.forward(view(inputs, {1, T, d_in}), gen, &tr);
                for (Tensor* t : {&tr.queries, &tr.keys, &tr.values, &tr.attn_scores, &tr.scaled_scores,
                                  &tr.attn_weights, &tr.context_vec}) {
                    *t = unbatched(*t);
                }
                put("W_query", ca.W_query.weight);
                put("W_key", ca.W_key.weight);
                put("W_value", ca.W_value.weight);
            }
            put("queries", tr.queries);
            put("keys", tr.keys);
            put("values", tr.values);
            put("attn_scores", tr.attn_scores);
            put("scaled_scores", tr.scaled_scores);
            put("attn_weights", tr.attn_weights);
            put("context_vec", tr.context_vec);
        }
        update_temperature_weights();
    });
    if (!err.empty()) tensors_.clear();
    return err;
}

void AttentionRun::update_temperature_weights() {
    const Tensor* scores = find("attn_scores");
    if (!scores) return;
    Tensor weights = temperature_softmax(*scores, temperature_);
    for (auto& [name, t] : tensors_) {
        if (name == "temperature_weights") {
            t = std::move(weights);
            return;
        }
    }
    put("temperature_weights", weights);
}

std::string AttentionRun::set_temperature(double temperature) {
    return checks::sentence_of([&] {
        checks::temperature(temperature);
        temperature_ = temperature;
        update_temperature_weights();
    });
}

std::vector<std::string> AttentionRun::names() const {
    std::vector<std::string> out;
    for (const auto& entry : tensors_) out.push_back(entry.first);
    return out;
}

const Tensor* AttentionRun::find(const std::string& name) const {
    for (const auto& entry : tensors_) {
        if (entry.first == name) return &entry.second;
    }
    return nullptr;
}

std::string AttentionRun::no_tensor(const std::string& name) const {
    std::string known;
    for (const auto& entry : tensors_) known += (known.empty() ? "" : ", ") + entry.first;
    return cat({"this run has no tensor \"", checks::excerpt(name), "\"", (known.empty() ? "; call compute first" : "; it has " + known)});
}

TextResult AttentionRun::print(const std::string& name) const {
    const Tensor* t = find(name);
    if (!t) return {no_tensor(name), ""};
    TextResult r;
    r.error = checks::sentence_of([&] { r.text = format_tensor(*t, false); });
    return r;
}

}  // namespace attn::lab
