"""`keras.utils.to_categorical` and `keras.utils.normalize`.

to_categorical(x, num_classes) one-hot encodes integer class labels: a trailing axis of size 1
is dropped, then a last axis of num_classes (default max(x) + 1) holds 1 at the label and 0
elsewhere (a float64 NumPy array as Keras 3 gives for array input; a float32 tensor for a
tensor). normalize divides by the L-order norm along axis: NumPy arrays as NumPy does it (zero
norms left as 1), tensors as keras.ops.normalize (x min(rsqrt(sum x^2), 1 / eps) for order 2).
"""
import numpy as np

from ...framework.tensor import Tensor, convert_to_tensor
from ...ops.creation_ops import one_hot
from ...ops.reshape_ops import reshape
from ...ops.math_ops import maximum, minimum
from ...ops.reduce_ops import reduce_sum
from ...ops.unary_ops import abs as abs_, rsqrt
from .. import backend

__all__ = ["to_categorical", "normalize"]


def to_categorical(x, num_classes=None):
    """One-hot rows (last axis) for integer class labels `x`."""
    if isinstance(x, Tensor):
        shape = x.shape.as_list()
        if len(shape) > 1 and shape[-1] == 1:
            x = reshape(x, [-1 if d is None else d for d in shape[:-1]])
        if num_classes is None:
            num_classes = int(np.max(x.numpy())) + 1
        return one_hot(x, int(num_classes))
    x = np.asarray(x, dtype="int64")
    shape = x.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    x = x.reshape(-1)
    if x.size and (x.min() < 0 or (num_classes and x.max() >= num_classes)):
        raise ValueError(f"to_categorical: the labels must lie in [0, num_classes); got labels "
                         f"from {x.min()} to {x.max()} with num_classes={num_classes}.")
    num_classes = num_classes or int(x.max()) + 1
    out = np.zeros((x.size, num_classes))
    out[np.arange(x.size), x] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """x divided by its L-`order` norm along `axis`."""
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        return x / np.expand_dims(norm, axis or -1)
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"normalize: `order` must be an int >= 1. Received: order={order}")
    x = convert_to_tensor(x)
    eps = backend.epsilon()
    if order == 2:
        inv = rsqrt(reduce_sum(x * x, axis, keepdims=True))
        return x * minimum(inv, x.dtype.as_numpy_dtype(1.0 / eps))
    norm = reduce_sum(abs_(x) ** order, axis, keepdims=True) ** (1.0 / order)
    return x / maximum(norm, x.dtype.as_numpy_dtype(eps))

