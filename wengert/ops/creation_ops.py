"""Ops that create tensors: from a value or attributes (a graph's Const, fill, zeros, ones, eye,
range, one_hot) and from copies of an input (tile); pad (pad_ops) and the shape queries shape,
size and rank (query_ops) are re-exported here.

`fill(dims, value)` broadcasts a scalar, so the value's gradient is the sum of the incoming
gradient (the reverse pass sums it back to the scalar). A tile copies x `m` times along each
axis, so its gradient sums the copies: view the gradient as [m0, d0, m1, d1, ...] and sum over
the m axes (in a graph with unknown dimensions, one `TileGrad` op reads x's shape when it runs).
zeros, ones, eye, range and one_hot are not differentiable.

In a graph, sizes may be tensors known only when it runs (tf.tile(x, [tf.shape(y)[0], 1]),
tf.one_hot(i, tf.shape(x)[1]), tf.eye(n)): such a value is an extra input of the op, read by its
kernel (shapes.shape_arg / scalar_arg), while values known when the graph is built stay
attributes, so eager code and graphs of known shapes run the ops they always ran.

`range` takes its bounds as inputs, as TensorFlow's Range op does, so in graph mode the bounds may
be tensors computed when the graph runs; its length is known while building only when the bounds
are constants.
"""
import builtins

import numpy as np

from ..framework.registry import linear, linear_in
from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.op_dtype_constraints import check_fixed_value
from ..framework.registry import defop
from ..framework.tensor import Tensor, constant, convert_to_tensor, to_array
from ..framework.static_value import static_value
from ..framework.tensor_shape import TensorShape
from . import shape_rules
from .broadcast_ops import SUM_TO_SHAPE
from .shape_rules import batch_rank, static_shape
from .cast_ops import cast
from .reshape_ops import reshape
from .pad_ops import MIRROR_PAD, MIRROR_PAD_GRAD, PAD, pad  # noqa: F401 (re-exported)
from .query_ops import SHAPE, SIZE, _RANK, rank, shape, size  # noqa: F401 (re-exported)
from .shape_rules import (check_index_dtype as _check_index_dtype, normalize_axis, resolve_shape,
                     scalar_arg, shape_arg, split_extras, static_shape_arg)

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
                 "Expand", [value, ctx.shape_tensor(op.attrs["dims"], extra)]),
             raw=lambda dims, value, name=None: fill(dims, value, name))


def fill(dims, value, name=None):
    """A tensor of shape `dims` whose every element is the scalar `value` (in a graph, `dims`
    may be computed and known only when it runs: tf.fill(tf.shape(x), 0.0))."""
    _check_vector(dims)
    attr, extra = shape_arg(dims, "fill: dims")
    return execute(FILL, (convert_to_tensor(value),) + extra, {"dims": attr}, name)


def _check_vector(dims):
    """Fill's dims is a vector (a nested list or a matrix is TensorFlow's InvalidArgumentError)."""
    if isinstance(dims, Tensor) or hasattr(dims, "_as_tensor"):
        rank = dims.shape.rank
    elif isinstance(dims, np.ndarray):
        rank = dims.ndim
    elif isinstance(dims, (list, tuple)) and any(isinstance(d, (list, tuple, np.ndarray))
                                                  for d in dims):
        rank = np.ndim(np.asarray(dims, dtype=object))
    else:
        return
    if rank not in (None, 0, 1):
        shape = dims.shape if hasattr(dims, "shape") else np.shape(np.asarray(dims, object))
        raise InvalidArgumentError(f"Fill: dims must represent a vector, got shape "
                                   f"{list(shape)}; flatten it, e.g. [2, 3] for [[2, 3]].")


def _graph_constant_shape(shape):
    """While a graph is built, TensorFlow makes small zeros/ones (under 1000 entries) a constant
    whose shape entries it reads with int(): [2.5, 3] is [2, 3] there (eagerly a TypeError)."""
    if state.graph is None or type(shape) not in (list, tuple) or not any(
            type(d) is float for d in shape):
        return shape
    if not all(type(d) in (int, float) and d >= 0 for d in shape) or np.prod(shape) >= 1000:
        return shape
    return [int(d) for d in shape]


def _filled(shape, value, dtype, name, default):
    """fill(shape, value). In a graph, named as TensorFlow names zeros and ones: in the scope
    `name` (else `default`), a shape known and under 1000 entries makes one constant taking the
    scope's name ("zeros", "ones_1"), any other a Fill so named with its value `<scope>/Const`."""
    graph = state.graph
    if graph is None:
        return fill(shape, convert_to_tensor(value, dtype), name)
    shape = _graph_constant_shape(shape)
    with graph.name_scope(name or default) as scope:
        if type(shape) in (list, tuple) and all(type(d) is int and d >= 0 for d in shape) \
                and np.prod(shape) < 1000:
            return constant(value, dtype, shape, name=scope)
        return fill(shape, convert_to_tensor(value, dtype), scope)


def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of zeros of `shape` and `dtype` (empty strings for tf.string, as in TF)."""
    zero = b"" if dtypes.as_dtype(dtype) is dtypes.string else 0
    return _filled(shape, zero, dtype, name, "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of ones of `shape` and `dtype`."""
    return _filled(shape, 1, dtype, name, "ones")


def _eye_sizes(extra, num_rows, num_columns, batch_shape):
    """(rows, columns, batch shape) with the entries read from extra inputs resolved."""
    rows_extra, cols_extra, batch_extra = split_extras((num_rows, num_columns, batch_shape), extra)
    rows = int(rows_extra[0]) if num_rows is None else num_rows
    cols = int(cols_extra[0]) if num_columns is None else num_columns
    return rows, cols, resolve_shape(batch_shape, batch_extra)


def _eye_kernel(*extra, num_rows, num_columns, batch_shape, dtype):
    if extra:
        num_rows, num_columns, batch_shape = _eye_sizes(extra, num_rows, num_columns,
                                                        batch_shape)
    return np.broadcast_to(np.eye(num_rows, num_columns, dtype=dtype),
                           batch_shape + (num_rows, num_columns)).copy()


def _eye_rule(*extra, num_rows, num_columns, batch_shape, dtype):
    rows_extra, cols_extra, batch_extra = split_extras((num_rows, num_columns, batch_shape), extra)
    batch = static_shape_arg(batch_shape, batch_extra)
    for count in (num_rows, num_columns):
        if count is not None and count < 0:
            raise InvalidArgumentError(f"num_rows and num_columns must be >= 0, got {count}.")
    if batch.rank is None:
        return TensorShape(None), dtypes.as_dtype(dtype)
    return batch.concatenate([num_rows, num_columns]), dtypes.as_dtype(dtype)


EYE = defop("Eye", _eye_kernel, shape=_eye_rule, grad=None)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix [num_rows, num_columns] (or a batch of them). In a graph the sizes
    may be tensors known only when it runs."""
    rows, rows_extra = scalar_arg(num_rows, "eye: num_rows")
    cols, cols_extra = (rows, rows_extra) if num_columns is None else \
        scalar_arg(num_columns, "eye: num_columns")
    batch, batch_extra = ((), ()) if batch_shape is None else \
        shape_arg(batch_shape, "eye: batch_shape")
    return execute(EYE, rows_extra + cols_extra + batch_extra,
                   {"num_rows": rows, "num_columns": cols, "batch_shape": batch,
                    "dtype": dtypes.as_dtype(dtype)._np}, name)


# -- tile: copies of the input along each axis ----------------------------------------------------
# `multiples` is a shape argument (shapes.shape_arg): a tuple of ints, or, in a graph where some
# are known only when it runs, None entries read from extra scalar inputs or a whole vector input.
def _tile_rule(x, *extra, multiples):
    known = static_shape_arg(multiples, extra) if extra else TensorShape(multiples)
    if known.rank is None:
        return TensorShape([None] * x.shape.rank if x.shape.rank is not None else None), x.dtype
    multiples = list(known)
    if x.shape.rank is not None and len(multiples) != x.shape.rank:
        raise InvalidArgumentError(f"multiples {multiples} must have one entry per "
                                   f"dimension of the input, which has shape {x.shape}.")
    if any(m is not None and m < 0 for m in multiples):
        raise InvalidArgumentError(f"multiples {multiples} must be non-negative.")
    if x.shape.rank is None:
        return TensorShape([None] * len(multiples)), x.dtype
    return TensorShape([None if d is None or m is None else d * m
                        for d, m in zip(x.shape, multiples)]), x.dtype


def _tile_grad(op, grad):
    """Sum the copies: view the gradient as [m0, d0, m1, d1, ...] and sum over the m axes."""
    x, extra = op.inputs[0], tuple(op.inputs[1:])
    x_shape = static_shape(x)
    multiples = op.get_attr("multiples")
    if extra or x_shape is None or None in x_shape:  # graph mode: shapes read when it runs
        return (execute(TILE_GRAD, (grad, x) + extra, {"multiples": multiples}),) + \
            (None,) * len(extra)
    split_shape = tuple(v for m, d in zip(multiples, x_shape) for v in (m, d))
    summed_shape = tuple(v for d in x_shape for v in (1, d))
    summed = execute(SUM_TO_SHAPE, (reshape(grad, split_shape),), {"shape": summed_shape})
    return reshape(summed, x_shape)


def _raw_tile_grad(input, multiples, name=None):  # noqa: A002
    """TensorFlow's TileGrad: the sum of the tiles of `input` (the result's shape is input's
    divided by multiples; wengert's TileGrad reads it from the tiled tensor instead)."""
    x, multiples = convert_to_tensor(input), tuple(int(m) for m in to_array(multiples))
    dims = tuple(d // m for d, m in zip(static_shape(x), multiples))
    split_shape = tuple(v for m, d in zip(multiples, dims) for v in (m, d))
    summed = execute(SUM_TO_SHAPE, (reshape(x, split_shape),),
                     {"shape": tuple(v for d in dims for v in (1, d))})
    return reshape(summed, dims, name=name)


def _tile_grad_kernel(grad, like, *extra, multiples):
    multiples = resolve_shape(multiples, extra) if extra else multiples
    split_shape = tuple(v for m, d in zip(multiples, like.shape) for v in (m, d))
    return grad.reshape(split_shape).sum(axis=tuple(_pyrange(0, 2 * like.ndim, 2)))


def _tile_grad_rule(grad, like, *extra, multiples):
    return like.shape, grad.dtype


def _tile_kernel(x, *extra, multiples):
    if extra:
        multiples = resolve_shape(multiples, extra)
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


def _tile_grad_grad(op, grad):
    extra = tuple(op.inputs[2:])
    return (execute(TILE, (grad,) + extra, {"multiples": op.get_attr("multiples")}),) + \
        (None,) * (len(op.inputs) - 1)


def _tile_grad_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    return tile(grad, (1,) * nb + tuple(op.get_attr("multiples"))), None


def _known_input_shape(op):
    return len(op.inputs) == 1 and None not in tuple(op.inputs[0].shape)


TILE = defop("Tile", _tile_kernel, shape=_tile_rule, grad=_tile_grad, jvp=linear_in(0),
             batch=_tile_batched, batch_accepts=_known_input_shape,
             onnx=lambda ctx, op, x, *extra: ctx.node(
                 "Tile", [x, ctx.shape_tensor(op.attrs["multiples"], extra)]),
             raw=lambda input, multiples, name=None: tile(input, multiples, name))
TILE_GRAD = defop("TileGrad", _tile_grad_kernel, shape=_tile_grad_rule, grad=_tile_grad_grad,
                  jvp=linear_in(0), batch=_tile_grad_batched,
                  batch_accepts=lambda op: len(op.inputs) == 2, raw=_raw_tile_grad)


def tile(input, multiples, name=None):  # noqa: A002
    """`input` repeated `multiples[i]` times along each axis i (in a graph, multiples may be
    computed tensors known only when it runs: tf.tile(x, [tf.shape(y)[0], 1]))."""
    attr, extra = shape_arg(multiples, "tile: multiples")
    return execute(TILE, (convert_to_tensor(input),) + extra, {"multiples": attr}, name)


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
    shape_rules.check_same_dtype(start, limit, delta)
    for bound in (start, limit, delta):
        if bound.shape.rank not in (0, None):
            raise InvalidArgumentError(f"start, limit and delta must be scalars, got shapes "
                                       f"{[str(b.shape) for b in (start, limit, delta)]}.")
    values = [constant_value(b) for b in (start, limit, delta)]
    count = None if any(v is None for v in values) else _range_count(*(v.item() for v in values))
    return TensorShape([count]), start.dtype


RANGE = defop("Range", _range_kernel, shape=_range_rule, grad=None, onnx="Range",
              args=("start", "limit", "delta"))

_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def _const_rule(value, dtype=None):
    return TensorShape(np.shape(value)), dtypes.as_dtype(np.asarray(value).dtype)


# A graph's constant (Graph.constant makes one for every eager value a graph captures).
CONST = defop("Const", lambda value: value, shape=_const_rule, grad=None, returns_view=True,
              onnx=lambda ctx, op: ctx.const(np.asarray(op.attrs["value"])),
              raw=lambda value, dtype, name=None: constant(value, dtype, name=name or "Const"))


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
    for label, bound in zip(("start", "limit", "delta"), bounds):
        kind = dtypes.as_dtype(bound.dtype)
        if not (kind.is_integer or kind.is_floating) or kind.is_bool:
            raise TypeError(f"range: `{label}` has dtype {kind.name}; range counts in integer "
                            "or floating-point numbers (tf.strings.to_number converts a string "
                            "tensor, tf.cast a bool).")
    if dtype is None:
        dtype = max((dtypes.as_dtype(b.dtype) for b in bounds), key=_RANGE_DTYPES.index)
    dtype = dtypes.as_dtype(dtype)
    bounds = [_as_bound(b, dtype) for b in bounds]
    values = [constant_value(b) for b in bounds]
    if all(v is not None and v.ndim == 0 for v in values):  # else the op explains
        try:
            _range_count(*(v.item() for v in values))
        except InvalidArgumentError as err:
            raise InvalidArgumentError(f"range: {err.message}") from None
    return execute(RANGE, bounds, name=name)


def _as_bound(value, dtype):
    if isinstance(value, np.ndarray):
        return convert_to_tensor(value.astype(dtype._np))
    value = convert_to_tensor(value)
    if value.dtype == dtype:
        return value
    return cast(value, dtype)


_range.__name__ = _range.__qualname__ = "range"


# -- one_hot --------------------------------------------------------------------------------------
def _one_hot_kernel(indices, *extra, depth, on_value, off_value, axis, dtype):
    depth = int(extra[0]) if depth is None else depth
    if depth < 0:
        raise ValueError("depth must be non-negative")
    classes = np.arange(depth).reshape((depth,) + (1,) * (indices.ndim - axis))
    hot = np.expand_dims(indices, axis) == classes
    return np.where(hot, np.asarray(on_value, dtype), np.asarray(off_value, dtype))


def _one_hot_rule(indices, *extra, depth, axis, dtype, **_):
    _check_index_dtype(indices)
    if depth is not None and depth < 0:
        raise InvalidArgumentError(f"depth must be non-negative, got {depth}.")
    if indices.shape.rank is None:
        return TensorShape(None), dtypes.as_dtype(dtype)
    dims = list(indices.shape)
    dims.insert(axis, depth)
    return TensorShape(dims), dtypes.as_dtype(dtype)


def _one_hot_onnx(ctx, op, indices, *extra):
    """ONNX OneHot; negative indices (all off in TensorFlow, counted from the end in ONNX)
    become `depth`, out of range."""
    depth, dtype = op.attrs["depth"], op.attrs["dtype"]
    if depth is None:
        depth_value = ctx.node("Reshape", [ctx.cast(extra[0], np.int64), ctx.int64s([1])])
        out_of_range = ctx.cast(extra[0], op.inputs[0].dtype.as_numpy_dtype)
    else:
        depth_value = ctx.int64s([depth])
        out_of_range = ctx.scalar_like(depth, op.inputs[0])
    index_zero = ctx.scalar_like(0, op.inputs[0])
    indices = ctx.node("Where", [ctx.node("Less", [indices, index_zero]), out_of_range, indices])
    values = ctx.const(np.array([op.attrs["off_value"], op.attrs["on_value"]], dtype))
    return ctx.node("OneHot", [indices, depth_value, values], axis=op.attrs["axis"])


ONE_HOT = defop("OneHot", _one_hot_kernel, shape=_one_hot_rule, grad=None, onnx=_one_hot_onnx,
                tf_inputs=("indices", "depth"),  # depth, when a graph's tensor, is an input
                raw=lambda indices, depth, on_value, off_value, axis=-1, name=None: one_hot(
                    indices, depth, on_value, off_value, axis, name=name))


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """`on_value` at each index along a new axis of size `depth`, `off_value` elsewhere
    (indices outside [0, depth) give a row of `off_value`). In a graph, depth may be a tensor
    known only when it runs."""
    indices = convert_to_tensor(indices)
    shape_rules.check_allowed(ONE_HOT, indices)
    given = [v for v in (on_value, off_value) if v is not None]
    if dtype is None:
        dtype = convert_to_tensor(given[0]).dtype if given else dtypes.float32
    np_dtype = dtypes.as_dtype(dtype)._np
    on = 1 if on_value is None else np.asarray(on_value).item()
    off = 0 if off_value is None else np.asarray(off_value).item()
    axis = indices.ndim if axis is None or axis == -1 else normalize_axis(axis, indices.ndim + 1)
    check_fixed_value(depth, "int32", "one_hot: depth")  # TensorFlow converts it to int32
    depth, extra = scalar_arg(depth, "one_hot: depth")
    return execute(ONE_HOT, (indices,) + extra, {"depth": depth, "on_value": on,
                                                 "off_value": off, "axis": axis,
                                                 "dtype": np_dtype}, name)


range = _range  # noqa: A001  exported as `range`; this module calls the builtin `_pyrange`
