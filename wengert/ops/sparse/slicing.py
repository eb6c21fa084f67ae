"""tf.sparse.slice, split and concat: pieces of a sparse tensor, and sparse tensors joined
along an axis, as compositions of existing ops (the values' gradients flow through gathers).

    slice(sp, start, size)   the entries with start <= index < start + size, their indices
                             shifted by -start; dense shape max(min(start + size, shape) - start, 0)
    split(sp, n, axis)       n slices along axis: the first (d mod n) of size floor(d / n) + 1,
                             the rest floor(d / n), d = dense_shape[axis]
    concat(axis, sps)        each input's indices shifted along axis by the sizes before it,
                             then put in canonical (row-major) order; expand_nonconcat_dims
                             lets the other dimensions differ and takes their maximum

TensorFlow's SparseSplit and SparseConcat are not differentiable (their values get None); here,
being gathers of the values, they pass the values' gradients through.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.sparse_tensor import SparseTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ..array_ops import concat as dense_concat, stack, where
from ..indexing_ops import gather
from ..math_ops import cast, greater_equal, less, logical_and, maximum, minimum
from ..reduce_ops import reduce_all, reduce_max
from ..reshape_ops import reshape
from .conversions import check_sparse, reorder

__all__ = ["slice", "split", "concat"]


def _vector(x, what):
    return cast(reshape(convert_to_tensor(x, dtype_hint=dtypes.int64), [-1]), dtypes.int64)


def slice(sp_input, start, size, name=None):  # noqa: A001 (TensorFlow's name)
    """The part of sp_input in the box [start, start + size), as a SparseTensor whose indices
    count from `start`."""
    sp = check_sparse(sp_input, "sparse.slice")
    start, size = _vector(start, "start"), _vector(size, "size")
    rank = sp.dense_shape.shape[0]
    for what, t in (("start", start), ("size", size)):
        if rank is not None and t.shape[0] is not None and t.shape[0] != rank:
            raise InvalidArgumentError(
                f"sparse.slice: Expected {what} to be a vector of length {rank} but got length "
                f"{t.shape[0]} (one value per dimension of sp_input).")
    end = minimum(start + size, sp.dense_shape)
    inside = reduce_all(logical_and(greater_equal(sp.indices, start), less(sp.indices, end)),
                        axis=1)
    rows = reshape(where(inside), [-1])
    shape = maximum(end - start, 0)
    return SparseTensor(gather(sp.indices, rows) - start, gather(sp.values, rows, name=name),
                        shape)


def _axis(axis, rank, fn):
    known = static_value(convert_to_tensor(axis)) if axis is not None else None
    if known is None:
        raise ValueError(f"{fn}: axis must be a known integer, got {axis!r}.")
    axis = int(np.ravel(known)[0])
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"{fn}: axis {axis} is out of range for rank {rank}: need "
                                   f"-{rank} <= axis < {rank}.")
    return axis % rank


def split(sp_input=None, num_split=None, axis=None, name=None):
    """`num_split` SparseTensors cut from sp_input along `axis` (the first d mod num_split
    one longer)."""
    if sp_input is None or num_split is None or axis is None:
        raise ValueError("sparse.split: sp_input, num_split and axis are all required.")
    sp = check_sparse(sp_input, "sparse.split")
    rank = sp.dense_shape.shape[0]
    axis = _axis(axis, rank, "sparse.split")
    n = int(num_split)
    dim = static_value(sp.dense_shape)
    if n < 1 or (dim is not None and n > int(dim[axis])):
        raise InvalidArgumentError(
            "sparse.split: Input num_split should be between 1 and the splitting dimension "
            f"size ({None if dim is None else int(dim[axis])}), got {n}")
    size = sp.dense_shape[axis]
    base, extra = size // n, size % n
    pieces = []
    for i in range(n):
        begin = i * base + minimum(cast(i, dtypes.int64), extra)
        length = base + cast(less(cast(i, dtypes.int64), extra), dtypes.int64)
        start = _one_hot_column(begin, axis, rank)
        box = dense_concat([sp.dense_shape[:axis], reshape(length, [1]),
                            sp.dense_shape[axis + 1:]], 0)
        pieces.append(slice(sp, start, box, name=name))
    return pieces


def _one_hot_column(value, axis, rank):
    """The int64 [rank] vector holding `value` at `axis` and zeros elsewhere."""
    zero = cast(0, dtypes.int64) * value
    return stack([value if d == axis else zero for d in range(rank)])


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """The SparseTensors joined along `axis`, in canonical order; the other dimensions must
    agree unless expand_nonconcat_dims (then each is the largest)."""
    sps = [check_sparse(s, "sparse.concat") for s in sp_inputs]
    if not sps:
        raise ValueError("sparse.concat: sp_inputs must hold at least one SparseTensor.")
    rank = sps[0].dense_shape.shape[0]
    if any(s.dense_shape.shape[0] != rank for s in sps):
        raise InvalidArgumentError(f"sparse.concat: all inputs must have the same rank, got "
                                   f"{[s.dense_shape.shape[0] for s in sps]}.")
    axis = _axis(axis, rank, "sparse.concat")
    if not expand_nonconcat_dims:
        _check_nonconcat(sps, axis)
    indices, offset = [], None
    for s in sps:
        shift = s.indices if offset is None else s.indices + _one_hot_column(offset, axis, rank)
        indices.append(shift)
        width = s.dense_shape[axis]
        offset = width if offset is None else offset + width
    shapes = stack([s.dense_shape for s in sps])
    widest = reduce_max(shapes, axis=0) if expand_nonconcat_dims else sps[0].dense_shape
    shape = dense_concat([widest[:axis], reshape(offset, [1]), widest[axis + 1:]], 0)
    joined = SparseTensor(dense_concat(indices, 0),
                          dense_concat([s.values for s in sps], 0), shape)
    return reorder(joined, name=name)


def _check_nonconcat(sps, axis):
    shapes = [static_value(s.dense_shape) for s in sps]
    if any(x is None for x in shapes):
        return
    first = np.asarray(shapes[0])
    for i, other in enumerate(shapes[1:], 1):
        other = np.asarray(other)
        differ = [d for d in range(len(first)) if d != axis and first[d] != other[d]]
        if differ:
            raise InvalidArgumentError(
                f"sparse.concat: Input shapes must match: expected {first[differ[0]]} for "
                f"dimension {differ[0]} but got {other[differ[0]]} at position {i}; pass "
                "expand_nonconcat_dims=True to take the largest.")


def concat_v1(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
              expand_nonconcat_dims=None):
    """tf.compat.v1.sparse.concat: TensorFlow 1's older names concat_dim (for axis) and
    expand_nonconcat_dim (for expand_nonconcat_dims)."""
    if concat_dim is not None:
        if axis is not None:
            raise ValueError("sparse.concat: give axis or concat_dim (its older name), not both.")
        axis = concat_dim
    expand = expand_nonconcat_dim if expand_nonconcat_dims is None else expand_nonconcat_dims
    return concat(axis, sp_inputs, expand_nonconcat_dims=expand, name=name)


def split_v1(keyword_required=None, sp_input=None, num_split=None, axis=None, name=None,
             split_dim=None):
    """tf.compat.v1.sparse.split: keyword arguments only, split_dim the older name of axis."""
    if keyword_required is not None:
        raise ValueError("sparse.split: Keyword arguments are required for this function "
                         "(sp_input=, num_split=, axis=).")
    if split_dim is not None:
        if axis is not None:
            raise ValueError("sparse.split: give axis or split_dim (its older name), not both.")
        axis = split_dim
    return split(sp_input=sp_input, num_split=num_split, axis=axis, name=name)
