"""RaggedTensor's factory methods: a ragged tensor from flat values and one or more row
partitions in any of their encodings (row_partitions.py states them and how they convert).

Each factory converts its partition to row_splits with integer ops, checks it when `validate`
is set (TensorFlow's InvalidArgumentError for inconsistent partitions), and wraps the values;
the values themselves pass through untouched, so gradients reach them unchanged. The nested
forms apply the single-level factory from the innermost partition outwards.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.ragged_tensor import RaggedTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ..array_ops import concat
from ..creation_ops import range as range_
from ..math_ops import cast
from ..reduce_ops import reduce_max
from . import row_partitions as rp

__all__ = ["wrap", "from_row_splits", "from_row_lengths", "from_value_rowids", "from_row_starts",
           "from_row_limits", "from_uniform_row_length", "from_nested_row_splits",
           "from_nested_row_lengths", "from_nested_value_rowids", "as_values"]


def as_values(values, fn):
    """`values` as a RaggedTensor or a Tensor of rank >= 1."""
    if isinstance(values, RaggedTensor):
        return values
    values = convert_to_tensor(values)
    if values.shape.rank == 0:
        raise ValueError(f"RaggedTensor.{fn}: values must have rank >= 1, got a scalar; wrap "
                         "it in a list.")
    return values


def _nvals(values):
    if isinstance(values, RaggedTensor):
        n = values.row_splits.shape[0]
        return None if n is None else n - 1
    return values.shape[0]


def wrap(values, splits, uniform=None, fn="from_row_splits", validate=True):
    """The RaggedTensor of `values` split by `splits`, after the checks of `validate`. Values
    that are a RaggedTensor must use the same splits dtype."""
    if isinstance(values, RaggedTensor) and values.row_splits.dtype is not splits.dtype:
        raise ValueError(f"RaggedTensor.{fn}: the row partitions have dtypes "
                         f"{splits.dtype.name} and {values.row_splits.dtype.name}; use one (cast "
                         "with rt.with_row_splits_dtype(dtype)).")
    if validate:
        rp.check_splits(splits, _nvals(values), fn)
    return RaggedTensor(values, splits, internal=True, uniform_row_length=uniform)


def _splits_dtype(values, fallback=None):
    if isinstance(values, RaggedTensor):
        return values.row_splits.dtype
    return fallback


def from_row_splits(cls, values, row_splits, name=None, validate=True):
    """Rows values[row_splits[i]:row_splits[i + 1]]."""
    values = as_values(values, "from_row_splits")
    splits = rp.as_partition(row_splits, "row_splits", "RaggedTensor.from_row_splits",
                             _splits_dtype(values))
    return wrap(values, splits, None, "from_row_splits", validate)


def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
    """Consecutive rows of lengths row_lengths[i]."""
    values = as_values(values, "from_row_lengths")
    lengths = rp.as_partition(row_lengths, "row_lengths", "RaggedTensor.from_row_lengths",
                              _splits_dtype(values))
    if validate:
        rp.check_lengths(lengths, _nvals(values), "from_row_lengths")
    ragged = wrap(values, rp.splits_from_lengths(lengths), None, "from_row_lengths", validate)
    ragged._cached_lengths = lengths
    return ragged


def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
    """Value j in row value_rowids[j] (sorted ids); nrows (default last id + 1) allows trailing
    empty rows."""
    values = as_values(values, "from_value_rowids")
    fn = "RaggedTensor.from_value_rowids"
    rowids = rp.as_partition(value_rowids, "value_rowids", fn, _splits_dtype(values))
    if nrows is None:
        known = static_value(rowids)
        if known is not None:
            nrows = int(known[-1]) + 1 if known.size else 0
        else:
            nrows = reduce_max(rowids) + 1
    nrows = cast(convert_to_tensor(nrows, dtype_hint=rowids.dtype), rowids.dtype)
    if validate:
        rp.check_value_rowids(rowids, nrows, _nvals(values), "from_value_rowids")
    splits = rp.splits_from_value_rowids(rowids, nrows)
    ragged = wrap(values, splits, None, "from_value_rowids", validate)
    ragged._cached_rowids = rowids
    return ragged


def from_row_starts(cls, values, row_starts, name=None, validate=True):
    """Row i from row_starts[i] to the next start (the last to the end of values)."""
    values = as_values(values, "from_row_starts")
    starts = rp.as_partition(row_starts, "row_starts", "RaggedTensor.from_row_starts",
                             _splits_dtype(values))
    end = _row_count(values, starts.dtype)
    splits = concat([starts, end[None]], 0)
    return wrap(values, splits, None, "from_row_starts", validate)


def from_row_limits(cls, values, row_limits, name=None, validate=True):
    """Row i from the previous limit (0 for the first) to row_limits[i]."""
    values = as_values(values, "from_row_limits")
    limits = rp.as_partition(row_limits, "row_limits", "RaggedTensor.from_row_limits",
                             _splits_dtype(values))
    zero = convert_to_tensor(np.zeros([1], limits.dtype.as_numpy_dtype))
    return wrap(values, concat([zero, limits], 0), None, "from_row_limits", validate)


def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                            name=None):
    """Rows of uniform_row_length values each (a uniform dimension of the static shape)."""
    values = as_values(values, "from_uniform_row_length")
    dtype = _splits_dtype(values) or dtypes.int64
    width = cast(convert_to_tensor(uniform_row_length, dtype_hint=dtype), dtype)
    if width.shape.rank != 0:
        raise ValueError("RaggedTensor.from_uniform_row_length: uniform_row_length must be a "
                         f"scalar, got shape {width.shape}.")
    nvals = _row_count(values, dtype)
    w, n = static_value(width), static_value(nvals)
    if nrows is None:
        nrows = nvals // width if w is None or int(w) != 0 else convert_to_tensor(
            np.array(0, dtype.as_numpy_dtype))
    nrows = cast(convert_to_tensor(nrows, dtype_hint=dtype), dtype)
    r = static_value(nrows)
    if validate and w is not None and n is not None and r is not None and int(w) * int(r) != n:
        raise InvalidArgumentError(
            f"RaggedTensor.from_uniform_row_length: {int(r)} rows of length {int(w)} need "
            f"{int(w) * int(r)} values, got {int(n)}.")
    splits = range_(nrows + 1, dtype=dtype) * width
    return wrap(values, splits, width, "from_uniform_row_length", False)


def _row_count(values, dtype):
    """The number of rows of `values` (a Tensor or RaggedTensor) as a `dtype` scalar."""
    if isinstance(values, RaggedTensor):
        return cast(rp.nrows_of(values.row_splits), dtype)
    return rp.nvals_of(values, dtype)


def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
    _check_nested(nested_row_splits, "nested_row_splits")
    result = as_values(flat_values, "from_nested_row_splits")
    for splits in reversed(list(nested_row_splits)):
        result = from_row_splits(cls, result, splits, validate=validate)
    return result


def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
    _check_nested(nested_row_lengths, "nested_row_lengths")
    result = as_values(flat_values, "from_nested_row_lengths")
    for lengths in reversed(list(nested_row_lengths)):
        result = from_row_lengths(cls, result, lengths, validate=validate)
    return result


def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None, name=None,
                             validate=True):
    _check_nested(nested_value_rowids, "nested_value_rowids")
    rowids = list(nested_value_rowids)
    nrows = [None] * len(rowids) if nested_nrows is None else list(nested_nrows)
    if len(nrows) != len(rowids):
        raise ValueError("RaggedTensor.from_nested_value_rowids: nested_nrows must have one "
                         f"entry per value_rowids ({len(rowids)}), got {len(nrows)}.")
    result = as_values(flat_values, "from_nested_value_rowids")
    for ids, n in reversed(list(zip(rowids, nrows))):
        result = from_value_rowids(cls, result, ids, n, validate=validate)
    return result


def _check_nested(parts, what):
    if not isinstance(parts, (list, tuple)):
        raise TypeError(f"RaggedTensor.from_{what}: {what} must be a list or tuple of vectors, "
                        f"got {type(parts).__name__}.")
