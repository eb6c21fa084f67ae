"""`tf.sparse.reshape`: the same entries in a dense shape of the same size.

SparseReshape (inputs input_indices [N, r], input_shape [r], new_shape [s]) maps each entry to
its row-major position p = sum_k i_k t_k in the old shape and back to coordinates in the new
one (j_k = floor(p / u_k) mod new_shape_k, u the new strides); one dimension of new_shape may
be -1, standing for the size that keeps the number of elements. Outputs (output_indices,
output_shape); the values are unchanged, so tf.sparse.reshape passes them (and their gradient)
through. Not differentiable itself (it has no values input), as in TensorFlow.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..array_ops import identity
from .conversions import check_sparse
from .indices import linear_positions

__all__ = ["reshape"]

_OP = "SparseReshape"


def _target_shape(input_shape, new_shape):
    old = [int(d) for d in input_shape]
    new = [int(d) for d in new_shape]
    total = int(np.prod(old, dtype=np.int64))
    unknown = [k for k, d in enumerate(new) if d == -1]
    if len(unknown) > 1:
        raise InvalidArgumentError(f"{_OP}: only one output dimension may be -1, not both "
                                   f"{unknown[0]} and {unknown[1]}")
    known = int(np.prod([d for d in new if d != -1], dtype=np.int64))
    if unknown:
        if known == 0 or total % known:
            raise InvalidArgumentError(
                f"{_OP}: Input to reshape is a SparseTensor with {total} dense values, but the "
                f"requested shape requires a multiple of {known}. input_shape={old} "
                f"output_shape={new}")
        new[unknown[0]] = total // known
    elif known != total:
        raise InvalidArgumentError(
            f"{_OP}: Input to reshape is a tensor with {total} dense values, but the requested "
            f"shape has {known}. input_shape={old} output_shape={new}")
    return np.asarray(new, np.int64)


def _reshape_kernel(input_indices, input_shape, new_shape):
    shape = _target_shape(input_shape, new_shape)
    position = linear_positions(input_indices, input_shape)
    if len(shape) == 0:
        return np.zeros((len(position), 0), np.int64), shape
    out = np.stack(np.unravel_index(position, shape), axis=1) if len(position) else \
        np.zeros((0, len(shape)), np.int64)
    return out.astype(np.int64), shape


def _reshape_rule(input_indices, input_shape, new_shape):
    rank = new_shape.shape[0] if new_shape.shape.rank == 1 else None
    return [(TensorShape([input_indices.shape[0] if input_indices.shape.rank == 2 else None,
                          rank]), dtypes.int64), (TensorShape([rank]), dtypes.int64)]


SPARSE_RESHAPE = defop(
    _OP, _reshape_kernel, shape=_reshape_rule, grad=None, num_outputs=2,
    raw=lambda input_indices, input_shape, new_shape, name=None: execute(
        SPARSE_RESHAPE, tuple(convert_to_tensor(t, dtype=dtypes.int64) for t in (
            input_indices, input_shape, new_shape)), name=name))


def reshape(sp_input, shape, name=None):
    """sp_input with dense shape `shape` (one dimension may be -1), entries in the same
    row-major positions."""
    sp = check_sparse(sp_input, "sparse.reshape")
    new_shape = convert_to_tensor(shape, dtype_hint=dtypes.int64)
    if new_shape.dtype is not dtypes.int64:
        new_shape = convert_to_tensor(np.asarray(static_value(new_shape), np.int64)) \
            if static_value(new_shape) is not None else new_shape
    indices, out_shape = execute(SPARSE_RESHAPE, (sp.indices, sp.dense_shape, new_shape),
                                 name=name)
    return SparseTensor(indices, identity(sp.values), out_shape)
