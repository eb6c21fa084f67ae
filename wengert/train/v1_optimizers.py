"""TensorFlow 1 optimizers (`compat.v1.train`): GradientDescent, Momentum, Adam and RMSProp.

The base class (train/optimizer.py) computes the gradients and creates the slots; each class
here states how one variable steps given its gradient g.

The update rules are TensorFlow's training kernels (epsilon placement included):
- GradientDescent: w <- w - lr g.
- Momentum: a <- momentum a + g; w <- w - lr a, or with Nesterov w <- w - lr g - lr momentum a.
- Adam: m <- m + (g - m)(1 - beta1); v <- v + (g^2 - v)(1 - beta2);
  w <- w - lr sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + epsilon), with beta1^t and
  beta2^t kept in the variables beta1_power, beta2_power (multiplied by beta after each step).
- RMSProp: ms <- ms + (g^2 - ms)(1 - decay) (ms starts at ONE); centered: mg <- mg + (g - mg)
  (1 - decay) and ms - mg^2 replaces ms below; mom <- momentum mom + lr g / sqrt(ms + epsilon);
  w <- w - mom.
"""
import numpy as np

from ..ops.math_ops import cast
from ..ops.unary_ops import sqrt
from ..optimizers.adam import adam_rate, adam_update
from .optimizer import Optimizer, building_graph, hyper, value_of

__all__ = ["GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer", "RMSPropOptimizer"]


class GradientDescentOptimizer(Optimizer):
    """w <- w - learning_rate * g."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad, var):
        return var.assign_sub(grad * hyper(self._learning_rate, var.dtype))


class MomentumOptimizer(Optimizer):
    """accumulation <- momentum * accumulation + g; w <- w - lr * accumulation (Nesterov:
    w <- w - lr * g - lr * momentum * accumulation)."""

    _slot_names = ("momentum",)

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    def _apply_dense(self, grad, var):
        lr = hyper(self._learning_rate, var.dtype)
        momentum = hyper(self._momentum, var.dtype)
        accum = self._slot(var, "momentum")
        accum = accum.assign(accum * momentum + grad)
        if self._use_nesterov:
            return var.assign_sub(grad * lr + accum * momentum * lr)
        return var.assign_sub(accum * lr)


class AdamOptimizer(Optimizer):
    """Adam (Kingma and Ba), epsilon outside the square root ("epsilon hat")."""

    _slot_names = ("m", "v")

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 use_locking=False, name="Adam", use_own_namescope_for_non_slot_vars=False):
        super().__init__(use_locking, name, use_own_namescope_for_non_slot_vars)
        self._lr, self._beta1, self._beta2, self._epsilon = learning_rate, beta1, beta2, epsilon

    def _create_non_slots(self, var_list):
        first = var_list[0]
        self._non_slot_variable("beta1_power", value_of(self._beta1), first.dtype)
        self._non_slot_variable("beta2_power", value_of(self._beta2), first.dtype)

    def _beta_powers(self):
        graph = building_graph()
        gid = id(graph) if graph is not None else None
        return self._non_slot[(gid, "beta1_power")], self._non_slot[(gid, "beta2_power")]

    def _apply_dense(self, grad, var):
        dtype = var.dtype
        beta1_power, beta2_power = (cast(p, dtype) if p.dtype is not dtype else p
                                    for p in self._beta_powers())
        lr, beta1 = hyper(self._lr, dtype), hyper(self._beta1, dtype)
        beta2, epsilon = hyper(self._beta2, dtype), hyper(self._epsilon, dtype)
        return adam_update(var, grad, self._slot(var, "m"), self._slot(var, "v"),
                           adam_rate(lr, beta1_power, beta2_power), beta1, beta2, epsilon)

    def _finish(self, updates, graph):
        beta1_power, beta2_power = self._beta_powers()
        beta1 = hyper(self._beta1, beta1_power.dtype)
        beta2 = hyper(self._beta2, beta2_power.dtype)
        if graph is None:
            beta1_power.assign(beta1_power * beta1)
            beta2_power.assign(beta2_power * beta2)
            return updates
        with graph.control_dependencies(list(updates)):
            return list(updates) + [beta1_power.assign(beta1_power * beta1),
                                    beta2_power.assign(beta2_power * beta2)]


class RMSPropOptimizer(Optimizer):
    """RMSProp with TensorFlow 1's kernel: mean square starting at one, epsilon inside the
    square root, plain momentum."""

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._lr, self._decay, self._momentum = learning_rate, decay, momentum
        self._epsilon, self._centered = epsilon, centered
        self._slot_names = ("rms", "momentum") + (("mg",) if centered else ())

    def _slot_initial(self, var, slot_name):
        if slot_name == "rms":
            return np.ones(var.shape.as_list(), var.dtype.as_numpy_dtype)
        return super()._slot_initial(var, slot_name)

    def _apply_dense(self, grad, var):
        dtype = var.dtype
        lr, decay = hyper(self._lr, dtype), hyper(self._decay, dtype)
        momentum, epsilon = hyper(self._momentum, dtype), hyper(self._epsilon, dtype)
        ms = self._slot(var, "rms")
        ms = ms.assign_add((grad * grad - ms) * (1 - decay))
        if self._centered:
            mg = self._slot(var, "mg")
            mg = mg.assign_add((grad - mg) * (1 - decay))
            denominator = ms - mg * mg + epsilon
        else:
            denominator = ms + epsilon
        mom = self._slot(var, "momentum")
        mom = mom.assign(mom * momentum + grad * lr / sqrt(denominator))
        return var.assign_sub(mom)
