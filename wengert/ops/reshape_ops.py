"""Reshapes: reshape, expand_dims, squeeze and transpose, the ops that move no element's value.

Their gradients are the same movement undone: a reshape's gradient is a reshape back to the
input's shape, expand_dims' and squeeze's likewise, and a transpose's the transpose by the inverse
permutation (conjugated too when the forward transpose conjugated). All are linear, so their JVPs
apply them to the tangents.

A gradient that must restore the input's shape takes it from an attribute when the shape is fully
known (eagerly it always is); in a graph with unknown dimensions it passes the forward input as
an extra "like" input instead, and the kernel reads its shape when the graph runs.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .complex_parts import conj_if_complex
from .shape_rules import (axis_int, batch_rank, int_tuple, normalize_axis, prod, resolve_shape,
                          shape_arg, static_shape, static_shape_arg)

__all__ = ["reshape", "expand_dims", "squeeze", "transpose"]


def _reshape_rule(x, *extra, shape):
    if shape is None:  # the shape of `like`, read when the graph runs
        like = extra[0]
        total, want = x.shape.num_elements(), like.shape.num_elements()
        if total is not None and want is not None and total != want:
            raise InvalidArgumentError(f"cannot reshape a tensor with {total} elements (shape "
                                       f"{x.shape}) to the shape {like.shape} of another.")
        return like.shape, x.dtype
    wanted = static_shape_arg(shape, extra)
    if wanted.rank is None:
        return wanted, x.dtype
    dims = list(wanted)
    if dims.count(-1) > 1 or any(d is not None and d < -1 for d in dims):
        raise InvalidArgumentError(f"shape {dims} may hold at most one -1 and no other "
                                   "negative sizes.")
    total = x.shape.num_elements()
    if None in dims:  # entries known when the graph runs: -1 stays unknown too
        return TensorShape([None if d == -1 else d for d in dims]), x.dtype
    if -1 in dims:
        known = prod(d for d in dims if d != -1)
        inferred = None
        if total is not None and known:
            if total % known:
                raise InvalidArgumentError(
                    f"cannot reshape a tensor with {total} elements (shape {x.shape}) to "
                    f"{dims}: {total} is not a multiple of {known}, the product of the "
                    "known dimensions.")
            inferred = total // known
        elif total == 0 and not known:
            raise InvalidArgumentError(f"cannot infer the -1 in {dims} for a tensor with "
                                       "0 elements: the other dimensions multiply to 0.")
        dims[dims.index(-1)] = inferred
    elif total is not None and prod(dims) != total:
        raise InvalidArgumentError(f"cannot reshape a tensor with {total} elements (shape "
                                   f"{x.shape}) to {dims}, which has {prod(dims)}.")
    return TensorShape(dims), x.dtype


def reshape_like(x, like):
    """`x` reshaped to the shape of `like`: an attribute when that shape is fully known, else
    read from `like` when the graph runs."""
    shape = static_shape(like)
    if shape is not None and None not in shape:
        return execute(RESHAPE, (x,), {"shape": shape})
    return execute(RESHAPE, (x, like), {"shape": None})


def reshape_back(op, grad):
    back = reshape_like(grad, op.inputs[0])
    return back if len(op.inputs) == 1 else (back,) + (None,) * (len(op.inputs) - 1)


def _reshape_kernel(x, *extra, shape):
    """x reshaped to `shape`; with extra inputs (graph mode), to the shape of `like` (shape
    None) or to a shape read from them (shapes.shape_arg)."""
    if not extra:
        return x.reshape(shape)
    return x.reshape(extra[0].shape if shape is None else resolve_shape(shape, extra))


def reshape_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    return reshape(grad, tuple(grad.shape[:nb]) + tuple(op.inputs[0].shape))


def has_one_input(op):
    """`batch_accepts` of ops whose optional "like" input (graph mode) the batched rule cannot
    handle."""
    return len(op.inputs) == 1


def _reshape_onnx(ctx, op, x, *extra):
    """ONNX Reshape; the target shape is the attribute, read from the extra inputs, or the
    shape of the `like` input. A literal 0 means an empty axis (allowzero), as in TensorFlow."""
    shape = op.attrs["shape"]
    if shape is None:
        return ctx.node("Reshape", [x, ctx.node("Shape", [extra[0]])])
    target = ctx.shape_tensor(shape, extra)
    zero = isinstance(shape, tuple) and 0 in shape
    return ctx.node("Reshape", [x, target], allowzero=1 if zero else None)


RESHAPE = defop("Reshape", _reshape_kernel, shape=_reshape_rule, grad=reshape_back, jvp=linear,
                batch=reshape_batched, batch_accepts=has_one_input, onnx=_reshape_onnx,
                returns_view=True,
                raw=lambda tensor, shape, name=None: reshape(tensor, shape, name))


def reshape(tensor, shape, name=None):
    """`tensor` with the same elements in a new shape; one dimension may be -1 (inferred). In a
    graph the shape may be computed (tf.shape(y), [tf.shape(x)[0], -1]) and known only when the
    graph runs."""
    attr, extra = shape_arg(shape, "reshape: shape")
    for d in attr or ():
        if isinstance(d, (int, np.integer)) and d < -1:
            raise InvalidArgumentError(f"reshape: shape {list(attr)} has {d}; a dimension is a "
                                       "size >= 0, or -1 for the one to infer.")
    return execute(RESHAPE, (convert_to_tensor(tensor),) + extra, {"shape": attr}, name)


def _expand_dims_rule(x, axis):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    axis = normalize_axis(axis, x.shape.rank + 1)
    dims = list(x.shape)
    dims.insert(axis, 1)
    return TensorShape(dims), x.dtype


def _expand_dims_kernel(x, axis):
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise ValueError(f"axis {axis} is out of range for rank {x.ndim}")
    at = axis if axis >= 0 else x.ndim + 1 + axis
    return x.reshape(x.shape[:at] + (1,) + x.shape[at:])  # a view, like np.expand_dims


EXPAND_DIMS = defop("ExpandDims", _expand_dims_kernel,
                    shape=_expand_dims_rule, grad=reshape_back, jvp=linear, batch=reshape_batched, batch_accepts=has_one_input,
                    onnx=lambda ctx, op, x: ctx.unsqueeze(x, [op.attrs["axis"]]), returns_view=True,
                    raw=lambda input, axis, name=None: expand_dims(input, axis, name))


def expand_dims(input, axis, name=None):  # noqa: A002 (TensorFlow's argument name)
    """`input` with a new axis of size 1 at `axis` (-1 appends one)."""
    return execute(EXPAND_DIMS, (convert_to_tensor(input),), {"axis": axis_int(axis, "expand_dims: axis")}, name)


def _squeeze_rule(x, axis):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    rank = x.shape.rank
    if axis is None:
        if None in x.shape:
            return TensorShape(None), x.dtype
        return TensorShape([d for d in x.shape if d != 1]), x.dtype
    axes = {normalize_axis(a, rank) for a in axis}
    for a in axes:
        if x.shape[a] not in (1, None):
            raise InvalidArgumentError(f"cannot squeeze axis {a} of shape {x.shape}: its size "
                                       f"is {x.shape[a]}, not 1.")
    return TensorShape([d for i, d in enumerate(x.shape) if i not in axes]), x.dtype


SQUEEZE = defop("Squeeze", lambda x, axis: np.squeeze(x, axis), shape=_squeeze_rule,
                grad=reshape_back, jvp=linear, batch=reshape_batched, batch_accepts=has_one_input,
                onnx=lambda ctx, op, x: ctx.node("Squeeze", [x]) if op.attrs["axis"] is None
                else ctx.squeeze(x, list(op.attrs["axis"])), returns_view=True,
                raw=lambda input, axis=(), name=None: squeeze(input, list(axis) or None, name))


def squeeze(input, axis=None, name=None):  # noqa: A002
    """`input` without its size-1 axes (only those in `axis`, when given)."""
    axis = None if axis is None else int_tuple(axis, "squeeze: axis")
    return execute(SQUEEZE, (convert_to_tensor(input),), {"axis": axis}, name)


def _transpose_rule(x, perm):
    """perm None (the rank was unknown when the op was built) reverses the axes."""
    rank = x.shape.rank
    if perm is None:
        return (TensorShape(None) if rank is None else TensorShape(x.shape[::-1])), x.dtype
    if rank is not None and sorted(p % rank if -rank <= p < 0 else p
                                   for p in perm) != list(range(rank)):
        raise InvalidArgumentError(f"perm {list(perm)} is not a permutation of the axes of a "
                                   f"tensor of shape {x.shape} (rank {x.shape.rank}).")
    if rank is None:
        return TensorShape([None] * len(perm)), x.dtype
    return TensorShape([x.shape[p] for p in perm]), x.dtype


def _inverse_perm(perm, rank=None):
    """The permutation undoing `perm` (None, reversing the axes, undoes itself)."""
    if perm is None:
        return None
    if rank is not None:
        perm = [p % rank for p in perm]
    return tuple(int(i) for i in np.argsort(perm))


def _transpose_grad(op, grad):
    return transpose(grad, _inverse_perm(op.get_attr("perm"), op.inputs[0].shape.rank))


def _transpose_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    back = _inverse_perm(op.get_attr("perm"), op.inputs[0].shape.rank)
    if back is None:
        back = tuple(range(op.inputs[0].shape.rank - 1, -1, -1))
    return transpose(grad, tuple(range(nb)) + tuple(nb + int(i) for i in back))


TRANSPOSE = defop("Transpose", lambda x, perm: x.transpose(perm), shape=_transpose_rule,
                  grad=_transpose_grad, jvp=linear, batch=_transpose_batched,
                  onnx=lambda ctx, op, x: ctx.node("Transpose", [x]) if op.attrs["perm"] is None
                  else ctx.node("Transpose", [x], perm=[int(p) for p in op.attrs["perm"]]),
                  returns_view=True, raw=lambda x, perm, name=None: transpose(x, perm, name=name))


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """`a` with its axes permuted: output axis i is input axis perm[i] (default: reversed);
    `conjugate` also conjugates complex entries."""
    a = convert_to_tensor(a)
    rank = a.shape.rank
    if perm is None:  # None when the rank is unknown: the kernel reverses the axes
        perm = None if rank is None else tuple(range(rank - 1, -1, -1))
    elif rank is not None:
        perm = tuple(p % rank if -rank <= p < 0 else p
                     for p in int_tuple(perm, "transpose: perm"))
    else:
        perm = int_tuple(perm, "transpose: perm")
    if conjugate and a.dtype.is_complex:  # the conjugate transpose
        a = conj_if_complex(a)
    return execute(TRANSPOSE, (a,), {"perm": perm}, name)
