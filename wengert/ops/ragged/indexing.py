"""Picking rows of ragged tensors: ragged ranges, gather of rows, and TensorFlow's ragged
indexing (`rt[key]`).

A ragged range over starts s_i and limits t_i (delta d_i) has rows of
length_i = max(ceil((t_i - s_i) / d_i), 0), and value j of row i is s_i + (j - splits_i) d_i,
where splits are the running sums of the lengths: a range, the row ids of the values and two
gathers, with no loop over rows. Gathering rows [r_k] of a ragged tensor is a ragged range over their starts and
limits: its values index the values to gather, level by level.

Indexing, as TensorFlow defines it: the first entry of the key picks rows (an int drops the
dimension, a slice keeps it); a slice of a ragged dimension slices every row by Python's rules
for that row, step included: row i of rt[:, a:b:c] is the ragged range from first_i to limit_i
by c, offset by the row's start, where first_i and limit_i are a and b made non-negative
against the row's length n_i and clamped to [0, n_i] (c > 0) or [-1, n_i - 1] (c < 0); a
dimension of uniform rows stays uniform; an int into a ragged dimension below the first is
refused ("Cannot index into an inner ragged dimension"); entries past the ragged dimensions
index the flat values; an Ellipsis stands for the full slices it spans.
"""
from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.ragged_tensor import RaggedTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ..broadcast_ops import broadcast_to
from ..creation_ops import range as range_, shape as shape_of
from ..indexing_ops import gather
from ..math_ops import add, cast, floordiv, maximum, minimum
from ..array_ops import where
from ..rounding_ops import ceil
from . import factories
from . import row_partitions as rp
from .partition_queries import nrows, row_lengths

__all__ = ["ragged_range", "range_indices", "gather_rows", "getitem"]


def range_indices(starts, limits, deltas=None, name=None):
    """(row_splits, values) of the ragged range from starts to limits by deltas (1)."""
    if deltas is None:
        lengths = maximum(limits - starts, 0)
    else:
        lengths = maximum(floordiv(limits - starts + deltas - _sign(deltas), deltas), 0)
    splits = rp.splits_from_lengths(lengths)
    rowids = rp.value_rowids_of(splits)
    offsets = range_(shape_of(rowids, out_type=lengths.dtype)[0], dtype=lengths.dtype) - \
        gather(splits, rowids)
    if deltas is not None:
        offsets = offsets * gather(deltas, rowids)
    return splits, add(gather(starts, rowids), offsets, name=name)


def _sign(x):
    return where(x > 0, cast(1, x.dtype), cast(-1, x.dtype))


_RANGE_DTYPES = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


def ragged_range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):
    """`tf.ragged.range`: row i is range(starts[i], limits[i], deltas[i]) (scalars broadcast;
    one argument is the limits, starting at 0)."""
    if limits is None:
        starts, limits = 0, starts
    parts = [convert_to_tensor(v, dtype=dtype) for v in (starts, limits, deltas)]
    for what, t in zip(("starts", "limits", "deltas"), parts):
        if t.dtype not in _RANGE_DTYPES:
            raise TypeError(f"tf.ragged.range: {what} must be int32, int64, float32 or float64, "
                            f"got {t.dtype.name}.")
    common = max((t.dtype for t in parts), key=_RANGE_DTYPES.index)
    starts, limits, deltas = (cast(t, common) for t in parts)
    rank = max(t.shape.rank for t in (starts, limits, deltas))
    if rank > 1:
        raise ValueError(f"tf.ragged.range: starts, limits and deltas must be scalars or "
                         f"vectors, got ranks {starts.shape.rank}, {limits.shape.rank}, "
                         f"{deltas.shape.rank}.")
    shape = [1] if rank == 0 else shape_of(starts + limits + deltas)
    s, t, d = (broadcast_to(v, shape) for v in (starts, limits, deltas))
    splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if s.dtype.is_integer:
        splits, values = range_indices(s, t, d, name)
        splits = cast(splits, splits_dtype)
    else:
        lengths = cast(maximum(ceil((t - s) / d), 0.0), splits_dtype)
        splits, offsets = range_indices(cast(0, splits_dtype) * lengths, lengths)
        rowids = rp.value_rowids_of(splits)
        values = add(gather(s, rowids), cast(offsets, s.dtype) * gather(d, rowids), name=name)
    return factories.wrap(values, splits, fn="ragged.range", validate=False)


def gather_rows(rt, indices):
    """Rows `indices` (a vector) of rt, as a ragged tensor of the same ragged rank."""
    dtype = rt.row_splits.dtype
    indices = cast(indices, dtype)
    starts = gather(rt.row_splits[:-1], indices)
    limits = gather(rt.row_splits[1:], indices)
    splits, value_index = range_indices(starts, limits)
    values = rt.values
    picked = gather_rows(values, value_index) if isinstance(values, RaggedTensor) else \
        gather(values, value_index)
    return factories.wrap(picked, splits, fn="gather", validate=False)


def _row(rt, i):
    n = nrows(rt)
    i = convert_to_tensor(i, dtype=rt.row_splits.dtype)
    i = where(i < 0, i + n, i)
    start, limit = rt.row_splits[i], rt.row_splits[i + 1]
    values = rt.values
    if isinstance(values, RaggedTensor):
        return gather_rows(values, range_(start, limit, dtype=start.dtype))
    return values[start:limit]


def _bounds(key, lengths):
    """Per row of `lengths`, the (first, limit, step) of Python's slice `key` of that row:
    bounds below 0 count from the row's end, then clamp to [0, n] (step > 0) or [-1, n - 1]
    (step < 0), the defaults being the row's whole extent in the step's direction."""
    dtype = lengths.dtype
    step = cast(convert_to_tensor(1 if key.step is None else key.step), dtype)
    forward = step > 0
    zero, minus_one = cast(0, dtype) * lengths, cast(-1, dtype) + cast(0, dtype) * lengths
    low, high = where(forward, zero, minus_one), where(forward, lengths, lengths - 1)

    def bound(b, default):
        if b is None:
            return default
        b = cast(convert_to_tensor(b), dtype) + zero
        return minimum(maximum(where(b < 0, lengths + b, b), low), high)
    first = bound(key.start, where(forward, zero, lengths - 1))
    limit = bound(key.stop, where(forward, lengths, minus_one))
    return first, limit, step + zero


def _slice_each_row(rt, key):
    """rt[:, key] for a slice `key`: each row sliced as Python slices a list."""
    step = static_value(convert_to_tensor(key.step)) if key.step is not None else None
    if step is not None and int(step) == 0:
        raise InvalidArgumentError(f"RaggedTensor indexing: slice step cannot be zero, got "
                                   f"{key} (RaggedRange requires delta != 0).")
    first, limit, steps = _bounds(key, row_lengths(rt))
    starts = rt.row_splits[:-1]
    splits, value_index = range_indices(starts + first, starts + limit, steps)
    values = rt.values
    picked = gather_rows(values, value_index) if isinstance(values, RaggedTensor) else \
        gather(values, value_index)
    return factories.wrap(picked, splits, _uniform_width(rt, key), "__getitem__", False)


def _uniform_width(rt, key):
    """The row length of rt[:, key] when rt's rows have one static length and key is a slice
    of Python ints (TensorFlow keeps such a dimension uniform), else None."""
    width = static_value(rt.uniform_row_length) if rt.uniform_row_length is not None else None
    bounds = (key.start, key.stop, key.step)
    if width is None or not all(b is None or isinstance(b, int) for b in bounds):
        return None
    return convert_to_tensor(len(range(*key.indices(int(width)))),
                             dtype=rt.row_splits.dtype)


def _expand_ellipsis(key, rank):
    """key with its Ellipsis replaced by as many full slices as the dimensions it spans."""
    at = [i for i, k in enumerate(key) if k is Ellipsis]
    if len(at) > 1:
        raise ValueError("RaggedTensor indexing: an index can only have a single ellipsis "
                         "('...').")
    if not at:
        return key
    fill = (slice(None),) * max(rank - (len(key) - 1), 0)
    return key[:at[0]] + fill + key[at[0] + 1:]


def getitem(self, key):
    """rt[key] with TensorFlow's ragged indexing rules (see the module docstring)."""
    key = key if isinstance(key, tuple) else (key,)
    key = _expand_ellipsis(key, self.shape.rank)
    if any(k is None for k in key):
        raise ValueError("RaggedTensor indexing: tf.newaxis is not supported here; index each "
                         "dimension with an int or a slice, then tf.expand_dims.")
    if not key:
        return self
    first, rest = key[0], key[1:]
    if isinstance(first, slice):
        if first != slice(None):
            rows = range_(nrows(self), dtype=self.row_splits.dtype)[first]
            self = _keep_uniform(gather_rows(self, rows), self.uniform_row_length)
        return _inner(self, rest) if rest else self
    row = _row(self, first)
    if not rest:
        return row
    return getitem(row, rest) if isinstance(row, RaggedTensor) else row[rest]


def _keep_uniform(rt, width):
    """rt with its rows' uniform length `width` (rows gathered from a uniform dimension)."""
    if width is None:
        return rt
    return factories.wrap(rt.values, rt.row_splits, width, "__getitem__", False)


def _inner(rt, key):
    """rt[:, key...]: key[0] indexes the first ragged dimension's rows."""
    first, rest = key[0], key[1:]
    if isinstance(first, slice):
        if first != slice(None):
            rt = _slice_each_row(rt, first)
        if not rest:
            return rt
        values = rt.values
        inner = getitem(values, (slice(None),) + rest) if isinstance(values, RaggedTensor) \
            else values[(slice(None),) + rest]
        return factories.wrap(inner, rt.row_splits, rt.uniform_row_length, "__getitem__",
                              False)
    raise ValueError("Cannot index into an inner ragged dimension.")
