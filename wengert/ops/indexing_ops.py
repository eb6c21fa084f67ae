"""Indexing ops: gather, gather_nd, scatter_nd, boolean_mask, reverse, and `x[...]` (slices
themselves, Slice and StridedSlice, live in slice_ops and are re-exported here).

Each selects or moves elements, so each gradient puts the incoming gradient back where its
elements came from, into zeros of the input's shape:
- gather(params, indices): output element j is params[indices[j]], so d params is a scatter-add
  of the gradient rows to rows `indices` (`GatherGrad`; repeated indices add up). Its own
  gradient is the gather again, which gives second order. Along axis 0 without batch dims (the
  embedding case) the rule returns that scatter unevaluated, as `IndexedSlices(gradient rows,
  indices, params' shape)` (framework/indexed_slices.py); the reverse pass densifies it with the
  same GatherGrad when a dense gradient is needed.
- gather_nd / scatter_nd: the same pair with index tuples; each is the other's gradient.
- reverse: the same reverse. Indices and masks get no gradient.

The gradient ops that build zeros of the input's shape (GatherGrad, ScatterNd, StridedSliceGrad)
take that shape from an attribute when it is fully known (eagerly it always is), or else from the
forward input itself, passed as an extra "like" input whose shape the kernel reads when the graph
runs.

`getitem` is `Tensor.__getitem__` (installs.py installs it): ints, slices (any step), Ellipsis
and `newaxis` make one `StridedSlice` op (a NumPy view); integer scalar tensors serve as ints
and slice bounds (in a graph, ones known only when it runs are read then: `x[i]` with a loop
counter); a list or int tensor on one axis gathers along it; a bool mask applies
`boolean_mask`. Unlike NumPy, gather raises on an index outside [0, size), as TensorFlow does
on CPU.
"""
import builtins

import numpy as np

from ..framework.registry import linear, linear_in
from ..framework import dtypes
from ..framework.context import state
from ..framework.dispatch import dispatchable
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .shape_rules import batch_rank, static_shape
from .broadcast_ops import broadcast_to
from .reshape_ops import reshape
from .array_ops import WHERE_INDICES, concat, identity, stack, where
from .bad_indices import clamped, ignores_bad_indices, valid_tuples, zero_where_bad
from .creation_ops import range as range_, zeros
from .query_ops import shape as shape_of
from .shape_rules import (UnknownWhileBuilding, axis_tuple, check_allowed,
                          check_distinct, check_index_dtype, int_tuple, normalize_axis, prod,
                          shape_source)
from .segment_kernels import scatter_add
from .slice_ops import (_FULL, SLICE, STRIDED_SLICE, STRIDED_SLICE_GRAD,  # noqa: F401
                        SpecBuilder, slice, strided_slice)  # (re-exported)

__all__ = ["gather", "gather_nd", "scatter_nd", "slice", "strided_slice", "boolean_mask",
           "reverse"]

_pyslice = builtins.slice  # this module exports `slice`
INT64_MAX, INT64_MIN = np.iinfo(np.int64).max, np.iinfo(np.int64).min  # ONNX Slice's open ends
_pyrange = builtins.range


_check_index_dtype = check_index_dtype


def _check_range(op_type, indices, size, axis):
    """TensorFlow raises (NumPy would wrap negatives): name the bad index and the valid range."""
    if indices.size == 0 or (indices.min() >= 0 and indices.max() < size):
        return
    position = tuple(int(i) for i in np.argwhere((indices < 0) | (indices >= size))[0])
    raise InvalidArgumentError(
        f"{op_type}: indices{list(position)} = {int(indices[position])} is not in [0, {size}): "
        f"axis {axis} of params has size {size}, so valid indices are 0 to {size - 1}.")


# -- gather and its scatter-add gradient ---------------------------------------------------------
def _batched(params_shape, indices, axis, batch_dims):
    """Views for batched gathers: batch dims flattened to one, gathered axis moved to 1."""
    count = prod(params_shape[:batch_dims])
    idx = indices.reshape((count,) + indices.shape[batch_dims:])
    rows = np.arange(count).reshape((count,) + (1,) * (idx.ndim - 1))
    return count, idx, rows, axis - batch_dims + 1


def _gather_kernel(params, indices, axis, batch_dims):
    _check_range("GatherV2", indices, params.shape[axis], axis)
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    count, idx, rows, moved = _batched(params.shape, indices, axis, batch_dims)
    flat = params.reshape((count,) + params.shape[batch_dims:])
    picked = np.moveaxis(flat, moved, 1)[rows, idx]  # (count, I..., P_between..., rest...)
    n_idx, n_between = idx.ndim - 1, moved - 1
    order = ([0] + list(_pyrange(1 + n_idx, 1 + n_idx + n_between)) +
             list(_pyrange(1, 1 + n_idx)) + list(_pyrange(1 + n_idx + n_between, picked.ndim)))
    picked = picked.transpose(order)
    return picked.reshape(params.shape[:batch_dims] + picked.shape[1:])


def _gather_rule(params, indices, axis, batch_dims):
    _check_index_dtype(indices)
    p, i = params.shape, indices.shape
    if p.rank is None or i.rank is None:
        return TensorShape(None), params.dtype
    if batch_dims > axis or batch_dims > i.rank:
        raise InvalidArgumentError(f"batch_dims ({batch_dims}) must be <= axis ({axis}) and <= "
                                   f"the rank of indices (shape {i}).")
    if not p[:batch_dims].is_compatible_with(i[:batch_dims]):
        raise InvalidArgumentError(f"params shape {p} and indices shape {i} must agree in "
                                   f"the first batch_dims={batch_dims} dimensions.")
    return TensorShape(tuple(p[:axis]) + tuple(i[batch_dims:]) + tuple(p[axis + 1:])), \
        params.dtype


def _gather_grad(op, grad):
    params, indices = op.inputs
    attrs = {"params_shape": static_shape(params), "axis": op.get_attr("axis"),
             "batch_dims": op.get_attr("batch_dims")}
    if attrs["axis"] == 0 and attrs["batch_dims"] == 0:
        slices = _sparse_gather_grad(params, indices, grad, attrs["params_shape"])
        if slices is not None:
            return slices, None
    if attrs["params_shape"] is None or None in attrs["params_shape"]:
        attrs["params_shape"] = None  # graph mode: read params' shape when the graph runs
        return execute(GATHER_GRAD, (grad, indices, params), attrs), None
    return execute(GATHER_GRAD, (grad, indices), attrs), None


def _sparse_gather_grad(params, indices, grad, params_shape):
    """The embedding case (axis 0, no batch dims): IndexedSlices of the gradient rows, flattened
    to values [N] + params.shape[1:] and indices [N], as TensorFlow gives. None when the row
    shape is not known when the graph is built (the dense GatherGrad then reads it at run time)."""
    if params_shape is None or None in params_shape:
        row = static_shape(params)
        if row is None or None in row[1:]:
            return None
        params_shape, like = None, params
    else:
        like = None
        row = params_shape
    values = reshape(grad, (-1,) + tuple(row[1:]))
    flat = indices if indices.ndim == 1 else reshape(indices, (-1,))
    return IndexedSlices._of(values, flat, params_shape, like)


def _gather_grad_kernel(grad, indices, like=None, *, params_shape, axis, batch_dims):
    params_shape = like.shape if like is not None else params_shape
    if axis < 0:  # built while the rank was unknown: counted from the end
        axis, batch_dims = axis + len(params_shape), batch_dims % len(params_shape)
    if batch_dims == 0 and axis == 0 and indices.size:  # the embedding case: rows into rows
        _check_range("GatherGrad", indices, params_shape[0], 0)
        return scatter_add(indices.reshape(-1), grad.reshape((indices.size,) + tuple(
            params_shape[1:])), params_shape[0])
    out = np.zeros(params_shape, grad.dtype)
    if batch_dims == 0:
        moved = np.moveaxis(grad, list(_pyrange(axis, axis + indices.ndim)),
                            list(_pyrange(indices.ndim)))
        np.add.at(np.moveaxis(out, axis, 0), indices, moved)
        return out
    count, idx, rows, moved_axis = _batched(params_shape, indices, axis, batch_dims)
    target = np.moveaxis(out.reshape((count,) + params_shape[batch_dims:]), moved_axis, 1)
    g = grad.reshape((count,) + grad.shape[batch_dims:])
    n_between = moved_axis - 1
    g = np.moveaxis(g, list(_pyrange(1 + n_between, 1 + n_between + idx.ndim - 1)),
                    list(_pyrange(1, idx.ndim)))
    np.add.at(target, (rows, idx), g)
    return out


def _gather_grad_rule(grad, indices, like=None, *, params_shape, **_):
    return (like.shape if like is not None else TensorShape(params_shape)), grad.dtype


def _gather_grad_grad(op, grad):
    again = gather(grad, op.inputs[1], axis=op.get_attr("axis"),
                   batch_dims=op.get_attr("batch_dims"))
    return (again, None) + (None,) * (len(op.inputs) - 2)


def _plain_gather(op):
    return op.get_attr("batch_dims") == 0 and len(op.inputs) == 2


def _gather_batched(op, grad):
    """Dense (GatherGrad), not IndexedSlices: the rows of the gradient carry the batch."""
    params, indices = op.inputs
    nb = batch_rank(grad, op.outputs[0])
    attrs = {"params_shape": tuple(grad.shape[:nb]) + tuple(params.shape),
             "axis": op.get_attr("axis") + nb, "batch_dims": 0}
    return execute(GATHER_GRAD, (grad, indices), attrs), None


def _gather_onnx(ctx, op, params, indices):
    if op.attrs["batch_dims"]:
        ctx.fail("gather with batch_dims > 0 has no ONNX lowering yet; gather per batch "
                 "row with batch_dims=0 (tf.gather_nd) instead.")
    return ctx.node("Gather", [params, indices], axis=op.attrs["axis"])


GATHER = defop("GatherV2", _gather_kernel, shape=_gather_rule, grad=_gather_grad, jvp=linear, batch=_gather_batched, batch_accepts=_plain_gather,
               onnx=_gather_onnx,
               raw=lambda params, indices, axis, batch_dims=0, name=None: gather(
                   params, indices, axis=axis, batch_dims=batch_dims, name=name))
def _gather_grad_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    return gather(grad, op.inputs[1], axis=op.get_attr("axis") + nb), None


GATHER_GRAD = defop("GatherGrad", _gather_grad_kernel, shape=_gather_grad_rule,
                    grad=_gather_grad_grad, jvp=linear_in(0), batch=_gather_grad_batched, batch_accepts=_plain_gather)


@dispatchable
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of `params` along `axis` at `indices`: output shape is params.shape[:axis] +
    indices.shape[batch_dims:] + params.shape[axis + 1:]. With batch_dims=b, the first b
    dimensions of params and indices are batch dimensions gathered pairwise. validate_indices
    is TensorFlow's deprecated flag that does nothing: indices are always checked on a CPU."""
    del validate_indices
    params = convert_to_tensor(params)
    indices = convert_to_tensor(indices)
    if batch_dims < 0:
        if indices.shape.rank is None:
            raise InvalidArgumentError(f"gather: batch_dims={batch_dims} counts from the end of "
                                       "the indices' shape, whose rank is unknown.")
        batch_dims += indices.ndim
    axis = batch_dims if axis is None else normalize_axis(axis, params.ndim, "gather: axis")
    return execute(GATHER, (params, indices), {"axis": axis, "batch_dims": batch_dims}, name)


# -- gather_nd and scatter_nd --------------------------------------------------------------------
def _nd_key(indices, shape, op_type):
    depth = indices.shape[-1]
    for k in _pyrange(depth):
        _check_range(op_type, indices[..., k], shape[k], k)
    return tuple(np.moveaxis(indices, -1, 0))


def _gather_nd_rule(params, indices):
    _check_index_dtype(indices)
    depth = indices.shape[-1] if indices.shape.rank else None
    if indices.shape.rank == 0 or (depth is not None and params.shape.rank is not None
                                   and depth > params.shape.rank):
        raise InvalidArgumentError(f"indices of shape {indices.shape} must have rank >= 1 and a "
                                   f"last dimension <= the rank of params (shape "
                                   f"{params.shape}).")
    if depth is None or params.shape.rank is None or indices.shape.rank is None:
        return TensorShape(None), params.dtype
    return TensorShape(tuple(indices.shape[:-1]) + tuple(params.shape[depth:])), params.dtype


def _scatter_nd_kernel(indices, updates, like=None, *, shape):
    shape = like.shape if like is not None else shape
    out = np.zeros(shape, updates.dtype)
    np.add.at(out, _nd_key(indices, shape, "ScatterNd"), updates)
    return out


def _scatter_nd_rule(indices, updates, like=None, *, shape):
    _check_index_dtype(indices)
    return (like.shape if like is not None else TensorShape(shape)), updates.dtype


def _gather_nd_grad(op, grad):
    params, indices = op.inputs
    shape = static_shape(params)
    if shape is None or None in shape:  # graph mode: zeros like params when the graph runs
        return execute(SCATTER_ND, (indices, grad, params), {"shape": None}), None
    return execute(SCATTER_ND, (indices, grad), {"shape": shape}), None


GATHER_ND = defop("GatherNd", lambda p, i: p[_nd_key(i, p.shape, "GatherNd")],
                  shape=_gather_nd_rule, grad=_gather_nd_grad, jvp=linear,
                  onnx=lambda ctx, op, p, i: ctx.node("GatherND", [p, ctx.cast(i, np.int64)]),
                  raw=lambda params, indices, bad_indices_policy="", name=None: gather_nd(
                      params, indices, name=name, bad_indices_policy=bad_indices_policy))
SCATTER_ND = defop("ScatterNd", _scatter_nd_kernel, shape=_scatter_nd_rule,
                   grad=lambda op, grad: (None, gather_nd(grad, op.inputs[0]))
                   + (None,) * (len(op.inputs) - 2), jvp=linear_in(1),
                   raw=lambda indices, updates, shape, bad_indices_policy="", name=None:
                   scatter_nd(indices, updates, shape, bad_indices_policy, name),
                   tf_inputs=("indices", "updates"))  # a third input is a tensor of the shape


def gather_nd(params, indices, batch_dims=0, name=None, bad_indices_policy=""):
    """Elements or slices of `params` at the index tuples in the last axis of `indices`. With
    batch_dims = b, the first b dimensions of params and indices are batch dimensions: each
    batch element's index tuples address its own slice of params. bad_indices_policy="IGNORE"
    gives zeros for tuples outside params (bad_indices.py)."""
    params, indices = convert_to_tensor(params), convert_to_tensor(indices)
    if ignores_bad_indices(bad_indices_policy, "gather_nd"):
        if batch_dims:
            raise NotImplementedError("gather_nd: bad_indices_policy='IGNORE' with batch_dims="
                                      f"{batch_dims} is not supported by wengert; use "
                                      "batch_dims=0 (put the batch position in the tuples).")
        valid = valid_tuples(indices, params)
        out = execute(GATHER_ND, (params, clamped(indices, valid)))
        return zero_where_bad(out, valid) if name is None else identity(
            zero_where_bad(out, valid), name)
    if batch_dims:
        return _batched_gather_nd(params, indices, int(batch_dims), name)
    return execute(GATHER_ND, (params, indices), name=name)


def drop_bad_tuples(indices, updates, target):
    """The index tuples inside `target`'s shape and their updates (bad_indices_policy IGNORE)."""
    valid = valid_tuples(indices, target)
    return boolean_mask(indices, valid), boolean_mask(updates, valid)


def _batched_gather_nd(params, indices, batch_dims, name):
    """gather_nd over the flattened batch: each index tuple gets its batch element's position
    as a leading coordinate, then one GatherNd (whose gradient, a ScatterNd, serves as is)."""
    p_shape, i_shape = static_shape(params), static_shape(indices)
    if p_shape is None or i_shape is None or i_shape[-1] is None:
        raise InvalidArgumentError(f"gather_nd with batch_dims needs params and indices of known "
                                   f"rank and the last dimension of indices known, got shapes "
                                   f"{params.shape} and {indices.shape}.")
    if not 0 < batch_dims < len(i_shape) or batch_dims >= len(p_shape) or not \
            params.shape[:batch_dims].is_compatible_with(indices.shape[:batch_dims]):
        raise InvalidArgumentError(f"gather_nd: batch_dims={batch_dims} must be smaller than the "
                                   f"ranks of params {params.shape} and indices {indices.shape}, "
                                   "whose first batch_dims dimensions must agree.")
    if None in p_shape[:batch_dims] + i_shape:  # sizes known only when the graph runs
        return _runtime_batched_gather_nd(params, indices, batch_dims, name)
    batch = prod(p_shape[:batch_dims])
    depth = i_shape[-1]
    tuples = prod(i_shape[batch_dims:-1])
    flat_params = reshape(params, (batch,) + tuple(p_shape[batch_dims:]))
    flat_indices = reshape(indices, (batch, tuples, depth))
    position = np.broadcast_to(np.arange(batch).reshape(batch, 1, 1), (batch, tuples, 1))
    full = concat([convert_to_tensor(position.astype(indices.dtype.as_numpy_dtype)),
                   flat_indices], axis=-1)
    out = execute(GATHER_ND, (flat_params, full))
    return reshape(out, tuple(i_shape[:-1]) + tuple(p_shape[batch_dims + depth:]), name=name)


def _runtime_batched_gather_nd(params, indices, batch_dims, name):
    """The same steps with the sizes computed when the graph runs (tf.shape)."""
    dtype = indices.dtype
    p_dims, i_dims = shape_of(params, out_type=dtype), shape_of(indices, out_type=dtype)
    depth = indices.shape[-1]
    batch = p_dims[0]
    for k in builtins.range(1, batch_dims):
        batch = batch * p_dims[k]
    one = convert_to_tensor(1, dtype)
    flat_params = reshape(params, concat([stack([batch]), p_dims[batch_dims:]], 0))
    flat_indices = reshape(indices, stack([batch, convert_to_tensor(-1, dtype),
                                           convert_to_tensor(depth, dtype)]))
    tuples = shape_of(flat_indices, out_type=dtype)[1]
    position = broadcast_to(reshape(range_(batch, dtype=dtype), stack([batch, one, one])),
                            stack([batch, tuples, one]))
    out = execute(GATHER_ND, (flat_params, concat([position, flat_indices], axis=-1)))
    return reshape(out, concat([i_dims[:-1], p_dims[batch_dims + depth:]], 0), name=name)


def scatter_nd(indices, updates, shape, bad_indices_policy="", name=None):
    """Zeros of `shape` with `updates` added at the index tuples in `indices` (repeats add). In
    a graph, `shape` may be computed and known only when it runs (tf.shape(t), a SparseTensor's
    dense_shape).
    bad_indices_policy="IGNORE" drops the updates of tuples outside `shape`."""
    indices, updates = convert_to_tensor(indices), convert_to_tensor(updates)
    if ignores_bad_indices(bad_indices_policy, "scatter_nd"):
        indices, updates = drop_bad_tuples(indices, updates, zeros(shape, dtypes.bool))
    try:
        shape = int_tuple(shape, "scatter_nd: shape")
    except UnknownWhileBuilding:
        like = shape_source(shape)
        if like is None:  # a shape computed while the graph runs: a tensor of that shape
            like = zeros(shape, dtypes.bool)
        return execute(SCATTER_ND, (indices, updates, like), {"shape": None}, name)
    return execute(SCATTER_ND, (indices, updates), {"shape": shape}, name)


# -- reverse ------------------------------------------------------------------------------------
def _reverse_rule(x, axis):
    for a in axis:
        normalize_axis(a, x.shape.rank)
    return x.shape, x.dtype


def _reverse_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    return reverse(grad, tuple(a if a < 0 else a + nb for a in op.get_attr("axis")))


def _reverse_onnx(ctx, op, x):
    axes = list(op.attrs["axis"])
    if not axes:
        return ctx.node("Identity", [x])
    return ctx.node("Slice", [x, ctx.int64s([-1] * len(axes)), ctx.int64s([INT64_MIN] * len(axes)),
                              ctx.int64s(axes), ctx.int64s([-1] * len(axes))])


REVERSE = defop("ReverseV2", lambda x, axis: np.flip(x, axis), shape=_reverse_rule,
                grad=lambda op, grad: reverse(grad, op.get_attr("axis")), jvp=linear, batch=_reverse_batched,
                onnx=_reverse_onnx, returns_view=True,
                raw=lambda tensor, axis, name=None: reverse(tensor, axis, name))


def reverse(tensor, axis, name=None):
    """`tensor` with the order of its elements reversed along each axis in `axis`."""
    tensor = convert_to_tensor(tensor)
    given = axis_tuple(axis, "reverse: axis")
    if tensor.shape.rank == 0:  # TensorFlow's ReverseV2 returns a scalar as it is, any axis
        return execute(REVERSE, (tensor,), {"axis": ()}, name)
    axes = tuple(normalize_axis(a, tensor.ndim, "reverse: axis") for a in given)
    check_distinct(axes, given, "reverse: axis")
    return execute(REVERSE, (tensor,), {"axis": axes}, name)



# -- x[...] -----------------------------------------------------------------------------------
def getitem(tensor, key):
    """`tensor[key]`, as TensorFlow and NumPy read it (see the module docstring)."""
    name = None if state.graph is None else "strided_slice"  # TensorFlow's name in a graph
    if type(key) is int:  # the common x[i]
        return execute(STRIDED_SLICE, (tensor,), {"spec": (key,)}, name)
    key = key if type(key) is tuple else (key,)
    spec, advanced, builder = [], None, SpecBuilder()
    for k in key:
        entry = builder.entry(k)
        if entry is NotImplemented:
            if advanced is not None:
                raise TypeError("Only one tensor, list or mask index is supported per "
                                f"indexing expression, got key {key!r}; index in two steps.")
            index = convert_to_tensor(k)
            advanced = (len(spec), index)
            spec.extend([_FULL] * (index.ndim if index.dtype.is_bool else 1))
            continue
        spec.append(entry)
    spec, extra = tuple(spec), tuple(builder.extra)
    if advanced is None:
        return execute(STRIDED_SLICE, (tensor,) + extra, {"spec": spec}, name)
    out, rank = tensor, tensor.shape.rank
    position, index = advanced
    width = index.ndim if index.dtype.is_bool else 1
    if rank is None and Ellipsis in spec[:position] and Ellipsis in spec[position + width:]:
        raise InvalidArgumentError(f"getitem: a tensor index between two Ellipses needs the "
                                   f"tensor's rank, which is unknown (key {key!r}).")
    if rank is None or len(spec) > rank or any(s != _FULL for s in spec):
        out = execute(STRIDED_SLICE, (tensor,) + extra, {"spec": spec}, name)
    if rank is None and Ellipsis not in spec[:position]:
        axis = _output_axis(spec, position, 0)  # counted from the start
    else:
        axis = _output_axis(spec, position, rank, width)
    if index.dtype.is_bool:
        return boolean_mask(out, index, axis=axis)
    return gather(out, index, axis=axis)


def _output_axis(spec, position, rank, width=1):
    """The output axis on which the entry at `position` of `spec` (`width` entries wide: a
    mask's rank) lands; counted from the end when the rank is unknown."""
    if rank is None:
        after = spec[position + width:]
        return -(width + sum(1 for s in after if type(s) is not int and s is not Ellipsis))
    consumed = sum(1 for s in spec if s is not None and s is not Ellipsis)
    axis = 0
    for s in spec[:position]:
        if s is Ellipsis:
            axis += rank - consumed
        elif type(s) is not int:
            axis += 1
    return axis


# -- boolean_mask -----------------------------------------------------------------------------
@dispatchable
def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The entries of `tensor` where the bool `mask` (covering dimensions axis..axis+k-1) is
    True (a numeric mask: nonzero), flattened into one dimension: a reshape, a `where` and a
    gather."""
    tensor = convert_to_tensor(tensor)
    mask = convert_to_tensor(mask, dtype_hint=dtypes.bool)
    if not mask.dtype.is_bool:  # TensorFlow's where(mask) keeps nonzero numbers (NaN too)
        check_allowed(WHERE_INDICES, mask)
    axis = 0 if axis is None else normalize_axis(axis, tensor.ndim, "boolean_mask: axis")
    k = mask.ndim
    if k == 0 or not tensor.shape[axis:axis + k].is_compatible_with(mask.shape):
        raise InvalidArgumentError(f"boolean_mask: mask shape {mask.shape} must be non-scalar "
                                   f"and match dimensions {axis} to {axis + k - 1} of the "
                                   f"tensor's shape {tensor.shape}.")
    flat = tensor
    if k > 1 and tensor.shape.rank is None:  # the masked dimensions' count is not known
        if axis:
            raise InvalidArgumentError(
                f"boolean_mask: a {k}-D mask at axis {axis} needs the tensor's rank, which is "
                "unknown; give the placeholder a shape with a known rank.")
        return gather_nd(tensor, where(mask), name=None if name == "boolean_mask" else name)
    if k > 1:  # the masked dimensions become one
        dims = tuple(tensor.shape)
        middle = tensor.shape[axis:axis + k].merge_with(mask.shape).num_elements()
        dims = dims[:axis] + (middle,) + dims[axis + k:]
        if dims.count(None) > 1:
            raise InvalidArgumentError(f"boolean_mask: a {k}-D mask over a tensor of shape "
                                       f"{tensor.shape} needs all but one of its dimensions "
                                       "known; reshape the tensor and mask to 1-D masks first.")
        flat = reshape(tensor, tuple(-1 if d is None else d for d in dims))
    positions = reshape(where(mask if k == 1 else reshape(mask, (-1,))), (-1,))
    return gather(flat, positions, axis=axis, name=None if name == "boolean_mask" else name)
