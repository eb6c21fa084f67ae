"""Adamax, as Keras 3 defines it: Adam with the infinity norm in place of the second moment.

With t the step number (1 for the first update) and slots m and u starting at 0:
    m <- m + (g - m) (1 - beta_1)
    u <- max(beta_2 u, |g|)
    w <- w - lr m / ((1 - beta_1^t) (u + epsilon))
"""
from ..framework.tensor import constant
from ..ops.math_ops import cast, maximum, pow as _pow
from ..ops.unary_ops import abs as _abs
from .optimizer import Optimizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adam over the infinity norm of the gradients."""

    _slot_names = ("momentum", "norm")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="adamax", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _prepare_step(self, dtype, lr):
        step = cast(self.iterations + 1, dtype)
        return lr / (1 - _pow(constant(self.beta_1, dtype), step))

    def _update_step(self, gradient, variable, lr):
        slots = self._slots[id(variable)]
        m = slots["momentum"].assign_add((gradient - slots["momentum"]) * (1 - self.beta_1))
        u = slots["norm"].assign(maximum(slots["norm"] * self.beta_2, _abs(gradient)))
        rate = self._step_constants[variable.dtype]
        variable.assign_sub((m * rate) / (u + self.epsilon), read_value=False)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
