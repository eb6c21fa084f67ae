"""Ops that create tensors: from a value or attributes (a graph's Const, fill, zeros, ones, eye,
range, one_hot), from copies of an input (tile, pad), and shape queries (shape, size, rank).

`fill(dims, value)` broadcasts a scalar, so the value's gradient is the sum of the incoming
gradient (the reverse pass sums it back to the scalar). A tile copies x `m` times along each
axis, so its gradient sums the copies: view the gradient as [m0, d0, m1, d1, ...] and sum over
the m axes (in a graph with unknown dimensions, one `TileGrad` op reads x's shape when it runs).
A constant pad's gradient is the part of the gradient over the unpadded interior (a strided
slice); a mirror pad (REFLECT, SYMMETRIC) copies border elements into the padding, so its
gradient (`MirrorPadGrad`) folds the padding's gradient back onto the elements copied, and its
gradient is the mirror pad again. zeros, ones, eye, range and one_hot are not differentiable;
shape queries read only the shape of their input, so their integer results have no gradient.

`range` takes its bounds as inputs, as TensorFlow's Range op does, so in graph mode the bounds may
be tensors computed when the graph runs; its length is known while building only when the bounds
are constants.
"""
import builtins

import numpy as np

from ..framework.registry import linear, linear_in
from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import Tensor, convert_to_tensor, to_array
from ..framework.static_value import static_value
from ..framework.tensor_shape import TensorShape
from . import shapes
from .array_core import SUM_TO_SHAPE, _like_source, batch_rank, cast, reshape, static_shape
from .indexing_ops import STRIDED_SLICE, _check_index_dtype
from .shapes import int_tuple, normalize_axis, resolve_shape, shape_arg, static_shape_arg

__all__ = ["fill", "zeros", "ones", "eye", "tile", "pad", "range", "one_hot", "shape", "size",
           "rank"]

_pyrange = builtins.range  # this module exports `range`


# -- fill, zeros, ones, eye -----------------------------------------------------------------------
def _fill_rule(value, *extra, dims):
    if value.shape.rank not in (0, None):
        raise InvalidArgumentError(f"value must be a scalar, got shape {value.shape}.")
    shape = static_shape_arg(dims, extra)
    if any(d is not None and d < 0 for d in (shape if shape.rank is not None else ())):
        raise InvalidArgumentError(f"dims {list(shape)} must be non-negative.")
    return shape, value.dtype


# The output broadcasts the scalar value; the reverse pass sums the gradient back to it.
def _fill_kernel(value, *extra, dims):
    if value.ndim:
        raise ValueError("value must be a scalar")
    return np.full(resolve_shape(dims, extra) if extra else dims, value)


FILL = defop("Fill", _fill_kernel, shape=_fill_rule, jvp=linear, batch="safe",
             grad=lambda op, grad: (grad,) + (None,) * (len(op.inputs) - 1),
             onnx=lambda ctx, op, value, *extra: ctx.node(
                 "Expand", [value, ctx.shape_tensor(op.attrs["dims"], extra)]))


def fill(dims, value, name=None):
    """A tensor of shape `dims` whose every element is the scalar `value` (in a graph, `dims`
    may be computed and known only when it runs: tf.fill(tf.shape(x), 0.0))."""
    attr, extra = shape_arg(dims, "fill: dims")
    return execute(FILL, (convert_to_tensor(value),) + extra, {"dims": attr}, name)


def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of zeros of `shape` and `dtype`."""
    return fill(shape, convert_to_tensor(0, dtype), name)


def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of ones of `shape` and `dtype`."""
    return fill(shape, convert_to_tensor(1, dtype), name)


def _eye_kernel(num_rows, num_columns, batch_shape, dtype):
    return np.broadcast_to(np.eye(num_rows, num_columns, dtype=dtype),
                           batch_shape + (num_rows, num_columns)).copy()


def _eye_rule(num_rows, num_columns, batch_shape, dtype):
    return TensorShape(batch_shape + (num_rows, num_columns)), dtypes.as_dtype(dtype)


EYE = defop("Eye", _eye_kernel, shape=_eye_rule, grad=None)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix [num_rows, num_columns] (or a batch of them)."""
    num_columns = num_rows if num_columns is None else num_columns
    batch = () if batch_shape is None else int_tuple(batch_shape, "eye: batch_shape")
    return execute(EYE, (), {"num_rows": int(num_rows), "num_columns": int(num_columns),
                             "batch_shape": batch, "dtype": dtypes.as_dtype(dtype)._np}, name)


# -- tile: copies of the input along each axis ----------------------------------------------------
def _tile_rule(x, multiples):
    if x.shape.rank is not None and len(multiples) != x.shape.rank:
        raise InvalidArgumentError(f"multiples {list(multiples)} must have one entry per "
                                   f"dimension of the input, which has shape {x.shape}.")
    if any(m < 0 for m in multiples):
        raise InvalidArgumentError(f"multiples {list(multiples)} must be non-negative.")
    if x.shape.rank is None:
        return TensorShape([None] * len(multiples)), x.dtype
    return TensorShape([None if d is None else d * m for d, m in zip(x.shape, multiples)]), x.dtype


def _tile_grad(op, grad):
    """Sum the copies: view the gradient as [m0, d0, m1, d1, ...] and sum over the m axes."""
    x = op.inputs[0]
    x_shape = static_shape(x)
    multiples = op.get_attr("multiples")
    if x_shape is None or None in x_shape:  # graph mode: x's shape is read when it runs
        return execute(TILE_GRAD, (grad, x), {"multiples": multiples})
    split_shape = tuple(v for m, d in zip(multiples, x_shape) for v in (m, d))
    summed_shape = tuple(v for d in x_shape for v in (1, d))
    summed = execute(SUM_TO_SHAPE, (reshape(grad, split_shape),), {"shape": summed_shape})
    return reshape(summed, x_shape)


def _tile_grad_kernel(grad, like, multiples):
    split_shape = tuple(v for m, d in zip(multiples, like.shape) for v in (m, d))
    return grad.reshape(split_shape).sum(axis=tuple(_pyrange(0, 2 * like.ndim, 2)))


def _tile_grad_rule(grad, like, multiples):
    return like.shape, grad.dtype


def _tile_kernel(x, multiples):
    if len(multiples) != x.ndim:  # NumPy would prepend axes; TensorFlow refuses
        raise ValueError("multiples do not match the rank")
    return np.tile(x, multiples)


def _tile_batched(op, grad):
    """Sum the copies: view g as [B, m0, d0, m1, d1, ...] and sum the m axes."""
    nb, x_shape = batch_rank(grad, op.outputs[0]), tuple(op.inputs[0].shape)
    batch, multiples = tuple(grad.shape[:nb]), op.get_attr("multiples")
    split = batch + tuple(v for m, d in zip(multiples, x_shape) for v in (m, d))
    summed = batch + tuple(v for d in x_shape for v in (1, d))
    g = execute(SUM_TO_SHAPE, (reshape(grad, split),), {"shape": summed})
    return reshape(g, batch + x_shape)


def _tile_grad_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    return tile(grad, (1,) * nb + tuple(op.get_attr("multiples"))), None


def _known_input_shape(op):
    return None not in tuple(op.inputs[0].shape)


TILE = defop("Tile", _tile_kernel, shape=_tile_rule, grad=_tile_grad, jvp=linear, batch=_tile_batched, batch_accepts=_known_input_shape,
             onnx=lambda ctx, op, x: ctx.node("Tile", [x, ctx.int64s(op.attrs["multiples"])]))
TILE_GRAD = defop("TileGrad", _tile_grad_kernel, shape=_tile_grad_rule,
                  grad=lambda op, grad: (tile(grad, op.get_attr("multiples")), None),
                  jvp=linear_in(0), batch=_tile_grad_batched)


def tile(input, multiples, name=None):  # noqa: A002
    """`input` repeated `multiples[i]` times along each axis i."""
    return execute(TILE, (convert_to_tensor(input),),
                   {"multiples": int_tuple(multiples, "tile: multiples")}, name)


# -- pad: the input inside a border of constants or mirrored copies --------------------------------
def _pad_rule(x, paddings, **_):
    if x.shape.rank is not None and len(paddings) != x.shape.rank:
        raise InvalidArgumentError(f"paddings {[list(p) for p in paddings]} must have one "
                                   f"[before, after] pair per dimension of shape {x.shape}.")
    if any(p < 0 for pair in paddings for p in pair):
        raise InvalidArgumentError(f"paddings {[list(p) for p in paddings]} must be >= 0.")
    if x.shape.rank is None:
        return TensorShape([None] * len(paddings)), x.dtype
    return TensorShape([None if d is None else d + a + b
                        for d, (a, b) in zip(x.shape, paddings)]), x.dtype


def _pad_kernel(x, paddings, constant_values):
    if len(paddings) != x.ndim:  # NumPy would broadcast the pairs; TensorFlow refuses
        raise ValueError("paddings do not match the rank")
    return np.pad(x, paddings, constant_values=x.dtype.type(constant_values))


def _interior(op, grad):
    """The part of a padded tensor's gradient that lies over the unpadded input."""
    spec = tuple((before, -after or None, None) for before, after in op.get_attr("paddings"))
    return execute(STRIDED_SLICE, (grad,), {"spec": spec})


def _pad_jvp(primals, tangents, outputs, paddings, constant_values):
    """Padding is affine (the padded border is a constant): the tangent is padded with zeros."""
    if tangents[0] is None:
        return None
    return execute(PAD, (tangents[0],), {"paddings": paddings, "constant_values": 0})


def _padding_of(op, grad):
    return ((0, 0),) * batch_rank(grad, op.outputs[0]) + tuple(
        tuple(p) for p in op.get_attr("paddings"))


def _pad_batched(op, grad):
    spec = tuple((before, -after or None, None) for before, after in _padding_of(op, grad))
    return execute(STRIDED_SLICE, (grad,), {"spec": spec})


def _onnx_pads(paddings):
    """ONNX's pads: every axis's `before`, then every axis's `after`."""
    return [int(p[0]) for p in paddings] + [int(p[1]) for p in paddings]


PAD = defop("PadV2", _pad_kernel, shape=_pad_rule, grad=_interior, jvp=_pad_jvp, batch=_pad_batched,
            onnx=lambda ctx, op, x: ctx.node("Pad", [
                x, ctx.int64s(_onnx_pads(op.attrs["paddings"])),
                ctx.scalar_like(op.attrs["constant_values"], op.inputs[0])]))


def _mirror_pad_rule(x, paddings, mode):
    out = _pad_rule(x, paddings)
    limit = 0 if mode == "symmetric" else 1
    for d, (a, b) in zip(x.shape, paddings):
        if d is not None and max(a, b) > d - limit:
            raise InvalidArgumentError(
                f"{mode.upper()} padding {[list(p) for p in paddings]} is too large for shape "
                f"{x.shape}: each padding must be at most the dimension"
                f"{' minus 1' if limit else ''}.")
    return out


def _fold_mirror(g, paddings, mode):
    """Add the gradient of the mirrored padding back onto the elements it copied."""
    shift = 1 if mode == "reflect" else 0
    for axis, (before, after) in enumerate(paddings):
        g = np.moveaxis(g, axis, 0)
        n = g.shape[0] - before - after
        core = g[before:before + n].copy()
        if before:
            core[shift:shift + before] += g[:before][::-1]
        if after:
            core[n - shift - after:n - shift] += g[before + n:][::-1]
        g = np.moveaxis(core, 0, axis)
    return g


def _mirror_pad_grad_rule(g, paddings, mode):
    if g.shape.rank is None:
        return TensorShape([None] * len(paddings)), g.dtype
    return TensorShape([None if d is None else d - a - b
                        for d, (a, b) in zip(g.shape, paddings)]), g.dtype


def _mirror_pad_grad_batched(op, grad):
    return execute(MIRROR_PAD, (grad,), dict(op.attrs, paddings=_padding_of(op, grad)))


def _mirror_pad_batched(op, grad):
    return execute(MIRROR_PAD_GRAD, (grad,), dict(op.attrs, paddings=_padding_of(op, grad)))


MIRROR_PAD_GRAD = defop("MirrorPadGrad", _fold_mirror, shape=_mirror_pad_grad_rule,
                        grad=lambda op, grad: execute(MIRROR_PAD, (grad,), op.attrs), jvp=linear, batch=_mirror_pad_grad_batched)


def _mirror_pad_kernel(x, paddings, mode):
    limit = 0 if mode == "symmetric" else 1
    if len(paddings) != x.ndim or any(max(p) > d - limit for d, p in zip(x.shape, paddings)):
        raise ValueError("paddings too large")  # NumPy would reflect repeatedly
    return np.pad(x, paddings, mode=mode)


def _mirror_pad_onnx(ctx, op, x):
    if op.attrs["mode"] != "reflect":
        ctx.fail("ONNX's Pad reflects without repeating the edge; SYMMETRIC padding has no "
                 "ONNX form.")
    return ctx.node("Pad", [x, ctx.int64s(_onnx_pads(op.attrs["paddings"]))], mode="reflect")


MIRROR_PAD = defop("MirrorPad", _mirror_pad_kernel, shape=_mirror_pad_rule,
                   grad=lambda op, grad: execute(MIRROR_PAD_GRAD, (grad,), op.attrs), jvp=linear, batch=_mirror_pad_batched,
                   onnx=_mirror_pad_onnx)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """`tensor` padded with `paddings[i] = [before, after]` elements along each axis i: with
    `constant_values` (CONSTANT), or mirrored without (REFLECT) or with (SYMMETRIC) the edge."""
    tensor = convert_to_tensor(tensor)
    flat = int_tuple(paddings, "pad: paddings")
    pairs = tuple(zip(flat[0::2], flat[1::2]))
    mode = mode.upper()
    if mode == "CONSTANT":
        if isinstance(constant_values, Tensor):
            constant_values = _constant_scalar(constant_values, "pad: constant_values")
        return execute(PAD, (tensor,), {"paddings": pairs, "constant_values": constant_values},
                       name)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"pad: mode must be CONSTANT, REFLECT or SYMMETRIC, got {mode!r}.")
    return execute(MIRROR_PAD, (tensor,), {"paddings": pairs, "mode": mode.lower()}, name)


def _constant_scalar(t, what):
    value = constant_value(t)
    if value is None:
        raise ValueError(f"{what} must be known while the graph is built (a Python number or "
                         f"a constant), got the computed tensor {t.name}.")
    return value[()]


# -- range --------------------------------------------------------------------------------------
def _range_count(start, limit, delta):
    if delta == 0:
        raise InvalidArgumentError("delta must not be 0.")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise InvalidArgumentError(f"start {start} cannot reach limit {limit} with delta "
                                   f"{delta}: need start <= limit when delta > 0 and start >= "
                                   "limit when delta < 0.")
    return int(np.ceil(abs((limit - start) / delta)))


def _range_kernel(start, limit, delta):
    dtype = start.dtype
    for bound in (start, limit, delta):
        if np.ndim(bound):
            raise ValueError("the bounds must be scalars")
    start, limit, delta = start.item(), limit.item(), delta.item()
    count = _range_count(start, limit, delta)
    kind = np.float64 if isinstance(start, float) else np.int64
    return (start + delta * np.arange(count, dtype=kind)).astype(dtype)


def _range_rule(start, limit, delta):
    shapes.check_same_dtype(start, limit, delta)
    for bound in (start, limit, delta):
        if bound.shape.rank not in (0, None):
            raise InvalidArgumentError(f"start, limit and delta must be scalars, got shapes "
                                       f"{[str(b.shape) for b in (start, limit, delta)]}.")
    values = [constant_value(b) for b in (start, limit, delta)]
    count = None if any(v is None for v in values) else _range_count(*(v.item() for v in values))
    return TensorShape([count]), start.dtype


RANGE = defop("Range", _range_kernel, shape=_range_rule, grad=None, onnx="Range")

_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def _const_rule(value, dtype=None):
    return TensorShape(np.shape(value)), dtypes.as_dtype(np.asarray(value).dtype)


# A graph's constant (Graph.constant makes one for every eager value a graph captures).
CONST = defop("Const", lambda value: value, shape=_const_rule, grad=None, returns_view=True,
              onnx=lambda ctx, op: ctx.const(np.asarray(op.attrs["value"])))


def constant_value(t):
    """The value of `t` when it is known without running anything (an eager tensor, a graph
    constant, or pure ops over them and over fully known shapes: framework/static_value.py),
    else None."""
    return static_value(t)


def _range(start, limit=None, delta=1, dtype=None, name="range"):
    """[start, start + delta, ...] up to (not including) limit; range(n) is [0, ..., n-1].

    Without `dtype` the widest of the arguments' dtypes is used (Python ints: int32, floats:
    float32), as in TensorFlow. The bounds may be scalar tensors."""
    if limit is None:
        start, limit = 0, start
    bounds = [v if isinstance(v, Tensor) or hasattr(v, "_as_tensor") else to_array(v, dtype)
              for v in (start, limit, delta)]
    if dtype is None:
        dtype = max((dtypes.as_dtype(b.dtype) for b in bounds), key=_RANGE_DTYPES.index)
    dtype = dtypes.as_dtype(dtype)
    bounds = [_as_bound(b, dtype) for b in bounds]
    values = [constant_value(b) for b in bounds]
    if all(v is not None and v.ndim == 0 for v in values):  # else the op explains
        try:
            _range_count(*(v.item() for v in values))
        except InvalidArgumentError as err:
            raise InvalidArgumentError(f"range: {err}") from None
    return execute(RANGE, bounds, name=None if name == "range" else name)


def _as_bound(value, dtype):
    if isinstance(value, np.ndarray):
        return convert_to_tensor(value.astype(dtype._np))
    value = convert_to_tensor(value)
    if value.dtype == dtype:
        return value
    return cast(value, dtype)


_range.__name__ = _range.__qualname__ = "range"


# -- one_hot --------------------------------------------------------------------------------------
def _one_hot_kernel(indices, depth, on_value, off_value, axis, dtype):
    classes = np.arange(depth).reshape((depth,) + (1,) * (indices.ndim - axis))
    hot = np.expand_dims(indices, axis) == classes
    return np.where(hot, np.asarray(on_value, dtype), np.asarray(off_value, dtype))


def _one_hot_rule(indices, depth, axis, dtype, **_):
    _check_index_dtype(indices)
    if indices.shape.rank is None:
        return TensorShape(None), dtypes.as_dtype(dtype)
    dims = list(indices.shape)
    dims.insert(axis, depth)
    return TensorShape(dims), dtypes.as_dtype(dtype)


def _one_hot_onnx(ctx, op, indices):
    """ONNX OneHot; negative indices (all off in TensorFlow, counted from the end in ONNX)
    become `depth`, out of range."""
    depth, dtype = op.attrs["depth"], op.attrs["dtype"]
    index_zero = ctx.scalar_like(0, op.inputs[0])
    indices = ctx.node("Where", [ctx.node("Less", [indices, index_zero]),
                                 ctx.scalar_like(depth, op.inputs[0]), indices])
    values = ctx.const(np.array([op.attrs["off_value"], op.attrs["on_value"]], dtype))
    return ctx.node("OneHot", [indices, ctx.int64s([depth]), values], axis=op.attrs["axis"])


ONE_HOT = defop("OneHot", _one_hot_kernel, shape=_one_hot_rule, grad=None, onnx=_one_hot_onnx)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """`on_value` at each index along a new axis of size `depth`, `off_value` elsewhere
    (indices outside [0, depth) give a row of `off_value`)."""
    indices = convert_to_tensor(indices)
    given = [v for v in (on_value, off_value) if v is not None]
    if dtype is None:
        dtype = convert_to_tensor(given[0]).dtype if given else dtypes.float32
    np_dtype = dtypes.as_dtype(dtype)._np
    on = 1 if on_value is None else np.asarray(on_value).item()
    off = 0 if off_value is None else np.asarray(off_value).item()
    axis = indices.ndim if axis is None or axis == -1 else normalize_axis(axis, indices.ndim + 1)
    return execute(ONE_HOT, (indices,), {"depth": int(depth), "on_value": on, "off_value": off,
                                         "axis": axis, "dtype": np_dtype}, name)


# -- shape queries -------------------------------------------------------------------------------
def _query(op_type, kernel, out_shape, onnx):
    op_def = defop(op_type, kernel,
                   shape=lambda x, out_type: (out_shape(x), dtypes.as_dtype(out_type)), grad=None,
                   reads_shape_only=True,
                   onnx=lambda ctx, op, x: ctx.cast(onnx(ctx, x), op.attrs["out_type"]))

    def query(input, out_type=dtypes.int32, name=None):  # noqa: A002
        x = _like_source(input)
        return execute(op_def, (x,), {"out_type": dtypes.as_dtype(out_type)._np}, name)
    return op_def, query


SHAPE, shape = _query("Shape", lambda x, out_type: np.array(x.shape, dtype=out_type),
                      lambda x: TensorShape([x.shape.rank]),
                      lambda ctx, x: ctx.node("Shape", [x]))
SIZE, size = _query("Size", lambda x, out_type: np.array(x.size, dtype=out_type),
                    lambda x: TensorShape([]), lambda ctx, x: ctx.node("Size", [x]))
_RANK, _rank_query = _query("Rank", lambda x, out_type: np.array(x.ndim, dtype=out_type),
                            lambda x: TensorShape([]),
                            lambda ctx, x: ctx.node("Size", [ctx.node("Shape", [x])]))
shape.__name__, shape.__doc__ = "shape", "The shape of `input` as a 1-D integer tensor."
size.__name__, size.__doc__ = "size", "The number of elements of `input` (a scalar)."


def rank(input, name=None):  # noqa: A002
    """The number of dimensions of `input` (an int32 scalar)."""
    return _rank_query(input, name=name)


range = _range  # noqa: A001  exported as `range`; this module calls the builtin `_pyrange`
