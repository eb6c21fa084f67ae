"""The batched reverse pass behind vectorized Jacobians: many VJPs in one walk over the ops.

Row i of the Jacobian J = dy/dx is the VJP of the one-hot seed e_i. Stacking all m seeds gives the
identity, reshaped to [m, *y.shape]; if every gradient rule accepts gradients with that extra
leading dimension, one reverse pass computes all rows at once:

    seed = I_m reshaped to [m, *y.shape]      ->      grad(x) = J^T rows = J reshaped [m, *x.shape]

Each gradient then has shape [m] + (its tensor's shape). A rule is *batch-safe* when it is right for
such gradients as written: most combine the gradient with forward values through NumPy-broadcast
elementwise ops (Mul: g * y; Tanh: TanhGrad(y, g); where(c, g, 0)), and broadcasting aligns
trailing axes, so the leading m rides along. Such ops say so where they are declared,
`defop(..., batch="safe")`. Rules that name axes or shapes (Sum broadcasts g back over the
reduced axes of the input's shape, Reshape reshapes to it, Transpose permutes, MatMul transposes
with `.T`) have a batched variant beside them, `defop(..., batch=fn)`: the same math with every
axis shifted by the number of batch dimensions, which the batched pass calls instead of the rule
(backprop._rule). Softmax-like rules that only need a negative axis get a view of their record
whose `axis` attribute counts from the end.

jacobians.py runs the pass over `view(op)` of each op on the path, in blocks of rows.
Broadcasting in the forward pass is undone where the unbatched pass undoes it
(`broadcast_ops.unbroadcast` with `batch_dims`): a rule's result of shape [m, *s] is summed to
[m] + input.shape, aligning the input's shape with the trailing axes of s.

The variants are written in wengert ops, like every rule, so an outer tape records the pass: the
Hessian as the Jacobian of a gradient works vectorized when the gradient's ops are batch-safe too.
`why_not(path)` says why a path cannot be batched (an op with neither a batch-safe rule nor a
variant, custom gradients, control flow, graph mode, ...); the caller then runs one pass per row.
"""
from ..framework.context import state
from ..framework.operation import Operation
from ..framework.registry import _GRADIENTS, _MISSING
from ..framework.tensor import is_eager_tensor

__all__ = ["why_not", "view", "ROW_BLOCK_ELEMENTS"]

ROW_BLOCK_ELEMENTS = 1 << 24   # rows per pass are capped so m * (largest tensor) stays below this


# -- which paths can be batched -----------------------------------------------------------------
def why_not(path, target):
    """None when one batched pass can run over `path` (op records in execution order), else a
    sentence saying what prevents it."""
    if state.graph is not None:
        return "building a graph (vectorized jacobians run eagerly)"
    if not is_eager_tensor(target) or not target.dtype.is_differentiable:
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
    batch = op.op_def.batch
    if callable(batch):
        accepts = op.op_def.batch_accepts
        return None if accepts is None or accepts(op) else f"{label}: its batched rule " \
            "does not cover these attributes"
    if batch is not None:  # "safe" or "negative_axis"
        return None
    if _GRADIENTS.get(op.type, _MISSING) is None:  # not differentiable: no rule runs
        return None
    return f"{label} has no batch-safe gradient rule"


def view(op):
    """The record the batched pass walks in place of `op` (the pass itself calls a batched
    variant, backprop._rule)."""
    if op.op_def.batch == "negative_axis" and op.attrs["axis"] >= 0:
        return _copy(op, dict(op.attrs, axis=op.attrs["axis"] - len(op.inputs[0].shape)))
    return op


def _copy(op, attrs):
    view = Operation(op.op_def, op.inputs, op.outputs, attrs, op._name, op.graph)
    view.traceback = op.traceback
    return view
