// Prints tensors exactly as PyTorch 1.13's default print does (torch/_tensor_str.py): 4 decimals,
// integer and scientific styles, alignment, 80-column wrapping, summarised large tensors.
#pragma once

#include <string>

#include "core/tensor.h"

namespace attn {

// str(t): "tensor([...])", with ", grad_fn=<...>" when the tensor carries one and with_grad_fn.
std::string format_tensor(const Tensor& t, bool with_grad_fn = true);

// Python's format(v, '.{precision}{style}') for style 'f' or 'e' (the numbers of a print), e.g. 0.3061 -> "0.3061".
std::string python_format(double v, char style, int precision);

// str(t.shape): "torch.Size([6, 2])"
std::string format_size(const Shape& shape);

}  // namespace attn
