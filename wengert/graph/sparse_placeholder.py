"""`tf.compat.v1.sparse.placeholder` (also `tf.compat.v1.sparse_placeholder`): a SparseTensor
graph input, made of three placeholders (indices int64 [None, rank], values [None], dense_shape
int64 [rank]); `Session.run` feeds it from a SparseTensorValue, an (indices, values,
dense_shape) tuple or an eager SparseTensor (runtime/composite_fetches.py). Its static dense
shape is the `shape` given (None dimensions unknown)."""
from ..framework import dtypes
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from .graph import placeholder

__all__ = ["sparse_placeholder"]


def sparse_placeholder(dtype, shape=None, name=None):
    """A SparseTensor to feed: its indices, values and dense_shape are placeholders."""
    shape = TensorShape(shape)
    rank = shape.rank
    prefix = name or "SparseTensor"
    values = placeholder(dtypes.as_dtype(dtype), [None], name=f"{prefix}/values")
    indices = placeholder(dtypes.int64, [None, rank], name=f"{prefix}/indices")
    dense_shape = placeholder(dtypes.int64, [rank], name=f"{prefix}/shape")
    out = SparseTensor(indices, values, dense_shape)
    out._shape_hint = shape
    return out
