"""Adam and AdamW, as Keras 3 defines them.

With t the step number (1 for the first update), slots m and v starting at 0:
    m <- m + (g - m) * (1 - beta_1)              (= beta_1 m + (1 - beta_1) g)
    v <- v + (g^2 - v) * (1 - beta_2)
    alpha = lr * sqrt(1 - beta_2^t) / (1 - beta_1^t)      (bias correction folded into lr)
    w <- w - alpha * m / (sqrt(v) + epsilon)
With amsgrad, a third slot keeps v_hat = max(v_hat, v) and the denominator uses v_hat.

A sparse gradient (IndexedSlices of rows) updates the moments as Keras 3 does: both decay
densely, m <- m - m * (1 - beta_1), then receive (1 - beta_1) g and (1 - beta_2) g^2 in the
gradient's rows by scatter; the variable update is the dense formula. A row that comes several
times (an embedding row looked up twice in a batch) adds up its pieces in m, and their squares in
v, as Keras 3 squares an IndexedSlices gradient's values before they are summed: v gets
g1^2 + g2^2 where the dense gradient's square would be (g1 + g2)^2. No dense gradient is built.

AdamW is Adam with decoupled weight decay (Loshchilov and Hutter): before the Adam step each
variable shrinks, w <- w - w * weight_decay * lr (the base class applies it).
"""
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import constant
from ..ops.math_ops import cast, maximum, pow as _pow
from ..ops.unary_ops import sqrt
from .optimizer import Optimizer
from .sparse_updates import deduplicate, scatter_add

__all__ = ["Adam", "AdamW", "adam_rate", "adam_update"]


def adam_rate(lr, beta_1_power, beta_2_power):
    """The step size with the bias correction folded in: lr sqrt(1 - beta_2^t) / (1 - beta_1^t)."""
    return lr * sqrt(1 - beta_2_power) / (1 - beta_1_power)


def adam_update(variable, gradient, m, v, alpha, beta_1, beta_2, epsilon, vhat=None,
                read_value=True, square=None):
    """One dense Adam step of `variable` with its moment slots m and v (and, with amsgrad, the
    running maximum vhat), at the bias-corrected rate `alpha` (adam_rate). TensorFlow 1's
    AdamOptimizer (train/v1_optimizers.py) takes the same step. `square` stands in for g^2 (a
    sparse gradient's squared pieces, summed per row)."""
    m = m.assign_add((gradient - m) * (1 - beta_1))
    v = v.assign_add(((gradient * gradient if square is None else square) - v) * (1 - beta_2))
    if vhat is not None:
        v = vhat.assign(maximum(vhat, v))
    return variable.assign_sub((m * alpha) / (sqrt(v) + epsilon), read_value=read_value)


class Adam(Optimizer):
    """Adaptive moment estimation."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="adam", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = bool(amsgrad)
        self._slot_names = ("m", "v", "vhat") if self.amsgrad else ("m", "v")

    def _prepare_step(self, dtype, lr):
        step = cast(self.iterations + 1, dtype)
        beta_1_power = _pow(constant(self.beta_1, dtype), step)
        beta_2_power = _pow(constant(self.beta_2, dtype), step)
        return adam_rate(lr, beta_1_power, beta_2_power)

    _squares_sparse_values = True  # v takes a sparse gradient's squared pieces (see above)

    def _update_step(self, gradient, variable, lr, square=None):
        slots = self._slots[id(variable)]
        alpha = self._step_constants[variable.dtype]
        adam_update(variable, gradient, slots["m"], slots["v"], alpha, self.beta_1, self.beta_2,
                    self.epsilon, slots.get("vhat"), read_value=False, square=square)

    def _update_step_sparse(self, slices, variable, lr):
        slots = self._slots[id(variable)]
        alpha = self._step_constants[variable.dtype]
        values, rows = slices.values, slices.indices
        m, v = slots["m"], slots["v"]
        m.assign_sub(m * (1 - self.beta_1), read_value=False)
        scatter_add(m, deduplicate(IndexedSlices._of(values * (1 - self.beta_1), rows, None)))
        v.assign_sub(v * (1 - self.beta_2), read_value=False)
        scatter_add(v, deduplicate(IndexedSlices._of(values * values * (1 - self.beta_2), rows,
                                                     None)))
        if self.amsgrad:
            v = slots["vhat"].assign(maximum(slots["vhat"], v))
        variable.assign_sub((m * alpha) / (sqrt(v) + self.epsilon), read_value=False)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon, "amsgrad": self.amsgrad}


class AdamW(Adam):
    """Adam with decoupled weight decay (default 0.004)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name="adamw", **kwargs):
        if weight_decay is None:
            raise ValueError("AdamW: `weight_decay` must be a number (use Adam for none).")
        super().__init__(learning_rate, beta_1=beta_1, beta_2=beta_2, epsilon=epsilon,
                         amsgrad=amsgrad, weight_decay=weight_decay, name=name, **kwargs)
