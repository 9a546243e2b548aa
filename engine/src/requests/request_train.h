// The `grad` and `train` eval ops (request_train.cpp), kept apart from request.cpp's other ops.
#pragma once

#include <string>

#include "requests/request_fields.h"

namespace attn {

// The answer's JSON text; throws Error with a sentence for a bad request. Both read their fields
// through the request's one reader and refuse any field they did not read (their fields follow the module).
std::string evaluate_grad(Request& request);
std::string evaluate_train(Request& request);

}  // namespace attn
