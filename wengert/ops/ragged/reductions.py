"""Reductions over ragged tensors: tf.reduce_sum / mean / max / min / prod / any / all with an
axis, as TensorFlow defines them on ragged input.

Reducing along an axis groups entries and reduces each group with the unsorted segment ops:

    axis None   every flat value: the dense reduction of flat_values
    axis 1      the values of row i form group i (their row ids): a dense [nrows, ...] when
                the values are dense, else a ragged result (below)
    axis 0      column j of every row forms group j (its position within its row), with
                bounding_shape[1] groups
    axis k > 1  the same one level down: rt.with_values(reduce(rt.values, k - 1))

When the grouped entries are themselves ragged rows (ragged rank 2 at the reduced level), the
result row of a group is as long as its longest member row, and entry c of member row r lands
at splits_out[group(r)] + c. The mean is the segment sum over the segment count (per output
entry); max and min of an empty group are the dtype's lowest / highest value, as TensorFlow's
unsorted segment ops give them; any / all count the True (False) entries of each group, so an
empty group is False for any and True for all. Gradients are
the segment ops'. tf.strings.reduce_join reduces as the others do, its kind ("join",
separator): tf.strings.reduce_join within rows, tf.strings.unsorted_segment_join across them
(an empty group is "").
"""
from ...framework import dtypes
from ...framework.ragged_tensor import RaggedTensor
from .. import reduce_ops, segment_ops
from ..io import strings as string_ops, substrings
from ..broadcast_ops import ones_like
from ..creation_ops import range as range_, shape as shape_of
from ..indexing_ops import gather
from ..math_ops import cast, divide, equal, greater, logical_not, maximum
from ..reshape_ops import expand_dims, reshape
from . import factories
from . import row_partitions as rp
from .partition_queries import bounding_shape, row_lengths, value_rowids

__all__ = ["reduce"]

_SEGMENT = {"sum": segment_ops.unsorted_segment_sum, "prod": segment_ops.unsorted_segment_prod,
            "max": segment_ops.unsorted_segment_max, "min": segment_ops.unsorted_segment_min}
_DENSE = {"sum": reduce_ops.reduce_sum, "prod": reduce_ops.reduce_prod,
          "max": reduce_ops.reduce_max, "min": reduce_ops.reduce_min,
          "mean": reduce_ops.reduce_mean, "any": reduce_ops.reduce_any,
          "all": reduce_ops.reduce_all}


def _dense(kind):
    """The dense reduction of `kind`."""
    if isinstance(kind, tuple):
        return lambda x, axis=None, name=None: string_ops.reduce_join(x, axis, False, kind[1],
                                                                      name)
    return _DENSE[kind]


def _name(kind):
    return f"reduce_{kind[0] if isinstance(kind, tuple) else kind}"


def _segment(kind, data, ids, count):
    if isinstance(kind, tuple):
        return substrings.unsorted_segment_join(data, ids, count, separator=kind[1])
    if kind in ("any", "all"):
        marked = cast(data if kind == "any" else logical_not(data), dtypes.int32)
        hits = segment_ops.unsorted_segment_sum(marked, ids, count)
        return greater(hits, 0) if kind == "any" else equal(hits, 0)
    if kind == "mean":
        total = segment_ops.unsorted_segment_sum(data, ids, count)
        counts = segment_ops.unsorted_segment_sum(ones_like(data), ids, count)
        return divide(total, counts) if data.dtype.is_floating else total // maximum(counts, 1)
    return _SEGMENT[kind](data, ids, count)


def _group(kind, data, ids, count):
    """Reduce the rows of `data` (dense or ragged) grouped by `ids` into `count` groups."""
    if not isinstance(data, RaggedTensor):
        return _segment(kind, data, ids, count)
    if isinstance(data.values, RaggedTensor):
        raise ValueError(f"{_name(kind)}: reducing a ragged dimension whose entries have more "
                         "than one ragged dimension below them is not supported; reduce an "
                         "inner axis first.")
    dtype = data.row_splits.dtype
    lengths = segment_ops.unsorted_segment_max(row_lengths(data), ids, count)
    splits = rp.splits_from_lengths(maximum(lengths, cast(0, dtype)))
    rowids = value_rowids(data)
    cols = range_(shape_of(rowids, out_type=dtype)[0], dtype=dtype) - gather(data.row_splits,
                                                                              rowids)
    positions = gather(splits, gather(ids, rowids)) + cols
    total = splits[-1]
    values = _segment(kind, data.values, positions, total)
    return factories.wrap(values, splits, fn=_name(kind), validate=False)


def _reduce_axis(kind, rt, axis):
    if axis >= 2:
        values = rt.values
        inner = _reduce_axis(kind, values, axis - 1) if isinstance(values, RaggedTensor) else \
            _dense(kind)(values, axis=axis - 1)
        return rt.with_values(inner)
    dtype = rt.row_splits.dtype
    if axis == 1:
        return _group(kind, rt.values, value_rowids(rt), rp.nrows_of(rt.row_splits))
    rowids = value_rowids(rt)
    cols = range_(shape_of(rowids, out_type=dtype)[0], dtype=dtype) - gather(rt.row_splits,
                                                                            rowids)
    return _group(kind, rt.values, cols, bounding_shape(rt, axis=1))


def reduce(kind, input_tensor, axis=None, keepdims=False, name=None):
    """reduce_<kind> of a RaggedTensor over `axis` (None: every value)."""
    rt = input_tensor
    if axis is None:
        total = _dense(kind)(rt.flat_values, name=name)
        return reshape(total, [1] * rt.shape.rank) if keepdims else total
    rank = rt.shape.rank
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    axes = sorted({int(a) + rank if int(a) < 0 else int(a) for a in axes}, reverse=True)
    for a in axes:
        if not 0 <= a < rank:
            raise ValueError(f"{_name(kind)}: axis {a} is out of range for a ragged tensor of "
                             f"rank {rank}.")
    result = rt
    for a in axes:
        result = _reduce_axis(kind, result, a) if isinstance(result, RaggedTensor) else \
            _dense(kind)(result, axis=a)
        if keepdims:
            result = _keep(result, a, kind)
    return result


def _keep(result, axis, kind):
    """result with the reduced axis back, of size 1: in the flat values when it lies below the
    ragged dimensions."""
    if isinstance(result, RaggedTensor) and axis > result.ragged_rank:
        return result.with_flat_values(expand_dims(result.flat_values,
                                                   axis - result.ragged_rank))
    if isinstance(result, RaggedTensor):
        raise ValueError(f"{_name(kind)}: keepdims=True with a ragged result is not supported; "
                         "reduce without keepdims and expand the result.")
    return expand_dims(result, axis)


def handlers():
    """{dense public reduction: its ragged stand-in} for the dispatch tables."""
    def make(kind):
        return lambda input_tensor, axis=None, keepdims=False, name=None: reduce(
            kind, input_tensor, axis, keepdims, name)
    return {_DENSE[kind]: make(kind) for kind in _DENSE}
