// The optimizers' updates, element by element. PyTorch's CPU kernels vectorise these, and its
// compiler fuses `a + alpha·b` (add_) and `self + value·t1·t2` (addcmul_) into one FMA rounding in
// the vector body and the scalar tail alike; addcdiv_ ends in a division, so it rounds each step.
#include "chapter/optim.h"

#include <cmath>

#include "core/pytorch_cpu.h"

namespace attn {

namespace {

using pytorch_cpu::fma_round_once;

void check_grads(const std::vector<Tensor*>& params, const std::vector<Tensor>& grads) {
    if (params.size() != grads.size()) throw Error("the optimizer needs one gradient per parameter");
    for (size_t i = 0; i < params.size(); i++) {
        if (params[i]->shape != grads[i].shape) throw Error("a gradient's shape differs from its parameter's");
    }
}

}  // namespace

void Sgd::step(const std::vector<Tensor*>& params, const std::vector<Tensor>& grads) {
    check_grads(params, grads);
    const float neg_lr = static_cast<float>(-lr_);
    const float momentum = static_cast<float>(momentum_);
    const bool first = momentum_buffer_.empty();
    for (size_t i = 0; i < params.size(); i++) {
        const Tensor* d_p = &grads[i];
        if (momentum_ != 0.0) {
            if (first) {
                momentum_buffer_.push_back(grads[i]);  // buf = torch.clone(d_p)
            } else {
                // buf.mul_(momentum).add_(d_p, alpha=1)
                Tensor& buf = momentum_buffer_[i];
                for (size_t j = 0; j < buf.data.size(); j++) {
                    buf.data[j] = fma_round_once(grads[i].data[j], 1.0f, buf.data[j] * momentum);
                }
            }
            d_p = &momentum_buffer_[i];
        }
        // param.add_(d_p, alpha=-lr)
        Tensor& p = *params[i];
        for (size_t j = 0; j < p.data.size(); j++) p.data[j] = fma_round_once(d_p->data[j], neg_lr, p.data[j]);
    }
}

void Adam::step(const std::vector<Tensor*>& params, const std::vector<Tensor>& grads) {
    check_grads(params, grads);
    if (exp_avg_.empty()) {
        for (const Tensor* p : params) {
            exp_avg_.push_back(Tensor::zeros(p->shape));
            exp_avg_sq_.push_back(Tensor::zeros(p->shape));
            step_.push_back(0.0f);
        }
    }
    const float b1 = static_cast<float>(beta1), b2 = static_cast<float>(beta2);
    const float one_minus_b1 = static_cast<float>(1.0 - beta1), one_minus_b2 = static_cast<float>(1.0 - beta2);
    const float eps_f = static_cast<float>(eps);
    for (size_t i = 0; i < params.size(); i++) {
        step_[i] += 1.0f;
        // Python floats (double) from here to value=-step_size
        const double step = step_[i];
        const double bias_correction1 = 1.0 - std::pow(beta1, step);
        const double bias_correction2 = 1.0 - std::pow(beta2, step);
        const double step_size = lr_ / bias_correction1;
        const float bias_correction2_sqrt = static_cast<float>(std::sqrt(bias_correction2));
        const float neg_step_size = static_cast<float>(-step_size);
        const std::vector<float>& grad = grads[i].data;
        std::vector<float>& exp_avg = exp_avg_[i].data;
        std::vector<float>& exp_avg_sq = exp_avg_sq_[i].data;
        std::vector<float>& param = params[i]->data;
        for (size_t j = 0; j < param.size(); j++) {
            // exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
            exp_avg[j] = fma_round_once(grad[j], one_minus_b1, exp_avg[j] * b1);
            // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            exp_avg_sq[j] = fma_round_once(one_minus_b2 * grad[j], grad[j], exp_avg_sq[j] * b2);
            // denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            const float denom = std::sqrt(exp_avg_sq[j]) / bias_correction2_sqrt + eps_f;
            // param.addcdiv_(exp_avg, denom, value=-step_size)
            param[j] = param[j] + neg_step_size * exp_avg[j] / denom;
        }
    }
}

}  // namespace attn
