"""`keras.constraints`: projections applied to a weight after every optimizer step.

A layer given `kernel_constraint=c` marks its weight with `variable.constraint = c`; after
`apply_gradients` updates the weight the optimizer assigns c(weight) to it (Keras 3's rule).
With n = sqrt(sum of w^2 over `axis`) (per output unit for a Dense kernel, axis=0) and
eps = 1e-7:
    MaxNorm(m):             w * clip(n, 0, m) / (eps + n)
    MinMaxNorm(a, b, rate): w * (rate * clip(n, a, b) + (1 - rate) n) / (eps + n)
    UnitNorm():             w / (eps + n)
    NonNeg():               w * (w >= 0)
"""
from . import backend
from . import backend_ops as K
from .registry import Registry

__all__ = ["Constraint", "MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm", "max_norm",
           "min_max_norm", "non_neg", "unit_norm", "get", "serialize", "deserialize"]


class Constraint:
    """Base class: `__call__(w)` returns the projected weight."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return K.sqrt(K.reduce_sum(K.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Rescales the weights of each unit whose norm exceeds `max_value` to that norm."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = K.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = K.clip_by_value(norms, 0.0, float(self.max_value))
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Keeps each unit's norm between `min_value` and `max_value` (moved by `rate`)."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        w = K.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = self.rate * K.clip_by_value(norms, float(self.min_value),
                                            float(self.max_value)) + (1 - self.rate) * norms
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


class NonNeg(Constraint):
    """Sets negative weights to zero."""

    def __call__(self, w):
        w = K.convert_to_tensor(w)
        return w * K.cast(K.greater_equal(w, K.cast(0.0, w.dtype)), w.dtype)


class UnitNorm(Constraint):
    """Scales the weights of each unit to norm 1."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = K.convert_to_tensor(w)
        return w / (backend.epsilon() + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm
_BY_NAME = {"max_norm": MaxNorm, "min_max_norm": MinMaxNorm, "non_neg": NonNeg,
            "unit_norm": UnitNorm, "MaxNorm": MaxNorm, "MinMaxNorm": MinMaxNorm,
            "NonNeg": NonNeg, "UnitNorm": UnitNorm}
_REGISTRY = Registry("constraint", "keras.constraints", _BY_NAME, base=Constraint)
get, serialize, deserialize = _REGISTRY.get, _REGISTRY.serialize, _REGISTRY.deserialize
