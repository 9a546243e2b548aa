// The print formatter against PyTorch 1.13's own output (tests/fixtures/format_cases.json, made by
// scripts/make_reference_cases.py) and a few cases whose text is easy to check by eye.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/decimal.h"
#include "core/float_text.h"
#include "core/format.h"
#include "requests/json_out.h"
#include "fixtures.h"

using attn::Tensor;

TEST_CASE("integer style, sizes and 0-d tensors", "[format]") {
    CHECK(attn::format_tensor(Tensor({2}, {2.0f, 0.0f})) == "tensor([2., 0.])");
    CHECK(attn::format_tensor(Tensor({}, {1.0f})) == "tensor(1.)");
    CHECK(attn::format_size({6, 2}) == "torch.Size([6, 2])");
    CHECK(attn::format_tensor(Tensor({0}, {})) == "tensor([])");
    CHECK(attn::format_tensor(Tensor({2, 0}, {})) == "tensor([], size=(2, 0))");
}

TEST_CASE("non-finite values print as PyTorch prints them", "[format]") {
    const float inf = INFINITY;
    CHECK(attn::format_tensor(Tensor({3}, {-inf, inf, NAN})) == "tensor([-inf, inf, nan])");
    CHECK(attn::format_tensor(Tensor({2}, {0.5f, -inf})) == "tensor([0.5000,   -inf])");
}

TEST_CASE("every PyTorch-printed reference tensor is reproduced exactly", "[format]") {
    const auto cases = fixture_json("format_cases.json");
    for (const auto& c : cases["cases"]) {
        std::vector<float> values;
        for (const auto& v : c["values"]) values.push_back(static_cast<float>(json_value(v)));
        Tensor t(c["shape"].get<attn::Shape>(), values);
        t.requires_grad = c.contains("grad_fn") || c.contains("requires_grad");
        if (c.contains("grad_fn")) t.grad_fn = c["grad_fn"].get<std::string>();
        INFO("case " << c["name"].get<std::string>());
        CHECK(attn::format_tensor(t) == c["print"].get<std::string>());
    }
}

namespace {
// The text float_text must give: %.<p>g at the fewest p whose text reads back as v (when that p's
// correctly rounded text is the shortest round trip, which holds except at a few powers of 2).
std::string printf_shortest(float v) {
    char buf[32];
    for (int p = 1; p <= 9; p++) {
        std::snprintf(buf, sizeof buf, "%.*g", p, static_cast<double>(v));
        if (std::strtof(buf, nullptr) == v) break;
    }
    return buf;
}
}  // namespace

TEST_CASE("float_text writes the shortest text that reads back, as %g writes it", "[format][float_text]") {
    CHECK(attn::float_text(0.0f) == "0");
    CHECK(attn::float_text(-0.0f) == "-0");
    CHECK(attn::float_text(1.0f) == "1");
    CHECK(attn::float_text(0.1f) == "0.1");
    CHECK(attn::float_text(100.0f) == "1e+02");  // %.1g
    CHECK(attn::float_text(120.5f) == "120.5");
    CHECK(attn::float_text(1e-5f) == "1e-05");
    CHECK(attn::float_text(123456792.0f) == "1.2345679e+08");
    CHECK(attn::float_text(3.4028235e38f) == "3.4028235e+38");
    CHECK(attn::float_text(1e-45f) == "1e-45");
    CHECK(attn::float_text(0.25159547f) == "0.25159547");
    CHECK(attn::float_text(std::nanf("")) == "\"nan\"");
    CHECK(attn::float_text(-INFINITY) == "\"-inf\"");
    // a spread of bit patterns over every exponent, subnormals included
    int checked = 0;
    for (uint64_t k = 0; k < 200000; k++) {
        const uint32_t bits = static_cast<uint32_t>(k * 21475 + (k >> 3));
        float v;
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v)) continue;
        const std::string text = attn::float_text(v);
        INFO("bits " << bits);
        CHECK(std::strtof(text.c_str(), nullptr) == v);
        CHECK(text == printf_shortest(v));
        checked++;
    }
    CHECK(checked > 190000);
}

TEST_CASE("double_text writes a double as Python's repr does", "[format][float_text]") {
    // expected: repr() of each value in Python 3
    const std::vector<std::pair<double, std::string>> cases = {
        {0.02, "0.02"}, {5.0, "5.0"}, {0.5, "0.5"}, {0.9, "0.9"}, {1e-05, "1e-05"}, {100000.0, "100000.0"},
        {1e16, "1e+16"}, {1.5e-07, "1.5e-07"}, {0.1 + 0.2, "0.30000000000000004"}, {123456789.125, "123456789.125"},
        {1e22, "1e+22"}, {-0.0, "-0.0"}, {1234.5678, "1234.5678"}, {2.5e-10, "2.5e-10"}};
    for (const auto& [v, want] : cases) CHECK(attn::double_text(v) == want);
}

// python_format (the print's numbers) skips printf; it must write what printf writes, rounding the
// exact binary value half to even, for every float32: a spread over every exponent, and the ties.
TEST_CASE("python_format writes what printf writes for '.4f', '.0f' and '.4e'", "[format]") {
    auto printf_text = [](double v, const char* fmt) {
        char buf[128];
        std::snprintf(buf, sizeof buf, fmt, v);
        return std::string(buf);
    };
    auto check_all = [&](float v) {
        INFO("value " << printf_text(v, "%.9g"));
        CHECK(attn::python_format(v, 'e', 4) == printf_text(v, "%.4e"));
        if (std::fabs(v) < 1e9f) {
            CHECK(attn::python_format(v, 'f', 4) == printf_text(v, "%.4f"));
            CHECK(attn::python_format(v, 'f', 0) == printf_text(v, "%.0f"));
        }
    };
    for (uint64_t k = 0; k < 200000; k++) {
        const uint32_t bits = static_cast<uint32_t>(k * 21475 + (k >> 3));
        float v;
        std::memcpy(&v, &bits, sizeof v);
        if (std::isfinite(v)) check_all(v);
    }
    // exact halves at the last printed digit: 0.5, 2.5, 1.00005 (not a float: its neighbours), 2^-k
    for (float v : {0.5f, 1.5f, 2.5f, -2.5f, 0.00005f, 1.00005f, 0.000125f, 9.99995f, 99999.5f, 0.0f, -0.0f, 1e-45f, 3.4028235e38f}) check_all(v);
    for (int e = -149; e <= 127; e++) check_all(std::ldexp(1.0f, e));
    // ties at the fifth significant digit (1.03125 is 1.0312|5): the scaling is exact, so a half rounds to
    // even without the big-integer route; and values far below 1e-18, scaled in steps of 10^22 (issue 43)
    for (int n = 0; n < 40000; n += 7)
        for (int s = 1; s <= 12; s++) check_all(std::ldexp(static_cast<float>(2 * n + 1), -s));
    for (int e = -149; e < -60; e++)
        for (int m = 1; m < 64; m += 3) check_all(std::ldexp(static_cast<float>(m), e)), check_all(std::ldexp(static_cast<float>(m) + 0.5f, e));
    CHECK(attn::python_format(1.03125f, 'e', 4) == "1.0312e+00");
    CHECK(attn::python_format(1.09375f, 'e', 4) == "1.0938e+00");
    CHECK(attn::python_format(1.4e-45f, 'e', 4) == "1.4013e-45");
    CHECK(attn::python_format(0.30609f, 'f', 4) == "0.3061");
    CHECK(attn::python_format(9.99996f, 'e', 4) == "1.0000e+01");
    CHECK(attn::python_format(-0.0, 'f', 4) == "-0.0000");
    CHECK(attn::python_format(NAN, 'e', 4) == "nan");
}

// core/decimal (printf and strtod without the C library's, which carry 128-bit software floats in
// wasm) against the C library itself, natively and in each wasm engine's libc: every style and
// precision on doubles spread over every exponent, and text read back bit for bit, ties included.
TEST_CASE("printf_double and decimal_to_double match printf and strtod", "[format]") {
    auto printf_text = [](double v, char style, int precision) {
        char fmt[16], buf[1200];
        std::snprintf(fmt, sizeof fmt, "%%.%d%c", precision, style);
        std::snprintf(buf, sizeof buf, fmt, v);
        return std::string(buf);
    };
    auto read_back = [](const std::string& text) {
        const double want = std::strtod(text.c_str(), nullptr), got = attn::decimal_to_double(text.data(), text.size());
        INFO("text " << text);
        CHECK(std::memcmp(&want, &got, sizeof want) == 0);
    };
    uint64_t state = 88172645463325252u;  // xorshift64: the same cases every run
    auto next = [&] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    std::vector<double> values = {0.0, -0.0, 0.5, 2.5, -2.5, 0.125, 9.5, 0.05, 1e15, 1e16, 1e22, 1e23, 5e-324,
                                  2.2250738585072014e-308, 1.7976931348623157e308, 0.30000000000000004, 1e-5, 0.02, 9.99995,
                                  INFINITY, -INFINITY, NAN};
    for (int k = 0; k < 3000; k++) {
        uint64_t bits = next();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        values.push_back(k % 2 ? v : std::ldexp(static_cast<double>(next() >> 11), static_cast<int>(next() % 160) - 120));
    }
    for (double v : values) {
        INFO("value " << printf_text(v, 'a', 13));
        for (char style : {'e', 'f', 'g'}) {
            for (int precision : {0, 1, 4, 9, 17}) {
                if (style == 'f' && std::isfinite(v) && std::fabs(v) > 1e60) continue;
                CHECK(attn::printf_double(v, style, precision) == printf_text(v, style, precision));
            }
        }
        if (!std::isfinite(v)) continue;
        read_back(printf_text(v, 'g', 17));
        read_back(printf_text(v, 'e', static_cast<int>(next() % 30)));
        // the midpoint between v and the next double up, exactly, and just above and below it
        const double up = std::nextafter(std::fabs(v), INFINITY);
        if (std::isfinite(up) && v != 0) {
            std::string mid = printf_text(std::fabs(v), 'e', 780);
            const std::string hi = printf_text(up, 'e', 780);
            // both have 781 digits: average them digit by digit (the exact sum has at most one more)
            const int e1 = std::atoi(mid.c_str() + mid.find('e') + 1), e2 = std::atoi(hi.c_str() + hi.find('e') + 1);
            if (e1 == e2) {
                std::string a = mid.substr(0, 1) + mid.substr(2, 780), b = hi.substr(0, 1) + hi.substr(2, 780);
                std::string sum(a.size() + 1, '0');
                int carry = 0;
                for (size_t i = a.size(); i-- > 0;) {
                    const int d = (a[i] - '0') + (b[i] - '0') + carry;
                    sum[i + 1] = static_cast<char>('0' + d % 10);
                    carry = d / 10;
                }
                sum[0] = static_cast<char>('0' + carry);
                std::string half(sum.size() + 1, '0');  // sum / 2, one digit longer
                int rem = 0;
                for (size_t i = 0; i < sum.size(); i++) {
                    const int d = rem * 10 + (sum[i] - '0');
                    half[i] = static_cast<char>('0' + d / 2);
                    rem = d % 2;
                }
                half[sum.size()] = static_cast<char>('0' + rem * 5);
                // half holds (a + b) / 2 with its point after the second digit
                const std::string text = half.substr(0, 2) + "." + half.substr(2) + "e" + std::to_string(e1);
                read_back(text);
                read_back(half.substr(0, 2) + "." + half.substr(2) + "000001e" + std::to_string(e1));  // just above
                std::string below = half;  // one unit less in the last of many digits: just below the tie
                size_t i = below.size();
                while (i > 0 && below[i - 1] == '0') below[--i] = '9';
                if (i > 0) {
                    below[i - 1]--;
                    read_back(below.substr(0, 2) + "." + below.substr(2) + "9e" + std::to_string(e1));
                }
            }
        }
    }
    for (const char* text : {"0", "-0", "0.000", "1e400", "-1e400", "1e-400", "2.4703282292062327e-324",
                             "2.4703282292062328e-324", "2.2250738585072011e-308", "1.7976931348623158e308",
                             "1.7976931348623159e308", "9007199254740993", "123456789012345678901234567890e-5", "1E5", "-1.5e+20"})
        read_back(text);
}

// issue 43: the exponent was clamped at 100,000 (so a long number could read as 0 or as too large), and
// every exponent below -22 took slow_decimal's big-integer division (4 MiB of 5e-324: 2 s). Now a
// 192-bit table decides all but near-ties; every text still reads as strtod reads it.
TEST_CASE("decimal_to_double: long numbers read exactly, and the table path agrees with strtod", "[format]") {
    auto read = [](const std::string& t) { return attn::decimal_to_double(t.data(), t.size()); };
    CHECK(read("0." + std::string(999999, '0') + "1e1000000") == 1.0);
    CHECK(read("1" + std::string(999999, '0') + "e-1000000") == 0.1);
    const double tiny = read("-" + std::string(999999, '0') + "5e-1000");  // -5 · 10^-1000: -0
    CHECK((tiny == 0.0 && std::signbit(tiny)));
    CHECK(read("1e-99999999999999999999") == 0.0);
    CHECK(std::isinf(read("1e99999999999999999999")));
    CHECK(read("5e-324") == std::ldexp(1.0, -1074));
    CHECK(read("2.4703282292062327e-324") == 0.0);  // below half the smallest subnormal
    CHECK(read("2.4703282292062328e-324") == std::ldexp(1.0, -1074));
    // short and long digit strings over every exponent, and halfway points between neighbours
    uint64_t x = 43;
    auto next = [&x] { x = x * 6364136223846793005ull + 1442695040888963407ull; return x; };
    char buf[160];
    for (int i = 0; i < 100000; i++) {
        const unsigned long long digits = next() % 10000000000000000000ull;
        std::snprintf(buf, sizeof buf, "%llue%d", digits, static_cast<int>(next() % 680) - 360);
        INFO(buf);
        CHECK(read(buf) == std::strtod(buf, nullptr));
        uint64_t bits = next() & 0x7fefffffffffffffull;
        double v;
        std::memcpy(&v, &bits, sizeof v);
        std::snprintf(buf, sizeof buf, "%.30e", v / 2 + std::nextafter(v, INFINITY) / 2);
        INFO(buf);
        CHECK(read(buf) == std::strtod(buf, nullptr));
    }
}

TEST_CASE("an eval request reads a long number's value, not its clamped exponent", "[format][limits]") {
    const std::string one = "0." + std::string(999999, '0') + "1e1000000";
    const attn::EvalResult r = attn::eval_request("{\"op\":\"softmax\",\"x\":[" + one + ",0]}");
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(r.json.find("tensor([0.7311, 0.2689])") != std::string::npos);
}
