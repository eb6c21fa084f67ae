"""`tf.sparse.maximum` / `tf.sparse.minimum`: elementwise max / min of two sparse tensors.

SparseSparseMaximum and SparseSparseMinimum (inputs a_indices, a_values, a_shape, b_indices,
b_values, b_shape; the shapes must be equal) hold an entry at every coordinate either operand
holds, in row-major order, whose value is max(a, b) (min(a, b)) with 0 standing for the operand
that lacks the coordinate. Outputs (output_indices, output_values). TensorFlow registers no
usable gradient for them (its rule raises NotImplementedError); here they are not
differentiable.
"""
import numpy as np

from ...framework import dtypes
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .addition import _same_shape
from .conversions import check_sparse
from .indices import check_bounds, linear_positions

__all__ = ["maximum", "minimum"]


def _kernel(op, combine):
    def kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        _same_shape(op, a_shape, b_shape)
        check_bounds(op, a_indices, a_shape)
        check_bounds(op, b_indices, b_shape)
        where_a = linear_positions(a_indices, a_shape)
        where_b = linear_positions(b_indices, b_shape)
        merged, first = np.unique(np.concatenate([where_a, where_b]), return_index=True)
        dtype = np.result_type(a_values, b_values)
        a_dense = np.zeros(len(merged), dtype)
        b_dense = np.zeros(len(merged), dtype)
        a_dense[np.searchsorted(merged, where_a)] = a_values
        b_dense[np.searchsorted(merged, where_b)] = b_values
        indices = np.concatenate([a_indices, b_indices]).astype(np.int64)[first]
        return indices.reshape(-1, len(a_shape)), combine(a_dense, b_dense)
    return kernel


def _rule(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
    rank = a_shape.shape[0] if a_shape.shape.rank == 1 else None
    return [(TensorShape([None, rank]), dtypes.int64), (TensorShape([None]), a_values.dtype)]


def _declare(op_type, combine):
    def raw(a_indices, a_values, a_shape, b_indices, b_values, b_shape, name=None):
        return execute(op_def, tuple(convert_to_tensor(t) for t in (
            a_indices, a_values, a_shape, b_indices, b_values, b_shape)), name=name)
    op_def = defop(op_type, _kernel(op_type, combine), shape=_rule, grad=None, num_outputs=2,
                   raw=raw)
    return op_def


SPARSE_MAXIMUM = _declare("SparseSparseMaximum", np.maximum)
SPARSE_MINIMUM = _declare("SparseSparseMinimum", np.minimum)


def _apply(op_def, fn, sp_a, sp_b, name):
    a, b = check_sparse(sp_a, fn), check_sparse(sp_b, fn)
    indices, values = execute(op_def, (a.indices, a.values, a.dense_shape, b.indices, b.values,
                                       b.dense_shape), name=name)
    return SparseTensor(indices, values, a.dense_shape)


def maximum(sp_a, sp_b, name=None):
    """The elementwise maximum of two SparseTensors of one shape (0 where one lacks an
    entry), at every coordinate either holds."""
    return _apply(SPARSE_MAXIMUM, "sparse.maximum", sp_a, sp_b, name)


def minimum(sp_a, sp_b, name=None):
    """The elementwise minimum of two SparseTensors of one shape (0 where one lacks an
    entry), at every coordinate either holds."""
    return _apply(SPARSE_MINIMUM, "sparse.minimum", sp_a, sp_b, name)
