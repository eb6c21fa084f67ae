"""Adagrad, as Keras 3 defines it: per-coordinate learning rates that shrink with the sum of
squared gradients seen so far.

    a <- a + g^2                 (slot a starts at initial_accumulator_value)
    w <- w - lr * g / sqrt(a + epsilon)
"""
import numpy as np

from ..ops.unary_ops import sqrt
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adaptive gradient."""

    _slot_names = ("accumulator",)

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="adagrad", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        if initial_accumulator_value < 0:
            raise ValueError(f"Adagrad: initial_accumulator_value must be >= 0, got "
                             f"{initial_accumulator_value}.")
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _slot_initial(self, var, slot_name):
        return np.full(var.shape.as_list(), self.initial_accumulator_value,
                       var.dtype.as_numpy_dtype)

    _squares_sparse_values = True  # the accumulator takes a sparse gradient's squared pieces

    def _update_step(self, gradient, variable, lr, square=None):
        accumulator = self._slots[id(variable)]["accumulator"]
        accumulator = accumulator.assign_add(gradient * gradient if square is None else square)
        variable.assign_sub((lr * gradient) / sqrt(accumulator + self.epsilon),
                            read_value=False)

    def get_config(self):
        return {**super().get_config(),
                "initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}
