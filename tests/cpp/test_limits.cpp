// The work bound (core/limits.h, engine/src/rules/checks.cpp) and the request text's own checks: the sizes of
// the security review's slow requests are refused with a sentence naming the bound, the largest
// sizes of each op are still accepted, unknown fields are compared by exact name, and NUL or
// trailing bytes are errors.
#include <catch2/catch.hpp>
#include <string>

#include "rules/checks.h"
#include "core/limits.h"
#include "requests/request.h"
#include "fixtures.h"

using nlohmann::json;
namespace checks = attn::checks;
namespace lim = attn::limits;

namespace {

// a nested list of zeros, as JSON text
std::string zeros(const std::vector<int64_t>& shape, size_t dim = 0) {
    if (dim == shape.size()) return "0";
    std::string out = "[";
    const std::string inner = zeros(shape, dim + 1);
    for (int64_t i = 0; i < shape[dim]; i++) out += (i ? "," : "") + inner;
    return out + "]";
}

bool accepted(const checks::Work& w) {
    try {
        checks::check_work(w);
        return true;
    } catch (const attn::Error&) {
        return false;
    }
}

}  // namespace

TEST_CASE("the security review's slow requests are refused with a sentence naming the bound", "[eval][limits]") {
    // rand of 2^24 numbers, linear 2048 x 2048: more numbers than an answer may hold
    CHECK_THAT(error_of(R"({"op":"rand","seed":1,"shape":[16777216]})"), Catch::Contains("numbers in the answer"));
    CHECK_THAT(error_of(R"({"op":"linear","seed":1,"d_in":2048,"d_out":2048})"), Catch::Contains("numbers in the answer"));
    // MultiHeadAttentionWrapper with T = 2048 and 256 heads of d_out 32: too many multiply-adds
    // (d_in is 64 here so that x itself fits in a request; with d_in = 2048 x alone is over 4 MiB)
    CHECK_THAT(error_of(R"({"op":"mha_wrapper","seed":1,"x":)" + zeros({1, 2048, 64}) +
                        R"(,"d_out":32,"context_length":2048,"dropout":0,"num_heads":256})"),
               Catch::Contains("multiply-adds, more than the limit of " + std::to_string(lim::kMaxMultiplyAdds)));
    // softmax of 16,777,186 zeros, and 32 MiB of {} in an unknown field: more text than a request may have
    const std::string many_zeros = R"({"op":"softmax","x":)" + zeros({16777186}) + "}";
    CHECK_THAT(error_of(many_zeros), Catch::Contains("larger than 4 MiB"));
    std::string objects = R"({"op":"softmax","x":[1],"junk":[{})";
    while (objects.size() < (size_t(32) << 20)) objects += ",{}";
    CHECK_THAT(error_of(objects + "]}"), Catch::Contains("larger than 4 MiB"));
    // below the size limit, the unknown field is refused before x is read or anything computed
    objects.resize(size_t(1) << 20);
    CHECK_THAT(error_of(objects + "]}"), Catch::Contains("unknown field \"junk\""));
}

TEST_CASE("the largest sizes of each op are within the work bound, one step more is not", "[limits]") {
    CHECK(accepted(checks::rand_work({lim::kMaxResultNumbers})));
    CHECK_FALSE(accepted(checks::rand_work({lim::kMaxResultNumbers + 1})));
    CHECK(accepted(checks::linear_work(2048, 1023, true)));
    CHECK_FALSE(accepted(checks::linear_work(2048, 1024, true)));
    CHECK(accepted(checks::softmax_work({lim::kMaxResultNumbers})));
    CHECK(accepted(checks::dropout_work({lim::kMaxResultNumbers})));
    CHECK(accepted(checks::matmul_work({1024, 2048}, {2048, 2048})));
    CHECK_FALSE(accepted(checks::matmul_work({1025, 2048}, {2048, 2048})));
    CHECK(accepted(checks::matmul_work({64, 1, 32, 1024}, {1, 32, 1024, 32})));
    CHECK_FALSE(accepted(checks::matmul_work({64, 1, 32, 1024}, {1, 64, 1024, 32})));
    CHECK(accepted(checks::self_attention_work(2048, 256, 256)));
    CHECK_FALSE(accepted(checks::self_attention_work(2048, 512, 512)));
    CHECK(accepted(checks::causal_attention_work(1, 2048, 128, 128, 1)));
    CHECK_FALSE(accepted(checks::causal_attention_work(2, 2048, 128, 128, 1)));
    CHECK(accepted(checks::causal_attention_work(64, 32, 64, 32, 32)));
    CHECK_FALSE(accepted(checks::causal_attention_work(64, 32, 64, 32, 64)));
    CHECK(accepted(checks::mha_work(1, 2048, 256, 256, 8, true)));
    CHECK(accepted(checks::mha_work(1, 2048, 64, 64, 1, false)));
    CHECK_FALSE(accepted(checks::mha_work(1, 2048, 64, 64, 2, false)));
    // the work is estimated from sizes alone: none of these allocates
    CHECK_FALSE(accepted(checks::mha_work(64, 2048, 2048, 2048, 256, false)));
}

TEST_CASE("eval still answers requests at the bound", "[eval][limits]") {
    // modest sizes with the same shape of work; the full sizes are measured, not tested (docs/cli.md, Limits)
    const attn::EvalResult r = attn::eval_request(R"({"op":"rand","seed":1,"shape":[65536]})");
    CHECK(r.ok);
    CHECK(json::parse(r.json)["values"].size() == 65536);
}

TEST_CASE("unknown fields are compared by exact name", "[eval][errors]") {
    CHECK_THAT(error_of(R"({"op":"rand","seed":1,"shape":[2],"seed,shape":42})"), Catch::Contains("unknown field \"seed,shape\""));
    CHECK_THAT(error_of(R"({"op":"rand","seed":1,"shape":[2],"shape,":42})"), Catch::Contains("unknown field \"shape,\""));
    CHECK_THAT(error_of(R"({"op":"rand","seed":1,"shape":[2],"":42})"), Catch::Contains("unknown field \"\""));
    // a field another op takes is still unknown here
    CHECK_THAT(error_of(R"({"op":"softmax","x":[1],"seed":1})"), Catch::Contains("unknown field \"seed\" for op \"softmax\""));
    CHECK(attn::eval_request(R"({"op":"rand","seed":1,"shape":[2]})").ok);
}

TEST_CASE("NUL and bytes after the object are errors: error texts keep the whole value", "[eval][errors]") {
    using namespace std::string_literals;
    CHECK_THAT(error_of("{\"op\":\"softmax\",\"x\":[1,2]}\0 garbage [[[["s), Catch::Contains("NUL byte at offset 26"));
    CHECK_THAT(error_of("{\"op\":\"softmax\",\"x\":[1,2]}\0"s), Catch::Contains("NUL byte"));
    CHECK_THAT(error_of("{\"op\":\"softmax\",\"x\":[1,2]} garbage"), Catch::Contains("not valid JSON"));
    CHECK_THAT(error_of("{\"op\":\"softmax\",\"x\":[1,2]}{}"), Catch::Contains("not valid JSON"));
    CHECK(attn::eval_request("{\"op\":\"softmax\",\"x\":[1,2]}\n").ok);  // whitespace after it is fine
    // an escaped NUL inside a string is valid JSON: the message shows it escaped, and what follows it
    CHECK(error_of(R"({"op":"soft\u0000max"})") == "unknown op \"soft\\u0000max\"; use one of rand, linear, softmax, "
                                                   "matmul, dropout, self_attention_v1, self_attention_v2, "
                                                   "causal_attention, mha_wrapper, mha, bug_hunt, check, grad, train, train_task");
    CHECK_THAT(error_of(R"({"op":"rand","seed":1,"shape":[2],"a\u0000b":1})"), Catch::Contains("unknown field \"a\\u0000b\""));
}
