"""The batched reverse pass behind vectorized Jacobians: many VJPs in one walk over the ops.

Row i of the Jacobian J = dy/dx is the VJP of the one-hot seed e_i. Stacking all m seeds gives the
identity, reshaped to [m, *y.shape]; if every gradient rule accepts gradients with that extra
leading dimension, one reverse pass computes all rows at once:

    seed = I_m reshaped to [m, *y.shape]      ->      grad(x) = J^T rows = J reshaped [m, *x.shape]

Each gradient then has shape [m] + (its tensor's shape). A rule is *batch-safe* when it is right for
such gradients as written: most combine the gradient with forward values through NumPy-broadcast
elementwise ops (Mul: g * y; Tanh: TanhGrad(y, g); where(c, g, 0)), and broadcasting aligns
trailing axes, so the leading m rides along. Such ops say so where they are declared,
`defop(..., batchable=True)`. Rules that name axes or shapes (Sum broadcasts g back over the
reduced axes of the input's shape, Reshape reshapes to it, Transpose permutes, MatMul transposes
with `.T`) get a batched variant here: the same math with every axis shifted by the number of
batch dimensions. A variant is registered as the gradient named "<Type>/batched", and the pass
reaches it through the ordinary override mechanism: the path's op is replaced by a view (a copy of
its record) whose `gradient_override` names the variant. Softmax-like rules that only need a
negative axis get a view whose `axis` attribute counts from the end.

Broadcasting in the forward pass is undone by `fit`: a rule's result of shape [m, *s] is summed to
[m] + input.shape, aligning the input's shape with the trailing axes of s (backprop calls it from
its one fitting helper when `batch_dims` > 0).

The variants are written in wengert ops, like every rule, so an outer tape records the pass: the
Hessian as the Jacobian of a gradient works vectorized when the gradient's ops are batch-safe too.
`why_not(path)` says why a path cannot be batched (an op with neither a batch-safe rule nor a
variant, custom gradients, control flow, graph mode, ...); the caller then runs one pass per row.
"""
import string

import numpy as np

from ..framework.context import state
from ..framework.errors import InvalidArgumentError
from ..framework.operation import Operation
from ..framework.registry import _GRADIENTS, _MISSING, RegisterGradient
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops import array_core, array_ops, creation_ops, indexing_ops, linalg_ops, reduce_ops
from ..ops.array_core import broadcast_to
from ..ops.array_ops import reshape
from ..framework.execute import execute

__all__ = ["why_not", "run", "fit", "VARIANTS", "ROW_BLOCK_ELEMENTS"]

VARIANTS = {}        # op type -> (name of its batched rule, accepts(op) or None)
NEGATIVE_AXIS = {"Softmax", "LogSoftmax", "SoftmaxCrossEntropyWithLogits"}
ROW_BLOCK_ELEMENTS = 1 << 24   # rows per pass are capped so m * (largest tensor) stays below this


def batched_gradient(op_type, accepts=None):
    """Register `fn(op, *grads)` as op_type's rule for gradients with leading batch dims."""
    def register(fn):
        name = f"{op_type}/batched"
        RegisterGradient(name)(fn)
        VARIANTS[op_type] = (name, accepts)
        return fn
    return register


# -- which paths can be batched -----------------------------------------------------------------
def why_not(path, target):
    """None when one batched pass can run over `path` (op records in execution order), else a
    sentence saying what prevents it."""
    if state.graph is not None:
        return "building a graph (vectorized jacobians run eagerly)"
    if type(target) is not Tensor or not target.dtype.is_floating:
        return "the target is not an eager floating-point tensor"
    for op in path:
        reason = _op_reason(op)
        if reason is not None:
            return reason
    return None


def _op_reason(op):
    label = f"op '{op.name}' (type {op.type})"
    if op.graph is not None:
        return f"{label} belongs to a graph"
    if op.gradient_override is not None:
        return f"{label} has a gradient override"
    if op.type in VARIANTS:
        accepts = VARIANTS[op.type][1]
        return None if accepts is None or accepts(op) else f"{label}: its batched rule " \
            "does not cover these attributes"
    if op.type in NEGATIVE_AXIS or getattr(op.op_def, "batchable", False):
        return None
    if _GRADIENTS.get(op.type, _MISSING) is None:  # not differentiable: no rule runs
        return None
    return f"{label} has no batch-safe gradient rule"


def _view(op):
    """The record the batched pass walks in place of `op`."""
    if op.type in VARIANTS:
        view = _copy(op, op.attrs)
        view.gradient_override = VARIANTS[op.type][0]
        return view
    if op.type in NEGATIVE_AXIS and op.attrs["axis"] >= 0:
        return _copy(op, dict(op.attrs, axis=op.attrs["axis"] - len(op.inputs[0].shape)))
    return op


def _copy(op, attrs):
    view = Operation(op.op_def, op.inputs, op.outputs, attrs, op._name, op.graph)
    view.traceback = op.traceback
    return view


# -- running it ---------------------------------------------------------------------------------
def run(path, target, sources, seed_rows, lead_shape):
    """Gradients of `target` for each source, each [m, *source.shape] (or None if unconnected),
    from seeds seed_rows(start, stop) -> array [stop - start, *lead_shape[1:]...] in blocks."""
    from .backprop import backward
    views = [_view(op) for op in path]
    rows = lead_shape[0]
    block = max(1, ROW_BLOCK_ELEMENTS // max(1, _largest(path, target)))
    parts = []
    for start in range(0, rows, block):
        seed = Tensor(seed_rows(start, min(rows, start + block)))
        parts.append(backward(views, [target], sources, [seed], batch_dims=1))
    return [_join([p[k] for p in parts], s, rows) for k, s in enumerate(sources)]


def _largest(path, target):
    sizes = [int(np.prod(target.shape, dtype=np.int64))]
    for op in path:
        for t in op.inputs + op.outputs:
            value = getattr(t, "_value", None)
            if value is not None:
                sizes.append(np.size(value))
    return max(sizes)


def _join(blocks, source, rows):
    """One source's blocks of rows concatenated along the batch axis (None: unconnected)."""
    if all(b is None for b in blocks):
        return None
    shape = (-1,) + tuple(source.shape)
    full = []
    for b, count in zip(blocks, _block_sizes(rows, len(blocks))):
        if b is None:
            b = Tensor(np.zeros((count,) + tuple(source.shape), source.dtype.as_numpy_dtype))
        elif len(b.shape) == len(source.shape):  # a rule gave an unbatched (zero) gradient
            b = broadcast_to(b, (count,) + tuple(source.shape))
        full.append(reshape(b, shape) if len(b.shape) != len(shape) else b)
    return full[0] if len(full) == 1 else array_ops.concat(full, 0)


def _block_sizes(rows, count):
    size = -(-rows // count)
    return [min(size, rows - i * size) for i in range(count)]


# -- undoing broadcasting with batch dimensions ---------------------------------------------------
def fit(op, t, g, batch_dims):
    """Sum a rule's result g, [B..., *s], to [B...] + t.shape (t was broadcast to s in the
    forward pass). A result without the batch dimensions (a rule that returns zeros of t's shape
    whatever the gradient) is fitted as in the unbatched pass."""
    if type(g) is IndexedSlices:
        g = g._dense()
    elif not isinstance(g, Tensor):
        g = convert_to_tensor(g, dtype=t.dtype)
    if g.dtype != t.dtype:
        raise InvalidArgumentError(f"The gradient function of op '{op.name}' (type {op.type}) "
                                   f"returned dtype {g.dtype.name} for an input of dtype "
                                   f"{t.dtype.name}.", op)
    shape, want = g._value.shape, tuple(t.shape)
    if len(shape) < batch_dims + len(want):
        return array_core.unbroadcast_eager(g, want, op)
    batch, rest = shape[:batch_dims], shape[batch_dims:]
    if rest == want:
        return g
    padded = batch + (1,) * (len(rest) - len(want)) + want
    summed = array_core.unbroadcast_eager(g, padded, op)
    return summed if padded == batch + want else reshape(summed, batch + want)


# -- batched variants of shape-sensitive rules ------------------------------------------------------
def _nb(grad, out):
    """How many batch dimensions `grad` carries beyond its tensor `out`."""
    return len(grad.shape) - len(out.shape)


def _zero_filled(op, grads):
    """Multi-output ops: outputs that got no gradient were given unbatched zeros; broadcast
    them to the batch shape of the others. Returns (grads, number of batch dims)."""
    nb = max(_nb(g, o) for g, o in zip(grads, op.outputs))
    batch = next(tuple(g.shape[:nb]) for g, o in zip(grads, op.outputs) if _nb(g, o) == nb)
    return [g if _nb(g, o) == nb else broadcast_to(g, batch + tuple(o.shape))
            for g, o in zip(grads, op.outputs)], nb


def _reduced_back(g, op, nb):
    """A reduction's batched gradient g [B, *y] broadcast back over the reduced axes: [B, *x]."""
    x = op.inputs[0]
    batch = tuple(g.shape[:nb])
    kept = reduce_ops._kept_shape(tuple(x.shape), op.get_attr("axis"))
    if tuple(g.shape[nb:]) != kept:
        g = reshape(g, batch + kept)
    return broadcast_to(g, batch + tuple(x.shape))


@batched_gradient("Sum")
def _sum_batched(op, grad):
    return _reduced_back(grad, op, _nb(grad, op.outputs[0]))


@batched_gradient("Mean")
def _mean_batched(op, grad):
    count = reduce_ops._count(tuple(op.inputs[0].shape), op.get_attr("axis"))
    return _reduced_back(grad / max(count, 1), op, _nb(grad, op.outputs[0]))


def _slope_times_batched(op, grad):
    """Reductions whose rule is slope(x) * b(g): the slope is the ordinary rule at g = 1."""
    slope = _GRADIENTS[op.type](op, array_core.ones_like(op.outputs[0]))
    return slope * _reduced_back(grad, op, _nb(grad, op.outputs[0]))


for _type in ("Max", "Min", "Prod", "ReduceLogSumExp", "EuclideanNorm"):
    batched_gradient(_type)(_slope_times_batched)


@batched_gradient("ReduceBroadcast")
def _reduce_broadcast_batched(op, grad):
    g, like = op.inputs
    nb = _nb(grad, op.outputs[0])
    axes = tuple(a + nb for a in op.get_attr("axis"))
    keepdims = len(g.shape) == len(like.shape)
    return execute(reduce_ops.SUM, (grad,), {"axis": axes, "keepdims": keepdims}), None


@batched_gradient("Cumsum")
def _cumsum_batched(op, grad):
    nb = _nb(grad, op.outputs[0])
    attrs = dict(op.attrs, axis=op.get_attr("axis") + nb, reverse=not op.get_attr("reverse"))
    return execute(reduce_ops.CUMSUM, (grad,), attrs)


def _reshape_batched(op, grad):
    nb = _nb(grad, op.outputs[0])
    return reshape(grad, tuple(grad.shape[:nb]) + tuple(op.inputs[0].shape))


for _type in ("Reshape", "ExpandDims", "Squeeze"):
    batched_gradient(_type, accepts=lambda op: len(op.inputs) == 1)(_reshape_batched)


@batched_gradient("Transpose")
def _transpose_batched(op, grad):
    nb = _nb(grad, op.outputs[0])
    back = np.argsort(op.get_attr("perm"))
    return array_ops.transpose(grad, tuple(range(nb)) + tuple(nb + int(i) for i in back))


@batched_gradient("ConcatV2")
def _concat_batched(op, grad):
    nb = _nb(grad, op.outputs[0])
    sizes = tuple(t.shape[op.get_attr("axis")] for t in op.inputs)
    attrs = {"size_splits": sizes, "axis": op.get_attr("axis") + nb}
    return list(execute(array_ops.SPLIT_V, (grad,), attrs))


@batched_gradient("Pack")
def _pack_batched(op, grad):
    nb = _nb(grad, op.outputs[0])
    return array_ops.unstack(grad, len(op.inputs), op.get_attr("axis") + nb)


@batched_gradient("Unpack")
def _unpack_batched(op, *grads):
    grads, nb = _zero_filled(op, grads)
    return array_ops.stack(grads, op.get_attr("axis") + nb)


def _split_batched(op, *grads):
    grads, nb = _zero_filled(op, grads)
    axis = op.get_attr("axis")
    return [array_ops.concat(grads, axis + nb)] + [None] * (len(op.inputs) - 1)


for _type in ("Split", "SplitV"):
    batched_gradient(_type, accepts=lambda op: len(op.inputs) == 1)(_split_batched)


@batched_gradient("SumToShape")
def _sum_to_shape_batched(op, grad):
    x = op.inputs[0]
    nb = _nb(grad, op.outputs[0])
    batch, shape = tuple(grad.shape[:nb]), tuple(op.get_attr("shape"))
    padded = batch + (1,) * (len(x.shape) - len(shape)) + shape
    g = reshape(grad, padded) if padded != tuple(grad.shape) else grad
    return broadcast_to(g, batch + tuple(x.shape))


# -- slicing and indexing ---------------------------------------------------------------------------
def _sliced_back(x, grad, spec, nb):
    """Zeros of [B, *x.shape] holding grad at [..., spec]."""
    full = (indexing_ops._FULL,) * nb + tuple(spec)
    shape = tuple(grad.shape[:nb]) + tuple(x.shape)
    return execute(indexing_ops.STRIDED_SLICE_GRAD, (grad,), {"shape": shape, "spec": full})


@batched_gradient("StridedSlice")
def _strided_slice_batched(op, grad):
    return _sliced_back(op.inputs[0], grad, op.get_attr("spec"), _nb(grad, op.outputs[0]))


@batched_gradient("Slice")
def _slice_batched(op, grad):
    spec = tuple((b, None if s == -1 else b + s, None)
                 for b, s in zip(op.get_attr("begin"), op.get_attr("size")))
    return _sliced_back(op.inputs[0], grad, spec, _nb(grad, op.outputs[0]))


@batched_gradient("StridedSliceGrad", accepts=lambda op: len(op.inputs) == 1)
def _strided_slice_grad_batched(op, grad):
    full = (indexing_ops._FULL,) * _nb(grad, op.outputs[0]) + tuple(op.get_attr("spec"))
    return execute(indexing_ops.STRIDED_SLICE, (grad,), {"spec": full})


@batched_gradient("ReverseV2")
def _reverse_batched(op, grad):
    nb = _nb(grad, op.outputs[0])
    return indexing_ops.reverse(grad, tuple(a + nb for a in op.get_attr("axis")))


def _plain_gather(op):
    return op.get_attr("batch_dims") == 0 and len(op.inputs) == 2


@batched_gradient("GatherV2", accepts=_plain_gather)
def _gather_batched(op, grad):
    """Dense (GatherGrad), not IndexedSlices: the rows of the gradient carry the batch."""
    params, indices = op.inputs
    nb = _nb(grad, op.outputs[0])
    attrs = {"params_shape": tuple(grad.shape[:nb]) + tuple(params.shape),
             "axis": op.get_attr("axis") + nb, "batch_dims": 0}
    return execute(indexing_ops.GATHER_GRAD, (grad, indices), attrs), None


@batched_gradient("GatherGrad", accepts=_plain_gather)
def _gather_grad_batched(op, grad):
    nb = _nb(grad, op.outputs[0])
    return indexing_ops.gather(grad, op.inputs[1], axis=op.get_attr("axis") + nb), None


def _padding_of(op, grad):
    return ((0, 0),) * _nb(grad, op.outputs[0]) + tuple(tuple(p) for p in op.get_attr("paddings"))


@batched_gradient("PadV2")
def _pad_batched(op, grad):
    spec = tuple((before, -after or None, None) for before, after in _padding_of(op, grad))
    return execute(indexing_ops.STRIDED_SLICE, (grad,), {"spec": spec})


@batched_gradient("MirrorPad")
def _mirror_pad_batched(op, grad):
    attrs = dict(op.attrs, paddings=_padding_of(op, grad))
    return execute(creation_ops.MIRROR_PAD_GRAD, (grad,), attrs)


@batched_gradient("MirrorPadGrad")
def _mirror_pad_grad_batched(op, grad):
    attrs = dict(op.attrs, paddings=_padding_of(op, grad))
    return execute(creation_ops.MIRROR_PAD, (grad,), attrs)


@batched_gradient("Tile", accepts=lambda op: None not in tuple(op.inputs[0].shape))
def _tile_batched(op, grad):
    """Sum the copies: view g as [B, m0, d0, m1, d1, ...] and sum the m axes."""
    nb, x_shape = _nb(grad, op.outputs[0]), tuple(op.inputs[0].shape)
    batch, multiples = tuple(grad.shape[:nb]), op.get_attr("multiples")
    split = batch + tuple(v for m, d in zip(multiples, x_shape) for v in (m, d))
    summed = batch + tuple(v for d in x_shape for v in (1, d))
    g = execute(array_core.SUM_TO_SHAPE, (reshape(grad, split),), {"shape": summed})
    return reshape(g, batch + x_shape)


@batched_gradient("TileGrad")
def _tile_grad_batched(op, grad):
    nb = _nb(grad, op.outputs[0])
    return creation_ops.tile(grad, (1,) * nb + tuple(op.get_attr("multiples"))), None


# -- linear algebra and nn ------------------------------------------------------------------------
def _unique_subscripts(op):
    subs, _ = linalg_ops._parse_equation(op.get_attr("equation"), len(op.inputs))
    return all(len(set(s)) == len(s) for s in subs)


@batched_gradient("Einsum", accepts=_unique_subscripts)
def _einsum_batched(op, grad):
    """The ordinary rule with fresh letters for the batch axes leading the gradient's and each
    result's subscripts."""
    subs, out = linalg_ops._parse_equation(op.get_attr("equation"), len(op.inputs))
    used = set(op.get_attr("equation"))
    lead = "".join([c for c in string.ascii_letters if c not in used][:_nb(grad, op.outputs[0])])
    return [_einsum_operand(op, grad, subs, lead + out, lead, i)
            if i not in op.skip_input_indices else None for i in range(len(op.inputs))]


def _einsum_operand(op, grad, subs, out, lead, i):
    target, x = subs[i], op.inputs[i]
    others = [s for j, s in enumerate(subs) if j != i]
    tensors = [grad] + [t for j, t in enumerate(op.inputs) if j != i]
    if any(c not in set(out).union(*others) for c in target):  # summed within operand i
        others.append(target)
        tensors.append(array_core.ones_like(x))
    star = linalg_ops._ELLIPSIS
    if star not in target and star in out + "".join(others):
        target = star + target
    equation = linalg_ops._join([out] + others, lead + target)
    return execute(linalg_ops.EINSUM, tensors, {"equation": equation})



@batched_gradient("MatMul")
def _matmul_batched(op, grad):
    """MatMul's rule transposes with `.T`; the batched product swaps only the last two axes."""
    def product(x, y, tx, ty):
        return execute(linalg_ops.BATCH_MATMUL, (x, y), {"adj_x": tx, "adj_y": ty})
    return linalg_ops._product_grads(op, grad, product, op.get_attr("transpose_a"),
                                     op.get_attr("transpose_b"))


@batched_gradient("MatrixDiagPart")
def _diag_part_batched(op, grad):
    x = op.inputs[0]
    nb = _nb(grad, op.outputs[0])
    zeros = Tensor(np.zeros(tuple(grad.shape[:nb]) + tuple(x.shape), x.dtype.as_numpy_dtype))
    return execute(linalg_ops.SET_DIAG, (zeros, grad))


def _channel(op, rank):
    """The channel axis of BiasAdd's value (of rank `rank`) counted from the end."""
    fmt = op.get_attr("data_format")
    return -1 if not (fmt and fmt.startswith("NC")) else 1 - rank


@batched_gradient("BiasAdd")
def _bias_add_batched(op, grad):
    value = op.inputs[0]
    nb, rank = _nb(grad, op.outputs[0]), len(value.shape)
    channel = nb + rank + _channel(op, rank)
    axes = [a for a in range(nb, nb + rank) if a != channel]
    d_bias = None
    if 1 not in op.skip_input_indices:
        d_bias = execute(reduce_ops.SUM, (grad,), {"axis": tuple(axes), "keepdims": False})
    return grad, d_bias


@batched_gradient("BiasAddGrad")
def _bias_add_grad_batched(op, grad):
    g = op.inputs[0]
    nb, rank = _nb(grad, op.outputs[0]), len(g.shape)
    kept = [1] * rank
    kept[rank + _channel(op, rank)] = g.shape[rank + _channel(op, rank)]
    batch = tuple(grad.shape[:nb])
    return broadcast_to(reshape(grad, batch + tuple(kept)), batch + tuple(g.shape))


@batched_gradient("MulSum")
def _mul_sum_batched(op, grad):
    """sum(a * b) is a scalar: its gradient [B] gets a size-1 axis per axis of a and b."""
    a, b = op.inputs
    nb = _nb(grad, op.outputs[0])
    g = reshape(grad, tuple(grad.shape[:nb]) + (1,) * len(a.shape))
    skip = op.skip_input_indices
    return (g * b if 0 not in skip else None), (g * a if 1 not in skip else None)


@batched_gradient("L2Loss")
def _l2_loss_batched(op, grad):
    x = op.inputs[0]
    nb = _nb(grad, op.outputs[0])
    return reshape(grad, tuple(grad.shape[:nb]) + (1,) * len(x.shape)) * x

