"""Selecting entries of ragged tensors: tf.ragged.boolean_mask (and tf.boolean_mask on ragged
input), tf.where, and tf.gather with ragged params or ragged indices.

boolean_mask(data, mask), with mask's shape a prefix of data's:
    mask of rank 1 keeps rows: the rows i with mask[i] (a gather of rows);
    mask of rank k > 1 keeps, in each row, the entries it marks, one level down per rank: at the
    innermost masked level the kept values are the dense boolean_mask of the values, and each
    row's new length is its count of True (a segment sum of the mask over the row ids).
A dense data or mask beside a ragged one is made ragged first (RaggedTensor.from_tensor); a
dense mask over dense data of rank > 1 gives a ragged result (rows of varying length).

where(c, x, y) is elementwise over the flat values (elementwise.py's broadcasting); where(c)
alone lists the coordinates of the True entries ([N, rank], as to_sparse orders them).
gather(rt, indices) gathers rows (indexing.py); gather(params, ragged indices) keeps the
indices' partitions over gather(params, flat indices).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.ragged_tensor import RaggedTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from .. import array_ops, indexing_ops, segment_ops
from ..math_ops import cast
from ..reshape_ops import reshape
from . import factories
from .dense_conversions import from_tensor, to_sparse
from .elementwise import apply_elementwise
from .indexing import gather_rows, getitem
from .partition_queries import nrows, value_rowids

__all__ = ["boolean_mask", "where", "gather"]


def _as_ragged(x, ragged_rank):
    if isinstance(x, RaggedTensor):
        return x
    return from_tensor(RaggedTensor, x, ragged_rank=ragged_rank)


def _mask_level(data, mask):
    """data (ragged) with the entries of mask (ragged, same partition) kept."""
    if isinstance(mask.values, RaggedTensor):
        return data.with_values(_mask_level(data.values, mask.values))
    keep = mask.values
    kept = cast(keep, data.row_splits.dtype)
    lengths = segment_ops.unsorted_segment_sum(kept, value_rowids(mask), nrows(mask))
    values = data.values
    picked = gather_rows(values, reshape(array_ops.where(keep), [-1])) if isinstance(
        values, RaggedTensor) else indexing_ops.boolean_mask(values, keep)
    return factories.from_row_lengths(RaggedTensor, picked, lengths, validate=False)


def boolean_mask(data, mask, name=None):
    """The entries of `data` where `mask` (bool, of a prefix of data's shape) is True."""
    ragged = isinstance(data, RaggedTensor) or isinstance(mask, RaggedTensor)
    mask = mask if isinstance(mask, RaggedTensor) else convert_to_tensor(mask,
                                                                         dtype_hint=dtypes.bool)
    if mask.dtype is not dtypes.bool:
        raise TypeError(f"tf.ragged.boolean_mask: mask must be bool, got {mask.dtype.name}.")
    rank = mask.shape.rank
    if rank is None:
        raise ValueError("tf.ragged.boolean_mask: mask must have a known rank.")
    if rank == 1:
        if isinstance(data, RaggedTensor):
            rows = reshape(array_ops.where(mask), [-1])
            return gather_rows(data, rows)
        return indexing_ops.boolean_mask(data, mask, name=name)
    if not ragged:
        data = convert_to_tensor(data)
    ragged_rank = rank - 1
    data = _as_ragged(data, ragged_rank)
    mask = _as_ragged(mask, min(ragged_rank, data.ragged_rank))
    if mask.ragged_rank > ragged_rank:
        raise ValueError(f"tf.ragged.boolean_mask: mask (ragged rank {mask.ragged_rank}) must "
                         f"be a prefix of data's shape; got mask of rank {rank}.")
    _check_prefix(mask, data)
    return _mask_level(data, mask)


def _check_prefix(mask, data):
    for s, t in zip(mask.nested_row_splits, data.nested_row_splits):
        u, v = static_value(s), static_value(t)
        if u is not None and v is not None and (u.shape != v.shape or np.any(u != v)):
            raise InvalidArgumentError(
                "tf.ragged.boolean_mask: the mask's row lengths must match data's; got row "
                f"splits {u.tolist()} for the mask and {v.tolist()} for data.")


def where(condition, x=None, y=None, name=None):
    """Elementwise choice between x and y by condition, or the coordinates of True entries."""
    if x is None and y is None:
        if not isinstance(condition, RaggedTensor):
            return array_ops.where(condition, name=name)
        sparse = to_sparse(condition)
        return indexing_ops.gather(sparse.indices, reshape(array_ops.where(sparse.values), [-1]),
                                   name=name)
    if x is None or y is None:
        raise ValueError("tf.where: give both x and y, or neither.")
    return apply_elementwise(lambda c, a, b: array_ops.where(c, a, b, name=name),
                             [condition, x, y], "tf.where")


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Rows `indices` of a ragged `params` (axis 0), or a dense params gathered by ragged
    indices."""
    if axis not in (None, 0) or batch_dims != 0:
        raise ValueError(f"tf.gather on a RaggedTensor supports axis=0 and batch_dims=0, got "
                         f"axis={axis}, batch_dims={batch_dims}; gather the flat values with "
                         "tf.ragged.map_flat_values instead.")
    if isinstance(indices, RaggedTensor):
        if isinstance(params, RaggedTensor):
            return indices.with_flat_values(gather(params, indices.flat_values))
        return indices.with_flat_values(indexing_ops.gather(params, indices.flat_values,
                                                            name=name))
    indices = convert_to_tensor(indices, dtype_hint=dtypes.int64)
    if indices.shape.rank == 0:
        return getitem(params, indices)
    flat = gather_rows(params, reshape(indices, [-1]))
    for width in reversed(indices.shape.as_list()[1:]):
        flat = factories.from_uniform_row_length(RaggedTensor, flat, width, validate=False)
    return flat
