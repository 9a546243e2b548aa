// The engine's own JSON reader and string writer (engine/src/requests/json_in.h, json_out.h) against
// nlohmann's, which the tests keep as the reference: the same texts accepted with the same values,
// the same refused, and the same U+FFFD replacements when a sentence quotes ill-formed UTF-8.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "requests/json_in.h"
#include "requests/json_out.h"
#include "requests/request.h"
#include "fixtures.h"
#include "json_reference.h"

namespace {

bool ours_accepts(const std::string& text) {
    try {
        attn::json::parse(text);
        return true;
    } catch (const attn::Error&) {
        return false;
    }
}

}  // namespace

TEST_CASE("json_in reads what nlohmann reads, with the same values and number types", "[json]") {
    std::vector<std::string> texts = {
        "null", "true", "false", "0", "-0", "1", "-1", "1.5", "-2.5e-3", "1E5", "1e+2", "0.1", "9007199254740993",
        "18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809", "1e-999",
        "\"\"", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u00e9\\u4e2d\\ud83d\\ude00\"", "\"é中😀\"", " [ 1 , [ ] , { } ] ",
        "{\"a\":{\"b\":[1,2,{\"c\":null}]},\"d\":\"e\"}", "\xEF\xBB\xBF{\"bom\":1}", "[[[[1.25,-0.0]]]]", "\"\\u0000\"",
    };
    // every request of the reference fixtures
    const nlohmann::json reference = fixture_json("reference_cases.json");   // kept alive: the loop reads into it
    for (const auto& c : reference["cases"]) texts.push_back(c["request"].dump());
    for (const std::string& text : texts) {
        INFO(text.substr(0, 200));
        const nlohmann::json theirs = nlohmann::json::parse(text);
        const nlohmann::json ours = as_nlohmann(attn::json::parse(text));
        CHECK(ours == theirs);
        CHECK(ours.dump() == theirs.dump());  // the same number types: unsigned, integer, float
    }
}

TEST_CASE("json_in refuses what nlohmann refuses", "[json]") {
    for (const std::string text : {"", " ", "01", "1.", ".5", "+1", "-", "1e", "1e+", "[1,]", "{\"a\":1,}", "{\"a\" 1}",
                                   "{a:1}", "[1 2]", "\"\\x\"", "\"\t\"", "tru", "nul", "[", "{", "\"abc", "\"\\ud800\"",
                                   "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\xff\"", "\"\xc0\x80\"", "\"\xed\xa0\x80\"",
                                   "\"\xf4\x90\x80\x80\"", "\"\xe2\x82\"", "1 2", "[1]]", "'a'", "NaN", "Infinity", "\"\\u12\""}) {
        INFO(text);
        CHECK_FALSE(nlohmann::json::accept(text));
        CHECK_FALSE(ours_accepts(text));
    }
}

TEST_CASE("json_in's refusals are sentences: a key twice, a number beyond a double, a syntax error", "[json]") {
    const auto error = [](const std::string& text) {
        try {
            attn::json::parse(text);
            return std::string("(accepted)");
        } catch (const attn::Error& e) {
            return std::string(e.what());
        }
    };
    CHECK(error("{\"a\":1,\"b\":{\"a\":2},\"a\":3}") == "the request has the key \"a\" twice in one object; give each field once");
    CHECK(error("[-1e999]") ==
          "the request has a number too large for a double (-1e999); numbers must be within ±1.7976931348623157e308, or write \"inf\", \"-inf\"");
    CHECK(error("[" + std::string(400, '9') + "]").find("the request has a number too large for a double (999") == 0);
    CHECK(error("{\"op\":tru}") == "the request is not valid JSON (at byte 6: expected a value; last read: 'tru}')");
    CHECK(error("{} x") == "the request is not valid JSON (at byte 3: there is more text after the JSON value; last read: 'x')");
}

TEST_CASE("json_quote replaces ill-formed UTF-8 as nlohmann's dump does", "[json]") {
    std::mt19937 rng(7);
    const std::vector<unsigned char> alphabet = {'a', '"', '\\', 0x01, 0x1f, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf,
                                                 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff};
    for (int n = 0; n < 20000; n++) {
        std::string s;
        const int len = static_cast<int>(rng() % 8);
        for (int k = 0; k < len; k++) s += static_cast<char>(alphabet[rng() % alphabet.size()]);
        INFO(nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
        REQUIRE(attn::json_quote(s) == nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
}

TEST_CASE("a request still refuses a NUL byte and deep nesting before reading it", "[json]") {
    const auto error = [](const std::string& text) { return attn::eval_request(text).error; };
    CHECK(error(std::string("{\"op\":\"softmax\"}\0x", 18)).find("the request has a NUL byte at offset 16") == 0);
    CHECK(error("{\"op\":\"softmax\",\"x\":" + std::string(17, '[') + std::string(17, ']') + "}")
              .find("the request nests arrays or objects more than 16 levels deep") == 0);
}
