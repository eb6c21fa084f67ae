"""Adafactor (Shazeer and Stern 2018), as Keras 3 defines it: Adam-like scaling with a factored
second moment, so a matrix of shape (..., n, m) keeps n + m statistics instead of n m.

With t the step number, beta_2_t = 1 - t^beta_2_decay, and r2 = g^2 + epsilon_1:
    rho_t = min(lr, 1 / sqrt(t))    (lr itself is first capped the same way when
                                     relative_step and the rate is a number, not a schedule)
    alpha_t = max(epsilon_2, rms(w)) rho_t
  for a variable of rank >= 2, row and column statistics r (shape [..., n]) and c ([..., m]):
    r <- beta_2_t r + (1 - beta_2_t) mean(r2, axis=-1)
    c <- beta_2_t c + (1 - beta_2_t) mean(r2, axis=-2)
    v <- (r / mean(r, axis=-1))[..., None] * c[..., None, :]
  for a vector or scalar: v <- beta_2_t v + (1 - beta_2_t) r2
    u = g / sqrt(v);   u_hat = u / max(1, rms(u) / clip_threshold)
    w <- w - alpha_t u_hat
where rms(x) = sqrt(mean(x^2)). Vectors also get (unused) scalar r and c slots, as in Keras.
"""
import numpy as np

from ..framework.tensor import constant
from ..ops.math_ops import cast, maximum, minimum, pow as _pow
from ..ops.reduce_ops import reduce_mean
from ..ops.reshape_ops import expand_dims
from ..ops.unary_ops import sqrt
from .optimizer import Optimizer, _is_schedule

__all__ = ["Adafactor"]


def _rms(x):
    return sqrt(reduce_mean(x * x))


class Adafactor(Optimizer):
    """Adaptive rates with a factored second moment."""

    _slot_names = ("r", "c", "velocity")

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                 clip_threshold=1.0, relative_step=True, name="adafactor", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def _slot_initial(self, var, slot_name):
        shape = var.shape.as_list()
        if slot_name != "velocity":
            if len(shape) < 2:
                shape = []
            else:
                shape = shape[:-1] if slot_name == "r" else shape[:-2] + shape[-1:]
        return np.zeros(shape, var.dtype.as_numpy_dtype)

    def _prepare_step(self, dtype, lr):
        step = cast(self.iterations + 1, dtype)
        inverse_sqrt = 1 / sqrt(step)
        if self.relative_step and not _is_schedule(self._learning_rate):
            lr = minimum(lr, inverse_sqrt)
        beta_2 = 1 - _pow(step, constant(self.beta_2_decay, dtype))
        return minimum(lr, inverse_sqrt), beta_2

    def _update_step(self, gradient, variable, lr):
        slots = self._slots[id(variable)]
        rho, beta_2 = self._step_constants[variable.dtype]
        alpha = maximum(constant(self.epsilon_2, variable.dtype), _rms(variable)) * rho
        squared = gradient * gradient + self.epsilon_1
        if len(variable.shape) >= 2:
            r = slots["r"].assign(
                beta_2 * slots["r"] + (1 - beta_2) * reduce_mean(squared, axis=-1))
            c = slots["c"].assign(
                beta_2 * slots["c"] + (1 - beta_2) * reduce_mean(squared, axis=-2))
            v = slots["velocity"].assign(
                expand_dims(r / reduce_mean(r, axis=-1, keepdims=True), -1) *
                expand_dims(c, -2))
        else:
            v = slots["velocity"].assign(beta_2 * slots["velocity"] + (1 - beta_2) * squared)
        u = gradient / sqrt(v)
        u_hat = u / maximum(constant(1.0, variable.dtype), _rms(u) / self.clip_threshold)
        variable.assign_sub(alpha * u_hat, read_value=False)

    def get_config(self):
        return {**super().get_config(), "beta_2_decay": self.beta_2_decay,
                "epsilon_1": self.epsilon_1, "epsilon_2": self.epsilon_2,
                "clip_threshold": self.clip_threshold, "relative_step": self.relative_step}
