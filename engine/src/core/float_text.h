// The shortest decimal text that reads back as the same float32 (float_text.cpp): how every number
// the engine writes as JSON is spelled (requests/json_out.h).
#pragma once

#include <string>

namespace attn {

// Non-finite values as the strings "inf", "-inf", "nan".
std::string float_text(float v);

// A finite double as Python's repr writes it (0.02, 5.0, 1e-05): the shortest text that reads back as
// the same double, for the few settings (a learning rate) a request or a printed program spells out.
std::string double_text(double v);

}  // namespace attn
