"""TensorFlow 1's optimizers with L1/L2 regularization solved in closed form
(`compat.v1.train`): FTRL-proximal, ProximalAdagrad and ProximalGradientDescent, with
TensorFlow's training kernels (ApplyFtrl / ApplyFtrlV2, ApplyProximalAdagrad,
ApplyProximalGradientDescent).

Each takes a gradient step, then the proximal step of l1 |w| + l2/2 w^2 with step size a:
prox(v) = sign(v) max(|v| - a l1, 0) / (1 + a l2), which sets small weights exactly to zero.
- ProximalGradientDescent: a = lr; w <- prox(w - lr g).
- ProximalAdagrad: accumulator (from `initial_accumulator_value`) <- accumulator + g^2;
  a = lr / sqrt(accumulator); w <- prox(w - a g).
- Ftrl (McMahan et al. 2013): with p = -learning_rate_power, slots `accum` n (from
  `initial_accumulator_value`) and `linear` z (from 0), g' = g + 2 l2_shrinkage w:
  n' = n + g^2; z <- z + g' - (n'^p - n^p) / lr w; w <- (clip(z, -l1, l1) - z) / (n'^p / lr +
  2 l2); n <- n'. `beta` adds beta / (2 lr) to l2. Slots are named `<var>/<accum_name or
  name>` and `<var>/<linear_name or name>` (TensorFlow's `Ftrl` and `Ftrl_1`).
"""
import numpy as np

from ..ops.math_ops import clip_by_value, maximum, pow as _pow
from ..ops.unary_ops import abs as _abs, sign, sqrt
from .optimizer import Optimizer, after, hyper

__all__ = ["FtrlOptimizer", "ProximalAdagradOptimizer", "ProximalGradientDescentOptimizer"]


def _prox(v, step, l1, l2):
    """sign(v) max(|v| - step l1, 0) / (1 + step l2)."""
    return sign(v) * maximum(_abs(v) - step * l1, 0) / (step * l2 + 1)


class ProximalGradientDescentOptimizer(Optimizer):
    """Gradient descent followed by the L1/L2 proximal step."""

    def __init__(self, learning_rate, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False,
                 name="ProximalGradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _apply_dense(self, grad, var):
        lr, l1, l2 = (hyper(x, var.dtype) for x in (self._learning_rate, self._l1, self._l2))
        return var.assign(_prox(var - grad * lr, lr, l1, l2))


class ProximalAdagradOptimizer(Optimizer):
    """Adagrad's per-coordinate step followed by the L1/L2 proximal step."""

    _slot_names = ("accumulator",)

    def __init__(self, learning_rate, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _slot_initial(self, var, slot_name):
        return np.full(var.shape.as_list(), self._initial_accumulator_value,
                       var.dtype.as_numpy_dtype)

    def _apply_dense(self, grad, var):
        lr, l1, l2 = (hyper(x, var.dtype) for x in (self._learning_rate, self._l1, self._l2))
        accum = self._slot(var, "accumulator").assign_add(grad * grad)
        step = lr / sqrt(accum)
        return var.assign(_prox(var - grad * step, step, l1, l2))


class FtrlOptimizer(Optimizer):
    """Follow the regularized leader, proximal version (see the module docstring)."""

    _slot_names = ("accum", "linear")

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
                 l2_shrinkage_regularization_strength=0.0, beta=None):
        _check_ftrl(learning_rate_power, initial_accumulator_value,
                    l1_regularization_strength, l2_regularization_strength,
                    l2_shrinkage_regularization_strength)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._power = learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._shrinkage = l2_shrinkage_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._accum_name, self._linear_name = accum_name, linear_name

    def _slot_op_name(self, slot_name):
        given = self._accum_name if slot_name == "accum" else self._linear_name
        return given or self._name

    def _slot_initial(self, var, slot_name):
        value = self._initial_accumulator_value if slot_name == "accum" else 0.0
        return np.full(var.shape.as_list(), value, var.dtype.as_numpy_dtype)

    def _apply_dense(self, grad, var):
        dtype = var.dtype
        lr, l1, l2, power, shrinkage, beta = (hyper(x, dtype) for x in (
            self._learning_rate, self._l1, self._l2, self._power, self._shrinkage, self._beta))
        l2 = l2 + beta / (lr * 2.0)
        accum, linear = self._slot(var, "accum"), self._slot(var, "linear")
        shrunk = grad + var * (shrinkage * 2.0)
        new_accum = accum + grad * grad
        new_power = _powered(new_accum, power)
        linear = linear.assign_add(shrunk - (new_power - _powered(accum, power)) / lr * var)
        quadratic = new_power / lr + l2 * 2.0
        update = var.assign((clip_by_value(linear, -l1, l1) - linear) / quadratic)
        with after(update):
            return accum.assign(new_accum)


def _powered(accum, power):
    """accum^(-power); a square root for TensorFlow's default power -0.5 (as its kernel)."""
    if isinstance(power, float) and power == -0.5:
        return sqrt(accum)
    return _pow(accum, -power)


def _check_ftrl(power, initial, l1, l2, shrinkage):
    if power > 0.0:
        raise ValueError(f"learning_rate_power ({power}) must be a non-positive number.")
    if initial < 0.0:
        raise ValueError(f"initial_accumulator_value {initial} needs to be positive or zero")
    for name, value in (("l1_regularization_strength", l1), ("l2_regularization_strength", l2),
                        ("l2_shrinkage_regularization_strength", shrinkage)):
        if value < 0.0:
            raise ValueError(f"{name} {value} needs to be positive or zero")
