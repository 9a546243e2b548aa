"""Writes engine/src/core/pow10_table.inc: 10^q for q = -343 .. 308 as 192-bit integers T with
10^q = (T + f) * 2^-s, 0 <= f < 1 (T is 10^q * 2^s rounded down, its leading bit at 2^191), for the
engine's exact decimal reader (core/decimal.cpp). Python's integers are exact, so the file is the same
on every run:  python3 scripts/make_pow10_table.py
"""
import os

LO, HI = -343, 308
rows = []
for q in range(LO, HI + 1):
    if q >= 0:
        v = 10 ** q
        s = 191 - (v.bit_length() - 1)
        t = v << s if s >= 0 else v >> -s
    else:
        d = 10 ** -q
        s = 191 + d.bit_length()
        t = (1 << s) // d
        while t.bit_length() > 192:
            s -= 1
            t = (1 << s) // d
        while t.bit_length() < 192:
            s += 1
            t = (1 << s) // d
    assert t.bit_length() == 192
    words = [(t >> (64 * i)) & (2 ** 64 - 1) for i in (2, 1, 0)]
    rows.append("    {{0x%016xu, 0x%016xu, 0x%016xu}, %d},  // 1e%d" % (words[0], words[1], words[2], s, q))
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine", "src", "core", "pow10_table.inc")
with open(out, "w") as f:
    f.write("// 10^q for q = %d .. %d: {T's 64-bit words, most significant first; s}, 10^q = T * 2^-s rounded down\n" % (LO, HI))
    f.write("// to 192 bits. Written by scripts/make_pow10_table.py; do not edit.\n")
    f.write("\n".join(rows) + "\n")
print(len(rows), "powers")
