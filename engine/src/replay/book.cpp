// Chapter 3 replayed: the same statements as the book's code cells, in order, through the engine.
#include "replay/book.h"

#include <cmath>
#include <functional>

#include "chapter/autograd.h"
#include "core/format.h"
#include "core/generator.h"
#include "core/limits.h"
#include "chapter/modules.h"

namespace attn {

namespace {

struct Recorder {
    std::vector<BookCell> cells;
    const std::function<bool(const std::string&)>* wanted = nullptr;  // null: every cell
    bool skip(const std::string& id) const { return wanted && !(*wanted)(id); }

    void tensor(const std::string& id, const Tensor& t, std::optional<std::string> label = std::nullopt) {
        if (skip(id)) return;  // printing is most of a replay's time
        cells.push_back(tensor_cell(id, t, std::move(label)));
    }
    void size(const std::string& id, const Shape& s, std::optional<std::string> label = std::nullopt) {
        if (skip(id)) return;
        cells.push_back(size_cell(id, s, std::move(label)));
    }
    // The same for the replay's literal ids and labels: their strings are made here, not at each of
    // the ~60 calls (each a temporary to destroy if the call throws: code in every call site).
    __attribute__((noinline)) void tensor(const char* id, const Tensor& t, const char* label = nullptr) {
        if (!skip(id)) cells.push_back(tensor_cell(id, t, label));
    }
    __attribute__((noinline)) void size(const char* id, const Shape& s, const char* label = nullptr) {
        size(std::string(id), s, label ? std::optional<std::string>(label) : std::nullopt);
    }
    void integer(const std::string& id, int64_t v) {
        cells.push_back({id, std::nullopt, std::to_string(v), {}, {static_cast<double>(v)}, "", std::to_string(v), {}});
    }
    // Statements that may not run on the learner's sizes: their cells carry the engine's sentence.
    template <typename F>
    void attempt(std::initializer_list<const char*> ids, F&& f) {
        try {
            f();
        } catch (const Error& e) {
            for (const char* id : ids) if (!skip(id)) cells.push_back(error_cell(id, e));
        }
    }
};

}  // namespace

BookCell error_cell(const std::string& id, const Error& e) {
    return {id, std::nullopt, "", {}, {}, "", "", e.refusal()};
}

BookCell tensor_cell(const std::string& id, const Tensor& t, std::optional<std::string> label) {
    std::string print = format_tensor(t);
    std::string plain = t.grad_fn.empty() ? print : format_tensor(t, false);
    return {id, std::move(label), std::move(print), t.shape, std::vector<double>(t.data.begin(), t.data.end()),
            t.grad_fn, std::move(plain), {}};
}

BookCell tensor_cell(const char* id, const Tensor& t, const char* label) {
    return tensor_cell(std::string(id), t, label ? std::optional<std::string>(label) : std::nullopt);
}

BookCell size_cell(const std::string& id, const Shape& s, std::optional<std::string> label) {
    std::string print = format_size(s);
    return {id, std::move(label), print, {static_cast<int64_t>(s.size())}, std::vector<double>(s.begin(), s.end()), "",
            print, {}};
}

std::string BookCell::print_line() const { return label ? *label + " " + print : print; }

Tensor book_inputs() {
    return Tensor::from_rows({{0.43f, 0.15f, 0.89f},    // Your     (x^1)
                              {0.55f, 0.87f, 0.66f},    // journey  (x^2)
                              {0.57f, 0.85f, 0.64f},    // starts   (x^3)
                              {0.22f, 0.58f, 0.33f},    // with     (x^4)
                              {0.77f, 0.25f, 0.10f},    // one      (x^5)
                              {0.05f, 0.80f, 0.55f}});  // step     (x^6)
}

std::vector<BookCell> chapter3_cells() {
    Recorder rec{chapter3_cells(book_inputs(), 2)};
    // Exercise 3.3: a GPT-2-small-sized module. It does not depend on the inputs, and building it
    // (2.4 million initial weights) would cost a learner's replay ~40 ms in wasm, so only the book's
    // own pass has it.
    Generator gen;
    gen.manual_seed(123);
    namespace gpt2 = gpt2_small;
    const MultiHeadAttention mha_gpt2(gpt2::kEmbDim, gpt2::kEmbDim, gpt2::kContextLength, 0.0, gpt2::kNumHeads, false, gen);
    rec.integer("ex3.3/num_params", mha_gpt2.num_params());
    return rec.cells;
}

namespace {

// Each part takes the same arguments; the simplified one has no weights, so no d_out and no seed.
void part_simplified(Recorder& rec, const Tensor& inputs, int64_t /*d_out*/, Seeds /*seeds*/, const ModuleWeights* /*w*/) {
    rec.tensor("inputs", inputs);

    // 3.3.1 simplified attention for one query
    // (in its own block: 3.4.1 reuses the book's names attn_scores_2 and attn_weights_2)
    Tensor context_vec_2;
    {
        const Tensor query = row(inputs, 1);
        Tensor attn_scores_2 = Tensor::zeros({inputs.shape[0]});
        for (int64_t i = 0; i < inputs.shape[0]; i++) attn_scores_2.data[i] = dot(row(inputs, i), query).item();
        rec.tensor("3.3.1/attn_scores_2", attn_scores_2);
        Tensor attn_weights_2_tmp = div(attn_scores_2, sum(attn_scores_2));
        rec.tensor("3.3.1/attn_weights_2_tmp", attn_weights_2_tmp, "Attention weights:");
        rec.tensor("3.3.1/attn_weights_2_tmp_sum", sum(attn_weights_2_tmp), "Sum:");
        Tensor attn_weights_2_naive = div(exp(attn_scores_2), sum(exp(attn_scores_2), 0));
        rec.tensor("3.3.1/attn_weights_2_naive", attn_weights_2_naive, "Attention weights:");
        rec.tensor("3.3.1/attn_weights_2_naive_sum", sum(attn_weights_2_naive), "Sum:");
        Tensor attn_weights_2 = softmax(attn_scores_2, 0);
        rec.tensor("3.3.1/attn_weights_2", attn_weights_2, "Attention weights:");
        rec.tensor("3.3.1/attn_weights_2_sum", sum(attn_weights_2), "Sum:");
        context_vec_2 = Tensor::zeros(query.shape);
        for (int64_t i = 0; i < inputs.shape[0]; i++) {
            context_vec_2 = add(context_vec_2, mul(row(inputs, i), attn_weights_2.data[i]));
        }
        rec.tensor("3.3.1/context_vec_2", context_vec_2);
    }

    // 3.3.2 all inputs
    const int64_t n = inputs.shape[0];
    Tensor attn_scores = Tensor::zeros({n, n});
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) attn_scores.data[i * n + j] = dot(row(inputs, i), row(inputs, j)).item();
    rec.tensor("3.3.2/attn_scores_loop", attn_scores);
    attn_scores = matmul(inputs, transpose_2d(inputs));
    rec.tensor("3.3.2/attn_scores", attn_scores);
    Tensor attn_weights = softmax(attn_scores, -1);
    rec.tensor("3.3.2/attn_weights", attn_weights);
    rec.tensor("3.3.2/all_row_sums", sum(attn_weights, -1), "All row sums:");
    rec.tensor("3.3.2/all_context_vecs", matmul(attn_weights, inputs));
    rec.tensor("3.3.2/previous_context_vec_2", context_vec_2, "Previous 2nd context vector:");

    // the toy batched example of the second source document: three tokens, two values each
    const Tensor toy_inputs = Tensor::from_rows({{1, 2}, {3, 4}, {5, 6}});
    const Tensor toy_weights = Tensor::from_rows({{0.5f, 0.5f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.25f, 0.25f, 0.5f}});
    rec.tensor("toy/inputs", toy_inputs);
    rec.tensor("toy/attn_weights", toy_weights);
    rec.tensor("toy/all_context_vecs", matmul(toy_weights, toy_inputs));
}

void part_step_by_step(Recorder& rec, const Tensor& inputs, int64_t d_out, Seeds seeds, const ModuleWeights* w) {
    Generator gen;
    const int64_t d_in = inputs.shape[1];
    // 3.4.1 step by step
    const Tensor x_2 = row(inputs, 1);
    gen.manual_seed(seeds(123));
    SelfAttentionV1 weights(d_in, d_out, gen);  // the same three torch.rand draws
    if (w) w->apply(weights);
    const Tensor W_query = detach(weights.W_query), W_key = detach(weights.W_key),
                 W_value = detach(weights.W_value);
    rec.tensor("3.4.1/W_query", W_query);
    rec.tensor("3.4.1/W_key", W_key);
    rec.tensor("3.4.1/W_value", W_value);
    const Tensor query_2 = matmul(x_2, W_query);
    rec.tensor("3.4.1/query_2", query_2);
    const Tensor keys = matmul(inputs, W_key);
    const Tensor values = matmul(inputs, W_value);
    rec.size("3.4.1/keys.shape", keys.shape, "keys.shape:");
    rec.size("3.4.1/values.shape", values.shape, "values.shape:");
    rec.tensor("3.4.1/attn_score_22", dot(query_2, row(keys, 1)));
    const Tensor attn_scores_2 = matmul(query_2, transpose_2d(keys));
    rec.tensor("3.4.1/attn_scores_2", attn_scores_2);
    const int64_t d_k = keys.shape.back();
    const Tensor attn_weights_2 = softmax(div(attn_scores_2, sqrt_dk(d_k)), -1);
    rec.tensor("3.4.1/attn_weights_2", attn_weights_2);
    rec.tensor("3.4.1/context_vec_2", matmul(attn_weights_2, values));
    // the temperature slider: the same scores divided by T before the softmax
    const std::pair<const char*, double> temps[] = {{"0.1", 0.1}, {"0.5", 0.5}, {"1", 1.0}, {"1.41421", std::sqrt(2.0)},
                                                    {"2", 2.0},   {"5", 5.0},   {"10", 10.0}, {"100", 100.0}};
    for (const auto& [name, t] : temps) rec.tensor(std::string("slider/T=") + name, temperature_softmax(attn_scores_2, t));
}

void part_classes(Recorder& rec, const Tensor& inputs, int64_t d_out, Seeds seeds, const ModuleWeights* w) {
    Generator gen;
    const int64_t d_in = inputs.shape[1];
    const bool qkv_bias = w && w->has_bias();
    // 3.4.2 Listing 3.1 (a reader's weights with biases cannot be SelfAttention_v1's: its cells say so)
    gen.manual_seed(seeds(123));
    SelfAttentionV1 sa_v1(d_in, d_out, gen);
    rec.attempt({"3.4.2/sa_v1"}, [&] {
        if (w) w->apply(sa_v1);
        rec.tensor("3.4.2/sa_v1", sa_v1.forward(inputs));
    });

    // Listing 3.2
    gen.manual_seed(seeds(789));
    SelfAttentionV2 sa_v2(d_in, d_out, qkv_bias, gen);
    if (w) w->apply(sa_v2.W_query, sa_v2.W_key, sa_v2.W_value);
    rec.tensor("3.4.2/sa_v2", sa_v2.forward(inputs));
    rec.tensor("3.4.2/sa_v2.W_query.weight", detach(sa_v2.W_query.weight));

    // Exercise 3.1: v2's weights, transposed, moved into v1 give the same output (v1 has no bias)
    rec.attempt({"ex3.1/sa_v1_with_v2_weights"}, [&] {
        if (qkv_bias) w->apply(sa_v1);  // its sentence
        sa_v1.W_query = transpose_2d(sa_v2.W_query.weight).as_parameter();
        sa_v1.W_key = transpose_2d(sa_v2.W_key.weight).as_parameter();
        sa_v1.W_value = transpose_2d(sa_v2.W_value.weight).as_parameter();
        rec.tensor("ex3.1/sa_v1_with_v2_weights", sa_v1.forward(inputs));
    });
}

void part_causal(Recorder& rec, const Tensor& inputs, int64_t d_out, Seeds seeds, const ModuleWeights* w) {
    Generator gen;
    const int64_t d_in = inputs.shape[1];
    const bool qkv_bias = w && w->has_bias();
    // 3.5.1 causal mask, by renormalisation and by -inf
    gen.manual_seed(seeds(789));  // the sa_v2 of Listing 3.2
    SelfAttentionV2 sa_v2(d_in, d_out, qkv_bias, gen);
    if (w) w->apply(sa_v2.W_query, sa_v2.W_key, sa_v2.W_value);
    const Tensor queries = sa_v2.W_query.forward(inputs);
    const Tensor keys_v2 = sa_v2.W_key.forward(inputs);
    Tensor attn_scores = matmul(queries, transpose_2d(keys_v2));
    Tensor attn_weights = softmax(div(attn_scores, sqrt_dk(keys_v2.shape.back())), -1);
    rec.tensor("3.5.1/attn_weights", attn_weights);
    const int64_t context_length = attn_scores.shape[0];
    const Tensor mask_simple = tril_ones(context_length);
    rec.tensor("3.5.1/mask_simple", mask_simple);
    const Tensor masked_simple = mul(attn_weights, mask_simple);
    rec.tensor("3.5.1/masked_simple", masked_simple);
    const Tensor row_sums = sum(masked_simple, -1, true);
    rec.tensor("3.5.1/masked_simple_norm", div(masked_simple, row_sums));
    const Tensor masked = masked_fill(attn_scores, triu_ones(context_length, 1), -INFINITY);
    rec.tensor("3.5.1/masked", masked);
    attn_weights = softmax(div(masked, sqrt_dk(keys_v2.shape.back())), -1);
    rec.tensor("3.5.1/attn_weights_causal", attn_weights);

    // 3.5.2 dropout, with the book's seed
    const Dropout dropout{0.5};
    gen.manual_seed(seeds(123));
    rec.tensor("3.5.2/dropout_ones", dropout.forward(Tensor::ones({6, 6}), gen));
    gen.manual_seed(seeds(123));
    rec.tensor("3.5.2/dropout_attn_weights", dropout.forward(attn_weights, gen));

    // 3.5.3 CausalAttention on a batch of two copies
    const Tensor batch = stack({inputs, inputs});
    rec.size("3.5.3/batch.shape", batch.shape);
    gen.manual_seed(seeds(123));
    const int64_t batch_tokens = batch.shape[1];
    CausalAttention ca(d_in, d_out, batch_tokens, 0.0, qkv_bias, gen);
    if (w) w->apply(ca.W_query, ca.W_key, ca.W_value);
    Tensor context_vecs = ca.forward(batch, gen);
    rec.tensor("3.5.3/context_vecs", context_vecs);
    rec.size("3.5.3/context_vecs.shape", context_vecs.shape, "context_vecs.shape:");
}

void part_multi_head(Recorder& rec, const Tensor& inputs, int64_t d_out, Seeds seeds, const ModuleWeights* w) {
    Generator gen;
    const int64_t d_in = inputs.shape[1];
    const Tensor batch = stack({inputs, inputs});
    const int64_t batch_tokens = batch.shape[1];
    Tensor context_vecs;

    // 3.6.1 MultiHeadAttentionWrapper
    gen.manual_seed(seeds(123));
    const MultiHeadAttentionWrapper mha_w(d_in, d_out, batch_tokens, 0.0, 2, false, gen);
    context_vecs = mha_w.forward(batch, gen);
    rec.tensor("3.6.1/context_vecs", context_vecs);
    rec.size("3.6.1/context_vecs.shape", context_vecs.shape, "context_vecs.shape:");
    // Exercise 3.2: two-dimensional output from two heads of d_out = 1
    gen.manual_seed(seeds(123));
    const MultiHeadAttentionWrapper mha_w1(d_in, 1, batch_tokens, 0.0, 2, false, gen);
    rec.tensor("ex3.2/context_vecs", mha_w1.forward(batch, gen));

    // 3.6.2 the batched product over heads, then MultiHeadAttention
    const Tensor a({1, 2, 3, 4}, {0.2745f, 0.6584f, 0.2775f, 0.8573f, 0.8993f, 0.0390f, 0.9268f, 0.7388f,
                                  0.7179f, 0.7058f, 0.9156f, 0.4340f, 0.0772f, 0.3565f, 0.1479f, 0.5331f,
                                  0.4066f, 0.2318f, 0.4545f, 0.9737f, 0.4606f, 0.5159f, 0.4220f, 0.5786f});
    rec.tensor("3.6.2/a_at_aT", matmul(a, transpose(a, 2, 3)));
    const Tensor first_head = row(row(a, 0), 0);
    rec.tensor("3.6.2/first_res", matmul(first_head, transpose_2d(first_head)), "First head:\n");
    const Tensor second_head = row(row(a, 0), 1);
    rec.tensor("3.6.2/second_res", matmul(second_head, transpose_2d(second_head)), "\nSecond head:\n");

    // the book's d_out = 2, or the learner's, which two heads must divide
    rec.attempt({"3.6.2/context_vecs", "3.6.2/context_vecs.shape"}, [&] {
        gen.manual_seed(seeds(123));
        MultiHeadAttention mha(d_in, d_out, batch_tokens, 0.0, 2, w && w->has_bias(), gen);
        if (w) w->apply(mha);
        context_vecs = mha.forward(batch, gen);
        rec.tensor("3.6.2/context_vecs", context_vecs);
        rec.size("3.6.2/context_vecs.shape", context_vecs.shape, "context_vecs.shape:");
    });
}

void check_sizes(const Tensor& inputs, int64_t d_out) {
    if (inputs.dim() != 2 || inputs.shape[0] < 2 || inputs.shape[1] < 1) {
        throw Error("the chapter needs inputs of at least 2 tokens (rows), each of at least 1 value");
    }
    if (d_out < 1) throw Error("d_out must be at least 1");
}

}  // namespace

std::vector<BookCell> chapter3_part(ChapterPart part, const Tensor& inputs, int64_t d_out, Seeds seeds,
                                    const std::function<bool(const std::string&)>& wanted, const ModuleWeights* w) {
    check_sizes(inputs, d_out);
    Recorder rec;
    if (wanted) rec.wanted = &wanted;
    switch (part) {
        case ChapterPart::simplified: part_simplified(rec, inputs, d_out, seeds, w); break;
        case ChapterPart::step_by_step: part_step_by_step(rec, inputs, d_out, seeds, w); break;
        case ChapterPart::classes: part_classes(rec, inputs, d_out, seeds, w); break;
        case ChapterPart::causal: part_causal(rec, inputs, d_out, seeds, w); break;
        case ChapterPart::multi_head: part_multi_head(rec, inputs, d_out, seeds, w); break;
    }
    return rec.cells;
}

std::vector<BookCell> chapter3_cells(const Tensor& inputs, int64_t d_out) {
    check_sizes(inputs, d_out);
    Recorder rec;
    for (ChapterPart part : {ChapterPart::simplified, ChapterPart::step_by_step, ChapterPart::classes,
                             ChapterPart::causal, ChapterPart::multi_head}) {
        for (BookCell& cell : chapter3_part(part, inputs, d_out)) rec.cells.push_back(std::move(cell));
    }
    return rec.cells;
}

std::string book_text() {
    std::string out;
    for (const BookCell& cell : chapter3_cells()) out += cat({"# ", cell.id, "\n", cell.print_line(), "\n"});
    return out;
}

}  // namespace attn
