"""Joining and selecting: where, concat, stack, unstack, split, identity and stop_gradient.

Gradients of pure data movement are data movement the other way (reshapes and transposes, whose
gradients are the same kind, are in reshape_ops.py): the gradient of a concat a split into the inputs' sizes (and of a split a concat), of a stack an unstack (and of an
unstack a stack). `where` (Select) routes each element's gradient to the branch it was taken
from: the condition gets None, x gets g where the condition held and 0 elsewhere, y the rest.
`stop_gradient` is the identity with no gradient.

A gradient that must restore the input's shape takes it from an attribute when the shape is fully
known (eagerly it always is); in a graph with unknown dimensions it passes the forward input as
an extra "like" input instead, and the kernel reads its shape when the graph runs (Reshape and
SplitV take an optional like input).

Kernels return NumPy views where NumPy can (split, unstack): tensors are immutable, so sharing
memory is safe and these ops cost O(1). Gathering, slicing and reversing live in `indexing_ops`;
creation ops (fill, zeros, eye, range, one_hot, tile, pad) and shape queries in `creation_ops`.
"""
import builtins

import numpy as np

from ..framework.registry import linear, needs_grad
from ..framework import dtypes
from ..framework.dispatch import dispatchable
from ..framework.errors import InvalidArgumentError
from ..framework.execute import binary_operands, execute
from ..framework.op_dtype_constraints import check_fixed_argument, check_fixed_value
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor, holds_tensor
from ..framework.tensor_shape import TensorShape
from . import shape_rules
from .broadcast_ops import batch_zero_filled, zeros_like
from .reshape_ops import has_one_input
from .shape_rules import axis_int, batch_rank, int_tuple, normalize_axis

__all__ = ["where", "concat", "stack", "unstack", "split", "identity", "stop_gradient", "newaxis"]

_pyrange = builtins.range  # this module exports `range`
newaxis = None


# -- where (Select) ------------------------------------------------------------------------------
def _select_rule(condition, x, y):
    if not condition.dtype.is_bool:
        raise InvalidArgumentError(f"condition must be bool, got {condition.dtype.name}.")
    shape_rules.check_same_dtype(x, y)
    out = shape_rules.broadcast_shapes(shape_rules.broadcast_shapes(condition.shape, x.shape), y.shape)
    return out, x.dtype


def _select_grad(op, grad):
    condition = op.inputs[0]
    zeros = zeros_like(grad)
    dx = where(condition, grad, zeros) if needs_grad(op, 1) else None
    dy = where(condition, zeros, grad) if needs_grad(op, 2) else None
    return None, dx, dy


SELECT = defop("SelectV2", np.where, shape=_select_rule, grad=_select_grad, jvp=linear,
               batch="safe", onnx="Where",
               raw=lambda condition, t, e, name=None: where(condition, t, e, name))


def _where_indices_rule(condition):
    return TensorShape([None, condition.shape.rank]), dtypes.int64


WHERE_INDICES = defop("Where", lambda c: np.argwhere(c).astype(np.int64),
                      shape=_where_indices_rule, grad=None,
                      onnx=lambda ctx, op, c: ctx.transpose(ctx.node("NonZero", [c]), [1, 0]),
                      args=("condition",))


@dispatchable
def where(condition, x=None, y=None, name=None):
    """Elementwise `x if condition else y` (broadcasting), or, with only `condition`, the
    coordinates of its True entries as an int64 [n, rank] tensor."""
    condition = convert_to_tensor(condition, dtype_hint=dtypes.bool)
    if x is None and y is None:
        return execute(WHERE_INDICES, (condition,), name=name)
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither.")
    if not condition.dtype.is_bool:  # TensorFlow's where converts it to bool: its ValueError
        check_fixed_value(condition, "bool", "where: condition (compare it with a value first, "
                          "e.g. where(x > 0, ...))")
    x, y = binary_operands(x, y, "SelectV2")
    return execute(SELECT, (condition, x, y), name=name)


# -- reshape, expand_dims, squeeze, transpose ----------------------------------------------------


# -- concat, stack, unstack, split -----------------------------------------------------------
def _check_same_rank(inputs, what):
    ranks = {t.shape.rank for t in inputs if t.shape.rank is not None}
    if len(ranks) > 1:
        raise InvalidArgumentError(f"{what} needs inputs of one rank, got shapes "
                                   f"{[str(t.shape) for t in inputs]}.")
    return ranks.pop() if ranks else None


def _concat_rule(*inputs, axis):
    shape_rules.check_same_dtype(*inputs)
    rank = _check_same_rank(inputs, "concat")
    if rank is None:
        return TensorShape(None), inputs[0].dtype
    if rank == 0:
        raise InvalidArgumentError("cannot concatenate scalars; use stack instead.")
    axis = normalize_axis(axis, rank)
    known = [t.shape if t.shape.rank is not None else TensorShape([None] * rank) for t in inputs]
    dims = list(known[0])
    for shape in known[1:]:
        for i, (a, b) in enumerate(zip(dims, shape)):
            if i != axis and a is not None and b is not None and a != b:
                raise InvalidArgumentError(
                    f"concat along axis {axis}: inputs must match in every other dimension, got "
                    f"shapes {[str(t.shape) for t in inputs]} (dimension {i} differs).")
            if i != axis and a is None:
                dims[i] = b
    sizes = [shape[axis] for shape in known]
    dims[axis] = None if None in sizes else sum(sizes)
    return TensorShape(dims), inputs[0].dtype


def _concat_grad(op, grad):
    axis = op.get_attr("axis")
    sizes = tuple(t.shape[axis] for t in op.inputs)
    if None in sizes:  # graph mode: split into the inputs' sizes read when the graph runs
        return list(execute(SPLIT_V, (grad,) + tuple(op.inputs),
                            {"size_splits": None, "axis": axis}))
    return list(execute(SPLIT_V, (grad,), {"size_splits": sizes, "axis": axis}))


def _concat_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    sizes = tuple(t.shape[op.get_attr("axis")] for t in op.inputs)
    attrs = {"size_splits": sizes, "axis": op.get_attr("axis") + nb}
    return list(execute(SPLIT_V, (grad,), attrs))


def _concat_partial(op, *parts):
    """The entries of a concat of vectors, as far as each part's are known."""
    if any(type(p) is not list for p in parts):
        return None
    return [v for p in parts for v in p]


def _pack_partial(op, *entries):
    """A vector stacked from scalars: each entry as far as it is known."""
    if op.get_attr("axis") != 0 or any(t.shape.rank != 0 for t in op.inputs):
        return None
    return list(entries)


CONCAT = defop("ConcatV2", lambda *xs, axis: np.concatenate(xs, axis), shape=_concat_rule,
               grad=_concat_grad, jvp=linear, batch=_concat_batched,
               partial_value=_concat_partial,
               onnx=lambda ctx, op, *xs: ctx.node("Concat", xs, axis=op.attrs["axis"]),
               raw=lambda values, axis, name=None: concat(values, axis, name))


@dispatchable
def concat(values, axis, name="concat"):
    """The tensors in `values` joined along `axis` (they agree in every other dimension)."""
    tensors = [convert_to_tensor(v) for v in values]
    if not tensors:
        raise ValueError("concat: values must be a non-empty list of tensors.")
    if len(tensors) == 1:
        return identity(tensors[0])
    axis = normalize_axis(axis, tensors[0].ndim, "concat: axis") if tensors[0].ndim else axis_int(axis, "concat: axis")
    return execute(CONCAT, tensors, {"axis": axis}, name)


def _pack_rule(*inputs, axis):
    out, dtype = shape_rules.one_shape(inputs, "stack needs inputs of one shape, got shapes ")
    if out.rank is None:
        return TensorShape(None), dtype
    dims = list(out)
    dims.insert(normalize_axis(axis, out.rank + 1), len(inputs))
    return TensorShape(dims), dtype


def _pack_batched(op, grad):
    nb, axis = batch_rank(grad, op.outputs[0]), op.get_attr("axis")
    return unstack(grad, len(op.inputs), axis if axis < 0 else axis + nb)


PACK = defop("Pack", lambda *xs, axis: np.stack(xs, axis), shape=_pack_rule,
             partial_value=_pack_partial,
             grad=lambda op, grad: unstack(grad, len(op.inputs), op.get_attr("axis")), jvp=linear, batch=_pack_batched,
             onnx=lambda ctx, op, *xs: ctx.node("Concat", [ctx.unsqueeze(x, [op.attrs["axis"]])
                                                           for x in xs], axis=op.attrs["axis"]),
             raw=lambda values, axis=0, name=None: stack(values, axis, name))


@dispatchable
def stack(values, axis=0, name="stack"):
    """The tensors in `values` (one shape) stacked along a new axis `axis`."""
    tensors = [convert_to_tensor(v) for v in values]
    if not tensors:  # TensorFlow converts the empty list itself: float32 of shape [0]
        if axis != 0:
            raise IndexError(f"stack: an empty list of values has no element shape to stack "
                             f"along axis {axis}; only axis=0 gives the empty float32 vector.")
        return convert_to_tensor([], dtype=dtypes.float32)
    rank = next((t.shape.rank for t in tensors if t.shape.rank is not None), None)
    axis = normalize_axis(axis, None if rank is None else rank + 1, "stack: axis")
    return execute(PACK, tensors, {"axis": axis}, name)


def _unpack_kernel(x, num, axis):
    lead = (builtins.slice(None),) * (axis % x.ndim)
    return tuple(x[lead + (i,)] for i in _pyrange(num))


def _unpack_rule(x, num, axis):
    if x.shape.rank is None:
        return [(TensorShape(None), x.dtype)] * num
    dims = list(x.shape)
    if dims[axis] not in (None, num):
        raise InvalidArgumentError(f"cannot unstack {num} tensors from axis {axis} of shape "
                                   f"{x.shape}.")
    del dims[axis]
    return [(TensorShape(dims), x.dtype)] * num


def _unpack_batched(op, *grads):
    grads, nb = batch_zero_filled(op, grads)
    axis = op.get_attr("axis")
    return stack(grads, axis if axis < 0 else axis + nb)


def _unpack_onnx(ctx, op, x):
    num, axis = op.attrs["num"], op.attrs["axis"]
    parts = ctx.split(x, [1] * num, axis) if num > 1 else [x]
    return [ctx.squeeze(p, [axis]) for p in parts]


UNPACK = defop("Unpack", _unpack_kernel, shape=_unpack_rule, num_outputs=None,
               grad=lambda op, *grads: stack(grads, op.get_attr("axis")), jvp=linear, batch=_unpack_batched,
               onnx=_unpack_onnx, returns_view=True,
               raw=lambda value, num, axis=0, name=None: unstack(value, num, axis, name))


def unstack(value, num=None, axis=0, name="unstack"):
    """The slices of `value` along `axis`, as a list of tensors of rank one less."""
    value = convert_to_tensor(value)
    if value.ndim == 0:
        raise ValueError("unstack: cannot unstack a scalar (rank 0) tensor.")
    axis = normalize_axis(axis, value.ndim, "unstack: axis")
    size = value.shape[axis]
    if num is not None and size is not None and num != size:
        raise ValueError(f"unstack: num={num} does not match dimension {axis} of shape "
                         f"{value.shape}.")
    num = size if num is None else num
    if num is None:
        raise ValueError(f"unstack: cannot infer num from shape {value.shape}; pass num.")
    return list(execute(UNPACK, (value,), {"num": num, "axis": axis}, name))


def _split_kernel(x, *likes, size_splits, axis):
    if likes:  # split like these tensors: their sizes along `axis`
        size_splits = [t.shape[axis] for t in likes]
    elif -1 in size_splits:  # one size was left to be inferred when the graph runs
        sizes = list(size_splits)
        sizes[sizes.index(-1)] = x.shape[axis] - (sum(sizes) + 1)
        size_splits = sizes
    if sum(size_splits) != x.shape[axis] or min(size_splits, default=0) < 0:
        raise ValueError("the sizes do not add up to the dimension")
    return tuple(np.split(x, np.cumsum(size_splits[:-1]), axis))


def _split_rule(x, *likes, size_splits, axis):
    if likes:
        size_splits = tuple(t.shape[axis] if t.shape.rank is not None else None for t in likes)
    if x.shape.rank is None:
        return [(TensorShape(None), x.dtype)] * len(size_splits)
    dim = x.shape[normalize_axis(axis, x.shape.rank)]
    known = [s for s in size_splits if s is not None and s != -1]
    if -1 in size_splits and dim is not None:
        size_splits = tuple(dim - sum(known) if s == -1 else s for s in size_splits)
    elif -1 in size_splits:
        size_splits = tuple(None if s == -1 else s for s in size_splits)
    if dim is not None and None not in size_splits and sum(size_splits) != dim:
        raise InvalidArgumentError(f"split sizes {list(size_splits)} add up to "
                                   f"{sum(size_splits)}, but dimension {axis} of shape "
                                   f"{x.shape} has size {dim}.")
    out = []
    for s in size_splits:
        dims = list(x.shape)
        dims[axis] = s
        out.append((TensorShape(dims), x.dtype))
    return out


def _split_grad(op, *grads):
    return [concat(grads, op.get_attr("axis"))] + [None] * (len(op.inputs) - 1)


def _split_batched(op, *grads):
    grads, nb = batch_zero_filled(op, grads)
    axis = op.get_attr("axis")
    return [concat(grads, axis if axis < 0 else axis + nb)] + [None] * (len(op.inputs) - 1)


def _dim_onnx(ctx, name, axis):
    """The size of axis `axis` of ONNX value `name`, as an int64 [1] vector."""
    return ctx.node("Gather", [ctx.node("Shape", [name]), ctx.int64s([axis])], axis=0)


def _split_v_onnx(ctx, op, x, *likes):
    """ONNX Split with a sizes input: the attribute (a -1 entry is the rest of the axis), or
    the likes' sizes along the axis."""
    axis = normalize_axis(op.attrs["axis"], ctx.rank(op.inputs[0]))
    sizes = op.attrs["size_splits"]
    if likes:
        sizes_value = ctx.node("Concat", [_dim_onnx(ctx, like, axis) for like in likes], axis=0)
    elif -1 in sizes:
        rest = ctx.node("Sub", [_dim_onnx(ctx, x, axis),
                                ctx.int64s([sum(sizes) + 1])])
        at = sizes.index(-1)
        before = [ctx.int64s(sizes[:at])] if at else []
        after = [ctx.int64s(sizes[at + 1:])] if at + 1 < len(sizes) else []
        sizes_value = ctx.node("Concat", before + [rest] + after, axis=0)
    else:
        sizes_value = ctx.int64s(sizes)
    count = len(likes) if likes else len(sizes)
    out = ctx.node("Split", [x, sizes_value], outputs=count, axis=axis)
    return [out] if count == 1 else out


def _split_equal_onnx(ctx, op, x):
    num, axis = op.attrs["num_split"], op.attrs["axis"]
    if num == 1:
        return [ctx.node("Identity", [x])]
    if ctx.opset >= 18:
        return ctx.node("Split", [x], outputs=num, axis=axis, num_outputs=num)
    size = ctx.node("Div", [_dim_onnx(ctx, x, normalize_axis(axis, ctx.rank(op.inputs[0]))),
                            ctx.int64s([num])])
    return ctx.node("Split", [x, ctx.node("Tile", [size, ctx.int64s([num])])], outputs=num,
                    axis=axis)


SPLIT_V = defop("SplitV", _split_kernel, shape=_split_rule, grad=_split_grad, num_outputs=None, jvp=linear, batch=_split_batched, batch_accepts=has_one_input,
                onnx=_split_v_onnx, returns_view=True,
                raw=lambda value, size_splits, axis, num_split, name=None: split(
                    value, size_splits, axis, name=name))


def _split_equal_kernel(x, num_split, axis):
    if x.shape[axis] % num_split:
        raise ValueError("the dimension is not a multiple of num_split")
    return tuple(np.split(x, num_split, axis))


def _split_equal_rule(x, num_split, axis):
    dim = x.shape[axis] if x.shape.rank is not None else None
    if dim is not None and dim % num_split:
        raise InvalidArgumentError(f"cannot split dimension {axis} of shape {x.shape} (size "
                                   f"{dim}) into {num_split} equal parts.")
    size = None if dim is None else dim // num_split
    return _split_rule(x, size_splits=(size,) * num_split, axis=axis)


SPLIT = defop("Split", _split_equal_kernel, shape=_split_equal_rule, grad=_split_grad,
              num_outputs=None, jvp=linear, batch=_split_batched, batch_accepts=has_one_input,
              onnx=_split_equal_onnx, returns_view=True, tf_inputs=("value",),
              raw=lambda axis, value, num_split, name=None: split(value, num_split, axis,
                                                                  name=name))


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`value` cut along `axis` into `num_or_size_splits` equal parts, or parts of the given
    sizes (one size may be -1: the rest). `num`, the number of parts, is needed only when
    it cannot be read from the sizes; given with sizes, it must be their number (TensorFlow's
    SplitV check); with a number of equal parts TensorFlow reads that number and so does this."""
    value = convert_to_tensor(value)
    check_fixed_argument("Split" if isinstance(num_or_size_splits, (int, np.integer))
                         else "SplitV", "split_dim", axis)  # int32 only, as TensorFlow's
    axis = normalize_axis(axis, value.ndim, "split: axis")
    dim = value.shape[axis]
    if isinstance(num_or_size_splits, (int, np.integer)):
        parts = int(num_or_size_splits)
        if parts <= 0 or (dim is not None and dim % parts):
            raise InvalidArgumentError(f"Split: cannot split dimension {axis} of shape "
                                       f"{value.shape} (size {dim}) into {parts} equal parts; "
                                       "pass a list of sizes instead.")
        return list(execute(SPLIT, (value,), {"num_split": parts, "axis": axis}, name))
    sizes = list(int_tuple(num_or_size_splits, "split: num_or_size_splits"))
    if num is not None and int(num) != len(sizes):
        raise InvalidArgumentError(f"SplitV: num={num} parts, but size_splits {sizes} has "
                                   f"{len(sizes)} elements; they must be the same.")
    if sizes.count(-1) == 1 and dim is not None:
        sizes[sizes.index(-1)] = dim - (sum(sizes) + 1)
    if (dim is not None and sum(sizes) != dim) or any(s < 0 for s in sizes if s != -1) or \
            sizes.count(-1) > 1:
        raise InvalidArgumentError(f"SplitV: sizes {list(num_or_size_splits)} do not add "
                                   f"up to dimension {axis} of shape {value.shape} "
                                   f"(size {dim}).")
    return list(execute(SPLIT_V, (value,), {"size_splits": tuple(sizes), "axis": axis}, name))


# -- autopacking: lists holding tensors convert to a stack of their entries ------------------------
def _first_tensor_dtype(values):
    stack_ = [values]
    while stack_:
        for v in stack_.pop():
            if type(v) in (list, tuple):
                stack_.append(v)
            elif not isinstance(v, (int, float, bool, np.generic, np.ndarray)):
                return convert_to_tensor(v).dtype
    return None


def autopack(values, dtype):
    """A (nested) list or tuple holding tensors as Pack ops (one per level), its plain entries
    converted to the tensors' dtype: what TensorFlow's convert_to_tensor does with lists."""
    dtype = dtype if dtype is not None else _first_tensor_dtype(values)

    def pack(v):  # nesting depth is the list's, a handful of levels
        if type(v) in (list, tuple) and holds_tensor(v):
            return stack([pack(e) for e in v])
        return convert_to_tensor(v, dtype)
    return pack(values)



# -- identity, stop_gradient ---------------------------------------------------------------------
IDENTITY = defop("Identity", lambda x: x, shape=shape_rules.same, grad=lambda op, grad: grad, jvp=linear,
                 partial_value=lambda op, x: x,
                 batch="safe", passes_sparse=True, returns_view=True, onnx="Identity",
                 args=("input",))
STOP_GRADIENT = defop("StopGradient", lambda x: x, shape=shape_rules.same, grad=None,
                      returns_view=True, onnx="Identity", args=("input",))


def identity(input, name=None):  # noqa: A002
    """`input` unchanged (a new tensor with the same value)."""
    return execute(IDENTITY, (convert_to_tensor(input),), name=name)


def stop_gradient(input, name=None):  # noqa: A002
    """`input` unchanged, but gradients do not flow through it (it acts as a constant)."""
    return execute(STOP_GRADIENT, (convert_to_tensor(input),), name=name)

