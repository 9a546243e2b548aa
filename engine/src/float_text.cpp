// float_text: the shortest "%.<p>g" text (p = 1..9) that reads back as the same float32. In exact
// integer arithmetic for |v| in [1e-10, 1e10): WebAssembly's libc formats and parses through
// software 128-bit long doubles (~20 µs a number), which made printing a training run's losses
// cost more than computing them. Outside that range, and to check the fast path, snprintf/strtof.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "attn/request.h"

namespace attn {

namespace {

using u128 = unsigned __int128;

u128 pow10(int n) {
    u128 r = 1;
    while (n-- > 0) r *= 10;
    return r;
}

// m·2^e·10^s as num/den, exactly (the fast range keeps both under 2^120).
void as_fraction(uint32_t m, int e, int s, u128& num, u128& den) {
    num = m;
    den = 1;
    if (s >= 0) num *= pow10(s); else den = pow10(-s);
    if (e >= 0) num <<= e; else den <<= -e;
}

// round-half-even(m·2^e·10^s)
uint64_t rounded(uint32_t m, int e, int s) {
    u128 num, den;
    as_fraction(m, e, s, num, den);
    u128 q = num / den, twice_r = 2 * (num % den);
    if (twice_r > den || (twice_r == den && (q & 1))) q++;
    return static_cast<uint64_t>(q);
}

// floor(log10(m·2^e)), exactly: the power s at which the value times 10^s has one integer digit.
int decimal_exponent(uint32_t m, int e) {
    int E = static_cast<int>(std::floor(std::log10(std::ldexp(static_cast<double>(m), e))));
    for (;;) {  // log10 may be off by one next to a power of ten
        u128 num, den;
        as_fraction(m, e, -E, num, den);
        const u128 q = num / den;
        if (q >= 10) E++;
        else if (q < 1) E--;
        else return E;
    }
}

// Does the decimal D·10^t read back as the float m·2^e (m normal, 2^23 ≤ m < 2^24)? Exactly when it
// lies between the midpoints to the neighbouring floats; on a midpoint, ties go to the even m.
bool reads_back(uint64_t D, int t, uint32_t m, int e) {
    // compare D·10^t with M·2^f
    auto compare = [&](uint64_t M, int f) {
        u128 lhs = D, rhs = M;
        if (t >= 0) lhs *= pow10(t); else rhs *= pow10(-t);
        if (f >= 0) rhs <<= f; else lhs <<= -f;
        return lhs < rhs ? -1 : lhs > rhs ? 1 : 0;
    };
    const bool even = (m & 1) == 0;
    const int above = compare(2 * uint64_t(m) + 1, e - 1);
    if (above > 0 || (above == 0 && !even)) return false;
    // below a power of two the next float down is half as far
    const int below = m == (1u << 23) ? compare(4 * uint64_t(m) - 1, e - 2) : compare(2 * uint64_t(m) - 1, e - 1);
    return below > 0 || (below == 0 && even);
}

// "%.<p>g" of the p-digit decimal D (10^(p-1) ≤ D < 10^p) times 10^(X-p+1).
std::string g_text(bool negative, uint64_t D, int p, int X) {
    char digits[24];
    std::snprintf(digits, sizeof digits, "%llu", static_cast<unsigned long long>(D));  // integers: no long double
    int n = p;
    while (n > 1 && digits[n - 1] == '0') n--;  // %g drops trailing zeros
    std::string out = negative ? "-" : "";
    if (X < -4 || X >= p) {
        out += digits[0];
        if (n > 1) out += "." + std::string(digits + 1, digits + n);
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", X < 0 ? '-' : '+', X < 0 ? -X : X);
        return out + exp;
    }
    if (X < 0) return out + "0." + std::string(-X - 1, '0') + std::string(digits, digits + n);
    out += std::string(digits, digits + X + 1);
    if (n > X + 1) out += "." + std::string(digits + X + 1, digits + n);
    return out;
}

// The reference: the fewest digits (1..9) whose %g text strtof reads back as v, by binary search.
std::string float_text_libc(float v) {
    char buf[32];
    auto fits = [&](int precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, static_cast<double>(v));
        return std::strtof(buf, nullptr) == v;
    };
    int lo = 1, hi = 9;  // %.9g always reads back
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (fits(mid)) hi = mid; else lo = mid + 1;
    }
    fits(lo);
    return buf;
}

}  // namespace

std::string float_text_reference(float v) {
    if (std::isnan(v)) return "\"nan\"";
    if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
    return float_text_libc(v);
}

std::string float_text(float v) {
    const float a = std::fabs(v);
    if (v == 0.0f) return std::signbit(v) ? "-0" : "0";
    if (!(a >= 1e-10f && a < 1e10f)) return float_text_reference(v);
    uint32_t bits;
    std::memcpy(&bits, &a, sizeof bits);
    const uint32_t m = (bits & 0x7fffff) | 0x800000;  // normal in this range
    const int e = static_cast<int>(bits >> 23) - 150;
    const int E = decimal_exponent(m, e);
    // %.<p>g rounds to p digits; a carry (9.99 -> 10.0) moves the exponent up
    auto digits = [&](int p, uint64_t& D, int& X) {
        D = rounded(m, e, p - 1 - E);
        X = E;
        if (D == static_cast<uint64_t>(pow10(p))) {
            D /= 10;
            X++;
        }
    };
    auto fits = [&](int p) {
        uint64_t D;
        int X;
        digits(p, D, X);
        return reads_back(D, X - p + 1, m, e);
    };
    int lo = 1, hi = 9;  // the same binary search as the reference, so the same p
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (fits(mid)) hi = mid; else lo = mid + 1;
    }
    uint64_t D;
    int X;
    digits(lo, D, X);
    return g_text(std::signbit(v), D, lo, X);
}

}  // namespace attn
