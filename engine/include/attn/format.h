// Prints tensors exactly as PyTorch 1.13's default print does (torch/_tensor_str.py): 4 decimals,
// integer and scientific styles, alignment, 80-column wrapping, summarised large tensors.
#pragma once

#include <string>

#include "attn/tensor.h"

namespace attn {

// str(t): "tensor([...])", with ", grad_fn=<...>" when the tensor carries one and with_grad_fn.
std::string format_tensor(const Tensor& t, bool with_grad_fn = true);

// str(t.shape): "torch.Size([6, 2])"
std::string format_size(const Shape& shape);

}  // namespace attn
