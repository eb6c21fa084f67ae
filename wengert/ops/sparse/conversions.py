"""tf.sparse's conversions for the minimal `SparseTensor` (framework/sparse_tensor.py):
to_dense, from_dense, reorder. Each is a composition of existing ops, so gradients come free.

    to_dense(sp, d)  = scatter_nd(indices, values - d, dense_shape) + d    d/d values: gather_nd
    from_dense(x)    = SparseTensor(where(x != 0), gather_nd(x, where(x != 0)), shape(x))
    reorder(sp)      = entries permuted into row-major order: with strides s_k = prod_{j>k}
                       dense_shape[j], entry i's linear position is sum_k indices[i, k] s_k, and
                       perm = argsort(position) (stable); indices and values are gathered by perm

to_dense's `validate_indices` (TensorFlow's check that indices are in bounds, sorted and not
repeated) runs when the indices are known while building (always, eagerly); in a graph whose
indices are computed it is skipped, and repeated entries then add up.
"""
import numpy as np

from ...framework import dtypes
from ...framework.sparse_tensor import SparseTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ..array_ops import where
from ..creation_ops import shape as shape_of
from ..indexing_ops import gather, gather_nd, scatter_nd
from ..math_ops import cast, not_equal
from ..reduce_ops import reduce_sum
from ..scan_ops import cumprod
from ..sort_ops import argsort
from .indices import check_entries, linear_positions

__all__ = ["SparseTensor", "to_dense", "from_dense", "reorder", "check_sparse"]


def check_sparse(sp_input, fn):
    """sp_input as a SparseTensor, or a TypeError naming `fn`."""
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"{fn}: expected a SparseTensor, got {type(sp_input).__name__}; build "
                        "one with tf.sparse.SparseTensor(indices, values, dense_shape) or "
                        "tf.sparse.from_dense(x).")
    return sp_input


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor of shape `dense_shape` holding `values` at `indices` and
    `default_value` (0 unless given) elsewhere. Differentiable with respect to values (and
    default_value)."""
    sp = check_sparse(sp_input, "sparse.to_dense")
    if validate_indices:
        _validate(sp, "sparse.to_dense")
    values = sp.values
    if default_value is None:
        return scatter_nd(sp.indices, values, sp.dense_shape, name=name)
    default = convert_to_tensor(default_value, dtype=values.dtype)
    return scatter_nd(sp.indices, values - default, sp.dense_shape) + default


def _validate(sp, fn):
    indices, shape = static_value(sp.indices), static_value(sp.dense_shape)
    if indices is None or shape is None or len(indices) == 0:
        return
    check_entries(fn, np.asarray(indices, np.int64), shape)


def from_dense(tensor, name=None):
    """The SparseTensor of `tensor`'s nonzero entries, in row-major order."""
    tensor = convert_to_tensor(tensor)
    indices = where(not_equal(tensor, _zero(tensor)), name=name)
    return SparseTensor(indices, gather_nd(tensor, indices),
                        shape_of(tensor, out_type=dtypes.int64))


def _zero(tensor):
    if tensor.dtype is dtypes.string:
        return convert_to_tensor("")
    return convert_to_tensor(np.zeros((), tensor.dtype.as_numpy_dtype))


def reorder(sp_input, name=None):
    """The same SparseTensor with its entries sorted into row-major order."""
    sp = check_sparse(sp_input, "sparse.reorder")
    indices, shape = static_value(sp.indices), static_value(sp.dense_shape)
    if indices is not None and shape is not None:   # known: sort here
        perm = convert_to_tensor(np.argsort(linear_positions(indices, shape), kind="stable"))
    else:
        strides = cumprod(sp.dense_shape, exclusive=True, reverse=True)
        position = reduce_sum(sp.indices * strides, axis=1)
        perm = argsort(position, stable=True)
    perm = cast(perm, dtypes.int64)
    return SparseTensor(gather(sp.indices, perm), gather(sp.values, perm, name=name),
                        sp.dense_shape)
