// torch.optim.SGD and torch.optim.Adam as PyTorch 1.13 runs them on the CPU (_single_tensor_sgd,
// _single_tensor_adam): the same float32 operations in the same order, each rounded as PyTorch's
// kernels round it, so every step's parameters are PyTorch's.
#pragma once

#include <vector>

#include "core/tensor.h"

namespace attn {

class Optimizer {
public:
    virtual ~Optimizer() = default;
    // params[i] -= the update for grads[i]; the same params, in the same order, every step.
    virtual void step(const std::vector<Tensor*>& params, const std::vector<Tensor>& grads) = 0;
};

// SGD(params, lr, momentum): dampening 0, no nesterov, no weight decay.
class Sgd : public Optimizer {
public:
    Sgd(double lr, double momentum) : lr_(lr), momentum_(momentum) {}
    void step(const std::vector<Tensor*>& params, const std::vector<Tensor>& grads) override;

private:
    double lr_, momentum_;
    std::vector<Tensor> momentum_buffer_;  // empty until the first step, as in PyTorch's state
};

// Adam(params, lr): betas (0.9, 0.999), eps 1e-8, no weight decay, amsgrad off.
class Adam : public Optimizer {
public:
    explicit Adam(double lr) : lr_(lr) {}
    void step(const std::vector<Tensor*>& params, const std::vector<Tensor>& grads) override;

private:
    double lr_;
    static constexpr double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    std::vector<Tensor> exp_avg_, exp_avg_sq_;
    std::vector<float> step_;  // state['step'], a float32 tensor per parameter
};

}  // namespace attn
