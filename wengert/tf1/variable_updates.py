"""TensorFlow 1's sparse updates of a variable (`tf.compat.v1.scatter_update(ref, indices,
updates)` and its family) and `count_up_to`, as ops that write the variable and return its new
value (in a graph, Session.run performs the write when the result is fetched).

With r = ref's value, i = indices (any shape) and u = updates of shape i.shape + r.shape[1:]:

    scatter_update   r[i] = u                    (a row named twice gets one of its updates)
    scatter_add/sub  r[k] += / -= sum of the u whose index is k
    scatter_mul/div  r[k] *= / /= product of the u whose index is k
    scatter_max/min  r[k] = max / min(r[k], every u whose index is k)

The nd forms take indices whose last axis indexes r's leading axes (`tensor_scatter_nd_*`'s
rule); `batch_scatter_update` updates r[b..., i[b..., j]] = u[b..., j] per batch b.
`count_up_to(ref, limit)` returns ref's value and adds one to it, or raises OutOfRangeError once
the value reached `limit`. `use_locking` is accepted: every update here is atomic already (the
variable's own lock), so it changes nothing.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import OutOfRangeError
from ..framework.tensor import convert_to_tensor
from ..graph.graph import control_dependencies
from ..ops import math_ops
from ..ops.array_ops import concat, identity, stack
from ..ops.creation_ops import range as _range
from ..ops.reshape_ops import expand_dims
from ..ops.broadcast_ops import broadcast_to
from ..ops.io.script import numpy_function
from ..ops.query_ops import shape as shape_of
from ..ops.scatter_ops import (tensor_scatter_nd_add, tensor_scatter_nd_sub,
                               tensor_scatter_nd_update)
from ..ops.segment_ops import (unsorted_segment_max, unsorted_segment_min, unsorted_segment_prod,
                               unsorted_segment_sum)
from ..ops.shape_ops import meshgrid

__all__ = ["scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
           "scatter_max", "scatter_min", "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub",
           "batch_scatter_update", "count_up_to"]


def _variable(ref, who):
    if not hasattr(ref, "assign_add"):
        raise TypeError(f"tf.compat.v1.{who}: ref must be a variable, got "
                        f"{type(ref).__name__}; only variables can be updated in place.")
    return ref


def _rows(ref, indices, updates, who):
    """(value, indices, updates) checked: updates.shape == indices.shape + ref.shape[1:]."""
    _variable(ref, who)
    indices = convert_to_tensor(indices)
    updates = convert_to_tensor(updates, dtype=ref.dtype)
    if not indices.dtype.is_integer:
        raise TypeError(f"tf.compat.v1.{who}: indices must be int32 or int64, got "
                        f"{indices.dtype.name}.")
    want = indices.shape.concatenate(ref.shape[1:])
    if updates.shape.rank is not None and want.rank is not None and \
            updates.shape.rank != 0 and not want.is_compatible_with(updates.shape):
        raise ValueError(f"tf.compat.v1.{who}: updates of shape {updates.shape} do not match "
                         f"indices.shape + ref.shape[1:] = {want} (ref '{ref.name}' has shape "
                         f"{ref.shape}, indices {indices.shape}).")
    if updates.shape.rank == 0:
        updates = broadcast_to(updates, concat([shape_of(indices), shape_of(ref)[1:]], 0))
    return ref.read_value(), indices, updates


def _segments(kind, ref, indices, updates, use_locking, name):
    value, indices, updates = _rows(ref, indices, updates, f"scatter_{kind}")
    rows = ref.shape[0]
    reduce, combine = _COMBINE[kind]
    merged = reduce(updates, indices, rows)
    return ref.assign(combine(value, merged), use_locking=use_locking, name=name)


_COMBINE = {
    "add": (unsorted_segment_sum, math_ops.add), "sub": (unsorted_segment_sum, math_ops.subtract),
    "mul": (unsorted_segment_prod, math_ops.multiply),
    "div": (unsorted_segment_prod, math_ops.divide),
    "max": (unsorted_segment_max, math_ops.maximum),
    "min": (unsorted_segment_min, math_ops.minimum)}


def scatter_update(ref, indices, updates, use_locking=True, name=None):
    """ref[indices] = updates; returns ref's new value."""
    value, indices, updates = _rows(ref, indices, updates, "scatter_update")
    new = tensor_scatter_nd_update(value, expand_dims(indices, -1), updates)
    return ref.assign(new, use_locking=use_locking, name=name)


def scatter_add(ref, indices, updates, use_locking=False, name=None):
    """ref[indices] += updates (repeated indices add up)."""
    return _segments("add", ref, indices, updates, use_locking, name)


def scatter_sub(ref, indices, updates, use_locking=False, name=None):
    """ref[indices] -= updates (repeated indices add up)."""
    return _segments("sub", ref, indices, updates, use_locking, name)


def scatter_mul(ref, indices, updates, use_locking=False, name=None):
    """ref[indices] *= updates (repeated indices multiply)."""
    return _segments("mul", ref, indices, updates, use_locking, name)


def scatter_div(ref, indices, updates, use_locking=False, name=None):
    """ref[indices] /= updates (repeated indices divide by each)."""
    return _segments("div", ref, indices, updates, use_locking, name)


def scatter_max(ref, indices, updates, use_locking=False, name=None):
    """ref[indices] = maximum(ref[indices], updates)."""
    return _segments("max", ref, indices, updates, use_locking, name)


def scatter_min(ref, indices, updates, use_locking=False, name=None):
    """ref[indices] = minimum(ref[indices], updates)."""
    return _segments("min", ref, indices, updates, use_locking, name)


def _nd(update, ref, indices, updates, use_locking, name, who):
    _variable(ref, who)
    updates = convert_to_tensor(updates, dtype=ref.dtype)
    new = update(ref.read_value(), convert_to_tensor(indices), updates)
    return ref.assign(new, use_locking=use_locking, name=name)


def scatter_nd_update(ref, indices, updates, use_locking=True, name=None):
    """ref[indices[..., :]] = updates, indices' last axis indexing ref's leading axes."""
    return _nd(tensor_scatter_nd_update, ref, indices, updates, use_locking, name,
               "scatter_nd_update")


def scatter_nd_add(ref, indices, updates, use_locking=False, name=None):
    """ref[indices[..., :]] += updates."""
    return _nd(tensor_scatter_nd_add, ref, indices, updates, use_locking, name, "scatter_nd_add")


def scatter_nd_sub(ref, indices, updates, use_locking=False, name=None):
    """ref[indices[..., :]] -= updates."""
    return _nd(tensor_scatter_nd_sub, ref, indices, updates, use_locking, name, "scatter_nd_sub")


def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
    """ref[b..., indices[b..., j]] = updates[b..., j] for every batch position b."""
    _variable(ref, "batch_scatter_update")
    indices = convert_to_tensor(indices)
    rank = indices.shape.rank
    if rank is None or rank < 1:
        raise ValueError("tf.compat.v1.batch_scatter_update: indices must have a known rank of "
                         f"at least 1, got shape {indices.shape}.")
    dims = shape_of(indices, out_type=indices.dtype)
    grids = meshgrid(*[_range(dims[k], dtype=indices.dtype) for k in range(rank)],
                     indexing="ij")
    nd = stack([*grids[:rank - 1], indices], axis=-1)
    return _nd(tensor_scatter_nd_update, ref, nd, updates, use_locking, name,
               "batch_scatter_update")


def count_up_to(ref, limit, name=None):
    """ref's value before adding one to it; OutOfRangeError once it reached `limit`."""
    _variable(ref, "count_up_to")
    if ref.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"tf.compat.v1.count_up_to: ref must be int32 or int64, got "
                        f"{ref.dtype.name} ('{ref.name}').")
    limit = int(limit)

    def below(value):
        if value >= limit:
            raise OutOfRangeError(f"Reached limit of {limit}")
        return value

    old = numpy_function(below, [ref.read_value()], ref.dtype, name=name or "CountUpTo")
    if state.graph is None:
        ref.assign_add(np.array(1, ref.dtype.as_numpy_dtype))
        return old
    old.set_shape([])
    with control_dependencies([old]):
        step = ref.assign_add(np.array(1, ref.dtype.as_numpy_dtype))
    with control_dependencies([step]):
        return identity(old)
