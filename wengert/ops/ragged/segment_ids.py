"""`tf.ragged.row_splits_to_segment_ids` and `segment_ids_to_row_splits`: between a row
partition's splits and the segment id of each value (its row), the encoding that tf.math's
segment ops read.

    segment_ids[j] = i   for splits[i] <= j < splits[i + 1]
    splits         = concat([0], cumsum(counts)),   counts[i] = #{j : segment_ids[j] = i}

with num_segments rows (default: the largest id + 1).
"""
from ...framework import dtypes
from ...framework.tensor import convert_to_tensor
from ..histogram_ops import bincount
from ..math_ops import cast
from ..reduce_ops import reduce_max
from . import row_partitions as rp

__all__ = ["row_splits_to_segment_ids", "segment_ids_to_row_splits"]


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value of a partition given by `splits`."""
    splits = rp.as_partition(splits, "splits", "tf.ragged.row_splits_to_segment_ids")
    rp.check_splits(splits, None, "row_splits_to_segment_ids")
    ids = rp.value_rowids_of(splits)
    out_type = splits.dtype if out_type is None else dtypes.as_dtype(out_type)
    return cast(ids, out_type, name=name)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row splits of sorted `segment_ids` (num_segments rows, default last id + 1)."""
    if out_type is None:
        given = segment_ids if hasattr(segment_ids, "dtype") else num_segments
        out_type = given.dtype if hasattr(given, "dtype") else dtypes.int64
    out_type = dtypes.as_dtype(out_type)
    ids = rp.as_partition(segment_ids, "segment_ids", "tf.ragged.segment_ids_to_row_splits",
                          out_type)
    if num_segments is None:
        num_segments = reduce_max(ids) + 1 if ids.shape[0] != 0 else 0
    num_segments = cast(convert_to_tensor(num_segments, dtype_hint=out_type), out_type)
    counts = bincount(ids, minlength=num_segments, maxlength=num_segments, dtype=out_type)
    splits = rp.splits_from_lengths(counts)
    return cast(splits, out_type, name=name)
