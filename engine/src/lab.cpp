// The page's helpers (see attn/lab.h): argument checks against attn/limits.h, the step-by-step run,
// the long-sequence forward and timings. Every entry point catches what the engine throws and
// returns it as a sentence, so nothing crosses into the bindings as an exception.
#include "attn/lab.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <new>

#include "attn/book.h"
#include "attn/format.h"
#include "attn/kernels.h"
#include "attn/limits.h"
#include "attn/modules.h"
#include "attn/request.h"

namespace attn::lab {

namespace {

namespace lim = attn::limits;

// JS numbers hold whole numbers exactly up to 2^53.
constexpr double kMaxSafeInteger = 9007199254740992.0;

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// A JS number that must be a whole number in [lo, hi].
int64_t whole(double v, double lo, double hi, const std::string& name) {
    if (!(std::floor(v) == v && v >= lo && v <= hi)) {
        throw Error(name + " must be a whole number from " + number_text(lo) + " to " + number_text(hi) + ", got " +
                    number_text(v));
    }
    return static_cast<int64_t>(v);
}

// torch.manual_seed's argument; negative seeds wrap as two's complement, as in `eval`.
uint64_t seed_of(double v) { return static_cast<uint64_t>(whole(v, -kMaxSafeInteger, kMaxSafeInteger, "seed")); }

void check_elements(int64_t n, const std::string& what) {
    if (n > lim::kMaxElements) {
        throw Error(what + " would need " + std::to_string(n) + " numbers, more than the limit of " +
                    std::to_string(lim::kMaxElements) + "; use fewer tokens, heads or a smaller batch");
    }
}

// The input tensor, after its length has been checked against the shape it is meant to have.
Tensor input_tensor(const Shape& shape, size_t count, const FillFn& fill, const std::string& name) {
    const int64_t want = numel_of(shape);
    check_elements(want, name);
    if (static_cast<int64_t>(count) != want) {
        std::string dims;
        for (size_t i = 0; i < shape.size(); i++) dims += (i ? " × " : "") + std::to_string(shape[i]);
        throw Error(name + " has " + std::to_string(count) + " numbers but its shape (" + dims + ") needs " +
                    std::to_string(want));
    }
    Tensor t = Tensor::zeros(shape);
    if (want) fill(t.ptr());
    return t;
}

// Runs f, turning whatever the engine throws into a sentence.
template <typename F>
std::string guarded(F&& f) {
    try {
        f();
        return "";
    } catch (const Error& e) {
        return e.what();
    } catch (const std::bad_alloc&) {
        return "this needs more memory than is available; use smaller sizes";
    } catch (const std::exception& e) {
        return std::string("the engine failed: ") + e.what();
    }
}

// Drops the leading batch dimension of 1 that CausalAttention works with.
Tensor unbatched(const Tensor& t) { return view(t, Shape(t.shape.begin() + 1, t.shape.end())); }

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The median time of `runs` calls of f, after one warm-up call.
template <typename F>
double median_ms_after_warmup(int64_t runs, F&& f) {
    f();
    std::vector<double> times;
    for (int64_t i = 0; i < runs; i++) {
        const double start = now_ms();
        f();
        times.push_back(now_ms() - start);
    }
    std::sort(times.begin(), times.end());
    const size_t n = times.size();
    return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

Tensor random_tensor(const Shape& shape, Generator& gen) {
    Tensor t = Tensor::zeros(shape);
    for (float& v : t.data) v = gen.uniform_float(0.0f, 1.0f);
    return t;
}

}  // namespace

// --- the step-by-step run ---

void AttentionRun::put(const std::string& name, Tensor t) { tensors_.emplace_back(name, std::move(t)); }

std::string AttentionRun::compute(const std::string& variant, size_t count, const FillFn& fill, double tokens,
                                  double d_in, double seed, double d_out) {
    tensors_.clear();
    std::string err = guarded([&] {
        if (variant != "simplified" && variant != "self_attention_v1" && variant != "self_attention_v2" &&
            variant != "causal") {
            throw Error("unknown variant \"" + variant +
                        "\"; use simplified, self_attention_v1, self_attention_v2 or causal");
        }
        const int64_t T = whole(tokens, 1, lim::kMaxTokens, "tokens");
        const int64_t n_in = whole(d_in, 1, lim::kMaxDim, "d_in");
        Tensor inputs = input_tensor({T, n_in}, count, fill, "inputs");
        AttentionTrace tr;
        Generator gen;
        if (variant == "simplified") {  // no weights: seed and d_out play no part
            SimplifiedAttention().forward(inputs, &tr);
            put("inputs", inputs);
            put("attn_scores", tr.attn_scores);
            put("attn_weights", tr.attn_weights);
            put("context_vec", tr.context_vec);
        } else {
            const int64_t n_out = whole(d_out, 1, lim::kMaxDim, "d_out");
            check_elements(n_in * n_out, "the weights");
            gen.manual_seed(seed_of(seed));
            put("inputs", inputs);
            if (variant == "self_attention_v1") {
                SelfAttentionV1 sa(n_in, n_out, gen);
                sa.forward(inputs, &tr);
                put("W_query", sa.W_query);
                put("W_key", sa.W_key);
                put("W_value", sa.W_value);
            } else if (variant == "self_attention_v2") {
                SelfAttentionV2 sa(n_in, n_out, false, gen);
                sa.forward(inputs, &tr);
                put("W_query", sa.W_query.weight);
                put("W_key", sa.W_key.weight);
                put("W_value", sa.W_value.weight);
            } else {  // CausalAttention on a batch of one, without dropout; shown without the batch dimension
                CausalAttention ca(n_in, n_out, T, 0.0, false, gen);
                ca.forward(view(inputs, {1, T, n_in}), gen, &tr);
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
    put("temperature_weights", std::move(weights));
}

std::string AttentionRun::set_temperature(double temperature) {
    if (!(temperature > 0.0) || !std::isfinite(temperature)) {
        return "the temperature must be a finite number greater than 0, got " + number_text(temperature);
    }
    temperature_ = temperature;
    return guarded([&] { update_temperature_weights(); });
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

std::string AttentionRun::print(const std::string& name) const {
    const Tensor* t = find(name);
    if (!t) {
        std::string known;
        for (const auto& entry : tensors_) known += (known.empty() ? "" : ", ") + entry.first;
        return "this run has no tensor \"" + name + "\"" +
               (known.empty() ? "; call compute first" : "; it has " + known);
    }
    std::string text;
    std::string err = guarded([&] { text = format_tensor(*t, false); });
    return err.empty() ? text : err;
}

// --- long sequences ---

MhaResult mha_forward(size_t count, const FillFn& fill, double batch, double tokens, double d_in, double d_out,
                      double num_heads, double context_length, double dropout, double seed) {
    MhaResult r;
    r.error = guarded([&] {
        // the same checks as `eval`'s "mha" op, in the same order
        const int64_t B = whole(batch, 1, lim::kMaxBatch, "batch");
        const int64_t T = whole(tokens, 1, lim::kMaxTokens, "tokens");
        const int64_t n_in = whole(d_in, 1, lim::kMaxDim, "d_in");
        const int64_t n_out = whole(d_out, 1, lim::kMaxDim, "d_out");
        const int64_t H = whole(num_heads, 1, lim::kMaxHeads, "num_heads");
        const int64_t C = whole(context_length, 1, lim::kMaxTokens, "context_length");
        if (!(dropout >= 0.0 && dropout < 1.0)) throw Error("dropout must be at least 0 and less than 1");
        const uint64_t s = seed_of(seed);
        if (T > C) {
            throw Error("x has " + std::to_string(T) + " tokens but context_length is " + std::to_string(C) +
                        ": raise context_length or use fewer tokens");
        }
        if (n_out % H != 0) {
            throw Error("d_out (" + std::to_string(n_out) + ") must be divisible by num_heads (" + std::to_string(H) + ")");
        }
        check_elements(B * T * n_out, "the projections");
        check_elements(n_in * n_out, "the weights");
        if (!(dropout == 0.0 && T >= kFusedMinTokens)) check_elements(B * H * T * T, "the attention weights");
        Tensor x = input_tensor({B, T, n_in}, count, fill, "x");
        Generator gen(s);
        const MultiHeadAttention mha(n_in, n_out, C, dropout, H, false, gen);
        const double start = now_ms();
        r.out = mha.forward(x, gen);
        r.ms = now_ms() - start;
    });
    return r;
}

BenchResult bench_sgemm_with(double n, double runs, const SgemmFn& sgemm) {
    BenchResult r;
    r.error = guarded([&] {
        const int64_t N = whole(n, 1, lim::kMaxDim, "n");
        const int64_t R = whole(runs, 1, 1000, "runs");
        Generator gen(123);
        const Tensor a = random_tensor({N, N}, gen), b = random_tensor({N, N}, gen);
        Tensor c = Tensor::zeros({N, N});
        r.ms = median_ms_after_warmup(R, [&] { sgemm(c.ptr(), a.ptr(), b.ptr(), static_cast<int>(N)); });
    });
    return r;
}

BenchResult bench_sgemm(double n, double runs) {
    return bench_sgemm_with(n, runs, [](float* c, const float* a, const float* b, int ni) {
        kernels::active().matmul(c, ni, a, ni, b, ni, ni, ni, ni, false);
    });
}

BenchResult bench_mha(double tokens, double runs) {
    BenchResult r;
    r.error = guarded([&] {
        const int64_t T = whole(tokens, 1, lim::kMaxTokens, "tokens");
        const int64_t R = whole(runs, 1, 1000, "runs");
        Generator gen(123);
        const MultiHeadAttention mha(768, 768, std::max<int64_t>(1024, T), 0.0, 12, false, gen);
        const Tensor x = random_tensor({1, T, 768}, gen);
        r.ms = median_ms_after_warmup(R, [&] { mha.forward(x, gen); });
    });
    return r;
}

// --- the chapter and any tensor's print ---

namespace {

std::string cells_json(const std::vector<BookCell>& cells) {
    std::string out = "[";
    for (const BookCell& cell : cells) {
        if (out.size() > 1) out += ",";
        out += "{\"id\":" + json_quote(cell.id) + ",\"label\":" + (cell.label ? json_quote(*cell.label) : "null") +
               ",\"print\":" + json_quote(cell.print) + ",\"shape\":[";
        for (size_t i = 0; i < cell.shape.size(); i++) out += (i ? "," : "") + std::to_string(cell.shape[i]);
        out += "],\"values\":[";
        // every cell's values are float32s (sizes and counts included, all below 2^24)
        for (size_t i = 0; i < cell.values.size(); i++) out += (i ? "," : "") + float_text(static_cast<float>(cell.values[i]));
        out += "]}";
    }
    return out + "]";
}

}  // namespace

std::string book_cells_json() { return cells_json(chapter3_cells()); }

TextResult book_cells_for(size_t count, const FillFn& fill, double tokens, double d_in, double d_out) {
    TextResult r;
    r.error = guarded([&] {
        // teaching sizes: the replay builds every module of the chapter, dropout masks included
        const int64_t T = whole(tokens, 2, 64, "tokens");
        const int64_t n_in = whole(d_in, 1, 64, "d_in");
        const int64_t n_out = whole(d_out, 1, 64, "d_out");
        r.text = cells_json(chapter3_cells(input_tensor({T, n_in}, count, fill, "inputs"), n_out));
    });
    return r;
}

TextResult format_values(size_t count, const FillFn& fill, const std::vector<double>& shape) {
    TextResult r;
    r.error = guarded([&] {
        if (shape.size() > 4) throw Error("the shape has " + std::to_string(shape.size()) + " sizes; give at most 4");
        Shape s;
        for (size_t i = 0; i < shape.size(); i++) {
            s.push_back(whole(shape[i], 0, lim::kMaxElements, "shape[" + std::to_string(i) + "]"));
        }
        int64_t n = 1;
        for (int64_t d : s) n = std::min<int64_t>(n * d, lim::kMaxElements + 1);
        check_elements(n, "the tensor");
        r.text = format_tensor(input_tensor(s, count, fill, "values"), false);
    });
    return r;
}

}  // namespace attn::lab
