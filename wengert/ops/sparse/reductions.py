"""`tf.sparse.reduce_sum` and `tf.sparse.reduce_max`: reductions of a sparse tensor's stored
values over some of its axes, to a dense tensor or (output_is_sparse) a sparse one.

Each entry (index i, value v) falls into the group named by i with the reduced axes removed
(or set to 0 with keep_dims): SparseReduceSum adds the values of a group, SparseReduceMax takes
their largest (the implicit zeros are not values: a group whose stored values are all negative
has a negative maximum). A group with no entries is 0 in the dense result and absent from the
sparse one (SparseReduceSumSparse, SparseReduceMaxSparse), whose entries are in row-major order.
`reduction_axes` may be negative; no axes (axis=None) reduces all of them.

Derivatives (TensorFlow's): SparseReduceSum is linear in the values, and the gradient of value
v_i is the incoming gradient at entry i's group, gather_nd(reshape(G, kept shape), i with the
reduced coordinates set to 0); its JVP is the op on the tangents. TensorFlow registers no
gradient for the other three.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, linear
from ...framework.sparse_tensor import SparseTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..cast_ops import cast
from ..indexing_ops import gather_nd
from ..reshape_ops import reshape
from .conversions import check_sparse
from .indices import check_bounds, linear_positions

__all__ = ["reduce_sum", "reduce_max"]


def _axes(op, axes, rank):
    axes = range(rank) if axes is None or len(axes) == 0 else axes
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(f"{op}: Invalid reduction dimension {a}, for input with "
                                       f"{rank} dimensions.")
        out.append(int(a) % rank)
    return sorted(set(out))


def _groups(op, indices, shape, axes, keep_dims):
    """(group of each entry, the groups' indices, the output's dense shape, reduced axes)."""
    shape = np.asarray(shape, np.int64)
    check_bounds(op, indices, shape)
    axes = _axes(op, axes, len(shape))
    kept = [d for d in range(len(shape)) if d not in axes]
    out_shape = shape.copy()
    out_shape[axes] = 1
    coords = np.asarray(indices, np.int64).reshape(-1, len(shape)).copy()
    coords[:, axes] = 0
    position = linear_positions(coords, out_shape)
    groups, first, inverse = np.unique(position, return_index=True, return_inverse=True)
    if not keep_dims:
        out_shape, coords = out_shape[kept], coords[:, kept]
    return inverse.reshape(-1), coords[first], out_shape


def _sum(values, inverse, count):
    out = np.zeros(count, values.dtype)
    np.add.at(out, inverse, values)
    return out


def _max(values, inverse, count):
    out = np.full(count, _lowest(values.dtype), values.dtype)
    np.maximum.at(out, inverse, values)
    return out


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _dense_kernel(combine, op):
    def kernel(input_indices, input_values, input_shape, reduction_axes=(), keep_dims=False):
        inverse, coords, out_shape = _groups(op, input_indices, input_shape, reduction_axes,
                                             keep_dims)
        out = np.zeros(tuple(out_shape), input_values.dtype)
        if len(coords):
            combined = combine(input_values, inverse, len(coords))
            out[tuple(coords.T)] = combined if out.ndim else combined[0]
        return out
    return kernel


def _sparse_kernel(combine, op):
    def kernel(input_indices, input_values, input_shape, reduction_axes=(), keep_dims=False):
        inverse, coords, out_shape = _groups(op, input_indices, input_shape, reduction_axes,
                                             keep_dims)
        return coords, combine(input_values, inverse, len(coords)), out_shape
    return kernel


def _out_rank(input_shape, reduction_axes, keep_dims):
    rank = input_shape.shape[0] if input_shape.shape.rank == 1 else None
    if rank is None or keep_dims:
        return rank
    return rank - len(_axes("SparseReduce", reduction_axes, rank)) if rank else 0


def _dense_rule(input_indices, input_values, input_shape, reduction_axes=(), keep_dims=False):
    shape = static_value(input_shape)
    if shape is not None:
        axes = _axes("SparseReduce", reduction_axes, len(shape))
        out = [1 if d in axes else int(n) for d, n in enumerate(shape)]
        out = out if keep_dims else [n for d, n in enumerate(out) if d not in axes]
        return TensorShape(out), input_values.dtype
    rank = _out_rank(input_shape, reduction_axes, keep_dims)
    return TensorShape(None if rank is None else [None] * rank), input_values.dtype


def _sparse_rule(input_indices, input_values, input_shape, reduction_axes=(), keep_dims=False):
    rank = _out_rank(input_shape, reduction_axes, keep_dims)
    return [(TensorShape([None, rank]), dtypes.int64), (TensorShape([None]), input_values.dtype),
            (TensorShape([rank]), dtypes.int64)]


def _sum_grad(op, grad):
    indices, shape = op.inputs[0], op.inputs[2]
    rank = int(shape.shape[0])
    axes = _axes("SparseReduceSum", op.get_attr("reduction_axes"), rank)
    reduced = np.zeros(rank, np.int64)
    reduced[axes] = 1
    kept_shape = cast(shape, dtypes.int64) * (1 - reduced) + reduced
    at_group = cast(indices, dtypes.int64) * (1 - reduced)
    return None, gather_nd(reshape(grad, kept_shape), at_group), None


def _declare(op_type, kernel, rule, num_outputs, **fields):
    def raw(input_indices, input_values, input_shape, reduction_axes, keep_dims=False,
            name=None):
        return _reduce(op_def, input_indices, input_values, input_shape, reduction_axes,
                       keep_dims, name)
    op_def = defop(op_type, kernel, shape=rule, num_outputs=num_outputs, raw=raw,
                   tf_inputs=("input_indices", "input_values", "input_shape"), **fields)
    return op_def


REDUCE_SUM = _declare("SparseReduceSum", _dense_kernel(_sum, "SparseReduceSum"), _dense_rule,
                      1, grad=_sum_grad, jvp=linear)
REDUCE_SUM_SPARSE = _declare("SparseReduceSumSparse",
                             _sparse_kernel(_sum, "SparseReduceSumSparse"), _sparse_rule, 3)
REDUCE_MAX = _declare("SparseReduceMax", _dense_kernel(_max, "SparseReduceMax"), _dense_rule, 1)
REDUCE_MAX_SPARSE = _declare("SparseReduceMaxSparse",
                             _sparse_kernel(_max, "SparseReduceMaxSparse"), _sparse_rule, 3)


def _reduce(op_def, indices, values, shape, axes, keep_dims, name):
    axes = static_value(convert_to_tensor(axes)) if axes is not None else None
    axes = () if axes is None else tuple(int(a) for a in np.ravel(axes))
    return execute(op_def, (convert_to_tensor(indices), convert_to_tensor(values),
                            convert_to_tensor(shape)),
                   {"reduction_axes": axes, "keep_dims": bool(keep_dims)}, name)


def _public(dense_op, sparse_op, fn, sp_input, axis, keepdims, output_is_sparse, name):
    sp = check_sparse(sp_input, fn)
    if output_is_sparse:
        out = _reduce(sparse_op, sp.indices, sp.values, sp.dense_shape, axis, keepdims, name)
        return SparseTensor(*out)
    return _reduce(dense_op, sp.indices, sp.values, sp.dense_shape, axis, keepdims, name)


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of sp_input's values over `axis` (all axes when None): a dense tensor, or a
    SparseTensor of the non-empty groups with output_is_sparse."""
    return _public(REDUCE_SUM, REDUCE_SUM_SPARSE, "sparse.reduce_sum", sp_input, axis,
                   keepdims, output_is_sparse, name)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The largest stored value of sp_input over `axis` (all axes when None); groups with no
    entries are 0 (dense) or absent (output_is_sparse). Not differentiable (TensorFlow)."""
    return _public(REDUCE_MAX, REDUCE_MAX_SPARSE, "sparse.reduce_max", sp_input, axis,
                   keepdims, output_is_sparse, name)


def _v1_args(fn, axis, keepdims, reduction_axes, keep_dims):
    """(axis, keepdims) from TensorFlow 1's arguments, whose older names are reduction_axes
    and keep_dims."""
    if axis is not None and reduction_axes is not None:
        raise ValueError(f"{fn}: give axis or reduction_axes (its older name), not both.")
    if keepdims is not None and keep_dims is not None:
        raise ValueError(f"{fn}: give keepdims or keep_dims (its older name), not both.")
    return (axis if axis is not None else reduction_axes,
            keepdims if keepdims is not None else keep_dims)


def reduce_sum_v1(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """tf.compat.v1.sparse.reduce_sum: a dense sum, with TensorFlow 1's argument names too."""
    axis, keepdims = _v1_args("sparse.reduce_sum", axis, keepdims, reduction_axes, keep_dims)
    return reduce_sum(sp_input, axis, keepdims)


def reduce_max_v1(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """tf.compat.v1.sparse.reduce_max: a dense maximum, with TensorFlow 1's argument names."""
    axis, keepdims = _v1_args("sparse.reduce_max", axis, keepdims, reduction_axes, keep_dims)
    return reduce_max(sp_input, axis, keepdims)


def reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """tf.compat.v1.sparse.reduce_sum_sparse: the sum as a SparseTensor of non-empty groups."""
    axis, keepdims = _v1_args("sparse.reduce_sum_sparse", axis, keepdims, reduction_axes,
                              keep_dims)
    return reduce_sum(sp_input, axis, keepdims, output_is_sparse=True)


def reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """tf.compat.v1.sparse.reduce_max_sparse: the maximum as a SparseTensor of non-empty
    groups."""
    axis, keepdims = _v1_args("sparse.reduce_max_sparse", axis, keepdims, reduction_axes,
                              keep_dims)
    return reduce_max(sp_input, axis, keepdims, output_is_sparse=True)
