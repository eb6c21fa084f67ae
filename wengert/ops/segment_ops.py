"""Segment reductions: segment_sum / mean / max / min / prod (sorted ids), the unsorted_segment_*
forms (any order, negative ids dropped, a given number of segments) and the sparse_segment_*
forms (rows picked by `indices` first).

Output row s reduces the data rows whose segment id is s: out[s] = reduce_{k: ids[k] = s}
data[k]. Segments no row maps to get 0 (sum, mean, and max/min of the sorted forms), 1 (prod),
or the dtype's lowest/highest value (unsorted max/min), as in TensorFlow. Unsorted ids may have
the shape of any leading part of data's shape.

Every op's gradient is the incoming gradient g gathered back to the rows (g[ids[k]], 0 for a
dropped id), times the derivative of the reduction with respect to the row:

    sum: 1       mean: 1 / n_s      max/min: [data_k = out_s] / (number of ties in s)
    prod: out_s / data_k, or, at a zero, the product of the segment's other entries when it is
          the segment's only zero, and 0 where a segment has two zeros (TensorFlow's rule)

So each op states that partial derivative once (`_partial`); the VJP is gather(g) * partial and
the JVP a segment sum of tangent * partial. The sparse forms are linear: their VJP gathers g by
segment and scatter-adds it into data's rows at `indices` (an unsorted segment sum, which is
differentiable again; TensorFlow's SparseSegment*Grad ops are not), scaled by 1/n or 1/sqrt(n).
With sparse_gradient=True (an attribute of the op, as in TensorFlow) the gradient of data is
IndexedSlices instead: one summed row per distinct index, as TensorFlow's SparseSegment*GradV2.
unsorted_segment_mean and unsorted_segment_sqrt_n are an unsorted sum divided by n or sqrt(n).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import defop, linear_in, needs_grad
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .shape_rules import batch_rank
from .broadcast_ops import ones_like, zeros_like
from .reshape_ops import reshape
from .array_ops import concat, where
from .reshape_ops import expand_dims
from .creation_ops import constant_value, shape as shape_of
from .indexing_ops import gather
from .math_ops import cast, divide, equal, greater, greater_equal, maximum
from .segment_kernels import scatter_add, segment_reduce
from .sort_ops import argsort, unique
from .unary_ops import sqrt

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod",
           "unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max",
           "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n",
           "sparse_segment_sum", "sparse_segment_mean", "sparse_segment_sqrt_n"]


# -- kernels ----------------------------------------------------------------------------------
def _limits(dtype):
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.min, info.max


def _reduce(kind, data, ids, num, presorted, sorted_empty):
    """The reduction `kind` of data's rows into `num` segments (ids 1-d, in [0, num))."""
    if kind == "sum":
        return scatter_add(ids, data, num)
    if kind == "mean":
        counts = np.bincount(ids, minlength=num).reshape((num,) + (1,) * (data.ndim - 1))
        total = scatter_add(ids, data, num)
        if data.dtype.kind == "f":
            return total / np.maximum(counts, 1).astype(data.dtype)
        return np.trunc(total / np.maximum(counts, 1)).astype(data.dtype)
    lowest, highest = _limits(data.dtype)
    ufunc, empty = {"max": (np.maximum, lowest), "min": (np.minimum, highest),
                    "prod": (np.multiply, 1)}[kind]
    out = segment_reduce(ufunc, data, ids, num, empty, presorted)
    if sorted_empty and kind in ("max", "min"):  # the sorted forms leave empty segments at 0
        out[np.bincount(ids, minlength=num) == 0] = 0
    return out


def _check_ids(op_type, ids):
    if ids.dtype.kind not in "iu":
        raise ValueError(f"{op_type}: segment ids must be int32 or int64")


def _sorted_kernel(kind):
    def kernel(data, ids):
        _check_ids("Segment", ids)
        if ids.ndim != 1 or data.ndim == 0 or ids.shape[0] != data.shape[0]:
            raise ValueError(f"segment_ids should be a vector the size of data's first "
                             f"dimension, got shapes {ids.shape} and {data.shape}")
        if ids.size and ids.min() < 0:
            raise ValueError(f"segment id {ids.min()} is out of range: ids must be >= 0")
        if np.any(ids[1:] < ids[:-1]):
            raise ValueError("segment ids are not increasing")
        num = int(ids[-1]) + 1 if ids.size else 0
        return _reduce(kind, data, ids.astype(np.intp), num, True, True)
    return kernel


def _unsorted_kernel(kind):
    def kernel(data, ids, num_segments):
        _check_ids("UnsortedSegment", ids)
        num = int(num_segments)
        if data.shape[:ids.ndim] != ids.shape:
            raise ValueError(f"segment_ids shape {ids.shape} must be a prefix of data's shape "
                             f"{data.shape}")
        flat_ids = ids.reshape(-1).astype(np.intp)
        rows = data.reshape((flat_ids.size,) + data.shape[ids.ndim:])
        if flat_ids.size and flat_ids.max() >= num:
            bad = int(np.argmax(flat_ids >= num))
            raise ValueError(f"segment_ids[{bad}] = {flat_ids[bad]} is out of range [0, {num})")
        keep = flat_ids >= 0
        if not keep.all():
            flat_ids, rows = flat_ids[keep], rows[keep]
        return _reduce(kind, rows, flat_ids, num, False, False)
    return kernel


def _sparse_kernel(kind):
    def kernel(data, indices, ids, num_segments=None, sparse_gradient=False):
        _check_ids("SparseSegment", ids)
        if indices.ndim != 1 or ids.shape != indices.shape:
            raise ValueError(f"indices and segment_ids must be vectors of one length, got "
                             f"shapes {indices.shape} and {ids.shape}")
        if indices.size and (indices.min() < 0 or indices.max() >= data.shape[0]):
            raise ValueError(f"indices must lie in [0, {data.shape[0]}), got values from "
                             f"{indices.min()} to {indices.max()}")
        if np.any(ids[1:] < ids[:-1]) or (ids.size and ids.min() < 0):
            raise ValueError("segment ids are not increasing (or negative)")
        num = int(num_segments) if num_segments is not None else (
            int(ids[-1]) + 1 if ids.size else 0)
        if ids.size and ids.max() >= num:
            raise ValueError(f"segment ids must be < num_segments = {num}")
        ids = ids.astype(np.intp)
        total = scatter_add(ids, data[indices], num)
        if kind == "sum":
            return total
        counts = np.bincount(ids, minlength=num).reshape((num,) + (1,) * (data.ndim - 1))
        scale = np.maximum(counts, 1).astype(data.dtype)
        return total / (scale if kind == "mean" else np.sqrt(scale))
    return kernel


# -- shape rules -----------------------------------------------------------------------------------
def _count_from_ids(ids):
    known = constant_value(ids)
    if known is None:
        return None
    return int(known.max()) + 1 if known.size else 0


def _check_index_dtype(t, what):
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise InvalidArgumentError(f"{what} must be int32 or int64, got {t.dtype.name}.")


def _sorted_rule(data, ids):
    _check_index_dtype(ids, "segment_ids")
    if ids.shape.rank not in (1, None):
        raise InvalidArgumentError(f"segment_ids must be a vector, got shape {ids.shape}.")
    if data.shape.rank is None:
        return TensorShape(None), data.dtype
    return TensorShape([_count_from_ids(ids)] + list(data.shape)[1:]), data.dtype


def _unsorted_rule(data, ids, num_segments):
    _check_index_dtype(ids, "segment_ids")
    known = constant_value(num_segments)
    num = None if known is None else int(known)
    if data.shape.rank is None or ids.shape.rank is None:
        return TensorShape(None), data.dtype
    if not TensorShape(list(data.shape)[:ids.shape.rank]).is_compatible_with(ids.shape):
        raise InvalidArgumentError(f"segment_ids shape {ids.shape} must be a prefix of data's "
                                   f"shape {data.shape}.")
    return TensorShape([num] + list(data.shape)[ids.shape.rank:]), data.dtype


def _sparse_rule(data, indices, ids, num_segments=None, sparse_gradient=False):
    _check_index_dtype(indices, "indices")
    _check_index_dtype(ids, "segment_ids")
    if num_segments is None:
        num = _count_from_ids(ids)
    else:
        known = constant_value(num_segments)
        num = None if known is None else int(known)
    if data.shape.rank is None:
        return TensorShape(None), data.dtype
    return TensorShape([num] + list(data.shape)[1:]), data.dtype


# -- partial derivatives and rules -----------------------------------------------------------------
def _kept(ids, like, nb=0):
    """ids >= 0, with size-1 axes appended to broadcast against `like` (data-shaped, after nb
    leading batch axes)."""
    return _trailing_ones(greater_equal(ids, 0), like, nb + ids.shape.rank)


def _trailing_ones(t, like, lead):
    """t with size-1 axes appended, one per axis of `like` after its first `lead` (read when
    the graph runs if like's rank is unknown)."""
    if like.shape.rank is None:
        tail = ones_like(shape_of(like)[lead:])
        return reshape(t, concat([shape_of(t), tail], 0))
    for _ in range(like.shape.rank - lead):
        t = expand_dims(t, -1)
    return t


def _gather_rows(values, ids, nb=0, drop=True):
    """values[ids] along axis nb (the segment axis), and 0 where an id is negative (a dropped
    row) if `drop`, else values[0] there (for denominators)."""
    gathered = gather(values, maximum(ids, zeros_like(ids)), axis=nb)
    return where(_kept(ids, gathered, nb), gathered, zeros_like(gathered)) if drop else gathered


def _sum_by_segment(values, ids, num):
    return segment_sum(values, ids) if num is None else unsorted_segment_sum(values, ids, num)


def _prod_by_segment(values, ids, num):
    return segment_prod(values, ids) if num is None else unsorted_segment_prod(values, ids, num)


def _partial(kind, data, ids, num, out):
    """d out[ids[k]] / d data[k] as a tensor of data's shape; None for a sum (it is 1)."""
    if kind == "sum":
        return None
    ones = ones_like(data)
    if kind == "mean":
        return _gather_rows(1.0 / maximum(_sum_by_segment(ones, ids, num), 1.0), ids)
    if kind in ("max", "min"):
        selected = cast(equal(data, _gather_rows(out, ids)) & _kept(ids, data), data.dtype)
        ties = _sum_by_segment(selected, ids, num)
        return selected / _gather_rows(maximum(ties, 1.0), ids, drop=False)
    is_zero = equal(data, 0)
    zeros = _sum_by_segment(cast(is_zero, data.dtype), ids, num)
    nonzero = where(is_zero, ones, data)
    lone_zero = where(greater(zeros, 1.0), zeros_like(zeros), _prod_by_segment(nonzero, ids, num))
    return where(is_zero, _gather_rows(lone_zero, ids), _gather_rows(out, ids) / nonzero)


def _declare(op_type, kind, kernel, rule):
    """One segment op: its VJP gather(g) * partial (also batched: the segment axis after the
    batch axes) and its JVP, a segment sum of tangent * partial."""
    def grad(op, g, nb=0):
        data, ids = op.inputs[0], op.inputs[1]
        num = op.inputs[2] if len(op.inputs) == 3 else None
        partial = _partial(kind, data, ids, num, op.outputs[0])
        rows = _gather_rows(g, ids, nb)
        return (rows if partial is None else rows * partial,) + (None,) * (len(op.inputs) - 1)

    def batched(op, g):
        return grad(op, g, batch_rank(g, op.outputs[0]))

    def jvp(primals, tangents, outputs, **_):
        data, ids, t = primals[0], primals[1], tangents[0]
        num = primals[2] if len(primals) == 3 else None
        partial = _partial(kind, data, ids, num, outputs[0])
        return _sum_by_segment(t if partial is None else t * partial, ids, num)

    if rule is _sorted_rule:  # tf.raw_ops: TensorFlow's arguments onto the public function's
        def raw(data, segment_ids, name=None):
            return _sorted(op_def, data, segment_ids, name)
    else:
        def raw(data, segment_ids, num_segments, name=None):
            return _unsorted(op_def, data, segment_ids, num_segments, name)
    op_def = defop(op_type, kernel, shape=rule, grad=grad, jvp=jvp, batch=batched, raw=raw)
    return op_def


SEGMENT_SUM = _declare("SegmentSum", "sum", _sorted_kernel("sum"), _sorted_rule)
SEGMENT_MEAN = _declare("SegmentMean", "mean", _sorted_kernel("mean"), _sorted_rule)
SEGMENT_MAX = _declare("SegmentMax", "max", _sorted_kernel("max"), _sorted_rule)
SEGMENT_MIN = _declare("SegmentMin", "min", _sorted_kernel("min"), _sorted_rule)
SEGMENT_PROD = _declare("SegmentProd", "prod", _sorted_kernel("prod"), _sorted_rule)
UNSORTED_SEGMENT_SUM = _declare("UnsortedSegmentSum", "sum", _unsorted_kernel("sum"),
                                _unsorted_rule)
UNSORTED_SEGMENT_MAX = _declare("UnsortedSegmentMax", "max", _unsorted_kernel("max"),
                                _unsorted_rule)
UNSORTED_SEGMENT_MIN = _declare("UnsortedSegmentMin", "min", _unsorted_kernel("min"),
                                _unsorted_rule)
UNSORTED_SEGMENT_PROD = _declare("UnsortedSegmentProd", "prod", _unsorted_kernel("prod"),
                                 _unsorted_rule)


# -- public functions -------------------------------------------------------------------------------
def _operands(op_type, data, segment_ids):
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    _check_index_dtype(ids, f"{op_type}: segment_ids")
    if data.dtype.is_bool:
        raise InvalidArgumentError(f"{op_type} needs numeric data, got bool; cast it first.")
    return data, ids


def _sorted(op_def, data, segment_ids, name):
    return execute(op_def, _operands(op_def.type, data, segment_ids), name=name)


def _unsorted(op_def, data, segment_ids, num_segments, name):
    data, ids = _operands(op_def.type, data, segment_ids)
    num = convert_to_tensor(num_segments)
    _check_index_dtype(num, f"{op_def.type}: num_segments")
    return execute(op_def, (data, ids, num), name=name)


def segment_sum(data, segment_ids, name=None):
    """Sums of the rows of data sharing a segment id (ids sorted, non-negative)."""
    return _sorted(SEGMENT_SUM, data, segment_ids, name)


def segment_mean(data, segment_ids, name=None):
    """Means of the rows of data sharing a segment id (ids sorted, non-negative)."""
    return _sorted(SEGMENT_MEAN, data, segment_ids, name)


def segment_max(data, segment_ids, name=None):
    """Maxima of the rows sharing a segment id (0 for an empty segment); ties share the
    gradient evenly."""
    return _sorted(SEGMENT_MAX, data, segment_ids, name)


def segment_min(data, segment_ids, name=None):
    """Minima of the rows sharing a segment id (0 for an empty segment)."""
    return _sorted(SEGMENT_MIN, data, segment_ids, name)


def segment_prod(data, segment_ids, name=None):
    """Products of the rows sharing a segment id (1 for an empty segment)."""
    return _sorted(SEGMENT_PROD, data, segment_ids, name)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums into num_segments rows by segment id (any order; negative ids are dropped)."""
    return _unsorted(UNSORTED_SEGMENT_SUM, data, segment_ids, num_segments, name)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """Maxima by segment id (the dtype's lowest value for an empty segment)."""
    return _unsorted(UNSORTED_SEGMENT_MAX, data, segment_ids, num_segments, name)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """Minima by segment id (the dtype's highest value for an empty segment)."""
    return _unsorted(UNSORTED_SEGMENT_MIN, data, segment_ids, num_segments, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """Products by segment id (1 for an empty segment)."""
    return _unsorted(UNSORTED_SEGMENT_PROD, data, segment_ids, num_segments, name)


def _segment_counts(data, segment_ids, num_segments):
    """The number of rows in each segment, shaped to broadcast against the result."""
    data, ids = _operands("UnsortedSegmentSum", data, segment_ids)
    counts = unsorted_segment_sum(ones_like(ids, dtype=data.dtype), ids, num_segments)
    counts = _trailing_ones(counts, data, ids.shape.rank)
    return data, maximum(counts, ones_like(counts))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Means by segment id (0 for an empty segment): the sum over the row count."""
    data, counts = _segment_counts(data, segment_ids, num_segments)
    return divide(unsorted_segment_sum(data, segment_ids, num_segments), counts, name=name)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Sums by segment id divided by sqrt(row count) (0 for an empty segment)."""
    data, counts = _segment_counts(data, segment_ids, num_segments)
    if not data.dtype.is_floating:
        raise InvalidArgumentError(f"unsorted_segment_sqrt_n needs floating-point data, got "
                                   f"{data.dtype.name}.")
    return divide(unsorted_segment_sum(data, segment_ids, num_segments), sqrt(counts),
                  name=name)


# -- sparse segment reductions --------------------------------------------------------------------
def _sparse_grad(kind):
    def grad(op, g):
        data, indices, ids = op.inputs[:3]
        num = op.inputs[3] if len(op.inputs) == 4 else None
        rows = gather(g, ids)
        if kind != "sum":
            counts = maximum(_sum_by_segment(ones_like(ids, dtype=g.dtype), ids, num), 1.0)
            scale = 1.0 / (counts if kind == "mean" else sqrt(counts))
            for _ in range(g.shape.rank - 1):
                scale = expand_dims(scale, -1)
            rows = gather(scale, ids) * rows
        if (op.attrs or {}).get("sparse_gradient"):
            return (_rows_by_index(rows, indices, data),) + (None,) * (len(op.inputs) - 1)
        known = data.shape.rank and data.shape[0]
        rows_in_data = known if known is not None else shape_of(data, out_type=indices.dtype)[0]
        out = unsorted_segment_sum(rows, indices, rows_in_data)
        return (out,) + (None,) * (len(op.inputs) - 1)
    return grad


def _rows_by_index(rows, indices, data):
    """sparse_gradient=True: the gradient as TensorFlow's SparseSegment*GradV2 gives it,
    IndexedSlices of one summed row per distinct index, the indices ascending."""
    distinct, position = unique(indices)
    values = unsorted_segment_sum(rows, position, shape_of(distinct)[0])
    order = argsort(distinct)
    distinct, values = gather(distinct, order), gather(values, order)
    static = data.shape.as_list() if data.shape.is_fully_defined() else None
    return IndexedSlices._of(values, distinct, None if static is None else tuple(static),
                             None if static is not None else data)


def _sparse_declare(op_type, kind):
    if op_type.endswith("WithNumSegments"):  # tf.raw_ops: TensorFlow's arguments
        def raw(data, indices, segment_ids, num_segments, sparse_gradient=False, name=None):
            return _sparse(kind, data, indices, segment_ids, num_segments, name, sparse_gradient)
    else:
        def raw(data, indices, segment_ids, sparse_gradient=False, name=None):
            return _sparse(kind, data, indices, segment_ids, None, name, sparse_gradient)
    return defop(op_type, _sparse_kernel(kind), shape=_sparse_rule, grad=_sparse_grad(kind),
                 jvp=linear_in(0), raw=raw)


SPARSE_SEGMENT_SUM = _sparse_declare("SparseSegmentSum", "sum")
SPARSE_SEGMENT_MEAN = _sparse_declare("SparseSegmentMean", "mean")
SPARSE_SEGMENT_SQRT_N = _sparse_declare("SparseSegmentSqrtN", "sqrtn")
SPARSE_SEGMENT_SUM_NUM = _sparse_declare("SparseSegmentSumWithNumSegments", "sum")
SPARSE_SEGMENT_MEAN_NUM = _sparse_declare("SparseSegmentMeanWithNumSegments", "mean")
SPARSE_SEGMENT_SQRT_N_NUM = _sparse_declare("SparseSegmentSqrtNWithNumSegments", "sqrtn")
_SPARSE = {"sum": (SPARSE_SEGMENT_SUM, SPARSE_SEGMENT_SUM_NUM),
           "mean": (SPARSE_SEGMENT_MEAN, SPARSE_SEGMENT_MEAN_NUM),
           "sqrtn": (SPARSE_SEGMENT_SQRT_N, SPARSE_SEGMENT_SQRT_N_NUM)}


def _sparse(kind, data, indices, segment_ids, num_segments, name, sparse_gradient=False):
    data, ids = _operands("SparseSegment", data, segment_ids)
    if kind != "sum" and not data.dtype.is_floating:
        raise InvalidArgumentError(f"sparse segment {kind} needs floating-point data, got "
                                   f"{data.dtype.name}.")
    indices = convert_to_tensor(indices)
    _check_index_dtype(indices, "indices")
    plain, with_num = _SPARSE[kind]
    attrs = ({"sparse_gradient": True},) if sparse_gradient else ()
    if num_segments is None:
        return execute(plain, (data, indices, ids), *attrs, name=name)
    num = convert_to_tensor(num_segments)
    return execute(with_num, (data, indices, ids, num), *attrs, name=name)


def sparse_segment_sum(data, indices, segment_ids, num_segments=None, name=None,
                       sparse_gradient=False):
    """out[s] = sum of data[indices[k]] over k with segment_ids[k] == s (ids sorted)."""
    return _sparse("sum", data, indices, segment_ids, num_segments, name, sparse_gradient)


def sparse_segment_mean(data, indices, segment_ids, num_segments=None, name=None,
                        sparse_gradient=False):
    """The mean of data[indices[k]] over k with segment_ids[k] == s (ids sorted)."""
    return _sparse("mean", data, indices, segment_ids, num_segments, name, sparse_gradient)


def sparse_segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None,
                          sparse_gradient=False):
    """The sum of data[indices[k]] over segment s divided by sqrt(its size) (ids sorted)."""
    return _sparse("sqrtn", data, indices, segment_ids, num_segments, name, sparse_gradient)
