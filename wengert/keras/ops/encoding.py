"""Keras 3's encodings of `keras.ops.nn`: `one_hot`, `multi_hot` and `polar`, over wengert's ops.

one_hot(x, n)[..., k] = 1 where x == k (a new axis of size n at `axis`; negative or too large
classes give a row of zeros); dtype defaults to floatx, and "bool" gives True/False.
multi_hot(x, n) marks every class that appears in each sample: the max of the one-hot rows over
axis 1 (axis 0 for a 1-D x), or their logical or for bool. With sparse=True both return
`tf.sparse.from_dense` of that result (a SparseTensor of its non-zero entries).
polar(r, theta) = r cos(theta) + i r sin(theta), differentiable in r and theta.
"""
from ...ops.cast_ops import cast
from ...ops.complex_parts import complex as _complex
from ...ops.creation_ops import one_hot as _one_hot
from ...ops.reduce_ops import reduce_any, reduce_max
from ...ops.sparse.conversions import from_dense
from ...ops.unary_ops import cos, sin
from .core import convert_to_tensor
from .dtypes import standardize_dtype

__all__ = ["one_hot", "multi_hot", "polar"]


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """The one-hot encoding of integer classes x along a new axis of size num_classes."""
    x = cast(convert_to_tensor(x), "int64")
    dtype = standardize_dtype(dtype)
    on_off = (True, False) if dtype == "bool" else (None, None)
    out = _one_hot(x, num_classes, on_value=on_off[0], off_value=on_off[1], axis=axis,
                   dtype=dtype)
    return from_dense(out) if sparse else out


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Which of num_classes classes occur in each sample of integer `inputs`."""
    if num_classes is None and "num_tokens" in kwargs:
        num_classes = kwargs.pop("num_tokens")
    if num_classes is None:
        raise ValueError("multi_hot: the argument num_classes must be specified.")
    inputs = convert_to_tensor(inputs)
    reduction = 1 if inputs.shape.rank > 1 else 0
    dtype = standardize_dtype(dtype)
    encoded = one_hot(inputs, num_classes, axis=axis, dtype=dtype)
    out = (reduce_any(encoded, axis=reduction) if dtype == "bool" else
           reduce_max(encoded, axis=reduction))
    return from_dense(out) if sparse else out


def polar(abs_, angle):
    """The complex numbers of magnitude abs_ and phase angle."""
    abs_, angle = convert_to_tensor(abs_), convert_to_tensor(angle)
    if not abs_.dtype.is_floating or not angle.dtype.is_floating:
        raise ValueError(f"polar: abs_ and angle must be float tensors; got {abs_.dtype.name} "
                         f"and {angle.dtype.name}.")
    return _complex(abs_ * cos(angle), abs_ * sin(angle))
