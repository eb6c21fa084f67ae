"""Embedding lookups: `nn.embedding_lookup`, rows of an embedding table with a sparse gradient, and
`nn.embedding_lookup_sparse` / `nn.safe_embedding_lookup_sparse`, bags of embedding rows.

embedding_lookup(params, ids) is gather(params, ids) along axis 0: output[i...] = params[ids[i...]].
Its gradient with respect to params is `IndexedSlices(g rows, ids, params.shape)` (see
framework/indexed_slices.py): only the looked-up rows, which the optimizers apply by scatter.
A list of tables (shards) is joined along axis 0 first ("div" partitioning: shard 0 holds the first
rows), and `max_norm` rescales each looked-up row to L2 norm at most max_norm, as TensorFlow does.

Row r of a rank-2 SparseTensor of ids holds the ids v[j] of its entries (indices[j] = (r, k)),
with optional weights w[j] of the same layout. The output has one row per bag:

    sum:    out[r] = sum_j w[j] params[v[j]]
    mean:   out[r] = sum_j w[j] params[v[j]] / sum_j w[j]
    sqrtn:  out[r] = sum_j w[j] params[v[j]] / sqrt(sum_j w[j]^2)

(w = 1 without weights; the sums run over r's entries; x / 0 gives 0, as TensorFlow's
div_no_nan). As in TensorFlow, the output has max(r) + 1 rows: an empty row inside gets zeros
and trailing empty rows are absent. Without weights or max_norm it is one sparse segment
reduction of params (TensorFlow's fast path); otherwise the unique ids are looked up (with
`max_norm` clipping) and gathered back. Everything is composed from gather, unique and segment
ops, so the gradient w.r.t. params (and weights) comes from their rules.

safe_embedding_lookup_sparse first flattens ids of rank > 2 to [prod(leading dims), last], drops
entries with ids < 0 (and, unless combiner is 'sum', with weights <= 0), gives every empty row one
entry (default_id, weight 1), looks up, zeroes the rows that were empty when default_id is None,
and reshapes back to the leading dimensions.
"""
import numpy as np

from ...framework import dtypes
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ..array_ops import concat, stack, where
from ..binary_math_ops import divide_no_nan
from ..broadcast_ops import ones_like, zeros_like
from ..creation_ops import fill, shape as shape_of
from ..indexing_ops import boolean_mask, gather
from ..math_ops import cast, divide, equal, greater, greater_equal, logical_and
from ..reduce_ops import reduce_prod, reduce_sum
from ..reshape_ops import expand_dims, reshape
from ..scan_ops import cumprod
from ..segment_ops import (segment_sum, sparse_segment_mean, sparse_segment_sqrt_n,
                           sparse_segment_sum, unsorted_segment_sum)
from ..sort_ops import unique
from ..sparse.conversions import check_sparse, reorder
from ..unary_ops import sqrt
from .clip import clip_by_norm

__all__ = ["embedding_lookup", "embedding_lookup_sparse", "safe_embedding_lookup_sparse"]


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows `ids` of `params` (a tensor or variable of shape [vocabulary, ...], or a list of
    such shards): output shape ids.shape + params.shape[1:]."""
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("embedding_lookup: params must be a tensor or a non-empty list of "
                             "tensors.")
        params = params[0] if len(params) == 1 else concat(list(params), 0)
    ids = convert_to_tensor(ids)
    if not ids.dtype.is_integer:
        raise TypeError(f"embedding_lookup: ids must be int32 or int64, got {ids.dtype.name} "
                        f"(shape {ids.shape}); cast them with cast(ids, tf.int32).")
    rows = gather(params, ids, name=name)
    if max_norm is not None:
        # each embedding (all axes after the ids' ones) as a whole, as TensorFlow's _clip
        rows = clip_by_norm(rows, max_norm, axes=list(range(ids.shape.rank, rows.shape.rank)))
    return rows


_SPARSE_SEGMENT = {"sum": sparse_segment_sum, "mean": sparse_segment_mean,
                   "sqrtn": sparse_segment_sqrt_n}


def _table(params):
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("embedding_lookup_sparse: params must be a tensor or a non-empty "
                             "list of tensors.")
        return params[0] if len(params) == 1 else concat(list(params), 0)
    return params


def _combiner(combiner, fn):
    combiner = "mean" if combiner is None else combiner
    if combiner not in _SPARSE_SEGMENT:
        raise ValueError(f"{fn}: combiner must be one of 'mean', 'sqrtn' or 'sum', got "
                         f"{combiner!r}.")
    return combiner


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                            allow_fast_lookup=False):
    """One combined embedding per row of the rank-2 SparseTensor `sp_ids` (see the module
    docstring): output [max row + 1] + params.shape[1:]. sp_weights: None or a SparseTensor of
    the same layout. Rows must be in row-major order (tf.sparse.reorder)."""
    del allow_fast_lookup  # the fast path is taken whenever it gives the same numbers
    fn = "embedding_lookup_sparse"
    combiner = _combiner(combiner, fn)
    check_sparse(sp_ids, f"{fn}: sp_ids")
    if sp_weights is not None:
        check_sparse(sp_weights, f"{fn}: sp_weights")
        if not sp_ids.values.shape.is_compatible_with(sp_weights.values.shape):
            raise ValueError(f"{fn}: sp_ids and sp_weights must hold the same entries, got "
                             f"{sp_ids.values.shape[0]} ids and {sp_weights.values.shape[0]} "
                             "weights.")
    ids = sp_ids.values
    if not ids.dtype.is_integer:
        raise TypeError(f"{fn}: sp_ids must hold int32 or int64 ids, got {ids.dtype.name}.")
    segment_ids = sp_ids.indices[:, 0]
    table = _table(params)
    if sp_weights is None and max_norm is None:
        return _SPARSE_SEGMENT[combiner](table, ids, segment_ids, name=name)
    unique_ids, idx = unique(ids)
    rows = embedding_lookup(table, unique_ids, max_norm=max_norm)
    if sp_weights is None:
        return _SPARSE_SEGMENT[combiner](rows, idx, segment_ids, name=name)
    rows = gather(rows, idx)
    weights = cast(sp_weights.values, rows.dtype) if sp_weights.dtype != rows.dtype else \
        sp_weights.values
    for _ in range(rows.shape.rank - 1):
        weights = expand_dims(weights, -1)
    total = segment_sum(rows * weights, segment_ids)
    if combiner == "sum":
        return total
    if combiner == "mean":
        return divide_no_nan(total, segment_sum(weights, segment_ids), name=name)
    squares = segment_sum(weights * weights, segment_ids)
    # sqrt at 1 where the sum of squares is 0 (an empty row, or zero weights: total is 0 there
    # too), so the value is div_no_nan's and no derivative of sqrt at 0 appears
    return divide(total, sqrt(where(greater(squares, 0), squares, ones_like(squares))), name=name)


def _flatten_rows(sp):
    """sp of rank r >= 2 as rank 2: rows numbered row-major over the first r - 1 dimensions."""
    if sp.dense_shape.shape[0] == 2:
        return sp
    lead = sp.dense_shape[:-1]
    strides = cumprod(lead, exclusive=True, reverse=True)
    row = reduce_sum(sp.indices[:, :-1] * strides, axis=1)
    return SparseTensor(stack([row, sp.indices[:, -1]], axis=1), sp.values,
                        stack([reduce_prod(lead), sp.dense_shape[-1]]))


def _retain(sp, keep):
    return SparseTensor(boolean_mask(sp.indices, keep), boolean_mask(sp.values, keep),
                        sp.dense_shape)


def _fill_empty_rows(sp, default, weights):
    """Each row of sp with no entry gets one at column 0 holding `default` (weight 1)."""
    num_rows = sp.dense_shape[0]
    rows = sp.indices[:, 0]
    counts = unsorted_segment_sum(fill(shape_of(rows), np.int64(1)), rows, num_rows)
    empty = equal(counts, 0)
    new_rows = where(empty)[:, 0]
    added = stack([new_rows, zeros_like(new_rows)], axis=1)
    indices = concat([sp.indices, added], 0)
    filled = reorder(SparseTensor(indices, concat(
        [sp.values, fill(shape_of(new_rows), cast(default, sp.values.dtype))], 0),
        sp.dense_shape))
    if weights is not None:
        weights = reorder(SparseTensor(indices, concat(
            [weights.values, fill(shape_of(new_rows), cast(1, weights.values.dtype))], 0),
            sp.dense_shape))
    return filled, weights, empty


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, max_norm=None, name=None,
                                 allow_fast_lookup=False):
    """embedding_lookup_sparse that tolerates invalid ids (< 0), non-positive weights and empty
    rows (see the module docstring): output sparse_ids.dense_shape[:-1] + embedding dims."""
    fn = "safe_embedding_lookup_sparse"
    combiner = _combiner(combiner, fn)
    if embedding_weights is None or (isinstance(embedding_weights, (list, tuple))
                                     and not embedding_weights):
        raise ValueError(f"{fn}: missing embedding_weights.")
    check_sparse(sparse_ids, f"{fn}: sparse_ids")
    if sparse_weights is not None:
        check_sparse(sparse_weights, f"{fn}: sparse_weights")
    original_shape = sparse_ids.dense_shape
    ids = _flatten_rows(sparse_ids)
    weights = None if sparse_weights is None else SparseTensor(ids.indices, sparse_weights.values,
                                                               ids.dense_shape)
    keep = greater_equal(ids.values, cast(0, ids.values.dtype))
    if weights is not None and combiner != "sum":
        keep = logical_and(keep, greater(weights.values, cast(0, weights.values.dtype)))
    ids = _retain(ids, keep)
    weights = None if weights is None else _retain(weights, keep)
    ids, weights, empty = _fill_empty_rows(ids, default_id or 0, weights)
    result = embedding_lookup_sparse(embedding_weights, ids, weights, combiner=combiner,
                                     max_norm=max_norm, allow_fast_lookup=allow_fast_lookup)
    if default_id is None:
        mask = empty
        for _ in range(result.shape.rank - 1):
            mask = expand_dims(mask, -1)
        result = where(mask, zeros_like(result), result)
    out_shape = concat([cast(original_shape[:-1], dtypes.int32),
                        shape_of(result)[1:]], 0)
    return reshape(result, out_shape, name=name)
