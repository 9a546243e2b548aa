// Parses and evaluates one `eval` request. Every field is checked (unknown ones by exact name), every
// size against core/limits.h and the work they imply (checks.h) before the engine allocates or
// computes; anything wrong becomes {"error": "<sentence>"}.
#include "requests/request.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <optional>
#include <vector>

#include "replay/bug_hunt.h"
#include "replay/check.h"
#include "core/format.h"
#include "core/limits.h"
#include "chapter/modules.h"
#include "rules/checks.h"
#include "requests/json_out.h"
#include "requests/request_fields.h"
#include "requests/request_train.h"
#include "requests/request_weights.h"

namespace attn {

namespace {

namespace lim = attn::limits;

// Before the parser sees the text: refuse a NUL byte anywhere (the parser would read it as the end
// of the input and ignore what follows; JSON text never holds one, escaped or not) and deep nesting
// (the chapter's x is at most 4-D).
void check_text(const std::string& text) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); i++) {
        char c = text[i];
        if (c == '\0') {
            fail({"the request has a NUL byte at offset ", i,
                        "; send only the JSON object, with no bytes after it"});
        }
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > lim::kMaxJsonDepth) {
                fail({"the request nests arrays or objects more than ",
                            lim::kMaxJsonDepth, " levels deep; x has at most 4 dimensions"});
            }
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
}

// --- the ops: each reads its fields, checks its sizes and work (checks.h) before reading the
// numbers, then computes. seed() is read first wherever there is one, so its errors come first.

std::string op_rand(Request& r) {
    const uint64_t seed = r.seed();
    const Shape shape = r.shape();
    checks::check_work(checks::rand_work(shape));
    Generator gen(seed);
    Tensor t = Tensor::zeros(shape);
    for (float& v : t.data) v = gen.uniform_float(0.0f, 1.0f);
    return result_json(t);
}

std::string op_linear(Request& r) {
    const uint64_t seed = r.seed();
    const int64_t d_in = r.integer("d_in", 1, lim::kMaxDim), d_out = r.integer("d_out", 1, lim::kMaxDim);
    const bool bias = r.boolean("bias", true);
    checks::check_work(checks::linear_work(d_in, d_out, bias));
    Generator gen(seed);
    Linear lin(d_in, d_out, bias, gen);
    return cat({"{\"weight\":", result_json(lin.weight), ",\"bias\":", (bias ? result_json(lin.bias) : "null"), "}"});
}

std::string op_softmax(Request& r) {
    const Shape x_shape = r.tensor_shape("x", 0);
    const double t = r.number("temperature", 1.0);
    checks::temperature(t);
    checks::check_work(checks::softmax_work(x_shape));
    return result_json(temperature_softmax(r.tensor("x", x_shape), t));
}

// a @ b, as torch.matmul: the batched product of §3.3.2 and §3.6.2, and the page's checks
std::string op_matmul(Request& r) {
    const Shape a_shape = r.tensor_shape("a", 0), b_shape = r.tensor_shape("b", 0);
    checks::elements(numel_of(matmul_shape(a_shape, b_shape)), "the product");
    checks::check_work(checks::matmul_work(a_shape, b_shape));
    return result_json(matmul(r.tensor("a", a_shape), r.tensor("b", b_shape)));
}

std::string op_dropout(Request& r) {
    const uint64_t seed = r.seed();
    const Shape x_shape = r.tensor_shape("x", 0);
    const double p = r.dropout("p");
    checks::check_work(checks::dropout_work(x_shape));
    Generator gen(seed);
    return result_json(Dropout{p}.forward(r.tensor("x", x_shape), gen));
}

template <bool kV2>
std::string op_self_attention(Request& r) {
    const uint64_t seed = r.seed();
    const Shape x_shape = r.tensor_shape("x", 2);
    const int64_t d_out = r.integer("d_out", 1, lim::kMaxDim);
    const int64_t T = x_shape[0], d_in = x_shape[1];
    const bool qkv_bias = kV2 && r.boolean("qkv_bias", false);
    checks::attention_sizes({1, T, d_in, d_out, 1, T, 0.0}, checks::Module::self_attention);
    Generator gen(seed);
    const Tensor x = r.tensor("x", x_shape);
    if (!kV2) return result_json(SelfAttentionV1(d_in, d_out, gen).forward(x));
    return result_json(SelfAttentionV2(d_in, d_out, qkv_bias, gen).forward(x));
}

// causal_attention, mha_wrapper and mha: x is (B, T, d_in)
template <checks::Module kModule>
std::string op_causal(Request& r) {
    const uint64_t seed = r.seed();
    const Shape x_shape = r.tensor_shape("x", 3);
    const int64_t B = x_shape[0], T = x_shape[1], d_in = x_shape[2];
    const int64_t d_out = r.integer("d_out", 1, lim::kMaxDim);
    const int64_t context_length = r.integer("context_length", 1, lim::kMaxTokens);
    const int64_t num_heads = kModule == checks::Module::causal_attention ? 1 : r.integer("num_heads", 1, lim::kMaxHeads);
    const double p = r.dropout("dropout");
    const bool qkv_bias = r.boolean("qkv_bias", false);
    checks::attention_sizes({B, T, d_in, d_out, num_heads, context_length, p}, kModule);
    Generator gen(seed);
    const Tensor x = r.tensor("x", x_shape);
    switch (kModule) {
    case checks::Module::causal_attention:
        return result_json(CausalAttention(d_in, d_out, context_length, p, qkv_bias, gen).forward(x, gen));
    case checks::Module::mha_wrapper:
        return result_json(MultiHeadAttentionWrapper(d_in, d_out, context_length, p, num_heads, qkv_bias, gen).forward(x, gen));
    default:
        return result_json(MultiHeadAttention(d_in, d_out, context_length, p, num_heads, qkv_bias, gen).forward(x, gen));
    }
}

// The bug hunt's pair (replay/bug_hunt.h): x is (T, d_in); the program's output, right and wrong (or
// the error line PyTorch raises at the wrong line); seed is the program's torch.manual_seed.
std::string op_bug_hunt(Request& r) {
    const uint64_t seed = r.seed();
    const std::string bug = r.text("bug");
    const Shape x_shape = r.tensor_shape("x", 2);
    const int64_t d_out = r.integer("d_out", 1, lim::kMaxDim);
    const int64_t T = x_shape[0], d_in = x_shape[1];
    checks::bug_hunt_sizes(T, d_in, d_out);
    const BugHunt run = bug_hunt(r.tensor("x", x_shape), d_out, seed, bug);
    return cat({"{\"program\":", json_quote(run.program), ",\"tensor\":", json_quote(run.tensor), ",\"correct\":", result_json(run.correct),
                run.raised.empty() ? ",\"buggy\":" : ",\"raised\":", run.raised.empty() ? result_json(run.buggy) : json_quote(run.raised), "}"});
}

// "Check my code" (replay/check.h): the reader's module (its name in the chapter), inputs x (T, d_in, or a
// batch of one), weights (their state_dict's, as sectionData takes them; or d_out and the seed that draws
// them, the book's by default), dropout with call_seed (the torch.manual_seed just before the call) and output: their tensor (numbers,
// compared as PyTorch prints it) or a string, what PyTorch printed (a tensor or the error line it raised).
std::string op_check(Request& r) {
    std::vector<std::string> modules(std::begin(kCheckModules), std::end(kCheckModules));
    CheckRequest q;
    q.module = r.choice("module", modules);
    Shape x_shape = r.tensor_shape("x", 0);
    if (x_shape.size() == 3 && x_shape[0] == 1) x_shape.erase(x_shape.begin());
    if (x_shape.size() != 2) fail({"\"x\" must be the inputs, tokens × d_in (or a batch of one, 1 × tokens × d_in)"});
    const int64_t T = x_shape[0], d_in = x_shape[1];
    checks::bug_hunt_sizes(T, d_in, 1);
    {
        Tensor x = r.tensor("x", r.tensor_shape("x", 0), true);
        x.shape = x_shape;
        q.inputs = std::move(x);
    }
    q.num_heads = r.integer("num_heads", 1, lim::kMaxHeads, 2);
    q.dropout = r.dropout("dropout", 0.0);
    if (r.given("call_seed")) q.call_seed = r.seed_of("call_seed");
    // the reader's weights, or the module as torch.manual_seed(seed) builds it (the book's seed by default)
    const json::Value* weights = r.value("weights");
    if (weights && !weights->is_null()) {
        if (r.given("seed")) fail({"give \"weights\" or \"seed\", not both: the seed only draws weights"});
        q.weights = read_weights(*weights, d_in);
    } else {
        const int64_t d_out = r.integer("d_out", 1, lim::kMaxDim, 2);
        q.weights = book_module_weights(q.module, d_in, d_out, q.num_heads, r.seed(check_book_seed(q.module)));
    }
    const json::Value* output = r.value("output");
    if (!output) fail({"missing field \"output\": your module's output (its numbers, or what PyTorch printed)"});
    if (output->is_string()) {
        q.output = read_pasted_output(output->string());
    } else {
        const Shape shape = r.tensor_shape("output", 0);
        q.output.printed = printed_of(r.tensor("output", shape));
    }
    const CheckResult c = check_code(q);
    const auto names = [](const std::vector<std::string>& v) {
        std::string s;
        for (const std::string& n : v) s += (s.empty() ? "" : ",") + json_quote(n);
        return "[" + s + "]";
    };
    std::string reader = "null";
    if (q.output.printed) {
        std::string texts;
        for (const std::string& t : q.output.printed->texts) texts += (texts.empty() ? "" : ",") + json_quote(t);
        reader = cat({"{\"shape\":[", c.book.shape[0], ",", c.book.shape[1], "],\"texts\":[", texts, "]}"});
    }
    return cat({"{\"module\":", json_quote(q.module), ",\"verdict\":", json_quote(c.verdict), ",\"matches\":", names(c.matches),
                ",\"tried\":", names(c.tried), ",\"book\":", result_json(c.book), ",\"reader\":", reader,
                ",\"mistake\":", c.mistake.numel() ? result_json(c.mistake) : "null",
                ",\"raised\":", q.output.raised.empty() ? "null" : json_quote(q.output.raised),
                ",\"first_difference\":", c.first_row < 0 ? "null" : cat({"{\"row\":", c.first_row, ",\"column\":", c.first_col,
                ",\"reader\":", json_quote(c.first_reader), ",\"book\":", json_quote(c.first_book), "}"}), "}"});
}

// Every op: its name, the fields it takes ("op" included; any other is refused before anything is
// computed) and what it does. The "use one of" sentence lists these names.
struct Op {
    const char* name;
    std::vector<const char*> fields;  // empty: the op's fields depend on its module, and it checks them itself
    std::string (*run)(Request&);
};


const std::vector<Op>& ops() {
    using M = checks::Module;
    static const std::vector<Op> table = {
        {"rand", {"op", "seed", "shape"}, op_rand},
        {"linear", {"op", "seed", "d_in", "d_out", "bias"}, op_linear},
        {"softmax", {"op", "x", "temperature"}, op_softmax},
        {"matmul", {"op", "a", "b"}, op_matmul},
        {"dropout", {"op", "seed", "p", "x"}, op_dropout},
        {"self_attention_v1", {"op", "seed", "x", "d_out"}, op_self_attention<false>},
        {"self_attention_v2", {"op", "seed", "x", "d_out", "qkv_bias"}, op_self_attention<true>},
        {"causal_attention", {"op", "seed", "x", "d_out", "context_length", "dropout", "qkv_bias"},
         op_causal<M::causal_attention>},
        {"mha_wrapper", {"op", "seed", "x", "d_out", "context_length", "dropout", "qkv_bias", "num_heads"},
         op_causal<M::mha_wrapper>},
        {"mha", {"op", "seed", "x", "d_out", "context_length", "dropout", "qkv_bias", "num_heads"}, op_causal<M::mha>},
        {"bug_hunt", {"op", "seed", "x", "d_out", "bug"}, op_bug_hunt},
        {"check", {"op", "module", "x", "weights", "d_out", "seed", "output", "num_heads", "dropout", "call_seed"}, op_check},
        {"grad", {}, evaluate_grad},
        {"train", {}, evaluate_train},
        {"train_task", {}, evaluate_train_task},
    };
    return table;
}

std::string evaluate(const json::Value& j) {
    Request r(j);
    const std::string name = r.op();
    for (const Op& op : ops()) {
        if (name != op.name) continue;
        if (!op.fields.empty()) r.reject_unknown_fields(name, op.fields);
        return op.run(r);
    }
    std::string names;
    for (const Op& op : ops()) names += std::string(names.empty() ? "" : ", ") + op.name;
    fail({"unknown op ", quoted(name), "; use one of ", names});
}

}  // namespace

json::Value parse_request(const std::string& request_json) {
    if (static_cast<int64_t>(request_json.size()) > lim::kMaxRequestBytes) throw Error(oversized_request().error);
    check_text(request_json);
    return json::parse(request_json);
}

EvalResult eval_request(const std::string& request_json) {
    std::string answer;
    const Refusal error = checks::refusal_of([&] { answer = evaluate(parse_request(request_json)); });
    return answer_unless(error, std::move(answer));
}

}  // namespace attn
