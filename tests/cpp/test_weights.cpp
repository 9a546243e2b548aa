// The sections' "weights" field (requests/request_weights.h): a reader's module's state_dict instead of
// the seed's draws. Given back the very weights a seed draws, in either layout, every module's cells
// are the seeded answer's, bit for bit; biases and out_proj reach the modules that have them; a wrong
// name, layout or shape gets one sentence naming the layout.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "chapter/modules.h"
#include "core/format.h"
#include "core/generator.h"
#include "page/sections.h"
#include "replay/book.h"

namespace {

const char* kBookRows = "[[0.43,0.15,0.89],[0.55,0.87,0.66],[0.57,0.85,0.64],[0.22,0.58,0.33],[0.77,0.25,0.10],[0.05,0.80,0.55]]";

nlohmann::json answer(const std::string& id, const std::string& extra) {
    const attn::EvalResult r = attn::section_data("{\"section\":\"" + id + "\",\"inputs\":" + kBookRows + extra + "}");
    return nlohmann::json::parse(r.json);
}

// A tensor as JSON rows, every float32 exact (shortest round-trip text of a double of it).
nlohmann::json rows(const attn::Tensor& t) {
    nlohmann::json out = nlohmann::json::array();
    if (t.dim() == 1) {
        for (float v : t.data) out.push_back(static_cast<double>(v));
        return out;
    }
    for (int64_t i = 0; i < t.shape[0]; i++) {
        nlohmann::json r = nlohmann::json::array();
        for (int64_t j = 0; j < t.shape[1]; j++) r.push_back(static_cast<double>(t.data[i * t.shape[1] + j]));
        out.push_back(r);
    }
    return out;
}

std::string with(const nlohmann::json& weights) { return ",\"weights\":" + weights.dump(); }

// Every cell of `seeded` named in `ids` equals the one in `own`.
void same_cells(const nlohmann::json& own, const nlohmann::json& seeded, std::initializer_list<const char*> ids) {
    REQUIRE(own.contains("results"));
    for (const char* id : ids) {
        INFO(id);
        REQUIRE(seeded["results"].contains(id));
        CHECK(own["results"][id] == seeded["results"][id]);
    }
}

std::string error_of(const std::string& id, const nlohmann::json& weights, const std::string& extra = "") {
    const attn::EvalResult r = attn::section_data("{\"section\":\"" + id + "\",\"inputs\":" + kBookRows + extra + with(weights) + "}");
    REQUIRE_FALSE(r.ok);
    return r.error;
}

}  // namespace

TEST_CASE("a seed's own weights given back reproduce every module's cells, in either layout", "[sections][weights]") {
    attn::Generator gen;
    gen.manual_seed(123);
    const attn::SelfAttentionV1 v1(3, 2, gen);
    gen.manual_seed(789);
    const attn::SelfAttentionV2 v2(3, 2, false, gen);
    gen.manual_seed(123);
    const attn::CausalAttention ca(3, 2, 6, 0.0, false, gen);
    gen.manual_seed(123);
    const attn::MultiHeadAttention mha(3, 2, 6, 0.0, 2, false, gen);

    // SelfAttention_v1's layout (d_in × d_out), no d_out given: it follows from the weights
    const nlohmann::json v1w = {{"W_query", rows(v1.W_query)}, {"W_key", rows(v1.W_key)}, {"W_value", rows(v1.W_value)}};
    const auto step = answer("step-by-step", with(v1w));
    same_cells(step, answer("step-by-step", ",\"d_out\":2"),
               {"3.4.1/W_query", "3.4.1/W_value", "3.4.1/query_2", "3.4.1/attn_weights_2", "3.4.1/context_vec_2", "queries", "attn_weights", "context_vec", "exps_2_sum"});
    CHECK(step["results"]["weights/W_query"]["print"] == step["results"]["3.4.1/W_query"]["print"]);
    CHECK(step["results"]["weights/W_query.weight"]["shape"] == nlohmann::json::array({2, 3}));
    same_cells(answer("temperature", with(v1w)), answer("temperature", ",\"d_out\":2"), {"temperature_weights", "temperature_context_2"});

    // nn.Linear's layout (d_out × d_in), and the same weights transposed in SelfAttention_v1's
    const nlohmann::json v2w = {{"W_query.weight", rows(v2.W_query.weight)}, {"W_key.weight", rows(v2.W_key.weight)}, {"W_value.weight", rows(v2.W_value.weight)}};
    const nlohmann::json v2t = {{"W_query", rows(attn::transpose_2d(v2.W_query.weight))}, {"W_key", rows(attn::transpose_2d(v2.W_key.weight))},
                                {"W_value", rows(attn::transpose_2d(v2.W_value.weight))}};
    const auto classes = answer("classes", ",\"d_out\":2");
    for (const auto& w : {v2w, v2t}) {
        const auto own = answer("classes", with(w));
        same_cells(own, classes, {"3.4.2/sa_v2", "3.4.2/sa_v2.W_query.weight", "ex3.1/sa_v1_with_v2_weights"});
        // v1 now has v2's weights too: the same numbers as v2, v1's grad_fn
        CHECK(own["results"]["3.4.2/sa_v1"]["print"] == classes["results"]["3.4.2/sa_v2"]["print"]);
    }
    same_cells(answer("causal", with(v2w)), answer("causal", ",\"d_out\":2"),
               {"3.5.1/attn_weights", "3.5.1/masked", "3.5.1/attn_weights_causal", "3.5.2/dropout_attn_weights"});
    const nlohmann::json caw = {{"W_query.weight", rows(ca.W_query.weight)}, {"W_key.weight", rows(ca.W_key.weight)}, {"W_value.weight", rows(ca.W_value.weight)}};
    same_cells(answer("causal", with(caw)), answer("causal", ",\"d_out\":2"), {"3.5.3/context_vecs"});
    const nlohmann::json mhaw = {{"W_query.weight", rows(mha.W_query.weight)}, {"W_key.weight", rows(mha.W_key.weight)}, {"W_value.weight", rows(mha.W_value.weight)},
                                 {"out_proj.weight", rows(mha.out_proj.weight)}, {"out_proj.bias", rows(mha.out_proj.bias)}};
    same_cells(answer("multi-head", with(mhaw)), answer("multi-head", ",\"d_out\":2"), {"3.6.2/context_vecs", "3.6.1/context_vecs"});
}

TEST_CASE("weights change what the modules compute, biases and out_proj included", "[sections][weights]") {
    // qkv_bias: SelfAttention_v2 built with biases (seed 789, as the page's code builds it) and given its own
    attn::Generator gen;
    gen.manual_seed(789);
    const attn::SelfAttentionV2 v2(3, 4, true, gen);
    const nlohmann::json w = {{"W_query.weight", rows(v2.W_query.weight)}, {"W_key.weight", rows(v2.W_key.weight)}, {"W_value.weight", rows(v2.W_value.weight)},
                              {"W_query.bias", rows(v2.W_query.bias)}, {"W_key.bias", rows(v2.W_key.bias)}, {"W_value.bias", rows(v2.W_value.bias)}};
    const auto own = answer("classes", with(w));
    CHECK(own["results"]["3.4.2/sa_v2"]["print_with_grad_fn"] == attn::format_tensor(v2.forward(attn::book_inputs())));
    CHECK(own["results"]["3.4.2/sa_v2"]["shape"] == nlohmann::json::array({6, 4}));   // d_out = 4, from the weights
    CHECK_THAT(own["results"]["3.4.2/sa_v1"]["error"].get<std::string>(), Catch::Contains("SelfAttention_v1 has no bias"));
    CHECK_THAT(error_of("step-by-step", w), Catch::Contains("SelfAttention_v1 has no bias"));
    // a module's out_proj: other numbers than the seed's
    nlohmann::json mw = w;
    mw["out_proj.weight"] = nlohmann::json::array({{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 2}});
    mw["out_proj.bias"] = nlohmann::json::array({0, 0, 0, 1});
    const auto mh = answer("multi-head", with(mw))["results"]["3.6.2/context_vecs"];
    const auto seeded = answer("multi-head", with(w))["results"]["3.6.2/context_vecs"];
    REQUIRE(mh["values"].size() == 48);
    for (int i = 0; i < 48; i += 4) CHECK(mh["values"][i + 3].get<double>() != seeded["values"][i + 3].get<double>());
}

TEST_CASE("a wrong name, layout or shape of the weights gets one sentence naming the layout", "[sections][weights][checks]") {
    const auto m23 = nlohmann::json::array({{1, 2, 3}, {4, 5, 6}});
    const auto m32 = nlohmann::json::array({{1, 2}, {3, 4}, {5, 6}});
    CHECK(error_of("classes", {{"W_query.weight", m32}, {"W_key.weight", m32}, {"W_value.weight", m32}}) ==
          "W_query.weight is nn.Linear's weight, d_out × d_in = 2 × 3; you gave 3 × 2 — that is nn.Parameter's layout, name it W_query");
    CHECK(error_of("classes", {{"W_query", m23}, {"W_key", m23}, {"W_value", m23}}) ==
          "W_query is SelfAttention_v1's nn.Parameter, d_in × d_out = 3 × 2; you gave 2 × 3 — that is nn.Linear's layout, name it W_query.weight");
    CHECK_THAT(error_of("classes", {{"W_query.weight", m23}, {"W_key.weight", m23}}), Catch::Contains("W_value.weight is missing"));
    CHECK_THAT(error_of("classes", {{"W_query", m32}, {"W_key.weight", m23}, {"W_value.weight", m23}}), Catch::Contains("mixes SelfAttention_v1's W_query"));
    CHECK_THAT(error_of("classes", {{"W_query.weight", m23}, {"W_key.weight", nlohmann::json::array({{1, 2, 3}})}, {"W_value.weight", m23}}),
               Catch::Contains("W_key.weight is nn.Linear's weight, d_out × d_in = 2 × 3"));
    CHECK_THAT(error_of("classes", {{"W_query.weight", m23}, {"W_key.weight", m23}, {"W_value.weight", m23}, {"W_query.bias", {1, 2}}}),
               Catch::Contains("all three of W_query.bias"));
    CHECK_THAT(error_of("classes", {{"W_query.weight", m23}, {"W_key.weight", m23}, {"W_value.weight", m23}, {"Wquery.weight", m23}}),
               Catch::Contains("unknown field \"Wquery.weight\" for \"weights\""));
    CHECK_THAT(error_of("classes", {{"W_query.weight", m23}, {"W_key.weight", m23}, {"W_value.weight", m23}}, ",\"d_out\":3"),
               Catch::Contains("\"d_out\" is 3 but the weights give d_out = 2"));
    CHECK_THAT(error_of("classes", {{"W_query.weight", m23}, {"W_key.weight", m23}, {"W_value.weight", m23}, {"out_proj.weight", m23}, {"out_proj.bias", {1, 2}}}),
               Catch::Contains("out_proj.weight is nn.Linear(d_out, d_out)'s weight, d_out × d_out = 2 × 2; you gave 2 × 3"));
    CHECK_THAT(error_of("classes", {{"W_query.weight", nlohmann::json::array({{1, 2, "nan"}, {4, 5, 6}})}, {"W_key.weight", m23}, {"W_value.weight", m23}}),
               Catch::Contains("W_query.weight"));
    CHECK_THAT(error_of("classes", nlohmann::json::array({1})), Catch::Contains("must be a JSON object like {\"W_query.weight\""));
}
