// section_data, the page's one data path: on the book's inputs every golden cell it returns is the
// golden print; the learner's seed replaces every seed; the step-by-step extras agree with the
// golden cells; per-statement errors and bad requests come back as sentences.
#include <catch2/catch.hpp>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <vector>

#include "chapter/modules.h"
#include "core/limits.h"
#include "requests/request.h"
#include "page/sections.h"
#include "fixtures.h"

namespace {

const char* kBookRows = "[[0.43,0.15,0.89],[0.55,0.87,0.66],[0.57,0.85,0.64],[0.22,0.58,0.33],[0.77,0.25,0.10],[0.05,0.80,0.55]]";

nlohmann::json section(const std::string& id, const std::string& extra = "", int d_out = 2) {
    const std::string request = "{\"section\":\"" + id + "\",\"inputs\":" + kBookRows +
                                ",\"d_out\":" + std::to_string(d_out) + extra + "}";
    return nlohmann::json::parse(attn::section_data(request).json);
}

std::map<std::string, nlohmann::json> golden_cells() {
    std::map<std::string, nlohmann::json> out;
    const nlohmann::json golden = fixture_json("chapter3.json");
    for (const auto& c : golden["cells"]) out[c["id"].get<std::string>()] = c;
    return out;
}

std::string golden_line(const nlohmann::json& c) {
    const std::string print = c["print"].get<std::string>();
    return c["label"].is_null() ? print : c["label"].get<std::string>() + " " + print;
}

}  // namespace

TEST_CASE("every section's golden cells equal PyTorch's print with the book's seeds", "[sections]") {
    const auto golden = golden_cells();
    std::set<std::string> checked;
    for (const char* id : attn::kSectionIds) {
        const auto answer = section(id);
        REQUIRE(answer.contains("results"));
        for (const auto& [name, r] : answer["results"].items()) {
            if (!golden.count(name)) continue;
            INFO(id << " " << name);
            CHECK(r["line"] == golden_line(golden.at(name)));
            checked.insert(name);
        }
    }
    // every cell the page shows (tests/browser/page.test.js's list)
    for (const char* id : {"3.3.2/attn_weights", "3.3.2/all_context_vecs", "toy/all_context_vecs", "3.4.1/query_2",
                           "3.4.1/keys.shape", "3.4.1/attn_score_22", "3.4.1/attn_scores_2", "3.4.1/attn_weights_2",
                           "3.4.1/context_vec_2", "3.4.2/sa_v1", "3.4.2/sa_v2", "ex3.1/sa_v1_with_v2_weights",
                           "3.5.1/attn_weights", "3.5.1/mask_simple", "3.5.1/masked_simple", "3.5.1/masked_simple_norm",
                           "3.5.1/masked", "3.5.1/attn_weights_causal", "3.5.2/dropout_ones", "3.5.2/dropout_attn_weights",
                           "3.5.3/batch.shape", "3.5.3/context_vecs", "3.6.1/context_vecs", "ex3.2/context_vecs",
                           "3.6.2/a_at_aT", "3.6.2/context_vecs", "ex3.3/num_params"}) {
        CHECK(checked.count(id) == 1);
    }
}

TEST_CASE("the step-by-step extras agree with the chapter's own cells", "[sections]") {
    const auto r = section("step-by-step")["results"];
    const auto golden = golden_cells();
    // row 2 of the weights matrix and of the context vectors are 3.4.1's attn_weights_2 and z(2)
    const auto& w = r["attn_weights"]["values"];
    const auto& w2 = golden.at("3.4.1/attn_weights_2")["values"];
    for (int j = 0; j < 6; j++) CHECK(static_cast<float>(json_value(w[6 + j])) == static_cast<float>(json_value(w2[j])));
    CHECK(r["keys"]["shape"] == nlohmann::json::array({6, 2}));
    CHECK(r["attn_scores"]["shape"] == nlohmann::json::array({6, 6}));
    CHECK(r["exps_2"]["shape"] == nlohmann::json::array({6}));
    double sum = 0;
    for (const auto& v : r["exps_2"]["values"]) sum += json_value(v);
    CHECK(close(json_value(r["exps_2_sum"]["values"][0]), sum));
    CHECK(r["3.4.1/attn_score_22"]["print"] == "tensor(1.8524)");
    // print(attn_scores_2 / d_k**0.5) from W_* with requires_grad=False: PyTorch prints no grad_fn
    CHECK(r["scaled_scores_2"]["line"] == "tensor([0.8984, 1.3098, 1.2806, 0.7633, 0.3944, 1.0918])");
    CHECK_FALSE(r["scaled_scores_2"].contains("grad_fn"));
}

TEST_CASE("the temperature section: √d_k by default gives 3.4.1's weights, any T its softmax", "[sections]") {
    const auto golden = golden_cells();
    const auto r = section("temperature")["results"];
    CHECK(r["temperature_weights_2"]["print"] == golden.at("3.4.1/attn_weights_2")["print"]);
    CHECK(r["temperature_context_2"]["print"] == golden.at("3.4.1/context_vec_2")["print"]);
    CHECK(r["temperature_weights"]["shape"] == nlohmann::json::array({6, 6}));
    const auto hot = section("temperature", ",\"temperature\":100")["results"];
    const auto eval = nlohmann::json::parse(attn::eval_request(
        "{\"op\":\"softmax\",\"temperature\":100,\"x\":" + golden.at("3.4.1/attn_scores_2")["values"].dump() + "}").json);
    CHECK(hot["temperature_weights_2"]["print"] == eval["print"]);
}

TEST_CASE("a learner's seed replaces every torch.manual_seed, Listing 3.2's 789 included", "[sections]") {
    const auto book = section("classes")["results"];
    const auto seeded = section("classes", ",\"seed\":789")["results"];
    const auto eval_v1 = nlohmann::json::parse(attn::eval_request(
        std::string("{\"op\":\"self_attention_v1\",\"seed\":789,\"d_out\":2,\"x\":") + kBookRows + "}").json);
    CHECK(seeded["3.4.2/sa_v1"]["print_with_grad_fn"] == eval_v1["print_with_grad_fn"]);
    CHECK(seeded["3.4.2/sa_v2"]["print"] == book["3.4.2/sa_v2"]["print"]);  // 789 was its seed already
    const auto seven = section("causal", ",\"seed\":7")["results"];
    CHECK(seven["3.5.2/dropout_ones"]["print"] != section("causal")["results"]["3.5.2/dropout_ones"]["print"]);
}

TEST_CASE("a statement the sizes do not allow carries its sentence: the rest is computed", "[sections]") {
    const auto r = section("multi-head", "", 3)["results"];
    CHECK(r["3.6.2/context_vecs"]["error"] == "d_out (3) must be divisible by num_heads (2)");
    CHECK(r["3.6.1/context_vecs"]["shape"] == nlohmann::json::array({2, 6, 6}));
    CHECK(r["ex3.3/num_params"]["line"] == "2360064");
}

TEST_CASE("the GPT-2 parameter count without building the module equals the built module's", "[sections]") {
    attn::Generator gen(1);
    for (auto [d_in, d_out, bias] : {std::tuple{3, 2, false}, {5, 4, true}, {768, 768, false}}) {
        const attn::MultiHeadAttention mha(d_in, d_out, 4, 0.0, 2, bias, gen);
        CHECK(attn::MultiHeadAttention::count_params(d_in, d_out, bias) == mha.num_params());
    }
}

TEST_CASE("the batched check: one reversed row disagrees in that row only", "[sections]") {
    const auto r = section("batched", ",\"corrupt\":\"row\",\"corrupt_row\":3")["results"];
    for (int i = 1; i <= 6; i++) {
        const std::string k = std::to_string(i);
        CHECK((r["debug/batched/" + k]["print"] == r["debug/one_token/" + k]["print"]) == (i != 3));
    }
}

TEST_CASE("the batched check draws the weights it used: row 3 reversed, the rest and the product follow", "[sections]") {
    const auto plain = section("batched")["results"];
    const auto r = section("batched", ",\"corrupt\":\"row\",\"corrupt_row\":3")["results"];
    CHECK(plain["debug/attn_weights"]["print"] == plain["3.3.2/attn_weights"]["print"]);
    CHECK(plain["debug/all_context_vecs"]["print"] == plain["3.3.2/all_context_vecs"]["print"]);
    const auto& w0 = plain["debug/attn_weights"]["values"];
    const auto& w = r["debug/attn_weights"]["values"];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) CHECK(w[i * 6 + j] == (i == 2 ? w0[i * 6 + 5 - j] : w0[i * 6 + j]));
    const auto& out = r["debug/all_context_vecs"]["values"];
    for (int i = 0; i < 6; i++)
        for (int c = 0; c < 3; c++) CHECK(out[i * 3 + c] == r["debug/batched/" + std::to_string(i + 1)]["values"][c]);
}

namespace {

// The sentence a refused request gets (and the one the WebAssembly binding throws), or "(answered)".
std::string refusal(const attn::EvalResult& r) {
    if (r.ok) return "(answered)";
    CHECK(r.error == nlohmann::json::parse(r.json).at("error").get<std::string>());
    return r.error;
}
std::string section_error(const std::string& request) { return refusal(attn::section_data(request)); }
std::string eval_error(const std::string& request) { return refusal(attn::eval_request(request)); }

}  // namespace

TEST_CASE("bad section requests are refused with a sentence", "[sections]") {
    CHECK(section_error("[1]") ==
          "the request must be a JSON object like {\"section\": \"step-by-step\", \"inputs\": [[...]], \"d_out\": 2}");
    CHECK(section_error(R"({"section":"__proto__","inputs":[[1],[2]],"d_out":1})") ==
          "unknown section \"__proto__\"; use one of: batched, step-by-step, temperature, why-sqrt-dk, classes, causal, multi-head, bug-hunt");
    CHECK(section_error(R"({"inputs":[[1],[2]],"d_out":1})").find("missing field \"section\": give one of: batched, step-by-step") == 0);
    CHECK(section_error(R"({"section":"causal","inputs":[[1],[2]],"d_out":1,"seed,d_out":1})") ==
          "unknown field \"seed,d_out\" for section \"causal\"; the fields it takes are: section, inputs, d_out, seed, "
          "temperature, corrupt, corrupt_row, d_k, bug, ex3_1, weights");
    CHECK(section_error(R"({"section":"causal","inputs":[[1,2],[2]],"d_out":1})") ==
          "\"inputs\" is ragged: every row at depth 2 must have 2 entries, like the first one");
    CHECK(section_error(R"({"section":"causal","inputs":[[1],["inf"]],"d_out":1})") ==
          "\"inputs\" must hold finite numbers; inputs[1][0] is \"inf\"");
    CHECK(section_error(R"({"section":"causal","inputs":[[1]],"d_out":1})") ==
          "the number of tokens (rows of \"inputs\") must be a whole number from 2 to 64, got 1");
    CHECK(section_error(R"({"section":"causal","inputs":[[1],[2]],"d_out":0})") == "\"d_out\" must be a whole number from 1 to 64, got 0");
    CHECK(section_error(R"({"section":"temperature","inputs":[[1],[2]],"d_out":1,"temperature":0})") ==
          "the temperature must be a finite number greater than 0, got 0");
    CHECK(section_error(R"({"section":"batched","d_out":2,"corrupt":"rows"})") ==
          "\"corrupt\" must be one of: none, row, inputs; got \"rows\"");
    CHECK(section_error(R"({"section":"classes","d_out":2,"ex3_1":{"W_query":"W_query.weight"}})").find("\"ex3_1\" must be {\"W_query\": ...") == 0);
    CHECK(section_error(R"({"section":"causal","inputs":[[1],[2]],"d_out":1,"seed":1.5})").find("\"seed\"") == 0);
    CHECK(section_error(R"({"section":"causal","d_out":2,"seed":null,"temperature":null})") == "(answered)");  // null: the default
}

TEST_CASE("sectionData and eval refuse the same bad text or field with the same sentence", "[sections][checks]") {
    // the whole text: not JSON, a NUL byte, nesting past the depth limit, a key twice, a number beyond a double, too large
    const std::string deep = std::string(20, '[') + "1" + std::string(20, ']');
    const std::string big(static_cast<size_t>(attn::limits::kMaxRequestBytes) + 1, ' ');
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"{", "{"},
        {std::string("\0{\"op\":\"softmax\"}", 17), std::string("\0{\"section\":\"causal\"}", 21)},
        {"{\"op\":\"softmax\",\"x\":" + deep + "}", "{\"section\":\"causal\",\"inputs\":" + deep + "}"},
        {R"({"op":"rand","seed":1,"seed":2,"shape":[2]})", R"({"section":"causal","d_out":2,"seed":1,"seed":2})"},
        {R"({"op":"softmax","x":[[1e999]]})", R"({"section":"causal","d_out":2,"inputs":[[1e999],[1]]})"},
        {big, big},
        // one field: the same temperature, the same seed
        {R"({"op":"softmax","x":[[1,2]],"temperature":0})", R"({"section":"temperature","d_out":2,"temperature":0})"},
        {R"({"op":"softmax","x":[[1,2]],"temperature":-2.5})", R"({"section":"temperature","d_out":2,"temperature":-2.5})"},
        {R"({"op":"softmax","x":[[1,2]],"temperature":"nan"})", R"({"section":"temperature","d_out":2,"temperature":"nan"})"},
        {R"({"op":"softmax","x":[[1,2]],"temperature":"inf"})", R"({"section":"temperature","d_out":2,"temperature":"inf"})"},
        {R"({"op":"softmax","x":[[1,2]],"temperature":true})", R"({"section":"temperature","d_out":2,"temperature":true})"},
        {R"({"op":"rand","seed":1.5,"shape":[2]})", R"({"section":"causal","d_out":2,"seed":1.5})"},
        {R"({"op":"rand","seed":"7","shape":[2]})", R"({"section":"causal","d_out":2,"seed":"7"})"},
    };
    for (const auto& [eval_text, section_text] : pairs) {
        const std::string e = eval_error(eval_text);
        INFO(e.substr(0, 200));
        CHECK(e != "(answered)");
        CHECK(section_error(section_text) == e);
    }
    // a field's cell: the same sentence with the field's name
    CHECK(section_error(R"({"section":"causal","d_out":2,"inputs":[[1,2],[3]]})") ==
          std::regex_replace(eval_error(R"({"op":"softmax","x":[[1,2],[3]]})"), std::regex("\"x\""), "\"inputs\""));
    CHECK(section_error(R"({"section":"causal","d_out":2,"inputs":[[1],["a"]]})") ==
          std::regex_replace(eval_error(R"({"op":"softmax","x":[[1],["a"]]})"), std::regex("\"x\""), "\"inputs\""));
}

TEST_CASE("limits(): the page's table and the sections, as core/limits.h and kSectionIds hold them", "[sections]") {
    const auto j = nlohmann::json::parse(attn::limits_json());
    namespace page = attn::limits::page;
    CHECK(j["page"]["value"] == page::kValue);
    CHECK(j["page"]["tokensMax"] == page::kTokensMax);
    CHECK(j["page"]["dOutMax"] == page::kDOutMax);
    CHECK(j["page"]["temperatureMin"].get<double>() == 0.01);
    CHECK(j["replay"]["tokensMax"] == attn::limits::kMaxReplayTokens);
    REQUIRE(j["sections"].size() == std::size(attn::kSectionIds));
    for (size_t i = 0; i < std::size(attn::kSectionIds); i++) CHECK(j["sections"][i] == attn::kSectionIds[i]);
    // the page's largest request is one sectionData answers
    std::string rows;
    for (int64_t t = 0; t < page::kTokensMax; t++) {
        rows += std::string(t ? "," : "") + "[";
        for (int64_t d = 0; d < page::kDInMax; d++) rows += std::string(d ? "," : "") + (d % 2 ? "-1000" : "1000");
        rows += "]";
    }
    CHECK(section_error(R"({"section":"multi-head","d_out":16,"inputs":[)" + rows + "]}") == "(answered)");
}

TEST_CASE("why-sqrt-dk: the experiment at the learner's d_k and the sweep are PyTorch's numbers", "[sections]") {
    const nlohmann::json cases = fixture_json("dk_cases.json")["cases"];
    std::map<int, nlohmann::json> book_seed;   // d_k -> PyTorch's run with seed 123
    for (const auto& c : cases) if (c["seed"] == 123) book_seed[c["d_k"].get<int>()] = c;
    const auto r = section("why-sqrt-dk", ",\"d_k\":256")["results"];
    CHECK(r["dk/attn_scores"]["print"] == book_seed.at(256)["attn_scores"]["print"]);
    CHECK(r["dk/weights_unscaled"]["print"] == book_seed.at(256)["weights_unscaled"]["print"]);
    CHECK(r["dk/weights_scaled"]["print"] == book_seed.at(256)["weights_scaled"]["print"]);
    CHECK(static_cast<float>(r["dk/spread"]["values"][0].get<double>()) == book_seed.at(256)["spread"].get<float>());
    const auto dks = r["dk/sweep/d_k"]["values"];
    REQUIRE(dks.size() == 10);   // 2, 4, ..., 1024
    for (size_t i = 0; i < dks.size(); i++) {
        const int dk = dks[i].get<int>();
        INFO("d_k = " << dk);
        REQUIRE(book_seed.count(dk));
        CHECK(static_cast<float>(r["dk/sweep/spread"]["values"][i].get<double>()) == book_seed.at(dk)["spread"].get<float>());
        CHECK(static_cast<float>(r["dk/sweep/max_unscaled"]["values"][i].get<double>()) == book_seed.at(dk)["max_unscaled"].get<float>());
        CHECK(static_cast<float>(r["dk/sweep/max_scaled"]["values"][i].get<double>()) == book_seed.at(dk)["max_scaled"].get<float>());
    }
    CHECK(section("why-sqrt-dk")["results"]["dk/attn_scores"]["print"] == book_seed.at(64)["attn_scores"]["print"]);   // default 64
    const std::string refused = section("why-sqrt-dk", ",\"d_k\":4096")["error"].get<std::string>();
    CHECK(refused.find("\"d_k\" must be a whole number from 2 to 1024") != std::string::npos);
}

TEST_CASE("multi-head: each head's causal weights, as the wrapper's head computes them", "[sections]") {
    const auto r = section("multi-head")["results"];
    for (const char* name : {"heads/1/attn_weights", "heads/2/attn_weights"}) {
        INFO(name);
        REQUIRE(r.contains(name));
        CHECK(r[name]["shape"] == nlohmann::json::array({6, 6}));
        const auto& v = r[name]["values"];
        for (int i = 0; i < 6; i++) {
            double sum = 0;
            for (int j = 0; j < 6; j++) {
                if (j > i) CHECK(v[i * 6 + j].get<double>() == 0.0);   // the future is masked
                sum += v[i * 6 + j].get<double>();
            }
            CHECK(sum == Approx(1.0).epsilon(1e-6));
        }
    }
    CHECK(r["heads/1/attn_weights"]["values"] != r["heads/2/attn_weights"]["values"]);
}
