"""tf.sparse's functions that move a sparse tensor's entries without computing on its values,
each a composition of existing ops (so the values' gradients flow through the gathers):

    retain(sp, keep)          the entries where keep (a [N] bool vector) is true
    reset_shape(sp, shape)    the same entries in a larger dense shape (or the tightest one:
                              max(indices, axis 0) + 1)
    transpose(sp, perm)       index columns and dense_shape permuted, entries reordered
    expand_dims(sp, axis)     a size-1 dimension inserted (a column of zeros in the indices)
    eye(n, m)                 ones at (i, i), i < min(n, m)
    to_indicator(sp, vocab)   dense bool [..., vocab]: true at (index[:-1], value) per entry
    mask(slices, ids)         an IndexedSlices without the rows listed in ids
    map_values(op, *args)     op applied to the values of SparseTensors with the same indices
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.indexed_slices import IndexedSlices
from ...framework.sparse_tensor import SparseTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ...util import nest
from ..array_ops import concat, identity, stack, where
from ..broadcast_ops import ones_like, zeros_like
from ..creation_ops import ones, range as range_, size
from ..indexing_ops import gather, scatter_nd
from ..math_ops import cast, equal, greater, logical_not, minimum
from ..reduce_ops import reduce_any, reduce_max
from ..reshape_ops import expand_dims as dense_expand_dims, reshape
from .conversions import check_sparse, reorder

__all__ = ["retain", "reset_shape", "transpose", "expand_dims", "eye", "to_indicator", "mask",
           "map_values"]


def retain(sp_input, to_retain):
    """The SparseTensor of sp_input's entries where `to_retain` ([N] bool) is true."""
    sp = check_sparse(sp_input, "sparse.retain")
    keep = convert_to_tensor(to_retain)
    if keep.shape.rank not in (None, 1):
        raise ValueError(f"sparse.retain: to_retain must be a vector, got shape {keep.shape}.")
    if not keep.shape.is_compatible_with(sp.values.shape):
        raise ValueError(f"Dimensions {sp.values.shape[0]} and {keep.shape[0]} are not "
                         "compatible: sparse.retain needs one to_retain flag per entry.")
    rows = reshape(where(keep), [-1])
    return SparseTensor(gather(sp.indices, rows), gather(sp.values, rows),
                        identity(sp.dense_shape))


def reset_shape(sp_input, new_shape=None):
    """sp_input in dense shape `new_shape` (each dimension at least the current one), or,
    without one, in the smallest shape that holds its indices."""
    sp = check_sparse(sp_input, "sparse.reset_shape")
    if new_shape is None:
        return SparseTensor(sp.indices, sp.values, reduce_max(sp.indices, axis=0) + 1)
    shape = cast(convert_to_tensor(new_shape, dtype_hint=dtypes.int64), dtypes.int64)
    if shape.shape.rank != 1:
        raise ValueError(f"sparse.reset_shape: new_shape must be a vector, got shape "
                         f"{shape.shape}.")
    if not shape.shape.is_compatible_with(sp.dense_shape.shape):
        raise ValueError(f"sparse.reset_shape: new_shape has {shape.shape[0]} dimensions, "
                         f"sp_input has {sp.dense_shape.shape[0]}; they must agree.")
    old, new = static_value(sp.dense_shape), static_value(shape)
    if old is not None and new is not None and np.any(np.asarray(new) < np.asarray(old)):
        raise ValueError(
            "Requested new_shape should have dimension sizes >= sp_input.shape.  Found "
            f"new_shape ({np.asarray(new)}), sp_input.shape ({np.asarray(old)}).")
    return SparseTensor(sp.indices, sp.values, shape)


def _rank(sp, fn):
    rank = sp.dense_shape.shape[0] if sp.dense_shape.shape.rank == 1 else None
    if rank is None:
        raise ValueError(f"{fn}: the rank of sp_input must be known.")
    return int(rank)


def transpose(sp_input, perm=None, name=None):
    """sp_input with its dimensions permuted by `perm` (reversed when None), in canonical
    order."""
    sp = check_sparse(sp_input, "sparse.transpose")
    rank = _rank(sp, "sparse.transpose")
    perm = list(range(rank))[::-1] if perm is None else perm
    known = static_value(convert_to_tensor(perm))
    if known is not None and sorted(int(p) for p in np.ravel(known)) != list(range(rank)):
        raise InvalidArgumentError(f"sparse.transpose: perm {np.ravel(known).tolist()} is not "
                                   f"a permutation of 0..{rank - 1}.")
    perm = convert_to_tensor(perm, dtype_hint=dtypes.int32)
    moved = SparseTensor(gather(sp.indices, perm, axis=1), sp.values,
                         gather(sp.dense_shape, perm))
    return reorder(moved, name=name)


def expand_dims(sp_input, axis=None, name=None):
    """sp_input with a dimension of size 1 inserted at `axis` (the last when None)."""
    sp = check_sparse(sp_input, "sparse.expand_dims")
    rank = _rank(sp, "sparse.expand_dims")
    axis = -1 if axis is None else int(static_value(convert_to_tensor(axis)))
    if not -rank - 1 <= axis <= rank:
        raise InvalidArgumentError(f"sparse.expand_dims: axis {axis} is out of range for a "
                                   f"tensor of rank {rank}: need -{rank + 1} <= axis <= {rank}.")
    axis = axis % (rank + 1)
    column = zeros_like(sp.indices[:, :1])
    indices = concat([sp.indices[:, :axis], column, sp.indices[:, axis:]], 1)
    shape = concat([sp.dense_shape[:axis], ones([1], dtypes.int64), sp.dense_shape[axis:]], 0)
    return SparseTensor(indices, identity(sp.values, name=name), shape)


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """The sparse [num_rows, num_columns] identity (square when num_columns is None)."""
    rows = cast(convert_to_tensor(num_rows), dtypes.int64)
    cols = rows if num_columns is None else cast(convert_to_tensor(num_columns), dtypes.int64)
    diag = range_(minimum(rows, cols), dtype=dtypes.int64)
    return SparseTensor(stack([diag, diag], axis=1),
                        ones(reshape(size(diag), [1]), dtype=dtypes.as_dtype(dtype), name=name),
                        stack([rows, cols]))


def to_indicator(sp_input, vocab_size, name=None):
    """Dense bool [..., vocab_size]: out[i_0..i_{r-2}, v] is true when some entry with index
    (i_0..i_{r-2}, *) holds the value v (sp_input's values are int32 or int64 ids)."""
    sp = check_sparse(sp_input, "sparse.to_indicator")
    if sp.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"sparse.to_indicator: sp_input's values must be int32 or int64 ids, "
                        f"got {sp.dtype.name}.")
    vocab = cast(reshape(convert_to_tensor(vocab_size), [1]), dtypes.int64)
    ids = cast(sp.values, dtypes.int64)
    bad = static_value(ids), static_value(vocab)
    if bad[0] is not None and bad[1] is not None and np.any((bad[0] < 0) | (bad[0] >= bad[1])):
        i = int(np.argmax((bad[0] < 0) | (bad[0] >= bad[1])))
        raise InvalidArgumentError(f"sparse.to_indicator: values[{i}] = {int(bad[0][i])} is "
                                   f"outside [0, {int(bad[1][0])}) (vocab_size).")
    indices = concat([sp.indices[:, :-1], dense_expand_dims(ids, 1)], 1)
    shape = concat([sp.dense_shape[:-1], vocab], 0)
    counts = scatter_nd(indices, ones_like(ids, dtype=dtypes.int32), shape)
    return greater(counts, 0, name=name)


def mask(a, mask_indices, name=None):
    """The IndexedSlices `a` without its slices whose index is in `mask_indices`."""
    if not isinstance(a, IndexedSlices):
        raise TypeError(f"sparse.mask: a must be an IndexedSlices, got {type(a).__name__}.")
    drop = convert_to_tensor(mask_indices, dtype=a.indices.dtype)
    hit = reduce_any(equal(dense_expand_dims(a.indices, 1), dense_expand_dims(drop, 0)), 1)
    keep = reshape(where(logical_not(hit)), [-1])
    return IndexedSlices(gather(a.values, keep, name=name), gather(a.indices, keep),
                         a.dense_shape)


def map_values(op, *args, **kwargs):
    """op(*args, **kwargs) with every SparseTensor argument replaced by its values; the result
    takes the indices and dense_shape of the SparseTensors, which must all share them."""
    found = [x for x in nest.flatten((args, kwargs)) if isinstance(x, SparseTensor)]
    if not found:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = found[0]
    for other in found[1:]:
        _check_same_entries(first, other)
    swap = lambda x: x.values if isinstance(x, SparseTensor) else x  # noqa: E731
    values = op(*nest.map_structure(swap, args), **nest.map_structure(swap, kwargs))
    return SparseTensor(first.indices, values, first.dense_shape)


def _check_same_entries(a, b):
    for what in ("indices", "dense_shape"):
        x, y = static_value(getattr(a, what)), static_value(getattr(b, what))
        if x is not None and y is not None and (np.shape(x) != np.shape(y) or np.any(x != y)):
            raise InvalidArgumentError(f"Mismatched {what}! The SparseTensors' {what} differ "
                                       f"({np.asarray(x).tolist()} vs {np.asarray(y).tolist()}); "
                                       "all must have the same indices and dense_shape.")
