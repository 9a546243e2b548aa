// printf's %f/%e/%g and strtod for doubles, exact (decimal.h): a double is m · 2^e, so its decimal
// expansion is the integer m · 5^-e (or m · 2^e) with the point shifted, and a decimal D · 10^e is
// read by one division of big integers. The common cases take no big integer: python_format's own
// fast paths (format.cpp) and Clinger's exact product below.
#include "core/decimal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace attn {

namespace {

// A non-negative integer of any size: 32-bit words, least significant first, no leading zero word.
struct Big {
    std::vector<uint32_t> w;

    explicit Big(uint64_t v = 0) {
        for (; v; v >>= 32) w.push_back(static_cast<uint32_t>(v));
    }
    bool zero() const { return w.empty(); }
    void trim() {
        while (!w.empty() && w.back() == 0) w.pop_back();
    }
    int bits() const {
        int n = 32 * (static_cast<int>(w.size()) - 1);
        for (uint32_t t = w.empty() ? 0 : w.back(); t; t >>= 1) n++;
        return w.empty() ? 0 : n;
    }
    bool bit(int p) const { return (w[static_cast<size_t>(p / 32)] >> (p % 32)) & 1; }
    // this = this · m + a
    void mul_add(uint32_t m, uint32_t a = 0) {
        uint64_t carry = a;
        for (uint32_t& x : w) {
            const uint64_t t = static_cast<uint64_t>(x) * m + carry;
            x = static_cast<uint32_t>(t);
            carry = t >> 32;
        }
        if (carry) w.push_back(static_cast<uint32_t>(carry));
    }
    // this · base^n, base 5 or 10
    void mul_pow(uint32_t base, int n) {
        const int per = base == 5 ? 13 : 9;  // 5^13 and 10^9 fit a word
        const uint32_t chunk = base == 5 ? 1220703125u : 1000000000u;
        for (; n >= per; n -= per) mul_add(chunk);
        uint32_t m = 1;
        while (n-- > 0) m *= base;
        mul_add(m);
    }
    // this /= d; returns the remainder
    uint32_t div_small(uint32_t d) {
        uint64_t r = 0;
        for (size_t i = w.size(); i-- > 0;) {
            const uint64_t t = (r << 32) | w[i];
            w[i] = static_cast<uint32_t>(t / d);
            r = t % d;
        }
        trim();
        return static_cast<uint32_t>(r);
    }
    void shl(int n) {
        if (zero() || n <= 0) return;
        if (const int b = n % 32) {
            uint32_t carry = 0;
            for (uint32_t& x : w) {
                const uint32_t next = x >> (32 - b);
                x = (x << b) | carry;
                carry = next;
            }
            if (carry) w.push_back(carry);
        }
        const size_t words = static_cast<size_t>(n / 32), size = w.size();
        w.resize(size + words);
        for (size_t i = size; i-- > 0;) w[i + words] = w[i];
        for (size_t i = 0; i < words; i++) w[i] = 0;
    }
    void shr1() {
        uint32_t carry = 0;
        for (size_t i = w.size(); i-- > 0;) {
            const uint32_t next = w[i] & 1;
            w[i] = (w[i] >> 1) | (carry << 31);
            carry = next;
        }
        trim();
    }
    bool less_than(const Big& o) const {
        if (w.size() != o.w.size()) return w.size() < o.w.size();
        for (size_t i = w.size(); i-- > 0;)
            if (w[i] != o.w[i]) return w[i] < o.w[i];
        return false;
    }
    // this -= o, for o <= this
    void sub(const Big& o) {
        uint64_t borrow = 0;
        for (size_t i = 0; i < w.size(); i++) {
            const uint64_t t = static_cast<uint64_t>(w[i]) - (i < o.w.size() ? o.w[i] : 0u) - borrow;
            w[i] = static_cast<uint32_t>(t);
            borrow = (t >> 32) & 1;
        }
        trim();
    }
};

// --- double to text ---

// The exact decimal value of a finite a > 0: digits (no leading zero) times 10^exp10.
struct Exact {
    std::string digits;
    int exp10;
};

Exact exact(double a) {
    uint64_t bits;
    std::memcpy(&bits, &a, sizeof bits);
    const int biased = static_cast<int>(bits >> 52);
    const uint64_t m = (bits & ((uint64_t(1) << 52) - 1)) | (biased ? uint64_t(1) << 52 : 0);
    const int e = (biased ? biased : 1) - 1075;
    Big n(m);
    if (e >= 0) n.shl(e);
    else n.mul_pow(5, -e);
    std::vector<uint32_t> chunks;  // base 10^9, least significant first
    while (!n.zero()) chunks.push_back(n.div_small(1000000000u));
    std::string out = std::to_string(chunks.back());
    for (size_t i = chunks.size() - 1; i-- > 0;) {
        const std::string c = std::to_string(chunks[i]);
        out.append(9 - c.size(), '0').append(c);
    }
    return {out, e < 0 ? e : 0};
}

// The value rounded half to even to a whole number of 10^unit: its digits ("0" when it rounds to 0).
std::string round_to(const Exact& x, int unit) {
    if (x.exp10 >= unit) return x.digits + std::string(static_cast<size_t>(x.exp10 - unit), '0');
    const size_t drop = static_cast<size_t>(unit - x.exp10), n = x.digits.size();
    if (drop > n) return "0";  // below a tenth of the unit
    std::string r = x.digits.substr(0, n - drop);
    const char first = x.digits[n - drop];
    const bool rest = x.digits.find_first_not_of('0', n - drop + 1) != std::string::npos;
    const bool odd = !r.empty() && (r.back() - '0') % 2;
    if (first > '5' || (first == '5' && (rest || odd))) {
        size_t i = r.size();
        while (i > 0 && r[i - 1] == '9') r[--i] = '0';
        if (i == 0) r.insert(r.begin(), '1');
        else r[i - 1]++;
    }
    return r.empty() ? "0" : r;
}

std::string fixed(double a, int precision) {
    std::string r = a == 0 ? "0" : round_to(exact(a), -precision);
    const size_t p = static_cast<size_t>(precision);
    if (r.size() <= p) r.insert(0, p + 1 - r.size(), '0');
    return p ? r.insert(r.size() - p, 1, '.') : r;
}

// d.ddde±XX; *x10 gets the exponent
std::string scientific(double a, int precision, int* x10) {
    int X = 0;
    std::string r(static_cast<size_t>(precision) + 1, '0');
    if (a != 0) {
        const Exact x = exact(a);
        X = static_cast<int>(x.digits.size()) - 1 + x.exp10;
        r = round_to(x, X - precision);
        if (r.size() > static_cast<size_t>(precision) + 1) {  // 9.99… rounded up to 10.0…
            X++;
            r.pop_back();
        }
    }
    if (precision) r.insert(1, 1, '.');
    const int e = X < 0 ? -X : X;
    *x10 = X;
    return r + (X < 0 ? "e-" : "e+") + (e < 10 ? "0" : "") + std::to_string(e);
}

// --- text to double ---

// q · 2^binexp, with `sticky` when bits below q were not zero, rounded half to even to a double.
double round_bits(uint64_t q, int binexp, bool sticky) {
    int L = 0;
    for (uint64_t t = q; t; t >>= 1) L++;
    const int E = L - 1 + binexp;  // the exponent of the leading bit
    if (E > 1023) return HUGE_VAL;
    const int keep = E >= -1022 ? 53 : E + 1075;  // subnormals keep fewer bits
    if (keep < 0) return 0.0;
    if (keep == 0) return (q & (q - 1)) || sticky ? std::ldexp(1.0, -1074) : 0.0;  // in [2^-1075, 2^-1074)
    const int shift = L - keep;
    if (shift <= 0) return std::ldexp(static_cast<double>(q), binexp);
    uint64_t kept = q >> shift;
    const uint64_t rem = q & ((uint64_t(1) << shift) - 1), half = uint64_t(1) << (shift - 1);
    if (rem > half || (rem == half && (sticky || (kept & 1)))) kept++;
    return std::ldexp(static_cast<double>(kept), binexp + shift);  // 2^53 at E = 1023 becomes inf
}

// Exact powers of ten as doubles (10^22 is the largest).
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// digits (no leading zero, at most 801) times 10^exp10, within a double's range of magnitudes
double slow_decimal(const std::string& digits, int exp10) {
    Big d;
    for (char c : digits) d.mul_add(10, static_cast<uint32_t>(c - '0'));
    if (exp10 >= 0) {
        d.mul_pow(10, exp10);
        const int L = d.bits(), shift = L > 64 ? L - 64 : 0;
        uint64_t q = 0;
        for (int j = 0; j < 64 && shift + j < L; j++) q |= static_cast<uint64_t>(d.bit(shift + j)) << j;
        bool sticky = false;
        for (int p = 0; p < shift && !sticky; p++) sticky = d.bit(p);
        return round_bits(q, shift, sticky);
    }
    Big s(1);
    s.mul_pow(10, -exp10);
    const int k = 55 + s.bits() - d.bits();  // d · 2^k / s has 55 or 56 bits
    if (k > 0) d.shl(k);
    else s.shl(-k);
    uint64_t q = 0;
    s.shl(55);
    for (int b = 55; b >= 0; b--, s.shr1()) {
        if (!d.less_than(s)) {
            d.sub(s);
            q |= uint64_t(1) << b;
        }
    }
    return round_bits(q, -k, !d.zero());
}

// --- text to double without big integers: 10^q to 192 bits ---

struct Pow10 {
    uint64_t t[3];  // most significant word first: 10^q = (T + f) · 2^-s, 0 <= f < 1
    int s;
};
constexpr int kPow10Min = -343, kPow10Max = 308;
constexpr Pow10 kPow10Table[] = {
#include "core/pow10_table.inc"
};

// x · y as two 64-bit words (high, low), through 32-bit halves (no __int128 needed in wasm)
void mul64(uint64_t x, uint64_t y, uint64_t* hi, uint64_t* lo) {
    const uint64_t x0 = x & 0xffffffffu, x1 = x >> 32, y0 = y & 0xffffffffu, y1 = y >> 32;
    const uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

// w · T + add as four words, most significant first
void mul_192(uint64_t w, const uint64_t t[3], uint64_t add, uint64_t out[4]) {
    uint64_t carry = add;
    for (int i = 2; i >= 0; i--) {
        uint64_t hi, lo;
        mul64(w, t[i], &hi, &lo);
        lo += carry;
        hi += lo < carry;
        out[i + 1] = lo;
        carry = hi;
    }
    out[0] = carry;
}

// The 256-bit x · 2^binexp rounded to a double: its top 64 bits and whether any bit below them is set
double round_256(const uint64_t x[4], int binexp) {
    int word = 0;
    while (word < 4 && x[word] == 0) word++;
    if (word == 4) return 0.0;
    int lead = 63;
    while (!((x[word] >> lead) & 1)) lead--;
    const int shift = 63 - lead;  // bring the leading bit to bit 63 of the top word
    const uint64_t next = word + 1 < 4 ? x[word + 1] : 0;
    const uint64_t top = shift ? (x[word] << shift) | (next >> (64 - shift)) : x[word];
    bool sticky = shift ? (next << shift) != 0 : false;
    for (int i = word + 2; i < 4 && !sticky; i++) sticky = x[i] != 0;
    if (word + 1 < 4 && shift == 0) sticky = sticky || next != 0;
    return round_bits(top, binexp + 64 * (3 - word) - shift, sticky);
}

// digits (no leading zero) · 10^exp10 from its first 19 digits and the table: the value lies between
// w · T and (w + 1) · T + w + 1 (times 2^-s), and when both bounds round to the same double, so does the
// value (rounding is monotonic). Exact for every input; false (rarely: a value within 2^-120 or so of a
// tie) when the bounds differ and the big integers must decide. (issue 43: 4 MiB of 5e-324 took 2 s.)
bool table_decimal(const std::string& digits, int64_t exp10, double* out) {
    const size_t n = std::min<size_t>(digits.size(), 19);
    const bool truncated = digits.size() > n;
    const int64_t q = exp10 + static_cast<int64_t>(digits.size() - n);
    if (q < kPow10Min || q > kPow10Max) return false;
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++) w = w * 10 + static_cast<uint64_t>(digits[i] - '0');
    const Pow10& p = kPow10Table[q - kPow10Min];
    uint64_t lo[4], hi[4];
    mul_192(w, p.t, 0, lo);
    mul_192(truncated ? w + 1 : w, p.t, truncated ? w + 1 : w, hi);
    const double a = round_256(lo, -p.s), b = round_256(hi, -p.s);
    if (a != b) return false;
    *out = a;
    return true;
}

}  // namespace

std::string printf_double(double v, char style, int precision) {
    if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    const std::string sign = std::signbit(v) ? "-" : "";
    const double a = std::fabs(v);
    int X;
    if (style == 'f') return sign + fixed(a, precision);
    if (style == 'e') return sign + scientific(a, precision, &X);
    // 'g': e's exponent X at P significant digits picks f (P > X >= -4) or e; no trailing zeros
    const int P = precision ? precision : 1;
    std::string out = scientific(a, P - 1, &X);
    if (P > X && X >= -4) out = fixed(a, P - 1 - X);
    const size_t e = out.find('e');
    std::string mantissa = out.substr(0, e), exponent = e == std::string::npos ? "" : out.substr(e);
    if (mantissa.find('.') != std::string::npos) {
        while (mantissa.back() == '0') mantissa.pop_back();
        if (mantissa.back() == '.') mantissa.pop_back();
    }
    return sign + mantissa + exponent;
}

double decimal_to_double(const char* s, size_t n) {
    size_t i = 0;
    const bool negative = n > 0 && s[0] == '-';
    if (n > 0 && (s[0] == '-' || s[0] == '+')) i++;
    // digits · 10^exp10, at most kKeep significant digits; a digit dropped beyond them that is not 0
    // becomes a final 1 (below any tie a double can have: 767 digits decide the closest one). The
    // exponent is counted in 64 bits and capped far beyond any double (no clamp error: issue 43,
    // "0." + 999,999 zeros + "1e1000000" is 1).
    constexpr size_t kKeep = 800;
    constexpr int64_t kExponentCap = int64_t(1) << 40;
    std::string digits;
    int64_t exp10 = 0;
    bool point = false, sticky = false;
    for (; i < n; i++) {
        const char c = s[i];
        if (c == '.') {
            point = true;
            continue;
        }
        if (c < '0' || c > '9') break;
        if (point) exp10--;
        if (digits.empty() && c == '0') continue;
        if (digits.size() < kKeep) {
            digits += c;
        } else {
            sticky = sticky || c != '0';
            exp10++;
        }
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        const bool minus = i < n && s[i] == '-';
        if (i < n && (s[i] == '-' || s[i] == '+')) i++;
        int64_t e = 0;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (e < kExponentCap) e = e * 10 + (s[i] - '0');
        exp10 += minus ? -e : e;
    }
    // trailing zeros belong to the exponent ("1" + 999,999 zeros + "e-1000000" is 0.1), unless a digit
    // beyond them was dropped
    if (!sticky) {
        size_t kept = digits.size();
        while (kept > 0 && digits[kept - 1] == '0') kept--;
        exp10 += static_cast<int64_t>(digits.size() - kept);
        digits.resize(kept);
    }
    if (sticky) {
        digits += '1';
        exp10--;
    }
    double r = 0.0;
    const int64_t magnitude = static_cast<int64_t>(digits.size()) + exp10;  // the value is below 10^magnitude
    if (digits.empty() || magnitude < -324) {
        r = 0.0;
    } else if (magnitude > 310) {
        r = HUGE_VAL;
    } else if (digits.size() <= 15 && exp10 >= -22 && exp10 <= 22) {
        // both exact in a double, so one rounding: the nearest (Clinger's fast path)
        uint64_t whole = 0;
        for (char c : digits) whole = whole * 10 + static_cast<uint64_t>(c - '0');
        const double d = static_cast<double>(whole);
        r = exp10 >= 0 ? d * kPow10[exp10] : d / kPow10[-exp10];
    } else if (!table_decimal(digits, exp10, &r)) {
        r = slow_decimal(digits, static_cast<int>(exp10));
    }
    return negative ? -r : r;
}

}  // namespace attn
