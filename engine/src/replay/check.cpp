// check_code (replay/check.h): the reader's output against the book's module and its planted mistakes,
// each computed with the reader's weights by the bug hunt's own lines (replay/bug_hunt.h).
#include "replay/check.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/format.h"
#include "core/generator.h"
#include "replay/bug_hunt.h"
#include "rules/checks.h"

namespace attn {

namespace {

std::string trim(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) a++;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) b--;
    return s.substr(a, b - a);
}

// The last line of a traceback that names an error ("RuntimeError: ...", "ValueError: ..."), or "".
std::string error_line(const std::string& text) {
    std::string found;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = trim(text.substr(start, end - start));
        const size_t colon = line.find(": ");
        if (colon != std::string::npos && colon >= 5) {
            const std::string name = line.substr(0, colon);
            bool word = true;
            for (char c : name) word = word && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.');
            if (word && (name.size() >= 5 && (name.compare(name.size() - 5, 5, "Error") == 0 ||
                                              (name.size() >= 9 && name.compare(name.size() - 9, 9, "Exception") == 0))))
                found = line;
        }
        start = end + 1;
    }
    return found;
}

bool is_number_text(const std::string& t) {
    if (t == "nan" || t == "inf" || t == "-inf") return true;
    if (t.empty()) return false;
    char* end = nullptr;
    std::strtod(t.c_str(), &end);
    return end == t.c_str() + t.size() && (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-' || t[0] == '.');
}

// One nested list of a print, from text[i] == '['; appends its numbers, returns its shape.
Shape read_list(const std::string& text, size_t& i, std::vector<std::string>& texts, int depth) {
    if (depth > 4) fail_keyed("pasteTooDeep", {}, {"the pasted tensor nests deeper than 4 dimensions; paste the print of the module's output"});
    i++;  // '['
    Shape inner;
    int64_t n = 0;
    bool lists = false;
    for (;;) {
        while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == ',')) i++;
        if (i >= text.size()) fail_keyed("pasteUnclosed", {}, {"the pasted tensor ends before its last \"]\": paste the whole print"});
        if (text.compare(i, 3, "...") == 0)
            fail_keyed("pasteSummarised", {}, {"the pasted print is summarised (\"...\" stands for numbers PyTorch left out); "
                  "print it whole with torch.set_printoptions(profile=\"full\"), or give the tensor itself"});
        if (text[i] == ']') { i++; break; }
        if (text[i] == '[') {
            const Shape s = read_list(text, i, texts, depth + 1);
            if (n > 0 && (!lists || s != inner)) fail_keyed("pasteRagged", {}, {"the pasted tensor's rows have different lengths; paste the print as PyTorch wrote it"});
            inner = s;
            lists = true;
        } else {
            if (lists) fail_keyed("pasteMixed", {}, {"the pasted tensor mixes numbers and rows in one list; paste the print as PyTorch wrote it"});
            size_t j = i;
            while (j < text.size() && text[j] != ',' && text[j] != ']' && !std::isspace(static_cast<unsigned char>(text[j]))) j++;
            const std::string t = text.substr(i, j - i);
            if (!is_number_text(t)) {
                const std::string shown = t.substr(0, 20);
                fail_keyed("pasteNotNumber", {{"text", shown}}, {"the pasted tensor holds \"", shown, "\", which is not a number as PyTorch prints one"});
            }
            texts.push_back(t);
            i = j;
        }
        n++;
    }
    if (n == 0) fail_keyed("pasteEmpty", {}, {"the pasted tensor is empty"});
    Shape shape{n};
    shape.insert(shape.end(), inner.begin(), inner.end());
    return shape;
}

// The number a printed text stands for, and how a value is written at that precision.
struct Precision {
    char style = 'f';
    int decimals = 4;
};
Precision precision_of(const std::string& t) {
    Precision p;
    if (t == "nan" || t == "inf" || t == "-inf") return p;
    const size_t e = t.find_first_of("eE"), dot = t.find('.');
    if (e != std::string::npos) p.style = 'e';
    const size_t end = e == std::string::npos ? t.size() : e;
    p.decimals = dot == std::string::npos || dot > end ? 0 : static_cast<int>(end - dot - 1);
    return p;
}
std::string written(float v, const Precision& p) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return python_format(v, p.style, p.decimals);
}
// Equal as printed: the same number at the reader's precision (-0.0000 and 0.0000 are one number).
bool same_as_printed(const std::string& reader, float v) {
    const std::string w = written(v, precision_of(reader));
    if (reader == "nan" || w == "nan") return reader == w;
    return std::strtod(reader.c_str(), nullptr) == std::strtod(w.c_str(), nullptr);
}

// The first cell where the reader's print differs from t, or -1.
int64_t first_difference(const PrintedTensor& p, const Tensor& t) {
    for (size_t i = 0; i < p.texts.size(); i++) if (!same_as_printed(p.texts[i], t.data[i])) return static_cast<int64_t>(i);
    return -1;
}

// An error line's message up to its first "(": the same error at other shapes.
std::string error_kind(const std::string& line) { return trim(line.substr(0, line.find('('))); }

// 6 × 2
std::string dims_text(const Shape& shape) {
    std::string s;
    for (int64_t n : shape) s += (s.empty() ? "" : " × ") + std::to_string(n);
    return s;
}

Tensor plain(Tensor t) {
    t.grad_fn.clear();
    t.requires_grad = false;
    return t;
}

// x @ W.weight (+ bias): an nn.Linear's weight used without .T, which PyTorch multiplies only when d_in = d_out.
Tensor without_T(const Tensor& x, const Linear& W, std::string* raised) {
    const int64_t T = x.shape[0], d_in = x.shape[1], d_out = W.weight.shape[0];
    if (d_in != d_out) {
        *raised = matmul_shapes_error(T, d_in, d_out);
        return Tensor();
    }
    const Tensor y = matmul(x, W.weight);
    return W.bias.numel() ? add(y, W.bias) : y;
}

}  // namespace

ReaderOutput read_pasted_output(const std::string& text) {
    ReaderOutput out;
    const size_t bracket = text.find('[');
    const std::string raised = error_line(text);
    if (!raised.empty() && (bracket == std::string::npos || text.find("Traceback") != std::string::npos || text.find(raised) < bracket)) {
        out.raised = raised;
        return out;
    }
    if (bracket == std::string::npos) {
        fail_keyed("pasteNotPrint", {}, {"this is neither a tensor as PyTorch prints it (tensor([[0.3061, 0.8210], ...])) nor the error line it raised "
              "(RuntimeError: ...); paste what the cell printed"});
    }
    const std::string before = trim(text.substr(0, bracket));
    if (!before.empty() && before != "tensor(")
        fail_keyed("pasteStartsWith", {{"text", before.substr(0, 20)}},
                   {"the paste starts with \"", before.substr(0, 20), "\"; paste only what print(...) wrote, from tensor( on"});
    PrintedTensor p;
    size_t i = bracket;
    p.shape = read_list(text, i, p.texts, 1);
    out.printed = std::move(p);
    return out;
}

PrintedTensor printed_of(const Tensor& t) {
    ReaderOutput r = read_pasted_output(format_tensor(plain(t), false));
    return *r.printed;
}

uint64_t check_book_seed(const std::string& module) { return module == "SelfAttention_v2" ? 789 : 123; }

ModuleWeights book_module_weights(const std::string& module, int64_t d_in, int64_t d_out, int64_t num_heads, uint64_t seed) {
    Generator gen;
    gen.manual_seed(seed);
    ModuleWeights w;
    const auto take = [&](const Linear& q, const Linear& k, const Linear& v) {
        w.W_query = plain(q.weight), w.W_key = plain(k.weight), w.W_value = plain(v.weight);
    };
    if (module == "SelfAttention_v1") {
        const SelfAttentionV1 m(d_in, d_out, gen);
        w.W_query = plain(transpose_2d(m.W_query)), w.W_key = plain(transpose_2d(m.W_key)), w.W_value = plain(transpose_2d(m.W_value));
        w.v1_layout = true;
    } else if (module == "MultiHeadAttention") {
        checks::attention_sizes({1, 1, d_in, d_out, num_heads, 1, 0.0}, checks::Module::mha);
        const MultiHeadAttention m(d_in, d_out, 1, 0.0, num_heads, false, gen);
        take(m.W_query, m.W_key, m.W_value);
        w.out_weight = plain(m.out_proj.weight), w.out_bias = plain(m.out_proj.bias);
    } else {
        const SelfAttentionV2 m(d_in, d_out, false, gen);  // CausalAttention draws the same three first
        take(m.W_query, m.W_key, m.W_value);
    }
    return w;
}

CheckResult check_code(const CheckRequest& q) {
    const Tensor& x = q.inputs;
    const int64_t T = x.shape[0], d_in = x.shape[1];
    const ModuleWeights& w = q.weights;
    const int64_t d_out = w.d_out();
    const std::string& kind = q.module;
    const bool causal = kind == "CausalAttention", mha = kind == "MultiHeadAttention";
    bool known = false;
    std::string names;
    for (const char* name : kCheckModules) {
        known = known || kind == name;
        names += std::string(names.empty() ? "" : ", ") + name;
    }
    if (!known) fail({"\"", kind.substr(0, 40), "\" is not a module Check my code knows; use one of ", names});
    checks::bug_hunt_sizes(T, d_in, d_out);
    if (mha) {
        checks::attention_sizes({1, T, d_in, d_out, q.num_heads, T, 0.0}, checks::Module::mha);
        if (!w.out_weight.numel())
            fail({"MultiHeadAttention's output goes through out_proj: give its out_proj.weight and out_proj.bias too "
                  "(the module's whole state_dict)"});
    }
    if (q.dropout > 0 && !causal) fail({"only CausalAttention is checked with dropout; run ", kind, " with dropout 0.0 or in eval mode"});
    if (q.dropout > 0 && !q.call_seed)
        fail({"with dropout above 0 the output depends on the random draws: give the seed of the torch.manual_seed(...) "
              "run just before the call (\"call_seed\"), or check the module in eval mode (dropout off)"});
    if (kind == "SelfAttention_v1" && w.has_bias()) fail(ModuleWeights::v1_has_no_bias());

    Generator gen;  // the modules' own draws are all replaced by the reader's weights (and out_proj's)
    gen.manual_seed(0);
    const uint64_t call_seed = q.call_seed.value_or(0);
    SelfAttentionV2 v2(d_in, d_out, w.has_bias(), gen);  // Listing 3.2's three nn.Linear, with the reader's weights
    w.apply(v2.W_query, v2.W_key, v2.W_value);
    std::optional<MultiHeadAttention> heads;
    CheckResult res;
    // each mistake that applies to this kind, once per way it is made (variant): weight_without_T in the
    // keys' line as the bug hunt plants it (0) or in all three projections (1)
    std::vector<std::pair<const char*, int>> candidates;
    if (kind == "SelfAttention_v1") {
        SelfAttentionV1 v1(d_in, d_out, gen);
        w.apply(v1);
        res.book = plain(v1.forward(x));
        candidates = {{"divide_by_dk", 0}, {"softmax_dim0", 0}};
    } else if (kind == "SelfAttention_v2") {
        res.book = plain(v2.forward(x));
        candidates = {{"divide_by_dk", 0}, {"softmax_dim0", 0}, {"weight_without_T", 0}, {"weight_without_T", 1}};
    } else if (causal) {
        CausalAttention m(d_in, d_out, T, q.dropout, w.has_bias(), gen);
        w.apply(m.W_query, m.W_key, m.W_value);
        Generator g;
        g.manual_seed(call_seed);
        res.book = plain(row(m.forward(stack({x}), g), 0));
        for (const char* bug : kWeightLineBugs) candidates.push_back({bug, 0});
        candidates.push_back({"weight_without_T", 0});
        candidates.push_back({"weight_without_T", 1});
        if (q.dropout > 0) for (const char* bug : {"dropout_inverse_p", "dropout_unscaled", "dropout_on_scores"}) candidates.push_back({bug, 0});
    } else {
        heads.emplace(d_in, d_out, T, 0.0, q.num_heads, w.has_bias(), gen);
        w.apply(*heads);
        Generator g;
        res.book = plain(row(heads->forward(stack({x}), g), 0));
        for (const char* bug : {"mask_after_softmax", "mask_with_zero", "divide_by_dk", "inverted_mask", "view_without_transpose",
                                "scale_by_d_out", "merge_without_transpose", "missing_contiguous"})
            candidates.push_back({bug, 0});
    }

    // One planted mistake's output, computed with the reader's weights: its tensor, or PyTorch's error line in *raised.
    const auto run = [&](const std::string& bug, int variant, std::string* raised) -> Tensor {
        if (heads) {
            const Tensor out = mha_forward_with_bug(*heads, stack({x}), bug, raised);
            return raised->empty() ? row(out, 0) : out;
        }
        Tensor queries = v2.W_query.forward(x), keys = v2.W_key.forward(x), values = v2.W_value.forward(x);
        if (bug == "weight_without_T") {
            keys = without_T(x, v2.W_key, raised);
            if (!raised->empty()) return Tensor();
            if (variant == 1) queries = without_T(x, v2.W_query, raised), values = without_T(x, v2.W_value, raised);
        }
        Tensor scores = matmul(queries, transpose_2d(keys));
        Generator g;
        g.manual_seed(call_seed);
        const Dropout dropout{q.dropout};
        if (!causal) return matmul(causal_softmax(scores, d_out, bug == "weight_without_T" ? "" : bug, false), values);
        if (bug == "dropout_on_scores") return matmul(causal_softmax(dropout.forward(scores, g), d_out), values);
        bool weight_line = false;
        for (const char* name : kWeightLineBugs) weight_line = weight_line || bug == name;
        const Tensor weights = causal_softmax(scores, d_out, weight_line ? bug : "");
        if (bug != "dropout_inverse_p" && bug != "dropout_unscaled") return matmul(dropout.forward(weights, g), values);
        // the draws nn.Dropout makes for the weights: kept where its factor is not 0
        Tensor keep;
        dropout.forward(weights, g, &keep);
        for (float& k : keep.data) k = k != 0.0f ? 1.0f : 0.0f;
        const Tensor kept = mul(weights, keep);
        return matmul(bug == "dropout_inverse_p" ? div(kept, q.dropout) : kept, values);
    };

    // the reader's print, in the module's shape: (T, d_out), or (1, T, d_out) as a batch of one
    const ReaderOutput& out = q.output;
    std::optional<PrintedTensor> printed = out.printed;
    if (printed) {
        while (printed->shape.size() > 2 && printed->shape[0] == 1) printed->shape.erase(printed->shape.begin());
        if (printed->shape != res.book.shape) {
            const std::string yours = dims_text(out.printed->shape), book = dims_text(res.book.shape);
            const bool batched = causal || mha;
            fail_keyed("checkShape", {{"yours", yours}, {"module", kind}, {"book", book}, {"tokens", T}, {"batch", batched ? "yes" : "no"}},
                       {"your output is ", yours, ", but ", kind, " with these weights gives ", book, " for these ", T,
                        " tokens (tokens × d_out", batched ? ", or a batch of one" : "", "): give its output for the same inputs"});
        }
    }
    // the candidates in kBugNames' order, each mistake named once however many ways it is made
    for (const char* name : kBugNames) {
        bool tried = false;
        for (const auto& [bug, variant] : candidates) {
            if (std::string(bug) != name) continue;
            if (!tried) res.tried.push_back(name);
            tried = true;
            if (!res.matches.empty() && res.matches.back() == name) continue;
            std::string raised;
            const Tensor t = run(bug, variant, &raised);
            const bool match = printed ? raised.empty() && first_difference(*printed, t) < 0
                                       : !raised.empty() && (raised == out.raised || error_kind(raised) == error_kind(out.raised));
            if (!match) continue;
            if (res.matches.empty() && raised.empty()) res.mistake = plain(t);
            res.matches.push_back(name);
        }
    }
    if (!printed) {
        res.verdict = res.matches.empty() ? "unknown_error" : "mistake";
        return res;
    }
    const int64_t first = first_difference(*printed, res.book);
    if (first < 0) {
        res.verdict = "book";
        res.matches.clear();
        res.mistake = Tensor();
        return res;
    }
    res.verdict = res.matches.empty() ? "differs" : "mistake";
    const int64_t cols = res.book.shape.back();
    res.first_row = first / cols;
    res.first_col = first % cols;
    res.first_reader = printed->texts[first];
    res.first_book = written(res.book.data[first], precision_of(res.first_reader));
    return res;
}

}  // namespace attn
