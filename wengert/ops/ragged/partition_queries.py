"""What a RaggedTensor's partitions say about it: nrows, row_lengths (at any ragged axis),
value_rowids, row_starts / row_limits, the nested forms, bounding_shape, and the partitions in
another integer dtype. The encodings and their conversions are in row_partitions.py.

bounding_shape: [nrows, max row length at each ragged level, *flat_values.shape[1:]], where
the maximum over no rows is 0. row_lengths(axis=k) for k > 1 is a ragged tensor: the lengths of
the level-k rows, partitioned like the levels above them.
"""
from ...framework import dtypes
from ...framework.ragged_tensor import RaggedTensor
from ..array_ops import concat, stack
from ..creation_ops import fill, shape as shape_of
from ..math_ops import cast, maximum
from ..reduce_ops import reduce_max
from . import row_partitions as rp

__all__ = ["nrows", "row_lengths", "nested_row_lengths", "value_rowids", "nested_value_rowids",
           "row_starts", "row_limits", "bounding_shape", "with_row_splits_dtype"]


def nrows(self, out_type=None, name=None):
    """The number of rows, a scalar of `out_type` (the row splits' dtype by default)."""
    n = rp.nrows_of(self.row_splits)
    return n if out_type is None else cast(n, out_type)


def _lengths(rt):
    if rt._cached_lengths is None:
        rt._cached_lengths = rp.lengths_of(rt.row_splits)
    return rt._cached_lengths


def row_lengths(self, axis=1, name=None):
    """The length of each row at `axis` (1: a vector; deeper: a ragged tensor)."""
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"RaggedTensor.row_lengths: axis must be an int, got {axis!r}.")
    rank = self.shape.rank
    if axis < 0 and rank is not None:
        axis += rank
    if axis == 0:
        raise ValueError("RaggedTensor.row_lengths: axis=0 has no rows to measure; use "
                         "rt.nrows().")
    if axis == 1:
        return _lengths(self)
    if isinstance(self.values, RaggedTensor):
        return self.with_values(row_lengths(self.values, axis - 1))
    shape = shape_of(self.values, out_type=self.row_splits.dtype)
    if rank is None or not 1 < axis < rank:
        raise ValueError(f"RaggedTensor.row_lengths: axis {axis} is out of range for a ragged "
                         f"tensor of rank {rank}.")
    return self.with_values(fill([shape[0]], shape[axis - 1]))


def nested_row_lengths(self, name=None):
    """The row lengths of each ragged level, outermost first."""
    out, rt = [], self
    while isinstance(rt, RaggedTensor):
        out.append(_lengths(rt))
        rt = rt.values
    return tuple(out)


def value_rowids(self, name=None):
    """The row of each value (of `values`): [nvals], never decreasing."""
    if self._cached_rowids is None:
        self._cached_rowids = rp.value_rowids_of(self.row_splits)
    return self._cached_rowids


def nested_value_rowids(self, name=None):
    out, rt = [], self
    while isinstance(rt, RaggedTensor):
        out.append(value_rowids(rt))
        rt = rt.values
    return tuple(out)


def row_starts(self, name=None):
    return self.row_splits[:-1]


def row_limits(self, name=None):
    return self.row_splits[1:]


def _max_length(rt):
    width = rt.uniform_row_length
    if width is not None:
        return width
    lengths = _lengths(rt)
    return maximum(reduce_max(lengths), cast(0, lengths.dtype)) if lengths.shape[0] != 0 else \
        cast(0, lengths.dtype)


def bounding_shape(self, axis=None, name=None, out_type=None):
    """The smallest dense shape holding every row: nrows, the longest row at each ragged level,
    then the flat values' inner dimensions; `axis` picks entries."""
    dtype = self.row_splits.dtype if out_type is None else dtypes.as_dtype(out_type)
    dims, rt = [cast(nrows(self), dtype)], self
    while isinstance(rt, RaggedTensor):
        dims.append(cast(_max_length(rt), dtype))
        rt = rt.values
    inner = shape_of(rt, out_type=dtype)[1:]
    shape = concat([stack(dims), inner], 0)
    if axis is None:
        return shape
    if isinstance(axis, (list, tuple)):
        return stack([shape[a] for a in axis])
    return shape[axis]


def with_row_splits_dtype(self, dtype):
    """The same ragged tensor with every partition in `dtype` (int32 or int64)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in rp.SPLITS_DTYPES:
        raise ValueError(f"RaggedTensor.with_row_splits_dtype: dtype must be int32 or int64, "
                         f"got {dtype.name}.")
    if self.row_splits.dtype is dtype:
        return self
    values = self.values
    if isinstance(values, RaggedTensor):
        values = with_row_splits_dtype(values, dtype)
    width = self.uniform_row_length
    return RaggedTensor(values, cast(self.row_splits, dtype), internal=True,
                        uniform_row_length=None if width is None else cast(width, dtype))
