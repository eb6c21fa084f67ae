"""Padding: a tensor inside a border of constants (`PadV2`) or of mirrored copies of its edge
(`MirrorPad`, REFLECT without the edge element, SYMMETRIC with it).

A constant pad's gradient is the part of the gradient over the unpadded interior (a strided
slice). A mirror pad copies border elements into the padding, so its gradient (`MirrorPadGrad`)
folds the padding's gradient back onto the elements copied, and that op's gradient is the mirror
pad again. In a graph, a constant pad's amounts may be tensors known only when it runs (padding
to a computed length): they are then extra inputs, and the gradient slices the interior with
bounds read when the graph runs.
"""
import builtins

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, defraw, linear
from ..framework.static_value import static_value
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .shape_rules import batch_rank
from .query_ops import shape
from .shape_rules import DYNAMIC, SHAPE_VECTOR, UnknownWhileBuilding, int_tuple, shape_arg
from .slice_ops import STRIDED_SLICE

__all__ = ["pad"]

_pyrange = builtins.range


# -- pad: the input inside a border of constants or mirrored copies --------------------------------
# `paddings` is a tuple of (before, after) pairs of ints; in a graph where some are known only
# when it runs, those entries are None and read from extra scalar inputs, in order, or the
# attribute is SHAPE_VECTOR and one extra input holds the whole [rank, 2] paddings.
def _pairs(paddings, extra):
    """The (before, after) pairs with the entries read from extra inputs (kernel side)."""
    if paddings == SHAPE_VECTOR:
        flat = [int(v) for v in np.asarray(extra[0]).reshape(-1)]
        return tuple(zip(flat[0::2], flat[1::2]))
    values = iter(extra)
    return tuple(tuple(int(next(values)) if v is None else v for v in pair) for pair in paddings)


def _known_pairs(x, paddings, extra):
    """The pairs a shape rule knows (None entries unknown), or None when even their number is."""
    if paddings != SHAPE_VECTOR:
        return paddings
    vector = extra[0]
    known = static_value(vector)
    if known is not None:
        flat = [int(v) for v in known.reshape(-1)]
        return tuple(zip(flat[0::2], flat[1::2]))
    rows = vector.shape[0] if vector.shape.rank and vector.shape[0] is not None else \
        x.shape.rank
    return None if rows is None else ((None, None),) * rows


def _pad_rule(x, *extra, paddings, **_):
    paddings = _known_pairs(x, paddings, extra)
    if paddings is None:
        return TensorShape(None), x.dtype
    if x.shape.rank is not None and len(paddings) != x.shape.rank:
        raise InvalidArgumentError(f"paddings {[list(p) for p in paddings]} must have one "
                                   f"[before, after] pair per dimension of shape {x.shape}.")
    if any(p is not None and p < 0 for pair in paddings for p in pair):
        raise InvalidArgumentError(f"paddings {[list(p) for p in paddings]} must be >= 0.")
    if x.shape.rank is None:
        return TensorShape([None] * len(paddings)), x.dtype
    return TensorShape([None if None in (d, a, b) else d + a + b
                        for d, (a, b) in zip(x.shape, paddings)]), x.dtype


def _pad_kernel(x, *extra, paddings, constant_values):
    if extra:
        paddings = _pairs(paddings, extra)
    if len(paddings) != x.ndim or min((p for pair in paddings for p in pair), default=0) < 0:
        raise ValueError("paddings do not match the rank")  # NumPy would broadcast the pairs
    return np.pad(x, paddings, constant_values=x.dtype.type(constant_values))


def _interior(op, grad):
    """The part of a padded tensor's gradient that lies over the unpadded input."""
    x, extra = op.inputs[0], tuple(op.inputs[1:])
    if not extra:
        spec = tuple((before, -after or None, None) for before, after in op.get_attr("paddings"))
        return execute(STRIDED_SLICE, (grad,), {"spec": spec})
    return (_runtime_interior(x, grad, op.get_attr("paddings"), extra),) + (None,) * len(extra)


def _runtime_interior(x, grad, paddings, extra):
    """grad[before_i : before_i + x.shape[i]] on each axis, bounds read when the graph runs."""
    if paddings == SHAPE_VECTOR:
        befores = [extra[0][i, 0] for i in _pyrange(x.shape.rank)]
    else:
        values = iter(extra)
        befores = [next(values) if before is None else before for before, _ in paddings]
        for _, after in paddings:
            if after is None:
                next(values)
    spec, bounds = [], []
    for i, before in enumerate(befores):
        if type(before) is int:
            spec.append((before, DYNAMIC, None))
            bounds.append(shape(x)[i] + before)
        else:
            spec.append((DYNAMIC, DYNAMIC, None))
            bounds += [before, shape(x, out_type=before.dtype)[i] + before]
    return execute(STRIDED_SLICE, (grad,) + tuple(bounds), {"spec": tuple(spec)})


def _pad_jvp(primals, tangents, outputs, paddings, constant_values):
    """Padding is affine (the padded border is a constant): the tangent is padded with zeros."""
    if tangents[0] is None:
        return None
    return execute(PAD, (tangents[0],) + tuple(primals[1:]),
                   {"paddings": paddings, "constant_values": 0})


def _padding_of(op, grad):
    return ((0, 0),) * batch_rank(grad, op.outputs[0]) + tuple(
        tuple(p) for p in op.get_attr("paddings"))


def _pad_batched(op, grad):
    spec = tuple((before, -after or None, None) for before, after in _padding_of(op, grad))
    return execute(STRIDED_SLICE, (grad,), {"spec": spec})


def _onnx_pads(paddings):
    """ONNX's pads: every axis's `before`, then every axis's `after`."""
    return [int(p[0]) for p in paddings] + [int(p[1]) for p in paddings]


def _pad_onnx(ctx, op, x, *extra):
    if extra:
        ctx.fail("paddings known only when the graph runs have no ONNX lowering yet.")
    return ctx.node("Pad", [x, ctx.int64s(_onnx_pads(op.attrs["paddings"])),
                            ctx.scalar_like(op.attrs["constant_values"], op.inputs[0])])


PAD = defop("PadV2", _pad_kernel, shape=_pad_rule, grad=_interior, jvp=_pad_jvp,
            batch=_pad_batched, batch_accepts=lambda op: len(op.inputs) == 1, onnx=_pad_onnx,
            raw=lambda input, paddings, constant_values, name=None: pad(
                input, paddings, "CONSTANT", constant_values, name))
defraw("Pad", lambda input, paddings, name=None: pad(input, paddings, name=name))


def _mirror_pad_rule(x, paddings, mode):
    out = _pad_rule(x, paddings=paddings)
    limit = 0 if mode == "symmetric" else 1
    dims = [None] * len(paddings) if x.shape.rank is None else x.shape
    for d, (a, b) in zip(dims, paddings):
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
                        grad=lambda op, grad: execute(MIRROR_PAD, (grad,), op.attrs), jvp=linear, batch=_mirror_pad_grad_batched,
                        raw=lambda input, paddings, mode, name=None: _raw_mirror_pad_grad(
                            input, paddings, mode, name))


def _raw_mirror_pad_grad(input, paddings, mode, name):  # noqa: A002
    """TensorFlow's MirrorPadGrad: paddings as [[before, after], ...], mode in capitals."""
    flat = int_tuple(paddings, "MirrorPadGrad: paddings")
    return execute(MIRROR_PAD_GRAD, (convert_to_tensor(input),),
                   {"paddings": tuple(zip(flat[0::2], flat[1::2])), "mode": mode.lower()}, name)


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
                   onnx=_mirror_pad_onnx,
                   raw=lambda input, paddings, mode, name=None: pad(input, paddings, mode,
                                                                    name=name))


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """`tensor` padded with `paddings[i] = [before, after]` elements along each axis i: with
    `constant_values` (CONSTANT), or mirrored without (REFLECT) or with (SYMMETRIC) the edge."""
    tensor = convert_to_tensor(tensor)
    mode = mode.upper()
    if type(paddings) in (list, tuple) and all(type(p) in (list, tuple) for p in paddings):
        paddings = [v for pair in paddings for v in pair]  # pairs may hold tensors
    try:
        flat = int_tuple(paddings, "pad: paddings")
    except UnknownWhileBuilding:
        if mode != "CONSTANT":
            raise
        return _runtime_pad(tensor, paddings, constant_values, name)
    pairs = tuple(zip(flat[0::2], flat[1::2]))
    if mode == "CONSTANT":
        if isinstance(constant_values, Tensor):
            constant_values = _constant_scalar(constant_values, "pad: constant_values")
        return execute(PAD, (tensor,), {"paddings": pairs, "constant_values": constant_values},
                       name)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"pad: mode must be CONSTANT, REFLECT or SYMMETRIC, got {mode!r}.")
    return execute(MIRROR_PAD, (tensor,), {"paddings": pairs, "mode": mode.lower()}, name)


def _runtime_pad(tensor, paddings, constant_values, name):
    """A constant pad whose paddings are partly known only when the graph runs."""
    if isinstance(constant_values, Tensor):
        constant_values = _constant_scalar(constant_values, "pad: constant_values")
    if type(paddings) in (list, tuple):  # flattened pairs, some entries tensors
        attr, extra = shape_arg(paddings, "pad: paddings")
        values = list(attr)
        attr = tuple(zip(values[0::2], values[1::2]))
    else:
        attr, extra = SHAPE_VECTOR, (convert_to_tensor(paddings),)
    return execute(PAD, (tensor,) + extra, {"paddings": attr, "constant_values": constant_values},
                   name)


def _constant_scalar(t, what):
    value = static_value(t)
    if value is None:
        raise ValueError(f"{what} must be known while the graph is built (a Python number or "
                         f"a constant), got the computed tensor {t.name}.")
    return value[()]
