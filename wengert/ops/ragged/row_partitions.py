"""Row partitions: the encodings of how a ragged dimension splits its values into rows, and the
conversions between them, each made of integer ops.

For nrows rows over nvals values, with lengths l_i >= 0 and sum_i l_i = nvals:

    row_splits    [nrows + 1]  s_0 = 0, s_{i+1} = s_i + l_i, s_nrows = nvals
    row_lengths   [nrows]      l_i = s_{i+1} - s_i
    row_starts    [nrows]      s_i                row_limits  [nrows]  s_{i+1}
    value_rowids  [nvals]      the row of each value: i repeated l_i times (never decreasing),
                               for value j the number of splits s_i <= j, less one (a searchsorted)
    uniform       scalar w     l_i = w for every row: s = w * range(nrows + 1)

splits from lengths: concat([0], cumsum(l)); splits from value_rowids: counts of each row id
(bincount with nrows bins), then the same running sum. The checks that TensorFlow's
`validate=True` adds (splits start at 0, never decrease, end at the number of values) run here
on the known values: always eagerly, and in a graph when the partition is known while building
(it is skipped for computed partitions, whose mistakes then surface in the ops that read them).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ..array_ops import concat
from ..creation_ops import range as range_, shape as shape_of
from ..histogram_ops import bincount
from ..math_ops import cast
from ..scan_ops import cumsum
from ..sort_ops import searchsorted

__all__ = ["as_partition", "splits_from_lengths", "splits_from_value_rowids", "lengths_of",
           "value_rowids_of", "nrows_of", "nvals_of", "check_splits", "check_value_rowids",
           "check_lengths", "known", "SPLITS_DTYPES"]

SPLITS_DTYPES = (dtypes.int32, dtypes.int64)


def as_partition(value, what, fn, dtype=None):
    """`value` as an int32/int64 vector (int64 unless it already is an int32 tensor)."""
    t = convert_to_tensor(value, dtype_hint=dtypes.int64) if dtype is None else \
        convert_to_tensor(value, dtype_hint=dtype)
    if t.dtype not in SPLITS_DTYPES:
        raise ValueError(f"{fn}: {what} must be an int32 or int64 tensor, got {t.dtype.name}; "
                         f"cast it with tf.cast({what}, tf.int64).")
    if dtype is not None and t.dtype is not dtypes.as_dtype(dtype):
        t = cast(t, dtype)
    if t.shape.rank not in (None, 1):
        raise ValueError(f"{fn}: {what} must be a vector, got shape {t.shape}.")
    return t


def known(t):
    """t's value as an ndarray when it is known now (eagerly, or folded while building)."""
    return static_value(t)


def splits_from_lengths(lengths):
    zero = convert_to_tensor(np.zeros([1], lengths.dtype.as_numpy_dtype))
    return concat([zero, cumsum(lengths)], 0)


def splits_from_value_rowids(rowids, nrows):
    counts = bincount(rowids, minlength=nrows, maxlength=nrows, dtype=rowids.dtype)
    return splits_from_lengths(counts)


def lengths_of(splits):
    return splits[1:] - splits[:-1]


def nrows_of(splits, out_type=None):
    n = shape_of(splits, out_type=out_type or splits.dtype)[0] - 1
    return n


def nvals_of(values, out_type):
    return shape_of(values, out_type=out_type)[0]


def value_rowids_of(splits):
    """The row of each value: the number of row limits at or below its position."""
    positions = range_(splits[-1], dtype=splits.dtype)
    return searchsorted(splits, positions, side="right", out_type=splits.dtype) - 1


def _fail(fn, what, detail):
    raise InvalidArgumentError(f"Arguments to {fn} do not form a valid RaggedTensor: {what}. "
                               f"{detail}")


def check_splits(splits, nvals, fn):
    """TensorFlow's row_splits checks, on known values: starts at 0, never decreases, ends at
    the number of values `nvals` (an int or None)."""
    s = known(splits)
    if s is None:
        return
    if s.size == 0:
        _fail(fn, "row_splits is empty", "row_splits has nrows + 1 entries; [0] is the "
              "partition of zero rows.")
    if s[0] != 0:
        _fail(fn, "zero", f"row_splits must start at 0, got row_splits[0] = {s[0]}.")
    steps = np.diff(s)
    if np.any(steps < 0):
        i = int(np.argmax(steps < 0))
        _fail(fn, "monotonic", f"row_splits must never decrease, got row_splits[{i}] = {s[i]} "
              f"> row_splits[{i + 1}] = {s[i + 1]}.")
    if nvals is not None and s[-1] != nvals:
        _fail(fn, "row_splits[-1] != nvals", f"the last row split ({s[-1]}) must equal the "
              f"number of values ({nvals}).")


def check_lengths(lengths, nvals, fn):
    v = known(lengths)
    if v is None:
        return
    if np.any(v < 0):
        _fail(fn, "negative row length", f"row_lengths must be >= 0, got {v.tolist()}.")
    if nvals is not None and int(v.sum()) != nvals:
        _fail(fn, "sum(row_lengths) != nvals", f"the row lengths add up to {int(v.sum())} but "
              f"there are {nvals} values.")


def check_value_rowids(rowids, nrows, nvals, fn):
    v = known(rowids)
    if v is None:
        return
    if nvals is not None and v.size != nvals:
        _fail(fn, "len(value_rowids) != nvals", f"value_rowids has {v.size} entries for "
              f"{nvals} values.")
    if v.size and (np.any(np.diff(v) < 0) or v[0] < 0):
        _fail(fn, "value_rowids must be sorted and >= 0", f"got {v.tolist()}.")
    n = known(nrows) if nrows is not None else None
    if n is not None and v.size and v[-1] >= int(n):
        _fail(fn, "value_rowids[-1] >= nrows", f"row id {v[-1]} is out of range for "
              f"nrows = {int(n)}.")
