"""RMSprop, as Keras 3 defines it (epsilon inside the square root).

With rho the discount and a slot s (the mean square, starting at 0):
    s <- rho s + (1 - rho) g^2
    increment = lr * g / sqrt(s + epsilon)
centered: a slot a (mean gradient) with a <- rho a + (1 - rho) g, and the denominator is
sqrt(s - a^2 + epsilon): the gradient is normalized by its estimated variance.
momentum > 0: a slot u <- momentum u + increment, and w <- w - u; otherwise w <- w - increment.
"""
from ..ops.unary_ops import sqrt
from .optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """Divide the gradient by a running root mean square of recent gradients."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="rmsprop", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = bool(centered)
        self._slot_names = ("velocity",) + (("momentum",) if momentum > 0 else ()) + (
            ("average_gradient",) if self.centered else ())

    _squares_sparse_values = True  # velocity takes a sparse gradient's squared pieces

    def _update_step(self, gradient, variable, lr, square=None):
        slots = self._slots[id(variable)]
        rho = self.rho
        square = gradient * gradient if square is None else square
        velocity = slots["velocity"].assign(slots["velocity"] * rho + square * (1 - rho))
        if self.centered:
            average = slots["average_gradient"].assign(
                slots["average_gradient"] * rho + gradient * (1 - rho))
            denominator = velocity - average * average + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = (lr * gradient) / sqrt(denominator)
        if self.momentum > 0:
            momentum = slots["momentum"].assign(slots["momentum"] * self.momentum + increment)
            variable.assign_sub(momentum, read_value=False)
        else:
            variable.assign_sub(increment, read_value=False)

    def get_config(self):
        return {**super().get_config(), "rho": self.rho, "momentum": self.momentum,
                "epsilon": self.epsilon, "centered": self.centered}
