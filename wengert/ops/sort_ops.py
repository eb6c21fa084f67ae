"""Sorting and selection: top_k (TensorFlow's TopKV2), sort, argsort, searchsorted, unique,
unique_with_counts, in_top_k, approx_max_k / approx_min_k.

top_k(x, k) returns the k largest entries along the last axis, in descending order, and their
positions; equal values keep their order (the lower index first), and NaN counts as the largest.
Its values are a selection, values[..., j] = x[..., indices[..., j]], so the gradient puts the
incoming gradient back at the selected positions and 0 elsewhere (a scatter of g along the last
axis: GatherGrad with batch dimensions, whose own gradient is the gather again, so second order
works); the indices get none. The JVP is the same selection of the tangent.

The kernel finds the k largest without sorting whole rows: for k <= 16 by k passes of argmax
(each covering its pick), otherwise np.partition gives the k-th largest value t, every entry
above t is taken, and of the entries equal to t the ones with the lowest indices; only those k
are then sorted (stably, by value). Large k sorts the rows.

sort and argsort are top_k with k = the axis length, as in TensorFlow: the axis is moved last,
and an ascending sort is a descending sort of -x (of -x - 1 for signed and max - x for unsigned
integers, which cannot overflow). So tf.sort's gradient is TopKV2's. argsort returns the
indices; both are stable. searchsorted (LowerBound / UpperBound), unique, unique_with_counts and
in_top_k return integers or booleans: they are registered as having no gradient.
"""
import collections

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.op_dtype_constraints import fixed_operand
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.context import op_scope
from .creation_ops import constant_value, shape as shape_of
from .indexing_ops import GATHER_GRAD, gather
from .einsum_ops import swap_with_last
from .math_ops import negative, subtract
from .shape_rules import axis_int

__all__ = ["top_k", "sort", "argsort", "searchsorted", "unique", "unique_with_counts",
           "in_top_k", "approx_max_k", "approx_min_k"]


# -- top_k ------------------------------------------------------------------------------------------
def _descending_key(rows):
    """A key whose ascending order is the descending order of `rows`, NaN first."""
    if rows.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            return np.where(np.isnan(rows), -np.inf, -rows)
    return -rows.astype(np.int64)


_REPEATED_ARGMAX_MAX_K = 16


def _top_k_by_argmax(rows, k):
    """For small k: k passes of argmax, each taking the row's largest remaining entry (the
    first of equal ones, NaN before all) and covering it with the lowest value. None when a row
    ran into that lowest value itself (then the general path decides)."""
    lowest = -np.inf if rows.dtype.kind == "f" else np.iinfo(rows.dtype).min
    work = rows.copy()
    picked = np.empty((rows.shape[0], k), np.int64)
    every_row = np.arange(rows.shape[0])
    for j in range(k):
        best = np.argmax(work, axis=1)
        if np.any(work[every_row, best] == lowest):
            return None
        picked[:, j] = best
        work[every_row, best] = lowest
    return picked


def _stable_argsort(key):
    """np.argsort(key, axis=1, kind="stable"): NumPy's vectorized quicksort when no two keys of
    a row are equal (then every order is the stable one), else the slower merge sort."""
    order = np.argsort(key, axis=1)
    ordered = np.take_along_axis(key, order, axis=1)
    if np.any(ordered[:, 1:] == ordered[:, :-1]):
        return np.argsort(key, axis=1, kind="stable")
    return order


def _top_k_rows(rows, k):
    """Column indices of the k largest entries of each row of a 2-d array, best first (equal
    entries in index order, NaN first)."""
    n = rows.shape[1]
    if k == 0 or n == 0:
        return np.zeros((rows.shape[0], k), np.int64)
    if k <= _REPEATED_ARGMAX_MAX_K and rows.dtype != np.int64:
        picked = _top_k_by_argmax(rows, k)
        if picked is not None:
            return picked
    key = _descending_key(rows)
    if 4 * k >= n:
        return _stable_argsort(key)[:, :k]
    threshold = np.partition(key, k - 1, axis=1)[:, k - 1:k]   # the k-th best key per row
    chosen = key <= threshold
    surplus = chosen.sum(axis=1, keepdims=True) - k
    if surplus.any():  # ties at the threshold: keep the lowest-index ones
        tied = key == threshold
        chosen &= ~tied | (np.cumsum(tied, axis=1) <= tied.sum(axis=1, keepdims=True) - surplus)
    columns = np.nonzero(chosen)[1].reshape(-1, k)          # in index order
    order = np.argsort(np.take_along_axis(key, columns, axis=1), axis=1, kind="stable")
    return np.take_along_axis(columns, order, axis=1)


def _top_k_kernel(x, k, sorted, index_type):  # noqa: A002 (TensorFlow's attribute name)
    k = int(k)
    if x.ndim == 0 or k < 0 or k > x.shape[-1]:
        raise ValueError(f"input must have at least k = {k} columns in its last dimension")
    rows = x.reshape(-1, x.shape[-1])
    indices = _top_k_rows(rows, k)
    values = np.take_along_axis(rows, indices, axis=1)
    out_shape = x.shape[:-1] + (k,)
    return values.reshape(out_shape), indices.astype(index_type).reshape(out_shape)


def _top_k_rule(x, k, sorted, index_type):  # noqa: A002
    known = constant_value(k)
    if x.shape.rank == 0:
        raise InvalidArgumentError("top_k needs an input of rank >= 1.")
    if known is not None and x.shape.rank is not None and x.shape[-1] is not None \
            and not 0 <= int(known) <= x.shape[-1]:
        raise InvalidArgumentError(f"input must have at least k = {int(known)} columns in its "
                                   f"last dimension, got shape {x.shape}.")
    width = None if known is None else int(known)
    shape = TensorShape(None) if x.shape.rank is None else TensorShape(
        list(x.shape)[:-1] + [width])
    return [(shape, x.dtype), (shape, dtypes.as_dtype(index_type))]


def _selection_attrs(op):
    rank = op.inputs[0].shape.rank
    if rank is None:  # the last axis, found when the graph runs (params_shape read from x)
        return {"params_shape": (None,), "axis": -1, "batch_dims": -1}
    return {"params_shape": tuple(op.inputs[0].shape), "axis": rank - 1, "batch_dims": rank - 1}


def _top_k_grad(op, grad_values, grad_indices=None):
    x, indices = op.inputs[0], op.outputs[1]
    attrs = _selection_attrs(op)
    if None in attrs["params_shape"]:  # graph mode: GatherGrad reads x's shape when it runs
        attrs["params_shape"] = None
        return execute(GATHER_GRAD, (grad_values, indices, x), attrs), None
    return execute(GATHER_GRAD, (grad_values, indices), attrs), None


def _top_k_jvp(primals, tangents, outputs, **_):
    t = tangents[0]
    if t is None:
        return None, None
    rank = primals[0].shape.rank
    return gather(t, outputs[1], axis=rank - 1, batch_dims=rank - 1), None


def _top_k_onnx(ctx, op, x, k):
    k = ctx.node("Reshape", [ctx.cast(k, np.int64), ctx.int64s([1])])
    values, indices = ctx.node("TopK", [x, k], outputs=2, axis=-1, largest=1, sorted=1)
    return values, ctx.cast(indices, op.attrs["index_type"])


TOP_K = defop("TopKV2", _top_k_kernel, shape=_top_k_rule, grad=_top_k_grad, jvp=_top_k_jvp,
              num_outputs=2, onnx=_top_k_onnx,
              raw=lambda input, k, sorted=True, index_type=dtypes.int32, name=None: top_k(
                  input, k, sorted, index_type, name))


# TensorFlow's named results: `top_k(x, 2).indices`, `unique(x).idx`.
TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    """The k largest entries along the last axis (descending; ties keep index order) and their
    indices. The values are differentiable; the indices are not."""
    x = convert_to_tensor(input)
    if x.dtype.is_bool:
        raise TypeError("top_k: input must be numeric, got bool.")
    index_type = dtypes.as_dtype(index_type)
    if index_type not in (dtypes.int16, dtypes.int32, dtypes.int64):
        raise TypeError(f"top_k: index_type must be int16, int32 or int64, got {index_type.name}.")
    k = convert_to_tensor(k, dtype=None if hasattr(k, "dtype") else dtypes.int32)
    return TopKV2(*execute(TOP_K, (x, k), {"sorted": bool(sorted),
                                           "index_type": index_type.as_numpy_dtype}, name))


# -- sort, argsort -----------------------------------------------------------------------------------
def _sort_along(values, axis, direction, return_indices):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"direction must be 'ASCENDING' or 'DESCENDING', got {direction!r}.")
    x = convert_to_tensor(values)
    rank = x.shape.rank
    axis = axis_int(axis, "sort: axis")
    if rank == 0:
        raise ValueError(f"sort: values must have rank >= 1, got shape {x.shape}.")
    if rank is not None and not -rank <= axis < rank:
        raise InvalidArgumentError(f"sort: axis must be in [{-rank}, {rank}), got {axis!r}.")
    key = swap_with_last(x, axis)
    ascending = direction == "ASCENDING"
    if ascending:
        key = _flip_order(key)
    width = key.shape[-1]
    k = width if width is not None else _last_dim(key)
    sorted_values, indices = top_k(key, k)
    out = indices if return_indices else (_flip_order(sorted_values) if ascending
                                          else sorted_values)
    return swap_with_last(out, axis)


def _flip_order(x):
    """A value order reversed without overflow: max - x (unsigned), -x - 1 (signed), -x."""
    dtype = x.dtype
    if dtype.is_integer and dtype.min == 0:
        return subtract(np.asarray(dtype.max, dtype.as_numpy_dtype), x)
    if dtype.is_integer:
        return subtract(negative(x), np.asarray(1, dtype.as_numpy_dtype))
    return negative(x)


def _last_dim(x):
    return shape_of(x)[-1]


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`values` sorted along `axis` (a stable sort; differentiable, through TopKV2)."""
    with op_scope(name, "sort"):
        return _sort_along(values, axis, direction, return_indices=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The indices that sort `values` along `axis` (int32; always stable: equal values keep
    their order, which is what stable=True asks and one of the orders stable=False allows)."""
    del stable
    with op_scope(name, "argsort"):
        return _sort_along(values, axis, direction, return_indices=True)


# -- searchsorted ---------------------------------------------------------------------------------
def _bound_kernel(side):
    def kernel(sorted_inputs, values, out_type):
        if sorted_inputs.ndim == 0 or sorted_inputs.shape[:-1] != values.shape[:-1]:
            raise ValueError("sorted_sequence and values must agree in all but their last "
                             "dimension")
        rows = sorted_inputs.reshape(-1, sorted_inputs.shape[-1])
        wanted = values.reshape(rows.shape[0], -1)
        out = np.empty(wanted.shape, np.int64)
        for r in range(rows.shape[0]):
            out[r] = np.searchsorted(rows[r], wanted[r], side=side)
        return out.astype(out_type).reshape(values.shape)
    return kernel


def _bound_rule(sorted_inputs, values, out_type):
    if sorted_inputs.dtype != values.dtype:
        raise InvalidArgumentError(f"sorted_sequence and values must share a dtype, got "
                                   f"{sorted_inputs.dtype.name} and {values.dtype.name}.")
    return values.shape, dtypes.as_dtype(out_type)


LOWER_BOUND = defop("LowerBound", _bound_kernel("left"), shape=_bound_rule, grad=None,
                    raw=lambda sorted_inputs, values, out_type=dtypes.int32, name=None:
                    searchsorted(sorted_inputs, values, "left", out_type, name))
UPPER_BOUND = defop("UpperBound", _bound_kernel("right"), shape=_bound_rule, grad=None,
                    raw=lambda sorted_inputs, values, out_type=dtypes.int32, name=None:
                    searchsorted(sorted_inputs, values, "right", out_type, name))


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """For each value, the index at which it would be inserted into the last axis of
    sorted_sequence to keep it sorted: before equal entries (side="left") or after them."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}.")
    out_type = dtypes.as_dtype(out_type)
    if out_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"searchsorted: out_type must be int32 or int64, got {out_type.name}.")
    sequence = convert_to_tensor(sorted_sequence)
    values = convert_to_tensor(values, dtype=sequence.dtype) if not hasattr(
        values, "dtype") else convert_to_tensor(values)
    op_def = LOWER_BOUND if side == "left" else UPPER_BOUND
    return execute(op_def, (sequence, values), {"out_type": out_type.as_numpy_dtype}, name)


# -- unique -----------------------------------------------------------------------------------------
def _unique_parts(x, out_idx):
    if x.ndim != 1:
        raise ValueError(f"unique needs a 1-d tensor, got shape {x.shape}")
    _, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                          return_counts=True)
    order = np.argsort(first, kind="stable")          # values in order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return (x[first[order]], rank[inverse.reshape(-1)].astype(out_idx),
            counts[order].astype(out_idx))


def _unique_rule(x, out_idx):
    if x.shape.rank not in (1, None):
        raise InvalidArgumentError(f"unique needs a 1-d tensor, got shape {x.shape}.")
    index = dtypes.as_dtype(out_idx)
    return [(TensorShape([None]), x.dtype), (x.shape, index)]


UNIQUE = defop("Unique", lambda x, out_idx: _unique_parts(x, out_idx)[:2], shape=_unique_rule,
               grad=None, num_outputs=2,
               raw=lambda x, out_idx=dtypes.int32, name=None: unique(x, out_idx, name))
UNIQUE_WITH_COUNTS = defop(
    "UniqueWithCounts", _unique_parts, grad=None, num_outputs=3,
    shape=lambda x, out_idx: _unique_rule(x, out_idx) + [(TensorShape([None]),
                                                          dtypes.as_dtype(out_idx))],
    raw=lambda x, out_idx=dtypes.int32, name=None: unique_with_counts(x, out_idx, name))


def _unique(op_def, x, out_idx, name):
    out_idx = dtypes.as_dtype(out_idx)
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"unique: out_idx must be int32 or int64, got {out_idx.name}.")
    return execute(op_def, (convert_to_tensor(x),), {"out_idx": out_idx.as_numpy_dtype}, name)


def unique(x, out_idx=dtypes.int32, name=None):
    """(y, idx): the distinct values of the 1-d x in order of first appearance, and for each
    element of x the position of its value in y (x = gather(y, idx))."""
    return Unique(*_unique(UNIQUE, x, out_idx, name))


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """(y, idx, count): as `unique`, plus how often each value of y occurs in x."""
    return UniqueWithCounts(*_unique(UNIQUE_WITH_COUNTS, x, out_idx, name))


# -- in_top_k -----------------------------------------------------------------------------------------
def _in_top_k_kernel(predictions, targets, k):
    k = int(k)
    rows = np.arange(predictions.shape[0])
    valid = (targets >= 0) & (targets < predictions.shape[1])
    picked = predictions[rows, np.where(valid, targets, 0)]
    finite = np.isfinite(predictions).all(axis=1) if predictions.dtype.kind == "f" else True
    better = (predictions > picked[:, None]).sum(axis=1)
    return valid & finite & (better < k)


def _in_top_k_rule(predictions, targets, k):
    if predictions.shape.rank not in (2, None) or targets.shape.rank not in (1, None):
        raise InvalidArgumentError(f"in_top_k needs predictions [batch, classes] and targets "
                                   f"[batch], got shapes {predictions.shape} and "
                                   f"{targets.shape}.")
    return targets.shape, dtypes.bool


IN_TOP_K = defop("InTopKV2", _in_top_k_kernel, shape=_in_top_k_rule, grad=None,
                 raw=lambda predictions, targets, k, name=None: in_top_k(
                     targets, predictions, k, name))


def in_top_k(targets, predictions, k, name=None):
    """Whether each target class is among the k largest predictions of its row. Classes tied
    with the k-th largest value count as in the top k; a row with a non-finite prediction, or a
    target out of range, gives False."""
    predictions = fixed_operand(predictions, dtypes.float32)  # TensorFlow's InTopKV2: float32
    targets = convert_to_tensor(targets)
    if not targets.dtype.is_integer:
        raise TypeError(f"in_top_k: targets must be int32 or int64, got {targets.dtype.name}.")
    k = convert_to_tensor(k, dtype=targets.dtype) if not hasattr(k, "dtype") else k
    return execute(IN_TOP_K, (predictions, targets, k), name=name)


# -- approx_max_k, approx_min_k (exact here, as on CPU) --------------------------------------------------
def _approx_k(operand, k, reduction_dimension, largest):
    x = convert_to_tensor(operand)
    rank = x.shape.rank
    axis = axis_int(reduction_dimension, "approx_max_k: reduction_dimension")
    if rank is not None and not -rank <= axis < rank:
        raise InvalidArgumentError(f"approx_max_k: reduction_dimension must be in [{-rank}, "
                                   f"{rank}), got {axis}.")
    key = swap_with_last(x, axis)
    values, indices = top_k(key if largest else _flip_order(key), k)
    if not largest:
        values = _flip_order(values)
    values, indices = swap_with_last(values, axis), swap_with_last(indices, axis)
    return values, indices


def _tpu_options(recall_target, reduction_input_size_override, aggregate_to_topk):
    """approx_max_k's and approx_min_k's options for TPUs, where the search is approximate.
    On a CPU TensorFlow computes the exact top k whatever they say (an exact answer meets any
    recall target), and so does this."""
    del recall_target, reduction_input_size_override, aggregate_to_topk


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """(values, indices) of the k largest entries along reduction_dimension. TensorFlow
    approximates this on TPUs; here, as on CPUs, it is exact (top_k)."""
    _tpu_options(recall_target, reduction_input_size_override, aggregate_to_topk)
    with op_scope(name, "approx_max_k"):
        return _approx_k(operand, k, reduction_dimension, largest=True)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """(values, indices) of the k smallest entries along reduction_dimension (exact)."""
    _tpu_options(recall_target, reduction_input_size_override, aggregate_to_topk)
    with op_scope(name, "approx_min_k"):
        return _approx_k(operand, k, reduction_dimension, largest=False)
