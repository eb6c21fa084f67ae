"""TensorFlow 1's per-coordinate adaptive optimizers (`compat.v1.train`): Adagrad, AdagradDA
and Adadelta, with TensorFlow's training kernels (ApplyAdagrad, ApplyAdagradDA, ApplyAdadelta).

- Adagrad (Duchi et al. 2011): the slot `accumulator` starts at `initial_accumulator_value`;
  accumulator <- accumulator + g^2; w <- w - lr g / sqrt(accumulator).
- AdagradDA (dual averaging): slots `gradient_accumulator` (from 0) and
  `gradient_squared_accumulator` (from `initial_gradient_squared_accumulator_value`) sum g and
  g^2; with t the global step plus one (read before this step's increment),
  w <- lr * sign(-G) * max(|G| - l1 t, 0) / (l2 t lr + sqrt(GG)) when l1 > 0, else
  w <- -lr G / (l2 t lr + sqrt(GG)). The weights are a function of the sums alone, so the
  initial weights are forgotten after the first step.
- Adadelta (Zeiler 2012): slots `accum` and `accum_update` from 0;
  accum <- rho accum + (1 - rho) g^2; u = sqrt(accum_update + eps) / sqrt(accum + eps) g;
  accum_update <- rho accum_update + (1 - rho) u^2; w <- w - lr u.
"""
import numpy as np

from ..framework import dtypes
from ..ops.math_ops import cast, maximum
from ..ops.unary_ops import abs as _abs, sign, sqrt
from .optimizer import Optimizer, after, hyper

__all__ = ["AdagradOptimizer", "AdagradDAOptimizer", "AdadeltaOptimizer"]


def _filled(var, value):
    return np.full(var.shape.as_list(), value, var.dtype.as_numpy_dtype)


class AdagradOptimizer(Optimizer):
    """Adagrad: each coordinate's rate shrinks with its summed squared gradients."""

    _slot_names = ("accumulator",)

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value

    def _slot_initial(self, var, slot_name):
        return _filled(var, self._initial_accumulator_value)

    def _apply_dense(self, grad, var):
        lr = hyper(self._learning_rate, var.dtype)
        accum = self._slot(var, "accumulator")
        accum = accum.assign_add(grad * grad)
        return var.assign_sub(grad * lr / sqrt(accum))


class AdagradDAOptimizer(Optimizer):
    """Adagrad dual averaging: sparse solutions by L1 on the averaged gradients."""

    _slot_names = ("gradient_accumulator", "gradient_squared_accumulator")

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError(f"initial_gradient_squared_accumulator_value must be positive: "
                             f"{initial_gradient_squared_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_squared = initial_gradient_squared_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._global_step = global_step
        self._step = None

    def _slot_initial(self, var, slot_name):
        return _filled(var, self._initial_squared if slot_name.endswith("squared_accumulator")
                       else 0.0)

    def _prepare(self):
        step = self._global_step
        value = step.read_value() if hasattr(step, "read_value") else step
        self._step = cast(value, dtypes.int64) + 1

    def _apply_dense(self, grad, var):
        dtype = var.dtype
        lr, l1, l2 = (hyper(x, dtype) for x in (self._learning_rate, self._l1, self._l2))
        step = cast(self._step, dtype)
        accum = self._slot(var, "gradient_accumulator").assign_add(grad)
        squared = self._slot(var, "gradient_squared_accumulator").assign_add(grad * grad)
        denominator = step * (l2 * lr) + sqrt(squared)
        shrunk = maximum(_abs(accum) - step * l1, 0)  # |G| when l1 = 0: w = -lr G / ...
        return var.assign(sign(-accum) * shrunk * lr / denominator)


class AdadeltaOptimizer(Optimizer):
    """Adadelta: steps scaled by the ratio of running RMS of updates and of gradients."""

    _slot_names = ("accum", "accum_update")

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-08, use_locking=False,
                 name="Adadelta"):
        super().__init__(use_locking, name)
        self._learning_rate, self._rho, self._epsilon = learning_rate, rho, epsilon

    def _apply_dense(self, grad, var):
        dtype = var.dtype
        lr, rho, eps = (hyper(x, dtype) for x in (self._learning_rate, self._rho,
                                                    self._epsilon))
        accum = self._slot(var, "accum")
        accum = accum.assign(accum * rho + grad * grad * (1 - rho))
        accum_update = self._slot(var, "accum_update")
        update = sqrt(accum_update + eps) / sqrt(accum + eps) * grad
        new_update = accum_update.assign(accum_update * rho + update * update * (1 - rho))
        with after(new_update):
            return var.assign_sub(update * lr)
