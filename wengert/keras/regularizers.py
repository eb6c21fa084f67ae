"""`keras.regularizers`: penalties on weights (or a layer's outputs) added to the training loss.

A regularizer is a callable `r(x)` returning a scalar: a layer given `kernel_regularizer=r` adds
r(kernel) to `layer.losses` (recomputed from the weight's current value each time `losses` is
read), and `activity_regularizer=r` adds r(output) / batch_size for each call. Model.fit adds the
sum of `model.losses` to the compiled loss.
    L1(l1):        l1 * sum |x|
    L2(l2):        l2 * sum x^2                 (no 1/2, as Keras)
    L1L2(l1, l2):  both
    OrthogonalRegularizer(factor, mode): the rows (or columns) of a 2-D weight, each scaled to
        unit length (x / max(|x|, eps)), should be orthogonal: with P their Gram matrix, the
        penalty is factor * 0.5 * sum_{i != j} |P_ij| / (n (n - 1) / 2).
"""
from . import backend
from . import backend_ops as K
from .registry import Registry

__all__ = ["Regularizer", "L1", "L2", "L1L2", "OrthogonalRegularizer", "l1", "l2", "l1_l2",
           "orthogonal_regularizer", "get", "serialize", "deserialize"]


class Regularizer:
    """Base class: `__call__(x)` returns a scalar penalty; `get_config()` describes it."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement get_config().")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _factor(value, name):
    value = float(value)
    if value < 0.0:
        raise ValueError(f"Value for argument `{name}` should be a non-negative float, "
                         f"received: {name}={value}.")
    return value


class L1L2(Regularizer):
    """l1 * sum |x| + l2 * sum x^2."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = _factor(l1 or 0.0, "l1"), _factor(l2 or 0.0, "l2")

    def __call__(self, x):
        x = K.convert_to_tensor(x)
        total = None
        if self.l1:
            total = K.multiply(K.cast(self.l1, x.dtype), K.reduce_sum(K.abs(x)))
        if self.l2:
            term = K.multiply(K.cast(self.l2, x.dtype), K.reduce_sum(K.square(x)))
            total = term if total is None else total + term
        return total if total is not None else K.cast(0.0, x.dtype)

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    """l1 * sum |x|."""

    def __init__(self, l1=0.01):
        super().__init__(l1=l1)

    def get_config(self):
        return {"l1": self.l1}


class L2(L1L2):
    """l2 * sum x^2."""

    def __init__(self, l2=0.01):
        super().__init__(l2=l2)

    def get_config(self):
        return {"l2": self.l2}


class OrthogonalRegularizer(Regularizer):
    """Pushes the rows (mode="rows") or columns ("columns") of a 2-D weight to be orthonormal."""

    def __init__(self, factor=0.01, mode="rows"):
        self.factor = _factor(factor, "factor")
        if mode not in ("rows", "columns"):
            raise ValueError(f"Invalid value for argument `mode`. Expected one of "
                             f"{{'rows', 'columns'}}. Received: mode={mode}")
        self.mode = mode

    def __call__(self, x):
        x = K.convert_to_tensor(x)
        if x.shape.rank != 2:
            raise ValueError(f"Inputs to OrthogonalRegularizer must have rank 2. Received: "
                             f"inputs.shape={x.shape}")
        axis = 1 if self.mode == "rows" else 0
        norm = K.sqrt(K.reduce_sum(K.square(x), axis=axis, keepdims=True))
        unit = x / K.maximum(norm, K.cast(backend.epsilon(), x.dtype))
        product = K.matmul(unit, unit, transpose_b=True) if axis == 1 else K.matmul(
            unit, unit, transpose_a=True)
        size = int(x.shape[0] if axis == 1 else x.shape[1])
        off_diagonal = product * (1.0 - K.eye(size, dtype=x.dtype))
        pairs = size * (size - 1.0) / 2.0
        return K.cast(self.factor * 0.5, x.dtype) * K.reduce_sum(K.abs(off_diagonal)) / pairs

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


l1, l2, l1_l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer
_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": L1L2, "l1l2": L1L2,
            "orthogonal_regularizer": OrthogonalRegularizer,
            "L1": L1, "L2": L2, "L1L2": L1L2, "OrthogonalRegularizer": OrthogonalRegularizer}
_REGISTRY = Registry("regularizer", "keras.regularizers", _BY_NAME, base=Regularizer)
get, serialize, deserialize = _REGISTRY.get, _REGISTRY.serialize, _REGISTRY.deserialize
