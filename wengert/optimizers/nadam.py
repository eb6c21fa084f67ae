"""Nadam (Dozat 2016, Adam with Nesterov momentum), as Keras 3 defines it, with its momentum
schedule mu_t = beta_1 (1 - 0.5 * 0.96^t).

With t the step number, slots m and v starting at 0, and P_t = mu_1 mu_2 ... mu_t (a variable
of the optimizer, `u_product`, updated once per step before the variables are):
    m <- m + (g - m) (1 - beta_1);   v <- v + (g^2 - v) (1 - beta_2)
    m_hat = mu_{t+1} m / (1 - P_t mu_{t+1}) + (1 - mu_t) g / (1 - P_t)
    v_hat = v / (1 - beta_2^t)
    w <- w - lr m_hat / (sqrt(v_hat) + epsilon)
"""
import numpy as np

from ..framework.tensor import constant
from ..ops.math_ops import cast, pow as _pow
from ..ops.unary_ops import sqrt
from .optimizer import Optimizer

__all__ = ["Nadam"]


class Nadam(Optimizer):
    """Adam with Nesterov momentum."""

    _slot_names = ("momentum", "velocity")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="nadam", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self._u_product = None

    def build(self, variables):
        """Slots of each variable, and the running product of the momentum schedule (in the
        dtype of the first variable, as Keras 3 keeps it)."""
        variables = list(variables)
        super().build(variables)
        if self._u_product is None:
            dtype = variables[0].dtype if variables else "float32"
            self._u_product = self.add_variable((), initializer="ones", dtype=dtype,
                                                name="u_product")

    def _mu(self, step, dtype):
        return self.beta_1 * (1.0 - 0.5 * _pow(constant(np.float64(0.96), dtype), step))

    def _before_updates(self):
        product = self._u_product
        step = cast(self.iterations + 1, product.dtype)
        product.assign(product * self._mu(step, product.dtype), read_value=False)

    def _prepare_step(self, dtype, lr):
        step = cast(self.iterations + 1, dtype)
        mu_t, mu_next = self._mu(step, dtype), self._mu(step + 1, dtype)
        product = self._u_product if self._u_product.dtype is dtype else cast(
            self._u_product, dtype)
        return (mu_t, mu_next, product, product * mu_next,
                1 - _pow(constant(self.beta_2, dtype), step))

    def _update_step(self, gradient, variable, lr):
        slots = self._slots[id(variable)]
        mu_t, mu_next, product, product_next, correction_2 = self._step_constants[
            variable.dtype]
        m = slots["momentum"].assign_add((gradient - slots["momentum"]) * (1 - self.beta_1))
        v = slots["velocity"].assign_add(
            (gradient * gradient - slots["velocity"]) * (1 - self.beta_2))
        m_hat = (mu_next * m) / (1 - product_next) + ((1 - mu_t) * gradient) / (1 - product)
        v_hat = v / correction_2
        variable.assign_sub((m_hat * lr) / (sqrt(v_hat) + self.epsilon), read_value=False)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
