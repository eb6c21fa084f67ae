"""`tf.sparse.softmax`: softmax over the last axis of a sparse tensor, among the stored values.

SparseSoftmax (inputs sp_indices, sp_values, sp_shape) groups the entries by their index
without its last coordinate (one group per row of the innermost axis) and, in each group,
replaces the values by y_i = exp(v_i - m) / sum_j exp(v_j - m), m the group's largest value:
the implicit zeros take no part (they are -inf logits, not 0). The output has the input's
indices; TensorFlow's op returns its values.

Derivatives (TensorFlow's, the dense SoftmaxGrad restricted to the entries): with S_g the sum
over an entry's group, d/dv = (G - S_g(G y)) y, and the JVP is dy = y (t - S_g(y t)); the group
sums are segment sums over the groups' ids (the unique positions of the leading coordinates).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ..creation_ops import size
from ..indexing_ops import gather
from ..segment_ops import unsorted_segment_sum
from ..sort_ops import unique
from .conversions import check_sparse
from .indices import check_bounds, linear_positions
from .positions import positions

__all__ = ["softmax"]


def _softmax_kernel(sp_indices, sp_values, sp_shape):
    check_bounds("SparseSoftmax", sp_indices, sp_shape)
    if len(sp_shape) < 2:
        raise InvalidArgumentError(f"SparseSoftmax: Input should have rank >= 2, but received "
                                   f"shape: {list(sp_shape)}")
    rows = linear_positions(sp_indices[:, :-1], sp_shape[:-1])
    _, group = np.unique(rows, return_inverse=True)
    group = group.reshape(-1)
    top = np.full(group.max(initial=-1) + 1, -np.inf, sp_values.dtype)
    np.maximum.at(top, group, sp_values)
    e = np.exp(sp_values - top[group])
    total = np.zeros_like(top)
    np.add.at(total, group, e)
    return (e / total[group]).astype(sp_values.dtype)


def _group_sum(t, indices, shape):
    """Each entry's group total of t (groups: the index without its last coordinate)."""
    _, ids = unique(positions(indices[:, :-1], shape[:-1]), out_idx=dtypes.int64)
    return gather(unsorted_segment_sum(t, ids, size(t, out_type=dtypes.int64)), ids)


def _softmax_grad(op, grad):
    indices, shape, y = op.inputs[0], op.inputs[2], op.outputs[0]
    return None, (grad - _group_sum(grad * y, indices, shape)) * y, None


def _softmax_jvp(primals, tangents, outputs, **_):
    t, y = tangents[1], outputs[0]
    if t is None:
        return (None,)
    return (y * (t - _group_sum(y * t, primals[0], primals[2])),)


SPARSE_SOFTMAX = defop(
    "SparseSoftmax", _softmax_kernel, grad=_softmax_grad, jvp=_softmax_jvp,
    shape=lambda sp_indices, sp_values, sp_shape: (sp_values.shape, sp_values.dtype),
    raw=lambda sp_indices, sp_values, sp_shape, name=None: execute(
        SPARSE_SOFTMAX, (convert_to_tensor(sp_indices), convert_to_tensor(sp_values),
                         convert_to_tensor(sp_shape)), name=name))


def softmax(sp_input, name=None):
    """The SparseTensor with sp_input's indices whose values are the softmax of its stored
    values over the last axis (per row of that axis)."""
    sp = check_sparse(sp_input, "sparse.softmax")
    values = execute(SPARSE_SOFTMAX, (sp.indices, sp.values, sp.dense_shape), name=name)
    return SparseTensor(sp.indices, values, sp.dense_shape)
