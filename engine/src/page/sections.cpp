// section_data (page/sections.h): the chapter's parts (replay/book.h) on the learner's inputs, plus
// the intermediates each section draws: every query, key and value, the score matrices, the softmax's
// exps for row 2, the weights under a temperature and z(2) under it, the batched-vs-one-token check.
#include "page/sections.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <array>

#include "replay/book.h"
#include "replay/bug_hunt.h"
#include "replay/dk_experiment.h"
#include "core/generator.h"
#include "core/limits.h"
#include "chapter/modules.h"
#include "rules/checks.h"
#include "requests/json_out.h"

namespace attn {

namespace {

using nlohmann::json;

// Teaching sizes, as bookCellsFor: every module of the chapter is built, dropout masks included.
constexpr int64_t kMaxTokens = 64, kMaxDim = 64;

struct SectionRequest {
    std::string section;
    Tensor inputs;
    int64_t d_out = 2;
    Seeds seeds;
    std::optional<double> temperature;
    int64_t d_k = 64;
    std::string corrupt = "none";
    int64_t corrupt_row = 1;
    std::string bug = kBugNames[0];
    std::optional<std::array<std::string, 3>> ex3_1;  // the learner's sa_v1.W_query, W_key, W_value
};

// Exercise 3.1's choices: which of sa_v2's weights, as stored or transposed.
const std::set<std::string> kEx31Choices = {"W_query.weight", "W_query.weight.T", "W_key.weight", "W_key.weight.T",
                                            "W_value.weight", "W_value.weight.T"};

int64_t whole_field(const json& j, const char* name, int64_t lo, int64_t hi) {
    const json& v = j.at(name);
    const std::string range = " from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!v.is_number()) throw Error(std::string("\"") + name + "\" must be a whole number" + range);
    const double d = v.get<double>();
    if (!(std::floor(d) == d && d >= static_cast<double>(lo) && d <= static_cast<double>(hi))) {
        throw Error(std::string("\"") + name + "\" must be a whole number" + range + ", got " + v.dump());
    }
    return static_cast<int64_t>(d);
}

SectionRequest parse(const std::string& text) {
    if (text.size() > static_cast<size_t>(limits::kMaxRequestBytes)) {
        throw Error("the request is larger than " + std::to_string(limits::kMaxRequestBytes) + " bytes");
    }
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        throw Error("the request must be a JSON object like {\"section\": \"step-by-step\", \"inputs\": [[...]], \"d_out\": 2}");
    }
    static const std::set<std::string> known = {"section", "inputs", "d_out", "seed", "temperature", "corrupt",
                                                "corrupt_row", "d_k", "bug", "ex3_1"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!known.count(it.key())) {
            throw Error("unknown field " + json_quote(it.key()) +
                        "; the fields are section, inputs, d_out, seed, temperature, corrupt, corrupt_row, d_k, bug, ex3_1");
        }
    }
    SectionRequest r;
    std::string ids;
    for (const char* id : kSectionIds) ids += std::string(ids.empty() ? "" : ", ") + id;
    if (!j.contains("section") || !j["section"].is_string()) throw Error("\"section\" must be one of: " + ids);
    r.section = j["section"].get<std::string>();
    bool found = false;
    for (const char* id : kSectionIds) found = found || r.section == id;
    if (!found) throw Error("unknown section " + json_quote(r.section) + "; use one of: " + ids);

    if (!j.contains("inputs")) {
        r.inputs = book_inputs();
    } else if (!j["inputs"].is_array() || j["inputs"].empty() || !j["inputs"][0].is_array()) {
        throw Error("\"inputs\" must be rows of numbers, one row per token, e.g. [[0.43, 0.15, 0.89], ...]");
    } else {
        const json& rows = j["inputs"];
        const size_t tokens = rows.size(), d_in = rows[0].size();
        if (tokens < 2 || tokens > kMaxTokens || d_in < 1 || d_in > kMaxDim) {
            throw Error("\"inputs\" must have 2 to " + std::to_string(kMaxTokens) + " rows of 1 to " +
                        std::to_string(kMaxDim) + " numbers each");
        }
        r.inputs = Tensor::zeros({static_cast<int64_t>(tokens), static_cast<int64_t>(d_in)});
        for (size_t i = 0; i < tokens; i++) {
            if (!rows[i].is_array() || rows[i].size() != d_in) {
                throw Error("row " + std::to_string(i + 1) + " of \"inputs\" must have " + std::to_string(d_in) +
                            " numbers, as the first row has");
            }
            for (size_t k = 0; k < d_in; k++) {
                const json& v = rows[i][k];
                if (!v.is_number() || !std::isfinite(v.get<double>())) {
                    throw Error("inputs[" + std::to_string(i) + "][" + std::to_string(k) + "] must be a finite number");
                }
                r.inputs.data[i * d_in + k] = static_cast<float>(v.get<double>());
            }
        }
    }
    if (!j.contains("d_out")) throw Error("missing field \"d_out\": give a whole number from 1 to 64");
    r.d_out = whole_field(j, "d_out", 1, kMaxDim);
    if (j.contains("seed") && !j["seed"].is_null()) {
        // torch.manual_seed takes any 64-bit integer; JSON numbers are exact to 2^53
        r.seeds.learner = static_cast<uint64_t>(whole_field(j, "seed", -(int64_t(1) << 53), int64_t(1) << 53));
    }
    if (j.contains("temperature")) {
        const json& t = j["temperature"];
        if (!t.is_number() || !(t.get<double>() > 0) || !std::isfinite(t.get<double>())) {
            throw Error("\"temperature\" must be a finite number greater than 0");
        }
        r.temperature = t.get<double>();
    }
    if (j.contains("d_k")) r.d_k = whole_field(j, "d_k", lab::kDkMin, lab::kDkMax);
    if (j.contains("corrupt")) {
        const json& c = j["corrupt"];
        if (!c.is_string() || (c != "none" && c != "row" && c != "inputs")) {
            throw Error("\"corrupt\" must be \"none\", \"row\" or \"inputs\"");
        }
        r.corrupt = c.get<std::string>();
    }
    if (j.contains("bug")) {
        if (!j["bug"].is_string()) throw Error("\"bug\" must be the name of a planted bug, e.g. \"divide_by_dk\"");
        r.bug = j["bug"].get<std::string>();
    }
    if (j.contains("ex3_1")) {
        const json& e = j["ex3_1"];
        const std::string rule = "\"ex3_1\" must be {\"W_query\": ..., \"W_key\": ..., \"W_value\": ...}, each one of W_query.weight, W_query.weight.T, W_key.weight, W_key.weight.T, W_value.weight, W_value.weight.T";
        if (!e.is_object() || e.size() != 3) throw Error(rule);
        std::array<std::string, 3> chosen;
        int k = 0;
        for (const char* name : {"W_query", "W_key", "W_value"}) {
            if (!e.contains(name) || !e[name].is_string() || !kEx31Choices.count(e[name].get<std::string>())) throw Error(rule);
            chosen[k++] = e[name].get<std::string>();
        }
        r.ex3_1 = chosen;
    }
    const int64_t tokens = r.inputs.shape[0], d_in = r.inputs.shape[1];
    if (j.contains("corrupt_row")) r.corrupt_row = whole_field(j, "corrupt_row", 1, tokens);
    if (r.corrupt == "inputs" && d_in < 2) throw Error("corrupting the inputs swaps two columns, so they need at least 2");
    return r;
}

std::string number_json(double v) {
    if (std::isnan(v)) return "\"nan\"";
    if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
    return float_text(static_cast<float>(v));
}

std::string cell_json(const BookCell& c) {
    if (!c.error.empty()) return "{\"error\":" + json_quote(c.error) + "}";
    std::string out = "{\"shape\":[";
    for (size_t i = 0; i < c.shape.size(); i++) out += (i ? "," : "") + std::to_string(c.shape[i]);
    out += "],\"values\":[";
    for (size_t i = 0; i < c.values.size(); i++) out += (i ? "," : "") + number_json(c.values[i]);
    out += "],\"print\":" + json_quote(c.print_plain);
    if (!c.grad_fn.empty()) {
        out += ",\"grad_fn\":" + json_quote(c.grad_fn) + ",\"print_with_grad_fn\":" + json_quote(c.print);
    }
    if (c.label) out += ",\"label\":" + json_quote(*c.label);
    return out + ",\"line\":" + json_quote(c.print_line()) + "}";
}

// SelfAttention_v1 with the book's step-by-step seed: the weights of 3.4.1, every intermediate kept.
AttentionTrace v1_trace(const SectionRequest& r) {
    Generator gen;
    gen.manual_seed(r.seeds(123));
    const SelfAttentionV1 sa(r.inputs.shape[1], r.d_out, gen);
    AttentionTrace tr;
    sa.forward(r.inputs, &tr);
    return tr;
}

void add_step_by_step(std::vector<BookCell>& out, const SectionRequest& r) {
    const AttentionTrace tr = v1_trace(r);
    for (const auto& [name, t] : {std::pair<const char*, const Tensor*>{"queries", &tr.queries},
                                  {"keys", &tr.keys}, {"values", &tr.values}, {"attn_scores", &tr.attn_scores},
                                  {"scaled_scores", &tr.scaled_scores}, {"attn_weights", &tr.attn_weights},
                                  {"context_vec", &tr.context_vec}}) {
        Tensor plain = *t;
        plain.grad_fn.clear();  // the step-by-step code computes them from plain tensors
        plain.requires_grad = false;
        out.push_back(tensor_cell(name, plain));
    }
    // print(attn_scores_2 / d_k**0.5), and the softmax of row 2 written out: each exp and their sum.
    // Plain, as above: the page's W_query, W_key and W_value have requires_grad=False, so PyTorch
    // prints no grad_fn here.
    Tensor scaled = tr.scaled_scores;
    scaled.grad_fn.clear();
    scaled.requires_grad = false;
    const Tensor scaled_2 = row(scaled, 1);
    out.push_back(tensor_cell("scaled_scores_2", scaled_2));
    const Tensor exps_2 = exp(scaled_2);
    out.push_back(tensor_cell("exps_2", exps_2));
    out.push_back(tensor_cell("exps_2_sum", sum(exps_2)));
}

// The slider: the same unscaled scores divided by T before the softmax (T = √d_k by default, which
// gives 3.4.1's weights), the whole weight map under T, and z(2) under T.
void add_temperature(std::vector<BookCell>& out, const SectionRequest& r) {
    const AttentionTrace tr = v1_trace(r);
    const double T = r.temperature.value_or(sqrt_dk(tr.keys.shape.back()));
    Tensor values = tr.values, scores = tr.attn_scores;
    for (Tensor* t : {&values, &scores}) {
        t->grad_fn.clear();
        t->requires_grad = false;
    }
    out.push_back(tensor_cell("values", values));
    out.push_back(tensor_cell("attn_scores", scores));
    out.push_back(tensor_cell("attn_scores_2", row(scores, 1)));
    const Tensor weights = temperature_softmax(scores, T);
    out.push_back(tensor_cell("temperature_weights", weights));
    const Tensor weights_2 = row(weights, 1);
    out.push_back(tensor_cell("temperature_weights_2", weights_2));
    out.push_back(tensor_cell("temperature_context_2", matmul(weights_2, values)));
    out.push_back(tensor_cell("temperature", Tensor({}, {static_cast<float>(T)})));
}

// Why √d_k: the experiment of replay/dk_experiment.h at the learner's d_k (its scores and both softmaxes
// of query 1), and the same experiment at d_k = 2, 4, ..., 1024 for the plots (spread and largest weight).
void add_dk_experiment(std::vector<BookCell>& out, const SectionRequest& r) {
    const double seed = static_cast<double>(static_cast<int64_t>(r.seeds(123)));
    const lab::DkExperiment e = lab::dk_experiment(static_cast<double>(r.d_k), seed);
    if (!e.error.empty()) throw Error(e.error);
    out.push_back(tensor_cell("dk/attn_scores", e.attn_scores));
    out.push_back(tensor_cell("dk/spread", Tensor({}, {e.spread})));
    out.push_back(tensor_cell("dk/weights_unscaled", e.weights_unscaled));
    out.push_back(tensor_cell("dk/weights_scaled", e.weights_scaled));
    std::vector<float> dks, spread, max_unscaled, max_scaled;
    for (int dk = lab::kDkMin; dk <= lab::kDkMax; dk *= 2) {
        const lab::DkExperiment s = lab::dk_experiment(dk, seed);
        if (!s.error.empty()) throw Error(s.error);
        dks.push_back(static_cast<float>(dk));
        spread.push_back(s.spread);
        max_unscaled.push_back(s.max_unscaled);
        max_scaled.push_back(s.max_scaled);
    }
    const Shape n = {static_cast<int64_t>(dks.size())};
    out.push_back(tensor_cell("dk/sweep/d_k", Tensor(n, dks)));
    out.push_back(tensor_cell("dk/sweep/spread", Tensor(n, spread)));
    out.push_back(tensor_cell("dk/sweep/max_unscaled", Tensor(n, max_unscaled)));
    out.push_back(tensor_cell("dk/sweep/max_scaled", Tensor(n, max_scaled)));
}

// The heads of §3.6.1's MultiHeadAttentionWrapper (the book's seed, 2 heads, no dropout), each head's
// causal attention weights for the first batch item, so the page can draw them side by side.
void add_heads(std::vector<BookCell>& out, const SectionRequest& r) {
    Generator gen;
    gen.manual_seed(r.seeds(123));
    const int64_t tokens = r.inputs.shape[0];
    const Tensor batch = stack({r.inputs, r.inputs});
    const MultiHeadAttentionWrapper mha(r.inputs.shape[1], r.d_out, tokens, 0.0, 2, false, gen);
    for (size_t h = 0; h < mha.heads.size(); h++) {
        AttentionTrace tr;
        mha.heads[h].forward(batch, gen, &tr);
        Tensor w = row(tr.attn_weights, 0);
        w.grad_fn.clear();
        w.requires_grad = false;
        out.push_back(tensor_cell("heads/" + std::to_string(h + 1) + "/attn_weights", w));
    }
}

// The batched product next to one token at a time (row i of the weights times the inputs), with an
// optional bug: one row of the weights reversed, or the inputs read with columns 1 and 2 swapped.
// debug/attn_weights and debug/all_context_vecs are the weights the batched path used and its product.
void add_debug_rows(std::vector<BookCell>& out, const SectionRequest& r) {
    const Tensor& x = r.inputs;
    const int64_t n = x.shape[0], d = x.shape[1];
    const Tensor weights = softmax(matmul(x, transpose_2d(x)), -1);
    Tensor w = weights, xb = x;
    if (r.corrupt == "row") {
        float* w_r = w.ptr() + (r.corrupt_row - 1) * n;
        std::reverse(w_r, w_r + n);
    } else if (r.corrupt == "inputs") {
        for (int64_t i = 0; i < n; i++) std::swap(xb.data[i * d], xb.data[i * d + 1]);
    }
    const Tensor batched = matmul(w, xb);
    // the whole tensors, for the page to draw and print: the weights as corrupted (or not) and their product
    out.push_back(tensor_cell("debug/attn_weights", w));
    out.push_back(tensor_cell("debug/all_context_vecs", batched));
    for (int64_t i = 0; i < n; i++) {
        const std::string k = std::to_string(i + 1);
        out.push_back(tensor_cell("debug/batched/" + k, row(batched, i)));
        out.push_back(tensor_cell("debug/one_token/" + k, matmul(row(weights, i), x)));
    }
}

// Exercise 3.1 as the learner wrote it: sa_v1 (seed 123) given the chosen weights of sa_v2 (seed
// 789), run on the inputs; a weight of the wrong shape gives the sentence the product fails with.
void add_ex3_1(std::vector<BookCell>& out, const SectionRequest& r) {
    Generator gen;
    const int64_t d_in = r.inputs.shape[1];
    gen.manual_seed(r.seeds(123));
    SelfAttentionV1 sa_v1(d_in, r.d_out, gen);
    gen.manual_seed(r.seeds(789));
    const SelfAttentionV2 sa_v2(d_in, r.d_out, false, gen);
    const auto pick = [&](const std::string& choice) {
        const Linear& lin = choice.rfind("W_query", 0) == 0 ? sa_v2.W_query : choice.rfind("W_key", 0) == 0 ? sa_v2.W_key : sa_v2.W_value;
        const bool transposed = choice.size() > 2 && choice.compare(choice.size() - 2, 2, ".T") == 0;
        Tensor w = transposed ? transpose_2d(lin.weight) : lin.weight;
        return w.as_parameter();
    };
    sa_v1.W_query = pick((*r.ex3_1)[0]);
    sa_v1.W_key = pick((*r.ex3_1)[1]);
    sa_v1.W_value = pick((*r.ex3_1)[2]);
    try {
        out.push_back(tensor_cell("ex3.1/chosen", sa_v1.forward(r.inputs)));
    } catch (const Error& e) {
        out.push_back({"ex3.1/chosen", std::nullopt, "", {}, {}, "", "", e.what()});
    }
}

// The bug hunt: the tensor the planted bug changes, right and wrong, and their difference (buggy −
// correct). Sizes the bug cannot run (d_out odd for the heads) give the three cells its sentence.
void add_bug_hunt(std::vector<BookCell>& out, const SectionRequest& r) {
    BugHunt run;
    try {
        run = bug_hunt(r.inputs, r.d_out, r.seeds(123), r.bug);
    } catch (const Error& e) {
        for (const char* id : {"bug/correct", "bug/buggy", "bug/diff"}) out.push_back({id, std::nullopt, "", {}, {}, "", "", e.what()});
        return;
    }
    Tensor diff = run.buggy;
    for (size_t i = 0; i < diff.data.size(); i++) diff.data[i] -= run.correct.data[i];
    out.push_back(tensor_cell("bug/correct", run.correct));
    out.push_back(tensor_cell("bug/buggy", run.buggy));
    out.push_back(tensor_cell("bug/diff", diff));
    out.push_back({"bug/tensor", std::nullopt, run.tensor, {}, {}, "", run.tensor, ""});
}

// The chapter's cells each section shows (printing the others would cost an update its time).
bool shown_by(const std::string& section, const std::string& id) {
    if (section == "batched") return id == "3.3.2/attn_weights" || id == "3.3.2/all_context_vecs" || id.rfind("toy/", 0) == 0 || id == "inputs";
    if (section == "step-by-step") return id.rfind("3.4.1/", 0) == 0;
    if (section == "classes") return id.rfind("3.4.2/", 0) == 0 || id.rfind("ex3.1/", 0) == 0 || id == "3.4.1/context_vec_2";
    if (section == "multi-head") return id != "3.6.2/first_res" && id != "3.6.2/second_res";
    return true;
}

std::vector<BookCell> section_cells(const SectionRequest& r) {
    std::vector<BookCell> out;
    if (r.section != "batched") out.push_back(tensor_cell("inputs", r.inputs));  // batched's part has it
    const std::function<bool(const std::string&)> wanted = [&](const std::string& id) { return shown_by(r.section, id); };
    const auto append = [&](ChapterPart part) {
        for (BookCell& c : chapter3_part(part, r.inputs, r.d_out, r.seeds, wanted)) out.push_back(std::move(c));
    };
    if (r.section == "batched") {
        append(ChapterPart::simplified);
        add_debug_rows(out, r);
    } else if (r.section == "step-by-step") {
        append(ChapterPart::step_by_step);
        add_step_by_step(out, r);
    } else if (r.section == "temperature") {
        add_temperature(out, r);
    } else if (r.section == "why-sqrt-dk") {
        add_dk_experiment(out, r);
    } else if (r.section == "classes") {
        append(ChapterPart::classes);
        // Listing 3.1's row 2 against z(2) as the step-by-step section computes it
        append(ChapterPart::step_by_step);
        out.push_back(tensor_cell("3.4.2/sa_v1_row_2", row(v1_trace(r).context_vec, 1)));
        if (r.ex3_1) add_ex3_1(out, r);
    } else if (r.section == "causal") {
        append(ChapterPart::causal);
    } else if (r.section == "bug-hunt") {
        add_bug_hunt(out, r);
    } else {
        append(ChapterPart::multi_head);
        add_heads(out, r);
        // exercise 3.3: GPT-2 small's MultiHeadAttention(768, 768, 1024, 0.0, num_heads=12)
        const int64_t n = MultiHeadAttention::count_params(768, 768, false);
        out.push_back({"ex3.3/num_params", std::nullopt, std::to_string(n), {}, {static_cast<double>(n)}, "",
                       std::to_string(n), ""});
    }
    return out;
}

}  // namespace

EvalResult section_data(const std::string& request_json) {
    std::string out;
    const std::string error = checks::sentence_of([&] {
        const SectionRequest r = parse(request_json);
        out = "{\"section\":" + json_quote(r.section) + ",\"results\":{";
        bool first = true;
        for (const BookCell& c : section_cells(r)) {
            out += (first ? "" : ",") + json_quote(c.id) + ":" + cell_json(c);
            first = false;
        }
        out += "}}";
    });
    return error.empty() ? EvalResult{true, out, ""} : failed_request(error);
}

}  // namespace attn
