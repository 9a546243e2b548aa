// Doubles to and from decimal text without the C library's printf and strtod (decimal.cpp): both
// round the exact value half to even as they do, with a few big-integer steps instead of the 128-bit
// software long doubles Emscripten's musl uses for them (~20 KB of each wasm engine).
#pragma once

#include <cstddef>
#include <string>

namespace attn {

// printf's "%.<precision><style>" for style 'f', 'e' or 'g' and no flags: the same characters
// ("nan", "-nan", "inf", "-inf" for the non-finite).
std::string printf_double(double v, char style, int precision);

// strtod for a JSON number (-?digits[.digits][e[+-]digits], as the request reader accepts them):
// the nearest double, ties to even; ±inf beyond the largest double, ±0 below the smallest.
double decimal_to_double(const char* text, size_t length);

}  // namespace attn
