"""Shape and creation ops: where, reshape, transpose, concat, stack, split, tile, fill, range...

Gradients of pure data movement are data movement the other way: the gradient of a reshape is a
reshape back to the input's shape, of a transpose the transpose by the inverse permutation, of a
concat a split into the inputs' sizes (and of a split a concat), of a stack an unstack (and of an
unstack a stack). A tile copies x `m` times along each axis, so its gradient sums the copies:
view the gradient as [m0, d0, m1, d1, ...] and sum over the m axes. `where` (Select) routes each
element's gradient to the branch it was taken from: the condition gets None, x gets g where the
condition held and 0 elsewhere, y the rest. `fill(dims, value)` broadcasts a scalar, so the
value's gradient is the sum of g. Creation ops (zeros, eye, range) and shape queries (shape,
size, rank) are not differentiable; `stop_gradient` is the identity with no gradient.

Kernels return NumPy views where NumPy can (reshape, transpose, expand_dims, squeeze, split,
unstack): tensors are immutable, so sharing memory is safe and these ops cost O(1). Gathering,
slicing, padding and reversing live in `indexing_ops` and are re-exported here.
"""
import builtins
import operator

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import binary_operands, execute
from ..framework.registry import defop
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import shapes
from .array_core import SUM_TO_SHAPE, _like_source, zeros_like

__all__ = ["where", "reshape", "transpose", "expand_dims", "squeeze", "concat", "stack",
           "unstack", "split", "tile", "identity", "stop_gradient", "fill",
           "zeros", "ones", "eye", "range", "shape", "size", "rank", "newaxis"]

_pyrange = builtins.range  # this module exports `range`
newaxis = None


def _prod(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def _axis(axis, rank, what="axis"):
    """`axis` as a non-negative int for a tensor of `rank` (InvalidArgumentError if out of range)."""
    axis = int(axis)
    if rank is None:
        return axis
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"{what} {axis} is out of range for a tensor of rank {rank}; "
                                   f"expected a value in [{-rank}, {rank}).")
    return axis % rank


def _int_tuple(values, what):
    """A tuple of Python ints from a list, tuple, TensorShape, ndarray or (eager) int tensor."""
    if isinstance(values, Tensor) or hasattr(values, "_as_tensor"):
        values = convert_to_tensor(values)
        if not values.dtype.is_integer:
            raise TypeError(f"{what} must be integers, got a {values.dtype.name} tensor.")
        values = values._value
    if isinstance(values, (int, np.integer)):
        return (int(values),)
    if type(values) in (list, tuple, TensorShape):
        try:
            return tuple(operator.index(v) for v in values)
        except TypeError:
            pass  # nested lists, NumPy scalars of other kinds: the general path below
    try:
        return tuple(int(v) for v in np.asarray(values).reshape(-1))
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a list of integers, got {values!r}.") from None


# -- where (Select) ------------------------------------------------------------------------------
def _select_rule(condition, x, y):
    if not condition.dtype.is_bool:
        raise InvalidArgumentError(f"condition must be bool, got {condition.dtype.name}.")
    shapes.check_same_dtype(x, y)
    out = shapes.broadcast_shapes(shapes.broadcast_shapes(condition.shape, x.shape), y.shape)
    return out, x.dtype


def _select_grad(op, grad):
    condition = op.inputs[0]
    zeros = zeros_like(grad)
    dx = where(condition, grad, zeros) if 1 not in op.skip_input_indices else None
    dy = where(condition, zeros, grad) if 2 not in op.skip_input_indices else None
    return None, dx, dy


SELECT = defop("SelectV2", np.where, shape=_select_rule, grad=_select_grad)


def _where_indices_rule(condition):
    return TensorShape([None, condition.shape.rank]), dtypes.int64


WHERE_INDICES = defop("Where", lambda c: np.argwhere(c).astype(np.int64),
                      shape=_where_indices_rule, grad=None)


def where(condition, x=None, y=None, name=None):
    """Elementwise `x if condition else y` (broadcasting), or, with only `condition`, the
    coordinates of its True entries as an int64 [n, rank] tensor."""
    condition = convert_to_tensor(condition, dtype_hint=dtypes.bool)
    if x is None and y is None:
        return execute(WHERE_INDICES, (condition,), name=name)
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither.")
    if not condition.dtype.is_bool:
        raise TypeError(f"where: condition must be a bool tensor, got {condition.dtype.name}; "
                        "compare it with a value first, e.g. where(x > 0, ...).")
    x, y = binary_operands(x, y, "SelectV2")
    return execute(SELECT, (condition, x, y), name=name)


# -- reshape, expand_dims, squeeze, transpose ----------------------------------------------------
def _reshape_rule(x, shape):
    dims = list(shape)
    if dims.count(-1) > 1 or any(d < -1 for d in dims):
        raise InvalidArgumentError(f"shape {list(shape)} may hold at most one -1 and no other "
                                   "negative sizes.")
    total = x.shape.num_elements()
    if -1 in dims:
        known = _prod(d for d in dims if d != -1)
        inferred = None
        if total is not None and known:
            if total % known:
                raise InvalidArgumentError(
                    f"cannot reshape a tensor with {total} elements (shape {x.shape}) to "
                    f"{list(shape)}: {total} is not a multiple of {known}, the product of the "
                    "known dimensions.")
            inferred = total // known
        elif total == 0 and not known:
            raise InvalidArgumentError(f"cannot infer the -1 in {list(shape)} for a tensor with "
                                       "0 elements: the other dimensions multiply to 0.")
        dims[dims.index(-1)] = inferred
    elif total is not None and _prod(dims) != total:
        raise InvalidArgumentError(f"cannot reshape a tensor with {total} elements (shape "
                                   f"{x.shape}) to {list(shape)}, which has {_prod(dims)}.")
    return TensorShape(dims), x.dtype


def _reshape_back(op, grad):
    return reshape(grad, op.inputs[0].shape)


RESHAPE = defop("Reshape", lambda x, shape: x.reshape(shape), shape=_reshape_rule,
                grad=_reshape_back)


def reshape(tensor, shape, name=None):
    """`tensor` with the same elements in a new shape; one dimension may be -1 (inferred)."""
    return execute(RESHAPE, (convert_to_tensor(tensor),),
                   {"shape": _int_tuple(shape, "reshape: shape")}, name)


def _expand_dims_rule(x, axis):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    axis = _axis(axis, x.shape.rank + 1)
    dims = list(x.shape)
    dims.insert(axis, 1)
    return TensorShape(dims), x.dtype


def _expand_dims_kernel(x, axis):
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise ValueError(f"axis {axis} is out of range for rank {x.ndim}")
    at = axis if axis >= 0 else x.ndim + 1 + axis
    return x.reshape(x.shape[:at] + (1,) + x.shape[at:])  # a view, like np.expand_dims


EXPAND_DIMS = defop("ExpandDims", _expand_dims_kernel,
                    shape=_expand_dims_rule, grad=_reshape_back)


def expand_dims(input, axis, name=None):  # noqa: A002 (TensorFlow's argument name)
    """`input` with a new axis of size 1 at `axis` (-1 appends one)."""
    return execute(EXPAND_DIMS, (convert_to_tensor(input),), {"axis": int(axis)}, name)


def _squeeze_rule(x, axis):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    rank = x.shape.rank
    if axis is None:
        if None in x.shape:
            return TensorShape(None), x.dtype
        return TensorShape([d for d in x.shape if d != 1]), x.dtype
    axes = {_axis(a, rank) for a in axis}
    for a in axes:
        if x.shape[a] not in (1, None):
            raise InvalidArgumentError(f"cannot squeeze axis {a} of shape {x.shape}: its size "
                                       f"is {x.shape[a]}, not 1.")
    return TensorShape([d for i, d in enumerate(x.shape) if i not in axes]), x.dtype


SQUEEZE = defop("Squeeze", lambda x, axis: np.squeeze(x, axis), shape=_squeeze_rule,
                grad=_reshape_back)


def squeeze(input, axis=None, name=None):  # noqa: A002
    """`input` without its size-1 axes (only those in `axis`, when given)."""
    axis = None if axis is None else _int_tuple(axis, "squeeze: axis")
    return execute(SQUEEZE, (convert_to_tensor(input),), {"axis": axis}, name)


def _transpose_rule(x, perm):
    if x.shape.rank is not None and sorted(perm) != list(_pyrange(x.shape.rank)):
        raise InvalidArgumentError(f"perm {list(perm)} is not a permutation of the axes of a "
                                   f"tensor of shape {x.shape} (rank {x.shape.rank}).")
    if x.shape.rank is None:
        return TensorShape([None] * len(perm)), x.dtype
    return TensorShape([x.shape[p] for p in perm]), x.dtype


def _transpose_grad(op, grad):
    return transpose(grad, tuple(int(i) for i in np.argsort(op.get_attr("perm"))))


TRANSPOSE = defop("Transpose", lambda x, perm: x.transpose(perm), shape=_transpose_rule,
                  grad=_transpose_grad)


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """`a` with its axes permuted: output axis i is input axis perm[i] (default: reversed)."""
    a = convert_to_tensor(a)
    if perm is None:
        perm = tuple(_pyrange(a.ndim - 1, -1, -1))
    else:
        perm = tuple(p % a.ndim if -a.ndim <= p < 0 else p
                     for p in _int_tuple(perm, "transpose: perm"))
    return execute(TRANSPOSE, (a,), {"perm": perm}, None if name == "transpose" else name)


# -- concat, stack, unstack, split -----------------------------------------------------------
def _check_same_rank(inputs, what):
    ranks = {t.shape.rank for t in inputs if t.shape.rank is not None}
    if len(ranks) > 1:
        raise InvalidArgumentError(f"{what} needs inputs of one rank, got shapes "
                                   f"{[str(t.shape) for t in inputs]}.")
    return ranks.pop() if ranks else None


def _concat_rule(*inputs, axis):
    shapes.check_same_dtype(*inputs)
    rank = _check_same_rank(inputs, "concat")
    if rank is None:
        return TensorShape(None), inputs[0].dtype
    if rank == 0:
        raise InvalidArgumentError("cannot concatenate scalars; use stack instead.")
    axis = _axis(axis, rank)
    dims = list(inputs[0].shape)
    for t in inputs[1:]:
        for i, (a, b) in enumerate(zip(dims, t.shape)):
            if i != axis and a is not None and b is not None and a != b:
                raise InvalidArgumentError(
                    f"concat along axis {axis}: inputs must match in every other dimension, got "
                    f"shapes {[str(t.shape) for t in inputs]} (dimension {i} differs).")
            if i != axis and a is None:
                dims[i] = b
    sizes = [t.shape[axis] for t in inputs]
    dims[axis] = None if None in sizes else sum(sizes)
    return TensorShape(dims), inputs[0].dtype


def _concat_grad(op, grad):
    axis = op.get_attr("axis")
    sizes = [t.shape[axis] for t in op.inputs]
    return list(execute(SPLIT_V, (grad,), {"size_splits": tuple(sizes), "axis": axis}))


CONCAT = defop("ConcatV2", lambda *xs, axis: np.concatenate(xs, axis), shape=_concat_rule,
               grad=_concat_grad)


def concat(values, axis, name="concat"):
    """The tensors in `values` joined along `axis` (they agree in every other dimension)."""
    tensors = [convert_to_tensor(v) for v in values]
    if not tensors:
        raise ValueError("concat: values must be a non-empty list of tensors.")
    if len(tensors) == 1:
        return identity(tensors[0])
    axis = _axis(axis, tensors[0].ndim, "concat: axis") if tensors[0].ndim else int(axis)
    return execute(CONCAT, tensors, {"axis": axis}, None if name == "concat" else name)


def _pack_rule(*inputs, axis):
    shapes.check_same_dtype(*inputs)
    out = inputs[0].shape
    for t in inputs[1:]:
        if not out.is_compatible_with(t.shape):
            raise InvalidArgumentError(f"stack needs inputs of one shape, got shapes "
                                       f"{[str(t.shape) for t in inputs]}.")
        out = out.merge_with(t.shape)
    if out.rank is None:
        return TensorShape(None), inputs[0].dtype
    dims = list(out)
    dims.insert(_axis(axis, out.rank + 1), len(inputs))
    return TensorShape(dims), inputs[0].dtype


PACK = defop("Pack", lambda *xs, axis: np.stack(xs, axis), shape=_pack_rule,
             grad=lambda op, grad: unstack(grad, len(op.inputs), op.get_attr("axis")))


def stack(values, axis=0, name="stack"):
    """The tensors in `values` (one shape) stacked along a new axis `axis`."""
    tensors = [convert_to_tensor(v) for v in values]
    if not tensors:
        raise ValueError("stack: values must be a non-empty list of tensors.")
    axis = _axis(axis, tensors[0].ndim + 1, "stack: axis")
    return execute(PACK, tensors, {"axis": axis}, None if name == "stack" else name)


def _unpack_kernel(x, num, axis):
    lead = (builtins.slice(None),) * axis
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


UNPACK = defop("Unpack", _unpack_kernel, shape=_unpack_rule, num_outputs=None,
               grad=lambda op, *grads: stack(grads, op.get_attr("axis")))


def unstack(value, num=None, axis=0, name="unstack"):
    """The slices of `value` along `axis`, as a list of tensors of rank one less."""
    value = convert_to_tensor(value)
    if value.ndim == 0:
        raise ValueError("unstack: cannot unstack a scalar (rank 0) tensor.")
    axis = _axis(axis, value.ndim, "unstack: axis")
    size = value.shape[axis]
    if num is not None and size is not None and num != size:
        raise ValueError(f"unstack: num={num} does not match dimension {axis} of shape "
                         f"{value.shape}.")
    num = size if num is None else num
    if num is None:
        raise ValueError(f"unstack: cannot infer num from shape {value.shape}; pass num.")
    return list(execute(UNPACK, (value,), {"num": num, "axis": axis},
                        None if name == "unstack" else name))


def _split_kernel(x, size_splits, axis):
    cuts = np.cumsum(size_splits[:-1])
    return tuple(np.split(x, cuts, axis))


def _split_rule(x, size_splits, axis):
    if x.shape.rank is None:
        return [(TensorShape(None), x.dtype)] * len(size_splits)
    dim = x.shape[_axis(axis, x.shape.rank)]
    if dim is not None and sum(size_splits) != dim:
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
    return concat(grads, op.get_attr("axis"))


SPLIT_V = defop("SplitV", _split_kernel, shape=_split_rule, grad=_split_grad, num_outputs=None)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`value` cut along `axis` into `num_or_size_splits` equal parts, or parts of the given
    sizes (one size may be -1: the rest)."""
    value = convert_to_tensor(value)
    axis = _axis(axis, value.ndim, "split: axis")
    dim = value.shape[axis]
    if isinstance(num_or_size_splits, (int, np.integer)):
        parts = int(num_or_size_splits)
        if parts <= 0 or dim % parts:
            raise InvalidArgumentError(f"Split: cannot split dimension {axis} of shape "
                                       f"{value.shape} (size {dim}) into {parts} equal parts; "
                                       "pass a list of sizes instead.")
        sizes = (dim // parts,) * parts
    else:
        sizes = list(_int_tuple(num_or_size_splits, "split: num_or_size_splits"))
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = dim - (sum(sizes) + 1)
        if sum(sizes) != dim or any(s < 0 for s in sizes):
            raise InvalidArgumentError(f"SplitV: sizes {list(num_or_size_splits)} do not add "
                                       f"up to dimension {axis} of shape {value.shape} "
                                       f"(size {dim}).")
        sizes = tuple(sizes)
    return list(execute(SPLIT_V, (value,), {"size_splits": sizes, "axis": axis},
                        None if name == "split" else name))


# -- tile -----------------------------------------------------------------------------------------
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
    x_shape = tuple(op.inputs[0].shape)
    multiples = op.get_attr("multiples")
    split_shape = tuple(v for m, d in zip(multiples, x_shape) for v in (m, d))
    summed_shape = tuple(v for d in x_shape for v in (1, d))
    summed = execute(SUM_TO_SHAPE, (reshape(grad, split_shape),), {"shape": summed_shape})
    return reshape(summed, x_shape)


def _tile_kernel(x, multiples):
    if len(multiples) != x.ndim:  # NumPy would prepend axes; TensorFlow refuses
        raise ValueError("multiples do not match the rank")
    return np.tile(x, multiples)


TILE = defop("Tile", _tile_kernel, shape=_tile_rule, grad=_tile_grad)


def tile(input, multiples, name=None):  # noqa: A002
    """`input` repeated `multiples[i]` times along each axis i."""
    return execute(TILE, (convert_to_tensor(input),),
                   {"multiples": _int_tuple(multiples, "tile: multiples")}, name)


# -- identity, stop_gradient ---------------------------------------------------------------------
IDENTITY = defop("Identity", lambda x: x, shape=shapes.same, grad=lambda op, grad: grad)
STOP_GRADIENT = defop("StopGradient", lambda x: x, shape=shapes.same, grad=None)


def identity(input, name=None):  # noqa: A002
    """`input` unchanged (a new tensor with the same value)."""
    return execute(IDENTITY, (convert_to_tensor(input),), name=name)


def stop_gradient(input, name=None):  # noqa: A002
    """`input` unchanged, but gradients do not flow through it (it acts as a constant)."""
    return execute(STOP_GRADIENT, (convert_to_tensor(input),), name=name)


# -- creation: fill, zeros, ones, eye, range -------------------------------------------------------
def _fill_rule(value, dims):
    if value.shape.rank not in (0, None):
        raise InvalidArgumentError(f"value must be a scalar, got shape {value.shape}.")
    return TensorShape(dims), value.dtype


# The output broadcasts the scalar value; the reverse pass sums the gradient back to it.
def _fill_kernel(value, dims):
    if value.ndim:
        raise ValueError("value must be a scalar")
    return np.full(dims, value)


FILL = defop("Fill", _fill_kernel, shape=_fill_rule,
             grad=lambda op, grad: grad)


def fill(dims, value, name=None):
    """A tensor of shape `dims` whose every element is the scalar `value`."""
    return execute(FILL, (convert_to_tensor(value),), {"dims": _int_tuple(dims, "fill: dims")},
                   name)


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
    batch = () if batch_shape is None else _int_tuple(batch_shape, "eye: batch_shape")
    return execute(EYE, (), {"num_rows": int(num_rows), "num_columns": int(num_columns),
                             "batch_shape": batch, "dtype": dtypes.as_dtype(dtype)._np}, name)


def _range_count(start, limit, delta):
    if delta == 0:
        raise InvalidArgumentError("delta must not be 0.")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise InvalidArgumentError(f"start {start} cannot reach limit {limit} with delta "
                                   f"{delta}: need start <= limit when delta > 0 and start >= "
                                   "limit when delta < 0.")
    return int(np.ceil(abs((limit - start) / delta)))


def _range_kernel(start, limit, delta, dtype):
    count = _range_count(start, limit, delta)
    return (start + delta * np.arange(count, dtype=np.float64 if dtype.kind == "f" else np.int64)
            ).astype(dtype)


def _range_rule(start, limit, delta, dtype):
    return TensorShape([_range_count(start, limit, delta)]), dtypes.as_dtype(dtype)


RANGE = defop("Range", _range_kernel, shape=_range_rule, grad=None)


_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def _range(start, limit=None, delta=1, dtype=None, name="range"):
    """[start, start + delta, ...] up to (not including) limit; range(n) is [0, ..., n-1].

    Without `dtype` the widest of the arguments' dtypes is used (Python ints: int32, floats:
    float32), as in TensorFlow."""
    if limit is None:
        start, limit = 0, start
    args = [convert_to_tensor(v) for v in (start, limit, delta)]
    if dtype is None:
        dtype = max((a.dtype for a in args), key=_RANGE_DTYPES.index)
    np_dtype = dtypes.as_dtype(dtype)._np
    cast = float if np_dtype.kind == "f" else int
    start, limit, delta = (cast(a._value[()]) for a in args)
    try:
        _range_count(start, limit, delta)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"range: {err}") from None
    attrs = {"start": start, "limit": limit, "delta": delta, "dtype": np_dtype}
    return execute(RANGE, (), attrs, None if name == "range" else name)


_range.__name__ = _range.__qualname__ = "range"


# -- shape queries -------------------------------------------------------------------------------
def _query(op_type, kernel, out_shape):
    op_def = defop(op_type, kernel,
                   shape=lambda x, out_type: (out_shape(x), dtypes.as_dtype(out_type)), grad=None)

    def query(input, out_type=dtypes.int32, name=None):  # noqa: A002
        x = _like_source(input)
        return execute(op_def, (x,), {"out_type": dtypes.as_dtype(out_type)._np}, name)
    return op_def, query


SHAPE, shape = _query("Shape", lambda x, out_type: np.array(x.shape, dtype=out_type),
                      lambda x: TensorShape([x.shape.rank]))
SIZE, size = _query("Size", lambda x, out_type: np.array(x.size, dtype=out_type),
                    lambda x: TensorShape([]))
_RANK, _rank_query = _query("Rank", lambda x, out_type: np.array(x.ndim, dtype=out_type),
                            lambda x: TensorShape([]))
shape.__name__, shape.__doc__ = "shape", "The shape of `input` as a 1-D integer tensor."
size.__name__, size.__doc__ = "size", "The number of elements of `input` (a scalar)."


def rank(input, name=None):  # noqa: A002
    """The number of dimensions of `input` (an int32 scalar)."""
    return _rank_query(input, name=name)


range = _range  # noqa: A001  exported as `range`; this module calls the builtin `_pyrange`

from .indexing_ops import *  # noqa: E402,F401,F403  gather, slices, pad, reverse, one_hot
from .indexing_ops import __all__ as _indexing_all  # noqa: E402

__all__ += _indexing_all
