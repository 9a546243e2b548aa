// The shortest decimal text that reads back as the same float32 (float_text.cpp): how every number
// the engine writes as JSON is spelled (requests/json_out.h).
#pragma once

#include <string>

namespace attn {

// Non-finite values as the strings "inf", "-inf", "nan".
std::string float_text(float v);

}  // namespace attn
