"""Broadcasting and its adjoint, and the sums and zeros that gradients are made of: BroadcastTo,
SumToShape, AddN, ZerosLike and OnesLike, and the helpers the reverse pass applies to gradients.

Broadcasting in the forward pass (`x + b` with b of shape [n] against x of shape [m, n]) means the
gradient reaching `b` has x's shape; the chain rule sums it over the broadcast axes. `SumToShape`
does that, and `BroadcastTo` is its adjoint: each is the other's gradient. The reverse pass calls
`unbroadcast` whenever a rule's result is larger than its input, so rules never have to. `AddN`
sums the gradient parts of a tensor used several times. All of these ops are linear, so their
forward-mode rule (`jvp=linear`) applies them to tangents.

Below it sit only the shape rules, reshape_ops.py and cast_ops.py (ops/ is a DAG: see
tests/test_layers.py).
"""
import functools

import os

import numpy as np

from ..framework.context import state
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear, linear_in
from ..framework.tensor import Tensor, array_of, convert_to_tensor, is_eager_tensor
from ..framework.tensor_shape import TensorShape
from . import shape_rules
from .cast_ops import cast
from .reshape_ops import reshape
from .shape_rules import batch_rank, resolve_shape, shape_arg, static_shape, static_shape_arg

__all__ = ["add_n", "zeros_like", "ones_like", "broadcast_to"]


def _sum_to_shape(x, shape):
    if x.shape == shape:  # nothing was broadcast (the usual case in a loop of unknown batch)
        return x
    lead = x.ndim - len(shape)
    if not fits_by_broadcasting(x.shape, shape):
        raise ValueError(f"shape {x.shape} does not reduce to {shape} by summing broadcast axes")
    if not shape:  # to a scalar: the common case of a scalar broadcast against a tensor
        return np.add.reduce(x, axis=None)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(shape) if d == 1 and x.shape[lead + i] != 1)
    return np.add.reduce(x, axis=axes).reshape(shape) if axes else x.reshape(shape)


def fits_by_broadcasting(source, target):
    """True when `target` broadcasts to `source` (so summing `source` gives `target`)."""
    lead = len(source) - len(target)
    if lead < 0:
        return False
    for s, t in zip(source[lead:], target):
        if t != s and t != 1 and s is not None and t is not None:
            return False
    return True


# -- batched gradient rules (the vectorized Jacobian's pass, autodiff/batched.py) ---------------


def batch_zero_filled(op, grads):
    """A multi-output op's batched gradients, where outputs that got none were given unbatched
    zeros: those are broadcast to the others' batch shape. Returns (grads, batch rank)."""
    nb = max(batch_rank(g, o) for g, o in zip(grads, op.outputs))
    batch = next(tuple(g.shape[:nb]) for g, o in zip(grads, op.outputs) if batch_rank(g, o) == nb)
    return [g if batch_rank(g, o) == nb else broadcast_to(g, batch + tuple(o.shape))
            for g, o in zip(grads, op.outputs)], nb


def _sum_to_shape_rule(x, shape):
    return TensorShape(shape), x.dtype


def _sum_to_shape_grad(op, grad):
    x = op.inputs[0]
    shape = static_shape(x)
    if shape is None or None in shape:  # graph mode: x's shape is known only at run time
        return _sum_like_grad(op, grad)[0]
    return broadcast_to(grad, x.shape)


def _sum_to_shape_batched(op, grad):
    x = op.inputs[0]
    nb = batch_rank(grad, op.outputs[0])
    batch, shape = tuple(grad.shape[:nb]), tuple(op.get_attr("shape"))
    padded = batch + (1,) * (len(x.shape) - len(shape)) + shape
    g = reshape(grad, padded) if padded != tuple(grad.shape) else grad
    return broadcast_to(g, batch + tuple(x.shape))


SUM_TO_SHAPE = defop("SumToShape", _sum_to_shape, shape=_sum_to_shape_rule,
                     grad=_sum_to_shape_grad, jvp=linear, batch=_sum_to_shape_batched,
                     returns_view=True)


def _sum_like_rule(x, like):
    return like.shape, x.dtype


def _sum_like_grad(op, grad):
    return grad + zeros_like(op.inputs[0]), None  # broadcast back to x's run-time shape


# Graph mode with unknown dimensions: the target shape is read from `like` when the graph runs.
SUM_TO_SHAPE_OF = defop("SumToShapeOf", lambda x, like: _sum_to_shape(x, like.shape),
                        shape=_sum_like_rule, grad=_sum_like_grad, jvp=linear_in(0),
                        returns_view=True)


def _broadcast_rule(x, *extra, shape):
    target = static_shape_arg(shape, extra) if extra else TensorShape(shape)
    if target.rank is None or x.shape.rank is None:
        return target, x.dtype
    out = shape_rules.broadcast_shapes(x.shape, target)
    if not out.is_compatible_with(target) or out.rank != target.rank:
        raise InvalidArgumentError(f"cannot broadcast shape {x.shape} to {target}.")
    return target, x.dtype


def _physical_memory():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: no limit known
        return float("inf")


def _broadcast_to_kernel(x, *extra, shape):
    """x broadcast to `shape`: a view, refused (as TensorFlow, which materializes it, runs out of
    memory) when its bytes exceed the machine's, since every consumer would then hang."""
    out = np.broadcast_to(x, resolve_shape(shape, extra) if extra else shape)
    if out.nbytes > _physical_memory():
        raise MemoryError(f"Unable to allocate {out.nbytes / 2**30:.3g} GiB for an array with "
                          f"shape {out.shape} and data type {out.dtype}")
    return out


# The gradient has the output's (broadcast) shape; the reverse pass sums it back to x's shape.
BROADCAST_TO = defop("BroadcastTo", _broadcast_to_kernel, shape=_broadcast_rule, jvp=linear,
                     batch="safe", grad=lambda op, grad: (grad,) + (None,) * (len(op.inputs) - 1),
                     onnx=lambda ctx, op, x, *extra: ctx.node(
                         "Expand", [x, ctx.shape_tensor(op.attrs["shape"], extra)]),
                     returns_view=True,
                     raw=lambda input, shape, name=None: broadcast_to(input, shape, name))


def broadcast_to(input, shape, name=None):  # noqa: A002 (TensorFlow's argument name)
    """`input` broadcast to `shape` (NumPy rules); in a graph `shape` may be computed."""
    x = convert_to_tensor(input)
    attr, extra = shape_arg(shape, "broadcast_to: shape")
    if not extra and x.shape.rank is not None and tuple(x.shape) == attr:
        return x
    return execute(BROADCAST_TO, (x,) + extra, {"shape": attr}, name)


def unbroadcast(grad, like, op=None, batch_dims=0):
    """`grad` summed over the axes along which `like` was broadcast in the forward pass, giving
    `like`'s shape: the one place the reverse pass undoes broadcasting. With `batch_dims`, grad
    has shape [B..., *s] (the vectorized Jacobian's rows) and the result [B...] + like's shape;
    a grad without those leading dimensions (a rule that returned zeros of like's shape) is
    fitted unbatched. `op` is the op whose rule produced grad, for the error message."""
    source, target = static_shape(grad), static_shape(like)
    if source is None or target is None:  # unknown rank (graph mode): checked at run time
        return execute(SUM_TO_SHAPE_OF, (grad, like))
    if batch_dims and len(source) >= batch_dims + len(target):
        batch, rest = tuple(source[:batch_dims]), tuple(source[batch_dims:])
        if rest == tuple(target):
            return grad
        padded = batch + (1,) * (len(rest) - len(target)) + tuple(target)
        summed = _sum_to(grad, source, padded, op)
        return summed if padded == batch + tuple(target) else reshape(summed,
                                                                      batch + tuple(target))
    if source == target and None not in source:
        return grad
    if None in target or None in source:  # graph mode, shapes known only at run time
        if not fits_by_broadcasting(source, target):
            raise _misfit(grad, like.shape, op)
        return execute(SUM_TO_SHAPE_OF, (grad, like))
    return _sum_to(grad, source, target, op)


def _sum_to(grad, source, target, op):
    if not fits_by_broadcasting(source, target):
        raise _misfit(grad, TensorShape(target), op)
    return execute(SUM_TO_SHAPE, (grad,), {"shape": tuple(target)})


def _misfit(grad, shape, op):
    where = f" from the gradient of op '{op.name}' (type {op.type})" if op else ""
    return InvalidArgumentError(f"A gradient of shape {grad.shape}{where} does not fit its "
                                f"input of shape {shape}.", op)


# Parts are summed by stacking them and reducing (one pass in C) in blocks of at most this many
# elements; larger parts are accumulated in place (stacking them would copy them all).
ADD_N_BLOCK_ELEMENTS = 1 << 16


def _add_n_kernel(*arrays):
    total = np.add(arrays[0], arrays[1])
    if len(arrays) == 2:
        return total
    per_block = ADD_N_BLOCK_ELEMENTS // max(np.size(total), 1)
    if per_block < 2:  # large parts: accumulate in place, no temporaries
        return _accumulate(total, arrays[2:])
    try:
        for start in range(2, len(arrays), per_block):
            # np.array raises ValueError when the parts' shapes differ (they broadcast)
            block = np.array(arrays[start:start + per_block])
            total = total + np.add.reduce(block, axis=0)
    except ValueError:
        return functools.reduce(np.add, arrays)
    return total


def _accumulate(total, arrays):
    """total += each array (total is a fresh temporary); broadcasting parts fall back to
    plain sums."""
    for a in arrays:
        if type(total) is np.ndarray and np.shape(a) == total.shape:
            np.add(total, a, out=total)
        else:
            total = np.add(total, a)
    return total


def _add_n_rule(*inputs):
    return shape_rules.one_shape(inputs, "all inputs must have the same shape; got ")


ADD_N = defop("AddN", _add_n_kernel, shape=_add_n_rule,
              grad=lambda op, grad: [grad] * len(op.inputs), jvp=linear, batch="safe",
              onnx="Sum", raw=lambda inputs, name=None: add_n(inputs, name), tf_inputs=("inputs",))


def add_n(inputs, name=None):
    """Elementwise sum of a list of tensors of one shape and dtype."""
    if not inputs:
        raise ValueError("add_n: inputs must be a non-empty list of tensors.")
    tensors = [convert_to_tensor(t) for t in inputs]
    if len(tensors) == 1:
        return tensors[0]
    first = tensors[0]
    shape_rules.check_allowed(ADD_N, first)
    for i, t in enumerate(tensors[1:], 1):
        if t.dtype != first.dtype:
            raise InvalidArgumentError(
                f"add_n: cannot compute AddN as input #{i} (zero-based) was expected to be a "
                f"{first.dtype.name} tensor but is a {t.dtype.name} tensor (shape {t.shape}); "
                f"cast the inputs to one dtype first.")
    return execute(ADD_N, tensors, name=name)


def _filled_like_onnx(value):
    """ONNX ConstantOfShape(Shape(x)) holding `value` in x's dtype."""
    def lower(ctx, op, x):
        fill = np.full((1,), value, op.inputs[0].dtype.as_numpy_dtype)
        return ctx.node("ConstantOfShape", [ctx.node("Shape", [x])], value=fill)
    return lower


ZEROS_LIKE = defop("ZerosLike", np.zeros_like, shape=shape_rules.same, grad=None,
                   onnx=_filled_like_onnx(0), args=("x",))
ONES_LIKE = defop("OnesLike", np.ones_like, shape=shape_rules.same, grad=None,
                  onnx=_filled_like_onnx(1), args=("x",))


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    """Zeros of `input`'s shape (and dtype, unless given)."""
    x = _like_source(input)
    out = execute(ZEROS_LIKE, (x,), name=name)
    return out if dtype is None else cast(out, dtype)


def ones_like(input, dtype=None, name=None):  # noqa: A002
    """Ones of `input`'s shape (and dtype, unless given)."""
    x = _like_source(input)
    out = execute(ONES_LIKE, (x,), name=name)
    return out if dtype is None else cast(out, dtype)


def _like_source(x):
    if isinstance(x, Tensor):
        return x
    value = array_of(x)  # a Variable's: its shape, without recording a read
    if isinstance(value, np.ndarray):
        return Tensor(value)
    return convert_to_tensor(x)


# -- reshape ---------------------------------------------------------------------------------------


# -- cast ---------------------------------------------------------------------------------------


# -- used by the reverse pass -------------------------------------------------------------------
def sum_gradients(parts):
    """The sum of a tensor's gradient parts (all Tensors of its dtype): one AddN op."""
    return execute(ADD_N, parts) if state.graph is None else add_n(parts)


def zeros_like_gradient(t):
    """Zeros for an output that received no gradient. Eagerly a plain constant."""
    value = array_of(t)
    if value is not None and state.graph is None:
        return Tensor(np.zeros(value.shape, value.dtype))
    return zeros_like(t)


def is_zero_gradient(t):
    """True when the gradient `t` is certainly zero and nothing differentiates through it: None,
    or the zeros the reverse pass hands an output that got no gradient (eagerly a value no op
    made; in a graph a ZerosLike op), while no tape or accumulator is watching. Rules skip the
    work such a gradient would add (TensorFlow's `_IsZeros` test)."""
    if t is None:
        return True
    if state.tapes or state.observers:  # it may be watched (forward mode's dummy cotangents)
        return False
    if is_eager_tensor(t):
        return t.op is None and not array_of(t).any()
    op = getattr(t, "op", None)
    return op is not None and op.op_def is ZEROS_LIKE


def ones_like_gradient(t):
    """The seed d(target)/d(target) = 1. Eagerly a plain constant: nothing needs to record it."""
    value = getattr(t, "_value", None)  # array_of(t), inline: once per gradient() call
    if value is not None and state.graph is None:
        if not value.shape:  # a scalar loss: a NumPy scalar, as kernels return for 0-d results
            return Tensor(value.dtype.type(1))
        return Tensor(np.ones(value.shape, value.dtype))
    return ones_like(t)


def as_gradient(g, like, op=None):
    """A rule's result as a Tensor of `like`'s dtype (an error naming both, and the op whose rule
    produced it, when they differ)."""
    # is_eager_tensor and array_of, inline: the reverse pass calls this for many ops
    if type(g) is Tensor and type(like) is Tensor and g._value.dtype == like._value.dtype:
        return g
    if not isinstance(g, Tensor):
        g = convert_to_tensor(g, dtype=like.dtype)
    elif g.dtype != like.dtype:
        where = f" by the gradient of op '{op.name}' (type {op.type})" if op else ""
        raise InvalidArgumentError(f"A gradient of dtype {g.dtype.name} was produced{where} for "
                                   f"an input of dtype {like.dtype.name}; gradient functions "
                                   "must return the input's dtype.", op)
    return g
