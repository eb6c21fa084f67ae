"""Joining ragged tensors: concat and stack (tf.concat / tf.stack on ragged inputs, and
tf.ragged.stack), and tf.ragged.stack_dynamic_partitions.

Inputs are first made alike: dense ones become ragged (RaggedTensor.from_tensor) and every
input is raised to the largest ragged rank (its flat values split into uniform rows). Then, for
inputs r_1..r_k with n_j rows each:

    concat, axis 0:   the values one after another; splits concat(s_1, s_2[1:] + s_1[-1], ...)
    stack, axis 0:    the same over the inputs each wrapped as one row (splits [0, n_j])
    stack, axis 1:    (all n_j = n) rows interleaved, row i of r_j at position i k + j of the
                      axis-0 concatenation, then grouped k to a row (a uniform dimension)
    concat, axis 1:   stack along axis 1, then dimensions 1 and 2 merged (row i joins r_j[i])
    deeper axes:      the same on the values, when the outer partitions agree

stack_dynamic_partitions puts data[j] in row partitions[j] (order kept): a stable sort of the
partition ids gives the values, a count of each id the row lengths.
"""
from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.ragged_tensor import RaggedTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from .. import array_ops
from ..creation_ops import range as range_
from ..histogram_ops import bincount
from ..indexing_ops import gather
from ..math_ops import cast
from ..reshape_ops import reshape
from ..sort_ops import argsort
from . import factories
from .dense_conversions import from_tensor
from .elementwise import same_partitions
from .indexing import gather_rows
from .merge_dims import merge_dims
from .partition_queries import nrows

__all__ = ["concat", "stack", "stack_dynamic_partitions"]


def _raise_rank(rt, target):
    if not isinstance(rt, RaggedTensor):
        return from_tensor(RaggedTensor, rt, ragged_rank=target)
    if rt.ragged_rank == target:
        return rt
    flat = rt.flat_values
    return rt.with_flat_values(from_tensor(RaggedTensor, flat, ragged_rank=target - rt.ragged_rank,
                                           row_splits_dtype=rt.row_splits.dtype))


def _alike(values, fn):
    values = [v if isinstance(v, RaggedTensor) else convert_to_tensor(v) for v in values]
    if not values:
        raise ValueError(f"{fn}: values must be a non-empty list of tensors.")
    ragged = [v for v in values if isinstance(v, RaggedTensor)]
    target = max([r.ragged_rank for r in ragged] + [1])
    dtypes_ = {r.row_splits.dtype for r in ragged}
    if len(dtypes_) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible "
                         f"dtypes ({fn}).")
    return [_raise_rank(v, target) for v in values]


def _axis(axis, rank, fn):
    axis = int(static_value(convert_to_tensor(axis)) if not isinstance(axis, int) else axis)
    if axis < 0:
        if rank is None:
            raise ValueError(f"{fn}: a negative axis needs inputs of known rank.")
        axis += rank
    if rank is not None and not 0 <= axis < rank:
        raise ValueError(f"{fn}: axis {axis} is out of range for rank {rank}.")
    return axis


def _concat_rows(rts, name=None):
    """The rows of rts one after another (axis 0), at every ragged level."""
    splits = [rts[0].row_splits]
    for rt in rts[1:]:
        splits.append(rt.row_splits[1:] + splits[-1][-1])
    values = [rt.values for rt in rts]
    joined = _concat_rows(values) if isinstance(values[0], RaggedTensor) else \
        array_ops.concat(values, 0)
    return factories.wrap(joined, array_ops.concat(splits, 0, name=name or "concat"),
                          fn="concat", validate=False)


def _one_row(rt):
    n = nrows(rt)
    zero = cast(0, n.dtype)
    return factories.wrap(rt, array_ops.stack([zero, n]), fn="stack", validate=False)


def _stack_alike(rts, axis, fn, name=None):
    if axis == 0:
        return _concat_rows([_one_row(rt) for rt in rts], name)
    if axis == 1:
        k, n = len(rts), nrows(rts[0])
        joined = _concat_rows(rts)
        order = reshape(range_(k, dtype=n.dtype)[None, :] * n + range_(n, dtype=n.dtype)[:, None],
                        [-1])
        return factories.from_uniform_row_length(RaggedTensor, gather_rows(joined, order), k,
                                                 validate=False, name=name)
    return _on_values(rts, lambda values: _dispatch_stack(values, axis - 1, fn), fn)


def _on_values(rts, join, fn):
    for other in rts[1:]:
        same_partitions(rts[0], other, fn)
    return rts[0].with_values(join([rt.values for rt in rts]))


def _dispatch_stack(values, axis, fn):
    if isinstance(values[0], RaggedTensor):
        return _stack_alike(values, axis, fn)
    return array_ops.stack(values, axis)


def stack(values, axis=0, name=None):
    """The inputs (ragged or dense, one rank) stacked along a new dimension `axis`."""
    rts = _alike(values, "tf.ragged.stack")
    rank = rts[0].shape.rank
    return _stack_alike(rts, _axis(axis, None if rank is None else rank + 1, "tf.stack"),
                        "tf.stack", name)


def concat(values, axis, name=None):
    """The inputs (ragged or dense, one rank) joined along `axis`."""
    rts = _alike(values, "tf.concat")
    axis = _axis(axis, rts[0].shape.rank, "tf.concat")
    if axis == 0:
        return _concat_rows(rts, name)
    if axis == 1:
        return merge_dims(_stack_alike(rts, 1, "tf.concat"), 1, 2)
    return _on_values(rts, lambda v: _concat_values(v, axis - 1), "tf.concat")


def _concat_values(values, axis):
    if isinstance(values[0], RaggedTensor):
        return concat(values, axis)
    return array_ops.concat(values, axis)


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row p holds the entries data[j] with partitions[j] = p, in their order."""
    partitions = convert_to_tensor(partitions, dtype_hint=dtypes.int32)
    if not partitions.dtype.is_integer or partitions.shape.rank not in (None, 1):
        raise ValueError("tf.ragged.stack_dynamic_partitions: partitions must be an integer "
                         f"vector, got {partitions.dtype.name} of shape {partitions.shape}.")
    known, count = static_value(partitions), int(num_partitions)
    if known is not None and known.size and (known.min() < 0 or known.max() >= count):
        raise InvalidArgumentError(
            f"tf.ragged.stack_dynamic_partitions: partitions must be in [0, {count}), got "
            f"{known.tolist()}.")
    ids = cast(partitions, data.row_splits.dtype if isinstance(data, RaggedTensor) else
               partitions.dtype if partitions.dtype in (dtypes.int32, dtypes.int64) else
               dtypes.int64)
    order = argsort(ids, stable=True)
    lengths = bincount(ids, minlength=count, maxlength=count, dtype=ids.dtype)
    values = gather_rows(data, order) if isinstance(data, RaggedTensor) else \
        gather(convert_to_tensor(data), order)
    return factories.from_row_lengths(RaggedTensor, values, lengths, validate=False, name=name)
