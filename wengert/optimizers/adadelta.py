"""Adadelta, as Keras 3 defines it: the step size adapts from running averages of both the
squared gradients and the squared updates, so the units of the update match the weights'.

With rho the decay and two slots starting at 0, the mean square gradient a_g and the mean
square update a_d:
    a_g <- rho a_g + (1 - rho) g^2
    delta = -sqrt(a_d + epsilon) g / sqrt(a_g + epsilon)
    a_d <- rho a_d + (1 - rho) delta^2
    w <- w + lr delta
(Keras's default learning rate is 0.001; the original paper's method is lr = 1.)
"""
from ..ops.unary_ops import sqrt
from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adaptive learning rates from windows of gradient and update magnitudes."""

    _slot_names = ("accumulated_grad", "accumulated_delta_var")

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="adadelta",
                 **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def _update_step(self, gradient, variable, lr):
        slots = self._slots[id(variable)]
        rho, epsilon = self.rho, self.epsilon
        grads = slots["accumulated_grad"].assign(
            slots["accumulated_grad"] * rho + gradient * gradient * (1 - rho))
        deltas = slots["accumulated_delta_var"]
        delta = -(sqrt(deltas + epsilon) * gradient) / sqrt(grads + epsilon)
        deltas.assign(deltas * rho + delta * delta * (1 - rho), read_value=False)
        variable.assign_add(lr * delta, read_value=False)

    def get_config(self):
        return {**super().get_config(), "rho": self.rho, "epsilon": self.epsilon}
