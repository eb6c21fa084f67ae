"""SGD: gradient descent, with optional (Nesterov) momentum, as Keras 3 defines it.

Without momentum: w <- w - lr * g.
With momentum m (a velocity slot starting at 0):
    v <- m * v - lr * g
    w <- w + v                       (plain)
    w <- w + m * v - lr * g          (nesterov: a step from the look-ahead point)

A sparse gradient (IndexedSlices of rows) updates only those rows of w without momentum; with
momentum the velocity decays densely (v <- m * v) and then receives -lr * g in the gradient's rows
by scatter, as Keras does: the same result as the dense update, without a dense gradient.
"""
from ..framework.indexed_slices import IndexedSlices
from .optimizer import Optimizer
from .sparse_updates import deduplicate, scatter_add

__all__ = ["SGD"]


class SGD(Optimizer):
    """Gradient descent (with momentum)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        if not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
            raise ValueError(f"SGD: `momentum` must be a float in [0, 1], got {momentum!r}.")
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)
        self._slot_names = ("momentum",) if self.momentum else ()

    def _update_step(self, gradient, variable, lr):
        if not self.momentum:
            variable.assign_sub(gradient * lr, read_value=False)
            return
        velocity = self._slots[id(variable)]["momentum"]
        velocity = velocity.assign(velocity * self.momentum - gradient * lr)
        if self.nesterov:
            variable.assign_add(velocity * self.momentum - gradient * lr, read_value=False)
        else:
            variable.assign_add(velocity, read_value=False)

    def _update_step_sparse(self, slices, variable, lr):
        slices = deduplicate(slices)
        step = IndexedSlices._of(slices.values * -lr, slices.indices, slices._static)
        if not self.momentum:
            scatter_add(variable, step)
            return
        velocity = self._slots[id(variable)]["momentum"]
        velocity.assign(velocity * self.momentum, read_value=False)
        scatter_add(velocity, step)
        if self.nesterov:
            scatter_add(variable, step)
            variable.assign_add(velocity * self.momentum, read_value=False)
        else:
            variable.assign_add(velocity, read_value=False)

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum, "nesterov": self.nesterov}
