// section_data (page/sections.h): the chapter's parts (replay/book.h) on the learner's inputs, plus
// the intermediates each section draws: every query, key and value, the score matrices, the softmax's
// exps for row 2, the weights under a temperature and z(2) under it, the batched-vs-one-token check.
#include "page/sections.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <optional>
#include <vector>

#include "replay/book.h"
#include "replay/bug_hunt.h"
#include "replay/dk_experiment.h"
#include "core/generator.h"
#include "core/limits.h"
#include "chapter/autograd.h"
#include "chapter/modules.h"
#include "rules/checks.h"
#include "requests/json_out.h"
#include "requests/request.h"
#include "requests/request_fields.h"
#include "requests/request_weights.h"

namespace attn {

namespace {

namespace lim = attn::limits;

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
    std::optional<std::vector<std::string>> ex3_1;  // the learner's sa_v1.W_query, W_key, W_value
    std::optional<ModuleWeights> weights;           // a reader's module's, instead of the seeds' draws
    const ModuleWeights* own() const { return weights ? &*weights : nullptr; }
};

// Through `eval`'s reader (parse_request: the size, NUL bytes, nesting depth, duplicate keys, numbers
// beyond a double; then Request's fields) and checks.h's rules, so a field gets the same sentence here
// as in an `eval` request. Sizes are the replay's (core/limits.h), like bookCellsFor's.
SectionRequest parse(const std::string& text) {
    const json::Value j = parse_request(text);
    Request f(j, "{\"section\": \"step-by-step\", \"inputs\": [[...]], \"d_out\": 2}");
    SectionRequest r;
    std::vector<std::string> ids(std::begin(kSectionIds), std::end(kSectionIds));
    std::string id_list;
    for (const std::string& id : ids) id_list += (id_list.empty() ? "" : ", ") + id;
    if (!f.given("section")) fail({"missing field \"section\": give one of: ", id_list});
    r.section = f.text("section");
    if (std::find(ids.begin(), ids.end(), r.section) == ids.end()) {
        fail({"unknown section ", attn::quoted(r.section), "; use one of: ", id_list});
    }
    f.reject_unknown_fields_of("section " + attn::quoted(r.section), {"section", "inputs", "d_out", "seed", "temperature",
                                                               "corrupt", "corrupt_row", "d_k", "bug", "ex3_1", "weights"});
    if (f.given("inputs")) {
        const Shape shape = f.tensor_shape("inputs", 2);
        checks::whole(static_cast<double>(shape[0]), lim::kMinReplayTokens, lim::kMaxReplayTokens, "the number of tokens (rows of \"inputs\")");
        checks::whole(static_cast<double>(shape[1]), 1, lim::kMaxReplayDim, "d_in (the numbers in a row of \"inputs\")");
        r.inputs = f.tensor("inputs", shape, true);
    } else {
        r.inputs = book_inputs();
    }
    if (f.given("weights")) r.weights = read_weights(*j.find("weights"), r.inputs.shape[1]);
    // d_out follows from the weights; a d_out given with them must agree
    r.d_out = f.integer("d_out", 1, lim::kMaxReplayDim, r.weights ? std::optional<int64_t>(r.weights->d_out()) : std::nullopt);
    if (r.weights && r.d_out != r.weights->d_out()) {
        fail({"\"d_out\" is ", r.d_out, " but the weights give d_out = ", r.weights->d_out(),
              r.weights->v1_layout ? " (the columns of W_query)" : " (the rows of W_query.weight)", "; leave d_out out, or give ", r.weights->d_out()});
    }
    if (f.given("seed")) r.seeds.learner = f.seed();
    if (f.given("temperature")) {
        r.temperature = f.number("temperature");
        checks::temperature(*r.temperature);
    }
    r.d_k = f.integer("d_k", lab::kDkMin, lab::kDkMax, r.d_k);
    r.corrupt = f.choice("corrupt", {"none", "row", "inputs"}, r.corrupt);
    r.bug = f.text("bug", r.bug);
    r.ex3_1 = f.choices("ex3_1", {"W_query", "W_key", "W_value"},
                        {"W_query.weight", "W_query.weight.T", "W_key.weight", "W_key.weight.T", "W_value.weight", "W_value.weight.T"});
    const int64_t tokens = r.inputs.shape[0], d_in = r.inputs.shape[1];
    r.corrupt_row = f.integer("corrupt_row", 1, tokens, r.corrupt_row);
    if (r.corrupt == "inputs" && d_in < 2) throw Error("corrupting the inputs swaps two columns, so they need at least 2");
    return r;
}

// out.push_back(tensor_cell(id, t)) as one call: the cell is a temporary to destroy if the push throws,
// code at each of the ~30 calls otherwise.
__attribute__((noinline)) void add_cell(std::vector<BookCell>& out, const std::string& id, const Tensor& t) {
    out.push_back(tensor_cell(id, t));
}
__attribute__((noinline)) void add_cell(std::vector<BookCell>& out, const char* id, const Tensor& t) {
    out.push_back(tensor_cell(id, t));
}

// §3.4.1's SelfAttention_v1: the book's step-by-step seed's three torch.rand draws, or the reader's
// weights in their place (the one home of that choice for the trace and for attn_scores_2).
SelfAttentionV1 step_by_step_module(const SectionRequest& r) {
    Generator gen;
    gen.manual_seed(r.seeds(123));
    SelfAttentionV1 sa(r.inputs.shape[1], r.d_out, gen);
    if (r.weights) r.weights->apply(sa);
    return sa;
}

// That module's forward, every intermediate kept.
AttentionTrace v1_trace(const SectionRequest& r) {
    AttentionTrace tr;
    step_by_step_module(r).forward(r.inputs, &tr);
    return tr;
}

// attn_scores_2 = query_2 @ keys.T as §3.4.1's cells compute it: query_2 = x_2 @ W_query and then a
// one-row product, each score one FMA chain in PyTorch's BLAS. Not row 2 of queries @ keys.T: OpenBLAS
// sums some outputs of a full T × T product in two chains (pytorch_cpu.h), so at d_out ≥ 8 that row can
// differ from PyTorch's attn_scores_2 in the last bit, and a print in the last digit.
Tensor scores_of_query_2(const SectionRequest& r) {
    const SelfAttentionV1 weights = step_by_step_module(r);
    const Tensor query_2 = matmul(row(r.inputs, 1), detach(weights.W_query));
    const Tensor keys = matmul(r.inputs, detach(weights.W_key));
    return matmul(query_2, transpose_2d(keys));
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
        add_cell(out, name, plain);
    }
    // print(attn_scores_2 / d_k**0.5), and the softmax of row 2 written out: each exp and their sum.
    // Plain: the page's W_query, W_key and W_value have requires_grad=False, so PyTorch prints no
    // grad_fn here.
    const Tensor scaled_2 = div(scores_of_query_2(r), sqrt_dk(r.d_out));
    add_cell(out, "scaled_scores_2", scaled_2);
    const Tensor exps_2 = exp(scaled_2);
    add_cell(out, "exps_2", exps_2);
    add_cell(out, "exps_2_sum", sum(exps_2));
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
    add_cell(out, "values", values);
    add_cell(out, "attn_scores", scores);
    // the map is the whole matrix; row 2 and its print are §3.4.1's attn_scores_2, as the cell computes it
    const Tensor scores_2 = scores_of_query_2(r);
    add_cell(out, "attn_scores_2", scores_2);
    add_cell(out, "temperature_weights", temperature_softmax(scores, T));
    const Tensor weights_2 = temperature_softmax(scores_2, T);
    add_cell(out, "temperature_weights_2", weights_2);
    add_cell(out, "temperature_context_2", matmul(weights_2, values));
    add_cell(out, "temperature", Tensor({}, {static_cast<float>(T)}));
}

// Why √d_k: the experiment of replay/dk_experiment.h at the learner's d_k (its scores and both softmaxes
// of query 1), and the same experiment at d_k = 2, 4, ..., 1024 for the plots (spread and largest weight).
void add_dk_experiment(std::vector<BookCell>& out, const SectionRequest& r) {
    const double seed = static_cast<double>(static_cast<int64_t>(r.seeds(123)));
    const lab::DkExperiment e = lab::dk_experiment(static_cast<double>(r.d_k), seed);
    if (!e.error.empty()) throw Error(e.error);
    add_cell(out, "dk/attn_scores", e.attn_scores);
    add_cell(out, "dk/spread", Tensor({}, {e.spread}));
    add_cell(out, "dk/weights_unscaled", e.weights_unscaled);
    add_cell(out, "dk/weights_scaled", e.weights_scaled);
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
    add_cell(out, "dk/sweep/d_k", Tensor(n, dks));
    add_cell(out, "dk/sweep/spread", Tensor(n, spread));
    add_cell(out, "dk/sweep/max_unscaled", Tensor(n, max_unscaled));
    add_cell(out, "dk/sweep/max_scaled", Tensor(n, max_scaled));
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
        add_cell(out, "heads/" + std::to_string(h + 1) + "/attn_weights", w);
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
    add_cell(out, "debug/attn_weights", w);
    add_cell(out, "debug/all_context_vecs", batched);
    for (int64_t i = 0; i < n; i++) {
        const std::string k = std::to_string(i + 1);
        add_cell(out, "debug/batched/" + k, row(batched, i));
        add_cell(out, "debug/one_token/" + k, matmul(row(weights, i), x));
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
    SelfAttentionV2 sa_v2(d_in, r.d_out, r.weights && r.weights->has_bias(), gen);
    if (r.weights) r.weights->apply(sa_v2.W_query, sa_v2.W_key, sa_v2.W_value);
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
        add_cell(out, "ex3.1/chosen", sa_v1.forward(r.inputs));
    } catch (const Error& e) {
        out.push_back(error_cell("ex3.1/chosen", e));
    }
}

// The bug hunt: the program's output as the book writes it and with the bug, and their difference
// (buggy − correct); bug/raised instead of the last two when PyTorch refuses the buggy line; for the
// causal program its dropout's keep mask. Sizes the program cannot run (d_out odd for the heads) give
// the cells their sentence.
void add_bug_hunt(std::vector<BookCell>& out, const SectionRequest& r) {
    BugHunt run;
    try {
        run = bug_hunt(r.inputs, r.d_out, r.seeds(bug_book_seed(bug_program(r.bug))), r.bug);
    } catch (const Error& e) {
        for (const char* id : {"bug/correct", "bug/buggy", "bug/diff"}) out.push_back(error_cell(id, e));
        return;
    }
    add_cell(out, "bug/correct", run.correct);
    if (run.raised.empty()) {
        Tensor diff = run.buggy;
        for (size_t i = 0; i < diff.data.size(); i++) diff.data[i] -= run.correct.data[i];
        add_cell(out, "bug/buggy", run.buggy);
        add_cell(out, "bug/diff", diff);
    } else {
        out.push_back({"bug/raised", std::nullopt, run.raised, {}, {}, "", run.raised, {}});
    }
    if (run.program == "causal") add_cell(out, "bug/keep", run.keep);
    out.push_back({"bug/tensor", std::nullopt, run.tensor, {}, {}, "", run.tensor, {}});
    out.push_back({"bug/program", std::nullopt, run.program, {}, {}, "", run.program, {}});
}

// A reader's weights as the engine holds them (float32), in both layouts, for the code cells that set
// them: weights/W_query (SelfAttention_v1's, d_in × d_out) and weights/W_query.weight (nn.Linear's), ...
void add_weights(std::vector<BookCell>& out, const ModuleWeights& w) {
    const std::pair<const char*, const Tensor*> projections[] = {{"W_query", &w.W_query}, {"W_key", &w.W_key}, {"W_value", &w.W_value}};
    for (const auto& [name, t] : projections) {
        add_cell(out, cat({"weights/", name}), transpose_2d(*t));
        add_cell(out, cat({"weights/", name, ".weight"}), *t);
    }
    const std::pair<const char*, const Tensor*> rest[] = {{"W_query.bias", &w.b_query}, {"W_key.bias", &w.b_key}, {"W_value.bias", &w.b_value},
                                                          {"out_proj.weight", &w.out_weight}, {"out_proj.bias", &w.out_bias}};
    for (const auto& [name, t] : rest) if (t->numel()) add_cell(out, cat({"weights/", name}), *t);
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
    if (r.section != "batched") add_cell(out, "inputs", r.inputs);  // batched's part has it
    const std::function<bool(const std::string&)> wanted = [&](const std::string& id) { return shown_by(r.section, id); };
    const auto append = [&](ChapterPart part) {
        for (BookCell& c : chapter3_part(part, r.inputs, r.d_out, r.seeds, wanted, r.own())) out.push_back(std::move(c));
    };
    const bool draws_module = r.section == "step-by-step" || r.section == "temperature" || r.section == "classes" ||
                              r.section == "causal" || r.section == "multi-head";
    if (r.weights && draws_module) add_weights(out, *r.weights);
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
        // Listing 3.1's row 2 against z(2) as the step-by-step section computes it (SelfAttention_v1: a
        // reader's weights with biases are not its, and its cells say so)
        if (!(r.weights && r.weights->has_bias())) {
            append(ChapterPart::step_by_step);
            add_cell(out, "3.4.2/sa_v1_row_2", row(v1_trace(r).context_vec, 1));
            if (r.ex3_1) add_ex3_1(out, r);
        } else if (r.ex3_1) {
            out.push_back({"ex3.1/chosen", std::nullopt, "", {}, {}, "", "", ModuleWeights::v1_has_no_bias()});
        }
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
                       std::to_string(n), {}});
    }
    return out;
}

}  // namespace

EvalResult section_data(const std::string& request_json) {
    std::string out;
    const Refusal error = checks::refusal_of([&] {
        const SectionRequest r = parse(request_json);
        out = cat({"{\"section\":", json_quote(r.section), ",\"results\":", section_cells_json(section_cells(r)), "}"});
    });
    return answer_unless(error, std::move(out));
}

std::string limits_json() {
    namespace page = limits::page;
    const auto number = [](double v) { return float_text(static_cast<float>(v)); };
    std::string ids;
    for (const char* id : kSectionIds) ids += (ids.empty() ? "" : ",") + json_quote(id);
    return cat({"{\"page\":{\"value\":", number(page::kValue), ",\"word\":", page::kWordChars,
           ",\"seedMax\":", page::kSeedMax, ",\"tokensMin\":", page::kTokensMin,
           ",\"tokensMax\":", page::kTokensMax, ",\"dInMax\":", page::kDInMax,
           ",\"dOutMax\":", page::kDOutMax, ",\"temperatureMin\":", number(page::kTemperatureMin),
           ",\"temperatureMax\":", number(page::kTemperatureMax), "},\"replay\":{\"tokensMin\":",
           lim::kMinReplayTokens, ",\"tokensMax\":", lim::kMaxReplayTokens,
           ",\"dimMax\":", lim::kMaxReplayDim, "},\"sections\":[", ids, "]}"});
}

}  // namespace attn
