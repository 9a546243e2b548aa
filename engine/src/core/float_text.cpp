// float_text: the shortest decimal that reads back as the same float32, written as printf's %g
// writes it at that many significant digits. The digits come from Ulf Adams' Ryu (PLDI 2018, the
// f2s variant), so each number costs tens of nanoseconds instead of a printf per tried precision.
// Neither libc++ in Emscripten 3.1.6 (LLVM 13) nor a portable C library offers a float to_chars.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "core/float_text.h"

#include "core/decimal.h"

namespace attn {

namespace {

constexpr int kMantissaBits = 23;
constexpr int kExponentBias = 127;
constexpr int kPow5InvBitcount = 59;
constexpr int kPow5Bitcount = 61;

// kPow5InvSplit[q] = floor(2^(pow5bits(q) - 1 + 59) / 5^q) + 1 and kPow5Split[i] = 5^i scaled to 61
// bits (floor(5^i / 2^(pow5bits(i) - 61))), the tables of Ryu's f2s.c; in Python:
//   pow5bits = lambda e: ((e * 1217359) >> 19) + 1
//   [(1 << (pow5bits(q) - 1 + 59)) // 5**q + 1 for q in range(31)]
//   [5**i >> (pow5bits(i) - 61) if pow5bits(i) >= 61 else 5**i << (61 - pow5bits(i)) for i in range(47)]
constexpr uint64_t kPow5InvSplit[31] = {
    576460752303423489u, 461168601842738791u, 368934881474191033u, 295147905179352826u,
    472236648286964522u, 377789318629571618u, 302231454903657294u, 483570327845851670u,
    386856262276681336u, 309485009821345069u, 495176015714152110u, 396140812571321688u,
    316912650057057351u, 507060240091291761u, 405648192073033409u, 324518553658426727u,
    519229685853482763u, 415383748682786211u, 332306998946228969u, 531691198313966350u,
    425352958651173080u, 340282366920938464u, 544451787073501542u, 435561429658801234u,
    348449143727040987u, 557518629963265579u, 446014903970612463u, 356811923176489971u,
    570899077082383953u, 456719261665907162u, 365375409332725730u,
};
constexpr uint64_t kPow5Split[47] = {
    1152921504606846976u, 1441151880758558720u, 1801439850948198400u, 2251799813685248000u,
    1407374883553280000u, 1759218604441600000u, 2199023255552000000u, 1374389534720000000u,
    1717986918400000000u, 2147483648000000000u, 1342177280000000000u, 1677721600000000000u,
    2097152000000000000u, 1310720000000000000u, 1638400000000000000u, 2048000000000000000u,
    1280000000000000000u, 1600000000000000000u, 2000000000000000000u, 1250000000000000000u,
    1562500000000000000u, 1953125000000000000u, 1220703125000000000u, 1525878906250000000u,
    1907348632812500000u, 1192092895507812500u, 1490116119384765625u, 1862645149230957031u,
    1164153218269348144u, 1455191522836685180u, 1818989403545856475u, 2273736754432320594u,
    1421085471520200371u, 1776356839400250464u, 2220446049250313080u, 1387778780781445675u,
    1734723475976807094u, 2168404344971008868u, 1355252715606880542u, 1694065894508600678u,
    2117582368135750847u, 1323488980084844279u, 1654361225106055349u, 2067951531382569187u,
    1292469707114105741u, 1615587133892632177u, 2019483917365790221u,
};

// ceil(log2(5^e)) for e >= 1 (1 for e = 0); floor(log10(2^e)); floor(log10(5^e)), each for the
// exponents a float can have.
int32_t pow5bits(int32_t e) { return static_cast<int32_t>(((static_cast<uint32_t>(e) * 1217359) >> 19) + 1); }
uint32_t log10_pow2(int32_t e) { return (static_cast<uint32_t>(e) * 78913) >> 18; }
uint32_t log10_pow5(int32_t e) { return (static_cast<uint32_t>(e) * 732923) >> 20; }

uint32_t pow5_factor(uint32_t value) {
    uint32_t count = 0;
    while (value % 5 == 0) {
        value /= 5;
        count++;
    }
    return count;
}
bool multiple_of_pow5(uint32_t value, uint32_t p) { return pow5_factor(value) >= p; }
bool multiple_of_pow2(uint32_t value, uint32_t p) { return (value & ((1u << p) - 1)) == 0; }

// (m * factor) >> shift, for shift > 32
uint32_t mul_shift(uint32_t m, uint64_t factor, int32_t shift) {
    const uint64_t bits0 = static_cast<uint64_t>(m) * static_cast<uint32_t>(factor);
    const uint64_t bits1 = static_cast<uint64_t>(m) * static_cast<uint32_t>(factor >> 32);
    const uint64_t sum = (bits0 >> 32) + bits1;
    return static_cast<uint32_t>(sum >> (shift - 32));
}
uint32_t mul_pow5_inv_div_pow2(uint32_t m, uint32_t q, int32_t j) { return mul_shift(m, kPow5InvSplit[q], j); }
uint32_t mul_pow5_div_pow2(uint32_t m, uint32_t i, int32_t j) { return mul_shift(m, kPow5Split[i], j); }

struct Decimal {
    uint32_t digits;  // no trailing zeros
    int32_t exponent; // value = digits * 10^exponent
};

// The shortest decimal in the float's rounding interval, the nearest to it when several are as short
// (Ryu's f2s, step for step). A finite, nonzero, positive float only.
Decimal shortest(uint32_t ieee_mantissa, uint32_t ieee_exponent) {
    // step 1: the value as m2 * 2^e2, with 2 more bits for the interval's bounds
    int32_t e2;
    uint32_t m2;
    if (ieee_exponent == 0) {
        e2 = 1 - kExponentBias - kMantissaBits - 2;
        m2 = ieee_mantissa;
    } else {
        e2 = static_cast<int32_t>(ieee_exponent) - kExponentBias - kMantissaBits - 2;
        m2 = (1u << kMantissaBits) | ieee_mantissa;
    }
    const bool accept_bounds = (m2 & 1) == 0;  // round-half-even reads a bound back as this float

    // step 2: the interval: mv the value, mp and mm its upper and lower bounds (closer below a power of 2)
    const uint32_t mv = 4 * m2, mp = 4 * m2 + 2;
    const uint32_t mm_shift = ieee_mantissa != 0 || ieee_exponent <= 1;
    const uint32_t mm = 4 * m2 - 1 - mm_shift;

    // step 3: the three scaled to decimal, vr = mv * 10^-e10 (and vp, vm), truncated
    uint32_t vr, vp, vm;
    int32_t e10;
    bool vm_trailing_zeros = false, vr_trailing_zeros = false;
    uint32_t last_removed_digit = 0;
    if (e2 >= 0) {
        const uint32_t q = log10_pow2(e2);
        e10 = static_cast<int32_t>(q);
        const int32_t k = kPow5InvBitcount + pow5bits(static_cast<int32_t>(q)) - 1;
        const int32_t i = -e2 + static_cast<int32_t>(q) + k;
        vr = mul_pow5_inv_div_pow2(mv, q, i);
        vp = mul_pow5_inv_div_pow2(mp, q, i);
        vm = mul_pow5_inv_div_pow2(mm, q, i);
        if (q != 0 && (vp - 1) / 10 <= vm / 10) {
            // the loop below removes at most one digit: find the one removed now
            const int32_t l = kPow5InvBitcount + pow5bits(static_cast<int32_t>(q - 1)) - 1;
            last_removed_digit = mul_pow5_inv_div_pow2(mv, q - 1, -e2 + static_cast<int32_t>(q) - 1 + l) % 10;
        }
        if (q <= 9) {
            // only one of mp, mv and mm can be a multiple of 5, if any
            if (mv % 5 == 0) vr_trailing_zeros = multiple_of_pow5(mv, q);
            else if (accept_bounds) vm_trailing_zeros = multiple_of_pow5(mm, q);
            else vp -= multiple_of_pow5(mp, q);
        }
    } else {
        const uint32_t q = log10_pow5(-e2);
        e10 = static_cast<int32_t>(q) + e2;
        const int32_t i = -e2 - static_cast<int32_t>(q);
        const int32_t k = pow5bits(i) - kPow5Bitcount;
        int32_t j = static_cast<int32_t>(q) - k;
        vr = mul_pow5_div_pow2(mv, static_cast<uint32_t>(i), j);
        vp = mul_pow5_div_pow2(mp, static_cast<uint32_t>(i), j);
        vm = mul_pow5_div_pow2(mm, static_cast<uint32_t>(i), j);
        if (q != 0 && (vp - 1) / 10 <= vm / 10) {
            j = static_cast<int32_t>(q) - 1 - (pow5bits(i + 1) - kPow5Bitcount);
            last_removed_digit = mul_pow5_div_pow2(mv, static_cast<uint32_t>(i + 1), j) % 10;
        }
        if (q <= 1) {
            // mv = 4 * m2 has at least 2 trailing zero bits
            vr_trailing_zeros = true;
            if (accept_bounds) vm_trailing_zeros = mm_shift == 1;  // mm = mv - 1 - mm_shift
            else --vp;                                             // mp = mv + 2 is excluded
        } else if (q < 31) {
            vr_trailing_zeros = multiple_of_pow2(mv, q - 1);
        }
    }

    // step 4: drop digits while the interval still holds a shorter decimal
    int32_t removed = 0;
    uint32_t output;
    if (vm_trailing_zeros || vr_trailing_zeros) {
        while (vp / 10 > vm / 10) {
            vm_trailing_zeros &= vm % 10 == 0;
            vr_trailing_zeros &= last_removed_digit == 0;
            last_removed_digit = vr % 10;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        if (vm_trailing_zeros) {
            while (vm % 10 == 0) {
                vr_trailing_zeros &= last_removed_digit == 0;
                last_removed_digit = vr % 10;
                vr /= 10;
                vp /= 10;
                vm /= 10;
                removed++;
            }
        }
        if (vr_trailing_zeros && last_removed_digit == 5 && vr % 2 == 0) last_removed_digit = 4;  // half to even
        output = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed_digit >= 5);
    } else {
        while (vp / 10 > vm / 10) {
            last_removed_digit = vr % 10;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        output = vr + (vr == vm || last_removed_digit >= 5);
    }
    int32_t exponent = e10 + removed;
    // rounding up can leave trailing zeros (199 -> 200): %g's precision counts only the others
    while (output % 10 == 0) {
        output /= 10;
        exponent++;
    }
    return {output, exponent};
}

}  // namespace

std::string float_text(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    const uint32_t ieee_mantissa = bits & ((1u << kMantissaBits) - 1), ieee_exponent = (bits >> kMantissaBits) & 0xff;
    const bool negative = bits >> 31;
    if (ieee_exponent == 0xff) return ieee_mantissa ? "\"nan\"" : negative ? "\"-inf\"" : "\"inf\"";
    if (ieee_exponent == 0 && ieee_mantissa == 0) return negative ? "-0" : "0";

    const Decimal d = shortest(ieee_mantissa, ieee_exponent);
    char digits[10];
    int P = 0;  // significant digits
    for (uint32_t n = d.digits; n; n /= 10) digits[P++] = static_cast<char>('0' + n % 10);
    for (int i = 0; i < P / 2; i++) std::swap(digits[i], digits[P - 1 - i]);
    const int X = d.exponent + P - 1;  // the decimal exponent of the first digit

    // %.<P>g: fixed notation when -4 <= X < P, else d.ddde±XX; no trailing zeros either way
    std::string out = negative ? "-" : "";
    if (X >= -4 && X < P) {
        if (X < 0) {
            out += "0.";
            out.append(static_cast<size_t>(-X - 1), '0');
            out.append(digits, static_cast<size_t>(P));
        } else {
            out.append(digits, static_cast<size_t>(X + 1));
            if (P > X + 1) {
                out += '.';
                out.append(digits + X + 1, static_cast<size_t>(P - X - 1));
            }
        }
    } else {
        out += digits[0];
        if (P > 1) {
            out += '.';
            out.append(digits + 1, static_cast<size_t>(P - 1));
        }
        out += X < 0 ? "e-" : "e+";
        const int e = X < 0 ? -X : X;
        if (e < 10) out += '0';
        out += std::to_string(e);
    }
    return out;
}

std::string double_text(double v) {
    // integral values below 1e16 keep their digits and ".0", as repr(100000.0) does (not %g's 1e+05)
    if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e16) return printf_double(v, 'f', 1);
    std::string text;
    for (int digits = 1; digits <= 17; digits++) {   // a few calls per request: a try per length is fine
        text = printf_double(v, 'g', digits);
        if (decimal_to_double(text.data(), text.size()) == v) break;
    }
    return text;
}

}  // namespace attn
