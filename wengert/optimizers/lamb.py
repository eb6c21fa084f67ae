"""Lamb (You et al. 2019, layer-wise adaptive moments for large batches), as Keras 3 defines it:
Adam's bias-corrected direction, rescaled per variable by a trust ratio ||w|| / ||update||.

With t the step number and slots m and v starting at 0:
    m <- m + (g - m) (1 - beta_1);   v <- v + (g^2 - v) (1 - beta_2)
    update = (m / (1 - beta_1^t)) / (sqrt(v / (1 - beta_2^t)) + epsilon)
    ratio = ||w|| / ||update|| when both norms are > 0, else 1
    w <- w - ratio lr update
(the norms are Euclidean over the whole variable, taken before the update).
"""
from ..framework.tensor import constant
from ..ops.array_ops import where
from ..ops.math_ops import cast, greater, pow as _pow
from ..ops.reduce_ops import reduce_sum
from ..ops.unary_ops import sqrt
from .optimizer import Optimizer

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """Adam with a layer-wise trust ratio."""

    _slot_names = ("momentum", "velocity")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="lamb", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _prepare_step(self, dtype, lr):
        step = cast(self.iterations + 1, dtype)
        return (1 - _pow(constant(self.beta_1, dtype), step),
                1 - _pow(constant(self.beta_2, dtype), step))

    def _update_step(self, gradient, variable, lr):
        slots = self._slots[id(variable)]
        correction_1, correction_2 = self._step_constants[variable.dtype]
        m = slots["momentum"].assign_add((gradient - slots["momentum"]) * (1 - self.beta_1))
        v = slots["velocity"].assign_add(
            (gradient * gradient - slots["velocity"]) * (1 - self.beta_2))
        update = (m / correction_1) / (sqrt(v / correction_2) + self.epsilon)
        w_norm = sqrt(reduce_sum(variable * variable))
        u_norm = sqrt(reduce_sum(update * update))
        one = constant(1.0, variable.dtype)
        ratio = where(greater(w_norm, 0), where(greater(u_norm, 0), w_norm / u_norm, one), one)
        variable.assign_sub(ratio * lr * update, read_value=False)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
