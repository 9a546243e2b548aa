// The request rules (engine/src/rules/checks.h), one home for each: `eval` and the page's entry points
// apply the same rules with the same sentences, and the C++ modules throw them too (sectionData's
// fields: tests/cpp/test_sections.cpp). The sizes of the review's
// GPT-2-small request are accepted by MultiHeadAttention's size rules, which once multiplied the
// projections by num_heads as only MultiHeadAttentionWrapper's need.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>

#include "rules/checks.h"
#include "core/generator.h"
#include "page/lab.h"
#include "core/limits.h"
#include "chapter/modules.h"
#include "requests/request.h"
#include "fixtures.h"

using nlohmann::json;
namespace checks = attn::checks;

namespace {

struct MhaCase {
    int64_t batch, tokens, d_in, d_out, num_heads, context_length;
    double dropout;
};

// x of zeros as JSON text; `bad_last` makes its last number a string, which `eval` reads only after
// every size and work check has passed, so the error says the sizes were accepted.
std::string zeros_json(const MhaCase& c, bool bad_last) {
    std::string row = "[";
    for (int64_t i = 0; i < c.d_in; i++) row += i ? ",0" : "0";
    row += "]";
    std::string out = "[";
    for (int64_t b = 0; b < c.batch; b++) {
        out += b ? ",[" : "[";
        for (int64_t t = 0; t < c.tokens; t++) out += (t ? "," : "") + row;
        out += "]";
    }
    out += "]";
    if (bad_last) out.replace(out.rfind('0'), 1, "\"zero\"");
    return out;
}

std::string eval_error(const MhaCase& c, bool bad_last) {
    const json request = {{"op", "mha"}, {"seed", 123}, {"d_out", c.d_out}, {"num_heads", c.num_heads},
                          {"context_length", c.context_length}, {"dropout", c.dropout}};
    std::string text = request.dump();
    text.insert(text.size() - 1, ",\"x\":" + zeros_json(c, bad_last));
    const attn::EvalResult r = attn::eval_request(text);
    return r.ok ? "" : json::parse(r.json)["error"].get<std::string>();
}

// mhaForward's C++ side; `short_x` hands it one number too few, which it checks only after the sizes.
std::string page_error(const MhaCase& c, bool short_x) {
    const int64_t n = c.batch * c.tokens * c.d_in;
    const size_t count = static_cast<size_t>(short_x ? n - 1 : n);
    const attn::lab::MhaResult r = attn::lab::mha_forward(
        count, [](float*) {}, static_cast<double>(c.batch), static_cast<double>(c.tokens), static_cast<double>(c.d_in),
        static_cast<double>(c.d_out), static_cast<double>(c.num_heads), static_cast<double>(c.context_length),
        c.dropout, 123);
    return r.error;
}

// eval names a JSON field in quotes ("d_out"), the page an argument without: the same sentence.
std::string unquoted(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
    return s;
}

}  // namespace

TEST_CASE("eval's mha and the page's mhaForward accept and refuse the same sizes, with the same sentence", "[checks]") {
    const MhaCase cases[] = {
        {2, 4, 8, 8, 2, 4, 0.0},          // fine
        {2, 4, 8, 5, 2, 4, 0.0},          // d_out not divisible by num_heads
        {2, 4, 8, 8, 2, 3, 0.0},          // more tokens than context_length
        {2, 4, 8, 8, 2, 4, 1.0},          // dropout out of [0, 1)
        // just short of the fused path (checks::mha_fused): 256 heads of 127 x 127 weights
        {1, attn::checks::kFusedMinTokens - 1, 4, 256, 256, attn::checks::kFusedMinTokens - 1, 0.0},
        {64, 128, 4, 2048, 8, 128, 0.0},  // the projections: 64 x 128 x 2048 numbers
    };
    for (const MhaCase& c : cases) {
        INFO("B=" << c.batch << " T=" << c.tokens << " d_in=" << c.d_in << " d_out=" << c.d_out << " heads=" << c.num_heads
                  << " context_length=" << c.context_length << " dropout=" << c.dropout);
        const std::string from_eval = eval_error(c, true), from_page = page_error(c, true);
        // both got past the sizes (to x's contents), or both refused them in the same words
        const bool eval_accepted = from_eval.find("must be a number") != std::string::npos;
        const bool page_accepted = from_page.find("numbers but its shape") != std::string::npos;
        CHECK(eval_accepted == page_accepted);
        if (!eval_accepted) CHECK(unquoted(from_eval) == unquoted(from_page));
    }
}

TEST_CASE("MultiHeadAttention's size rules accept GPT-2 small's sizes, batch 2", "[checks]") {
    namespace gpt2 = attn::gpt2_small;
    const checks::AttentionSizes gpt2_batch2{2, 1024, gpt2::kEmbDim, gpt2::kEmbDim, gpt2::kNumHeads, 1024, 0.0};
    // the element rules (2 x 1024 x 768 projections, no (T, T) weights on the fused path) pass: if
    // anything refuses these sizes it is the work bound, by the same sentence in eval and on the page
    try {
        checks::attention_sizes(gpt2_batch2, checks::Module::mha);
    } catch (const attn::Error& e) {
        CHECK_THAT(e.what(), Catch::Contains("multiply-adds"));
    }
    const MhaCase batch2{2, 1024, gpt2::kEmbDim, gpt2::kEmbDim, gpt2::kNumHeads, 1024, 0.0};
    CHECK_THAT(page_error(batch2, true), !Catch::Contains("the projections"));
    // batch 1, as the page's demo runs it: accepted by both
    const MhaCase batch1{1, 1024, gpt2::kEmbDim, gpt2::kEmbDim, gpt2::kNumHeads, 1024, 0.0};
    CHECK_THAT(eval_error(batch1, true), Catch::Contains("must be a number"));
    CHECK_THAT(page_error(batch1, true), Catch::Contains("numbers but its shape"));
    // while the wrapper, which holds 12 whole projections, is still refused by the element rule
    CHECK_THROWS_WITH(checks::attention_sizes(gpt2_batch2, checks::Module::mha_wrapper),
                      Catch::Contains("the projections would need 18874368 numbers"));
}

TEST_CASE("the modules throw the same sentences as eval", "[checks]") {
    attn::Generator gen(1);
    CHECK_THROWS_WITH(attn::MultiHeadAttention(8, 5, 4, 0.0, 2, false, gen), "d_out (5) must be divisible by num_heads (2)");
    CHECK_THROWS_WITH(attn::CausalAttention(8, 4, 0, 0.0, false, gen), "context_length must be at least 1, got 0");
    const attn::CausalAttention ca(2, 2, 3, 0.0, false, gen);
    CHECK_THROWS_WITH(ca.forward(attn::Tensor::zeros({1, 4, 2}), gen),
                      "x has 4 tokens but context_length is 3: raise context_length or use fewer tokens");
    CHECK_THROWS_WITH(attn::temperature_softmax(attn::Tensor::zeros({2}), 0.0),
                      Catch::StartsWith("the temperature must be a finite number greater than 0"));
    // and eval's words for the same rules
    CHECK(error_of(R"({"op":"mha","seed":1,"x":[[[1,2]]],"d_out":5,"num_heads":2,"context_length":4,"dropout":0})") ==
          "d_out (5) must be divisible by num_heads (2)");
    CHECK_THAT(error_of(R"({"op":"softmax","x":[1],"temperature":0})"),
               Catch::StartsWith("the temperature must be a finite number greater than 0"));
}

TEST_CASE("an unknown op is told the ops eval has", "[checks]") {
    const attn::EvalResult r = attn::eval_request(R"({"op":"attention"})");
    CHECK(json::parse(r.json)["error"] == "unknown op \"attention\"; use one of rand, linear, softmax, matmul, dropout, "
                                          "self_attention_v1, self_attention_v2, causal_attention, mha_wrapper, mha, bug_hunt, check, grad, train, train_task");
}
