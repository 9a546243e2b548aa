// The `grad` and `train` eval ops (request_train.cpp), kept apart from request.cpp's other ops.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace attn {

// The answer's JSON text; throws Error with a sentence for a bad request.
std::string evaluate_grad(const nlohmann::json& request);
std::string evaluate_train(const nlohmann::json& request);

}  // namespace attn
