"""FTRL-proximal (McMahan et al. 2013, "Ad Click Prediction"), as Keras 3 defines it: online
learning with per-coordinate rates and L1/L2 regularization solved in closed form, which keeps
many weights exactly zero.

With p = learning_rate_power (<= 0), slots n (the accumulator, starting at
initial_accumulator_value) and z (linear, starting at 0), l2 = l2_regularization_strength +
beta / (2 lr):
    g' = g + 2 l2_shrinkage w
    n' = n + g^2
    z <- z + g' - (n'^(-p) - n^(-p)) / lr * w
    w <- (clip(z, -l1, l1) - z) / (n'^(-p) / lr + 2 l2)
    n <- n'
"""
import numpy as np

from ..ops.math_ops import clip_by_value, pow as _pow
from .optimizer import Optimizer

__all__ = ["Ftrl"]


class Ftrl(Optimizer):
    """Follow the regularized leader."""

    _slot_names = ("accumulator", "linear")

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, name="ftrl", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        for arg, value in (("initial_accumulator_value", initial_accumulator_value),
                           ("l1_regularization_strength", l1_regularization_strength),
                           ("l2_regularization_strength", l2_regularization_strength),
                           ("l2_shrinkage_regularization_strength",
                            l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"Ftrl: `{arg}` needs to be positive or zero, got {value!r}.")
        if learning_rate_power > 0.0:
            raise ValueError(f"Ftrl: `learning_rate_power` needs to be negative or zero, got "
                             f"{learning_rate_power!r}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def _slot_initial(self, var, slot_name):
        value = self.initial_accumulator_value if slot_name == "accumulator" else 0.0
        return np.full(var.shape.as_list(), value, var.dtype.as_numpy_dtype)

    def _update_step(self, gradient, variable, lr):
        slots = self._slots[id(variable)]
        accumulator, linear = slots["accumulator"], slots["linear"]
        power = -self.learning_rate_power
        l1 = self.l1_regularization_strength
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        shrunk = gradient + variable * (2 * self.l2_shrinkage_regularization_strength)
        new_accumulator = accumulator + gradient * gradient
        new_power = _pow(new_accumulator, power)
        linear = linear.assign_add(
            shrunk - ((new_power - _pow(accumulator, power)) / lr) * variable)
        quadratic = new_power / lr + 2 * l2
        variable.assign((clip_by_value(linear, -l1, l1) - linear) / quadratic,
                        read_value=False)
        accumulator.assign(new_accumulator, read_value=False)

    def get_config(self):
        return {**super().get_config(), "learning_rate_power": self.learning_rate_power,
                "initial_accumulator_value": self.initial_accumulator_value,
                "l1_regularization_strength": self.l1_regularization_strength,
                "l2_regularization_strength": self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength":
                    self.l2_shrinkage_regularization_strength,
                "beta": self.beta}
