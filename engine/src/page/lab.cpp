// The page's helpers (see page/lab.h) beyond the step-by-step run (attention_run.cpp): the
// long-sequence forward, the chapter as JSON and any tensor's print. Arguments arrive as JS numbers
// and go through checks.h's rules, the same as `eval`'s; every entry point returns what the engine
// throws as a sentence, so nothing crosses into the bindings as an exception.
#include "page/lab.h"

#include <algorithm>

#include "replay/book.h"
#include "core/format.h"
#include "core/limits.h"
#include "chapter/modules.h"
#include "rules/checks.h"
#include "requests/json_out.h"

namespace attn::lab {

namespace lim = attn::limits;

Tensor input_tensor(const Shape& shape, size_t count, const FillFn& fill, const std::string& name) {
    const int64_t want = numel_of(shape);
    checks::elements(want, name);
    if (static_cast<int64_t>(count) != want) {
        std::string dims;
        for (size_t i = 0; i < shape.size(); i++) dims += (i ? " × " : "") + std::to_string(shape[i]);
        fail({name, " has ", count, " numbers but its shape (", dims, ") needs ",
                    want});
    }
    Tensor t = Tensor::zeros(shape);
    if (want) fill(t.ptr());
    return t;
}

// --- long sequences ---

MhaResult mha_forward(size_t count, const FillFn& fill, double batch, double tokens, double d_in_arg,
                      double d_out_arg, double num_heads_arg, double context_length_arg, double dropout,
                      double seed, ClockFn clock) {
    MhaResult r;
    r.error = checks::sentence_of([&] {
        const int64_t B = checks::whole(batch, 1, lim::kMaxBatch, "batch");
        const int64_t T = checks::whole(tokens, 1, lim::kMaxTokens, "tokens");
        const int64_t d_in = checks::whole(d_in_arg, 1, lim::kMaxDim, "d_in");
        const int64_t d_out = checks::whole(d_out_arg, 1, lim::kMaxDim, "d_out");
        const int64_t num_heads = checks::whole(num_heads_arg, 1, lim::kMaxHeads, "num_heads");
        const int64_t context_length = checks::whole(context_length_arg, 1, lim::kMaxTokens, "context_length");
        const uint64_t s = checks::seed(seed);
        // every rule of `eval`'s "mha" op, from the same function
        checks::attention_sizes({B, T, d_in, d_out, num_heads, context_length, dropout}, checks::Module::mha);
        Tensor x = input_tensor({B, T, d_in}, count, fill, "x");
        Generator gen(s);
        const MultiHeadAttention mha(d_in, d_out, context_length, dropout, num_heads, false, gen);
        const double start = clock ? clock() : 0.0;
        r.out = mha.forward(x, gen);
        r.ms = clock ? clock() - start : 0.0;
    });
    return r;
}

// --- the chapter and any tensor's print ---

std::string book_cells_json() { return cells_json(chapter3_cells()); }

TextResult book_cells_for(size_t count, const FillFn& fill, double tokens, double d_in_arg, double d_out_arg) {
    TextResult r;
    r.error = checks::sentence_of([&] {
        // teaching sizes: the replay builds every module of the chapter, dropout masks included
        const int64_t T = checks::whole(tokens, lim::kMinReplayTokens, lim::kMaxReplayTokens, "tokens");
        const int64_t d_in = checks::whole(d_in_arg, 1, lim::kMaxReplayDim, "d_in");
        const int64_t d_out = checks::whole(d_out_arg, 1, lim::kMaxReplayDim, "d_out");
        r.text = cells_json(chapter3_cells(input_tensor({T, d_in}, count, fill, "inputs"), d_out));
    });
    return r;
}

TextResult format_values(size_t count, const FillFn& fill, const std::vector<double>& shape) {
    TextResult r;
    r.error = checks::sentence_of([&] {
        if (shape.size() > 4) fail({"the shape has ", shape.size(), " sizes; give at most 4"});
        Shape s;
        for (size_t i = 0; i < shape.size(); i++) {
            s.push_back(checks::whole(shape[i], 0, lim::kMaxElements, "shape[" + std::to_string(i) + "]"));
        }
        int64_t n = 1;
        for (int64_t d : s) n = std::min<int64_t>(n * d, lim::kMaxElements + 1);
        checks::elements(n, "the tensor");
        r.text = format_tensor(input_tensor(s, count, fill, "values"), false);
    });
    return r;
}

}  // namespace attn::lab
