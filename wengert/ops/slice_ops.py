"""Slicing ops: slice(x, begin, size) (`Slice`) and strided slices, `x[begin:end:step]` and
tf.strided_slice (`StridedSlice`), with the gradient op that puts a slice back into zeros
(`StridedSliceGrad`).

A slice selects a block of x, so its gradient is the incoming gradient written into zeros of x's
shape at the sliced positions; that op's own gradient is the strided slice again, which gives
second order. Its forward-mode rule is the op itself (it is linear).

A strided slice is described by a `spec` attribute, one entry per index term: an int (an index,
which drops the axis), None (newaxis), Ellipsis, or a (start, stop, step) triple for a slice.
When a bound is a tensor known only when the graph runs (`x[:n]` with n = tf.shape(y)[0], `x[i]`
with i a while_loop counter), its entry is `DYNAMIC` ("?") and the value is the op's next extra
input, an integer scalar read when the graph runs; the shape rule then leaves that dimension
unknown (or drops the axis, for an index). Bounds known while the graph is built stay
attributes, so eager and static-graph slicing cost what they did. `Slice` does the same with its
begin and size arguments (shapes.shape_arg: a tuple with None at the entries read from extra
inputs, or a whole vector input). Every gradient op takes the same extra inputs, so slices with
run-time bounds differentiate to any order.
"""
import builtins
import functools

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear_in
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .shape_rules import batch_rank, static_shape
from .query_ops import shape as shape_of
from .shape_rules import (DYNAMIC, SHAPE_VECTOR, int_tuple, is_tensor_like, resolve_shape, shape_arg,
                     split_extras, static_int, static_shape_arg)

__all__ = ["slice", "strided_slice"]

_pyslice = builtins.slice  # this module exports `slice`
_pyrange = builtins.range
INT64_MAX, INT64_MIN = np.iinfo(np.int64).max, np.iinfo(np.int64).min  # ONNX Slice's open ends
_FULL = (None, None, None)


# -- specs ---------------------------------------------------------------------------------------
def is_dynamic(v):
    return type(v) is str  # DYNAMIC (attributes hold no other strings)


def resolve_spec(spec, extra):
    """`spec` with each DYNAMIC entry replaced by the next extra input's value, in order."""
    values = iter(extra)
    out = []
    for s in spec:
        if type(s) is tuple:
            out.append(tuple(int(next(values)) if is_dynamic(v) else v for v in s))
        else:
            out.append(int(next(values)) if is_dynamic(s) else s)
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _to_key(spec):
    """The NumPy index for a spec (cached: a training loop indexes with the same few specs).
    It always holds an Ellipsis, so indexing gives an array even where every axis is indexed by
    an int (NumPy would return a scalar there, and a scalar operand costs every later op more)."""
    return _key(spec)


def _key(spec):
    key = tuple(_pyslice(*s) if type(s) is tuple else s for s in spec)
    return key if Ellipsis in spec else key + (Ellipsis,)


def _spec_shape(shape, spec):
    """The shape `x[spec]` has for x of `shape` (None dims stay unknown where they matter, and
    so do dims sliced with bounds known only when the graph runs)."""
    consumed = sum(1 for s in spec if s is not None and s is not Ellipsis)
    if spec.count(Ellipsis) > 1:
        raise InvalidArgumentError("an index can only have a single ellipsis ('...').")
    if shape.rank is None:
        return TensorShape(None)
    if consumed > shape.rank:
        raise InvalidArgumentError(f"too many indices ({consumed}) for a tensor of shape "
                                   f"{shape} (rank {shape.rank}).")
    out, dims = [], iter(shape)
    for s in _full_spec(spec, shape.rank):
        if s is None:
            out.append(1)
            continue
        d = next(dims)
        if type(s) is tuple:
            if s[2] == 0:
                raise InvalidArgumentError("slice step cannot be zero.")
            if d is None or any(is_dynamic(v) for v in s):
                out.append(None)
            else:
                out.append(len(_pyrange(*_pyslice(*s).indices(d))))
        elif not is_dynamic(s) and d is not None and not -d <= s < d:
            raise InvalidArgumentError(f"index {s} is out of bounds for a dimension of size "
                                       f"{d} in shape {shape}; valid indices are {-d} to "
                                       f"{d - 1}.")
    return TensorShape(out)


def _full_spec(spec, rank):
    """`spec` with its Ellipsis (or the missing trailing axes) spelled out as full slices."""
    consumed = sum(1 for s in spec if s is not None and s is not Ellipsis)
    fill = (_FULL,) * (rank - consumed)
    if Ellipsis in spec:
        at = spec.index(Ellipsis)
        return tuple(spec[:at]) + fill + tuple(spec[at + 1:])
    return tuple(spec) + fill


class SpecBuilder:
    """Collects spec entries from Python values and tensors: a value known while the graph is
    built becomes an int entry, any other integer scalar tensor a DYNAMIC entry and an extra
    input (`extra`, in order)."""

    def __init__(self):
        self.extra = []

    def bound(self, v, what="a slice bound"):
        """An int, None, or DYNAMIC (recording v as an extra input)."""
        if v is None or type(v) is int:
            return v
        known = static_int(v, what)
        if known is not None:
            return known
        self.extra.append(convert_to_tensor(v))
        return DYNAMIC

    def entry(self, k):
        """One `x[...]` key entry as a spec entry, or NotImplemented for an advanced index (an
        int vector, a list, a bool mask)."""
        if k is None or k is Ellipsis or type(k) is int:
            return k
        if type(k) is _pyslice:
            return (self.bound(k.start), self.bound(k.stop), self.bound(k.step))
        if isinstance(k, (bool, np.bool_)):
            return NotImplemented
        if isinstance(k, (int, np.integer)):
            return int(k)
        if is_tensor_like(k):
            t = convert_to_tensor(k)
            if t.shape.rank == 0 and t.dtype.is_integer:
                return self.bound(t, "an index")
        return NotImplemented


# -- StridedSlice and its gradient ---------------------------------------------------------------
def _strided_slice_kernel(x, *extra, spec):
    if extra:
        return x[_key(resolve_spec(spec, extra))]
    return x[spec[0], ...] if len(spec) == 1 and type(spec[0]) is int else x[_to_key(spec)]


def _strided_slice_grad_kernel(grad, *rest, shape, spec):
    if shape is None:  # the input itself comes first: zeros of its shape
        shape, rest = rest[0].shape, rest[1:]
    out = np.zeros(shape, grad.dtype)
    out[_key(resolve_spec(spec, rest)) if rest else _to_key(spec)] = grad
    return out


def _strided_slice_grad_rule(grad, *rest, shape, spec):
    return (rest[0].shape if shape is None else TensorShape(shape)), grad.dtype


def into_zeros(x, grad, spec, extra=()):
    """Zeros of x's shape holding `grad` at x[spec] (x itself is passed when its shape is known
    only when the graph runs)."""
    shape = static_shape(x)
    if shape is None or None in shape:
        return execute(STRIDED_SLICE_GRAD, (grad, x) + tuple(extra), {"shape": None, "spec": spec})
    return execute(STRIDED_SLICE_GRAD, (grad,) + tuple(extra), {"shape": shape, "spec": spec})


def _strided_slice_grad(op, grad):
    extra = op.inputs[1:]
    return (into_zeros(op.inputs[0], grad, op.attrs["spec"], extra),) + (None,) * len(extra)


def _strided_slice_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    extra = tuple(op.inputs[1:])
    full = (_FULL,) * nb + tuple(op.get_attr("spec"))
    shape = tuple(grad.shape[:nb]) + tuple(op.inputs[0].shape)
    back = execute(STRIDED_SLICE_GRAD, (grad,) + extra, {"shape": shape, "spec": full})
    return (back,) + (None,) * len(extra)


def _grad_extra(op):
    """The extra inputs of a StridedSliceGrad (after its gradient and `like` input)."""
    return tuple(op.inputs[1 if op.attrs["shape"] is not None else 2:])


def _strided_slice_grad_grad(op, grad):
    again = execute(STRIDED_SLICE, (grad,) + _grad_extra(op), {"spec": op.get_attr("spec")})
    return (again,) + (None,) * (len(op.inputs) - 1)


def _strided_slice_grad_batched(op, grad):
    full = (_FULL,) * batch_rank(grad, op.outputs[0]) + tuple(op.get_attr("spec"))
    again = execute(STRIDED_SLICE, (grad,) + _grad_extra(op), {"spec": full})
    return (again,) + (None,) * (len(op.inputs) - 1)


def _onnx_entry(ctx, v, extras):
    """A spec bound as an int64 [1] ONNX value: a constant, or the next extra input."""
    if not is_dynamic(v):
        return ctx.int64s([v])
    return ctx.node("Reshape", [ctx.cast(next(extras), np.int64), ctx.int64s([1])])


def _onnx_index_end(ctx, start):
    """The end of index `start`'s one-element range: start + 1, or to the end for -1."""
    end = ctx.node("Add", [start, ctx.int64s([1])])
    return ctx.node("Where", [ctx.node("Equal", [end, ctx.int64s([0])]),
                              ctx.int64s([INT64_MAX]), end])


def _strided_slice_onnx(ctx, op, x, *extra):
    """One ONNX Slice over the sliced and indexed axes, then Squeeze the indexed axes and
    Unsqueeze the new ones (None entries). Bounds read from extra inputs become graph values."""
    starts, ends, axes, steps, squeezed, added = [], [], [], [], [], []
    extras = iter(extra)
    in_axis = out_axis = 0
    for s in _full_spec(op.attrs["spec"], ctx.rank(op.inputs[0])):
        if s is None:
            added.append(out_axis)
            out_axis += 1
            continue
        if type(s) is tuple:
            start, stop, step = s
            step = 1 if step is None else step
            if is_dynamic(step):
                ctx.fail("a slice step known only when the graph runs has no ONNX lowering.")
            if not (start in (None, 0) and stop is None and step == 1):  # not a full slice
                starts.append(_onnx_entry(ctx, (0 if step > 0 else INT64_MAX)
                                          if start is None else start, extras))
                ends.append(_onnx_entry(ctx, (INT64_MAX if step > 0 else INT64_MIN)
                                        if stop is None else stop, extras))
                axes.append(in_axis)
                steps.append(step)
            out_axis += 1
        else:
            start = _onnx_entry(ctx, s, extras)
            starts.append(start)
            ends.append(_onnx_index_end(ctx, start) if is_dynamic(s) else
                        ctx.int64s([INT64_MAX if s == -1 else s + 1]))
            axes.append(in_axis)
            steps.append(1)
            squeezed.append(in_axis)
        in_axis += 1
    if axes:
        x = ctx.node("Slice", [x, _concat_onnx(ctx, starts), _concat_onnx(ctx, ends),
                               ctx.int64s(axes), ctx.int64s(steps)])
    out = ctx.unsqueeze(ctx.squeeze(x, squeezed), added)
    return out if squeezed or added or axes else ctx.node("Identity", [x])


def _concat_onnx(ctx, parts):
    return parts[0] if len(parts) == 1 else ctx.node("Concat", parts, axis=0)


def _strided_slice_partial(op, x, *extra):
    """Entries picked from a vector known in part (`tf.shape(x)[1:]`, `[..][0]`)."""
    spec = op.attrs["spec"]
    if type(x) is not list or len(spec) != 1 or None in extra or any(
            type(e) is not int for e in extra):
        return None
    entry = resolve_spec(spec, extra)[0] if extra else spec[0]
    if type(entry) is tuple:
        return x[_pyslice(*entry)]
    return x[entry] if type(entry) is int and -len(x) <= entry < len(x) else None


STRIDED_SLICE = defop(
    "StridedSlice", _strided_slice_kernel, onnx=_strided_slice_onnx,
    partial_value=_strided_slice_partial,
    shape=lambda x, *extra, spec: (_spec_shape(x.shape, spec), x.dtype),
    grad=_strided_slice_grad, jvp=linear_in(0), batch=_strided_slice_batched,
    returns_view=True, index_key=lambda spec: _to_key(spec),  # (with no extra inputs)
    raw=lambda input, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
    new_axis_mask=0, shrink_axis_mask=0, name=None: strided_slice(
        input, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
        shrink_axis_mask, name))
STRIDED_SLICE_GRAD = defop(
    "StridedSliceGrad", _strided_slice_grad_kernel, shape=_strided_slice_grad_rule,
    grad=_strided_slice_grad_grad, jvp=linear_in(0), batch=_strided_slice_grad_batched,
    batch_accepts=lambda op: op.attrs["shape"] is not None,
    raw=lambda shape, begin, end, strides, dy, begin_mask=0, end_mask=0, ellipsis_mask=0,
    new_axis_mask=0, shrink_axis_mask=0, name=None: _raw_strided_slice_grad(
        shape, begin, end, strides, dy, (begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                                         shrink_axis_mask), name))


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, name=None):
    """`input_[begin:end:strides]` with TensorFlow's bit masks (bit i refers to entry i). The
    bounds may be tensors known only when the graph runs (their number must be known)."""
    spec, extra = _slice_spec(begin, end, strides, (begin_mask, end_mask, ellipsis_mask,
                                                    new_axis_mask, shrink_axis_mask))
    return execute(STRIDED_SLICE, (convert_to_tensor(input_),) + extra, {"spec": spec}, name)


def _raw_strided_slice_grad(shape, begin, end, strides, dy, masks, name):
    """TensorFlow's StridedSliceGrad: zeros of `shape` holding dy at the slice."""
    spec, extra = _slice_spec(begin, end, strides, masks)
    return execute(STRIDED_SLICE_GRAD, (convert_to_tensor(dy),) + extra,
                   {"shape": int_tuple(shape, "StridedSliceGrad: shape"), "spec": spec}, name)


def _slice_spec(begin, end, strides, masks):
    """strided_slice's spec and the extra inputs its bounds read, from TensorFlow's arguments
    (masks: begin, end, ellipsis, new axis and shrink axis)."""
    begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask = masks
    builder = SpecBuilder()
    begin, end = _bounds(begin, "begin"), _bounds(end, "end")
    strides = (1,) * len(begin) if strides is None else _bounds(strides, "strides")
    if not len(begin) == len(end) == len(strides):
        raise InvalidArgumentError(
            f"strided_slice: begin {list(begin)}, end {list(end)} and strides {list(strides)} "
            "must have the same length (one entry per sliced dimension).")
    spec = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            spec.append(Ellipsis)
        elif new_axis_mask & bit:
            spec.append(None)
        elif shrink_axis_mask & bit:
            spec.append(builder.bound(b, "begin"))
        else:
            spec.append((None if begin_mask & bit else builder.bound(b, "begin"),
                         None if end_mask & bit else builder.bound(e, "end"),
                         builder.bound(s, "strides")))
    return tuple(spec), tuple(builder.extra)


def _bounds(values, what):
    """A list of ints and integer scalar tensors from a list, tuple, array or int vector."""
    if is_tensor_like(values):
        vector = convert_to_tensor(values)
        try:
            return int_tuple(vector, what)
        except TypeError:
            pass
        if vector.shape.rank != 1 or vector.shape[0] is None:
            raise InvalidArgumentError(f"strided_slice: {what} must be a vector whose length is "
                                       f"known while the graph is built, got {vector.shape}.")
        return [vector[i] for i in _pyrange(vector.shape[0])]
    if isinstance(values, (list, tuple)):
        return list(values)
    return list(int_tuple(values, what))


# -- Slice (begin, size) ---------------------------------------------------------------------------
def _known(attr, extra):
    """A begin/size attribute as a list with None at entries known only when the graph runs
    (None altogether when even their number is unknown)."""
    if attr != SHAPE_VECTOR and None not in attr:
        return list(attr)
    shape = static_shape_arg(attr, extra)
    return None if shape.rank is None else list(shape)


def _slice_rule(x, *extra, begin, size):
    begin_extra, size_extra = split_extras((begin, size), extra)
    begin, size = _known(begin, begin_extra), _known(size, size_extra)
    rank = x.shape.rank
    for entries in (begin, size):
        if entries is not None and rank is not None and len(entries) != rank:
            raise InvalidArgumentError(f"begin {begin} and size {size} need one entry per "
                                       f"dimension of shape {x.shape}.")
        rank = len(entries) if entries is not None else rank
    if rank is None:
        return TensorShape(None), x.dtype
    dims = list(x.shape) if x.shape.rank is not None else [None] * rank
    begin = begin if begin is not None else [None] * rank
    size = size if size is not None else [None] * rank
    out = []
    for d, b, s in zip(dims, begin, size):
        if s == -1:
            s = d - b if d is not None and b is not None else None
        bad = (b is not None and b < 0) or (s is not None and s < 0) or (
            d is not None and b is not None and s is not None and b + s > d)
        if bad:
            raise InvalidArgumentError(f"slice begin {begin}, size {size} does not fit inside "
                                       f"shape {x.shape}: need 0 <= begin[i] and begin[i] + "
                                       "size[i] <= shape[i] (size -1: to the end).")
        out.append(s)
    return TensorShape(out), x.dtype


def _slice_kernel(x, *extra, begin, size):
    if extra:
        begin_extra, size_extra = split_extras((begin, size), extra)
        begin, size = resolve_shape(begin, begin_extra), resolve_shape(size, size_extra)
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError("wrong number of begin/size entries")
    for d, b, s in zip(x.shape, begin, size):
        if b < 0 or s < -1 or (s != -1 and b + s > d) or b > d:
            raise ValueError("slice out of bounds")  # the shape rule explains it
    return x[tuple(_pyslice(b, None if s == -1 else b + s) for b, s in zip(begin, size))]


def _static_spec(op):
    return tuple((b, None if s == -1 else b + s, None)
                 for b, s in zip(op.get_attr("begin"), op.get_attr("size")))


def _slice_grad(op, grad):
    """Zeros of the input's shape holding the gradient in the sliced block (a zero pad)."""
    x, extra = op.inputs[0], op.inputs[1:]
    if not extra:
        return into_zeros(x, grad, _static_spec(op))
    spec, bounds = _dynamic_slice_spec(op, grad)
    return (into_zeros(x, grad, spec, bounds),) + (None,) * len(extra)


def _entries(attr, extra, rank):
    """A begin/size attribute per axis: ints, and scalar tensors where read when it runs."""
    if attr == SHAPE_VECTOR:
        return [extra[0][i] for i in _pyrange(rank)]
    values = iter(extra)
    return [next(values) if d is None else d for d in attr]


def _dynamic_slice_spec(op, grad):
    """The strided-slice spec (and its extra inputs) of a Slice with run-time begin or size:
    the block starts at begin and spans the gradient's extent (which resolves a size of -1)."""
    x = op.inputs[0]
    rank = x.shape.rank if x.shape.rank is not None else grad.shape.rank
    begin_extra, size_extra = split_extras((op.attrs["begin"], op.attrs["size"]), op.inputs[1:])
    begins = _entries(op.attrs["begin"], begin_extra, rank)
    sizes = _entries(op.attrs["size"], size_extra, rank)
    spec, bounds = [], []
    for i, (b, s) in enumerate(zip(begins, sizes)):
        if type(b) is int and type(s) is int:
            spec.append((b, None if s == -1 else b + s, None))
            continue
        if type(b) is not int:
            bounds.append(b)
        if type(s) is int and s == -1:
            spec.append((DYNAMIC if type(b) is not int else b, None, None))
            continue
        extent = shape_of(grad, out_type=b.dtype if type(b) is not int else
                          (s.dtype if type(s) is not int else grad.dtype))[i]
        bounds.append(b + extent)
        spec.append((DYNAMIC if type(b) is not int else b, DYNAMIC, None))
    return tuple(spec), tuple(bounds)


def _slice_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    full = (_FULL,) * nb + _static_spec(op)
    shape = tuple(grad.shape[:nb]) + tuple(op.inputs[0].shape)
    return execute(STRIDED_SLICE_GRAD, (grad,), {"shape": shape, "spec": full})


def _slice_onnx(ctx, op, x, *extra):
    begin_extra, size_extra = split_extras((op.attrs["begin"], op.attrs["size"]), extra)
    rank = ctx.rank(op.inputs[0])
    starts = ctx.shape_tensor(op.attrs["begin"], begin_extra)
    sizes = ctx.shape_tensor(op.attrs["size"], size_extra)
    whole = ctx.node("Shape", [x])
    ends = ctx.node("Where", [ctx.node("Equal", [sizes, ctx.int64s([-1] * rank)]), whole,
                              ctx.node("Add", [starts, sizes])])
    return ctx.node("Slice", [x, starts, ends, ctx.int64s(range(rank))])


SLICE = defop("Slice", _slice_kernel, grad=_slice_grad, onnx=_slice_onnx, shape=_slice_rule,
              jvp=linear_in(0), batch=_slice_batched,
              batch_accepts=lambda op: len(op.inputs) == 1, returns_view=True,
              raw=lambda input, begin, size, name=None: slice(input, begin, size, name))


def slice(input_, begin, size, name=None):  # noqa: A001 (TensorFlow's name)
    """The block of `input_` starting at `begin` with extent `size` (-1: to the end). In a
    graph, begin and size may be computed tensors known only when it runs."""
    begin_attr, begin_extra = shape_arg(begin, "slice: begin")
    size_attr, size_extra = shape_arg(size, "slice: size")
    return execute(SLICE, (convert_to_tensor(input_),) + begin_extra + size_extra,
                   {"begin": begin_attr, "size": size_attr}, name)
