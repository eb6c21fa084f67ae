"""What the fused LSTM and GRU sequences share: argument checks, Keras's masking rule (in the
NumPy kernels and in the differentiable recurrences over duals), the derivative rules of the
gradient ops, and the ONNX lowering's gate selection.

Masking (Keras's rule): where mask[b, t] is False the states keep their previous values and the
output repeats the previous step's output (zeros before the first kept step), or is zero with
`zero_output_for_mask`. With m = mask[:, t] as 0/1 and h~ the step's unmasked new state:
    h_t = m h~_t + (1 - m) h_{t-1},   out_t = m h~_t + (1 - m) out_{t-1}   (out_{-1} = 0)
Backwards, with dh the gradient reaching h_t, g_t the one reaching out_t and d_out the one a
masked output carries back to the previous step's output:
    dh~_t = m (dh + g_t + d_out),   dh_{t-1} gets (1 - m) dh,   d_out_{t-1} = (1 - m)(g_t + d_out)
(with zero_output_for_mask: dh~_t = m (dh + g_t) and d_out stays 0). The mask is the op's last
input: [time, batch] booleans, or an empty [0, 0] tensor for "every step counts".
"""
import numpy as np

from ....framework import dtypes
from ....framework.errors import InvalidArgumentError
from ....framework.tensor import convert_to_tensor
from ....framework.tensor_shape import TensorShape
from ...array_ops import unstack
from ...cast_ops import cast
from ...reshape_ops import reshape
from .dual import Dual
from .dual import unstack as unstack_dual

__all__ = ["expit", "mask_steps", "previous", "stacked_previous", "masked_output",
           "carry_masked", "check_rnn", "mask_input", "static_sizes", "dual_steps",
           "step_masks", "keep", "masked_step_output", "carry", "gradient_op_rules",
           "onnx_gates", "onnx_recurrent", "onnx_reserved"]


# -- the NumPy kernels -------------------------------------------------------------------------
def expit(x, out):
    """sigmoid(x) = (1 + tanh(x / 2)) / 2, in place: three fast ufuncs (SciPy's float32 expit
    is scalar code, about 30 times slower per element)."""
    np.multiply(x, 0.5, out=out)
    np.tanh(out, out=out)
    out *= 0.5
    out += 0.5
    return out


def mask_steps(mask):
    """The [T, B] mask as [T, B, 1] booleans, or None for "every step counts"."""
    if mask.size == 0:
        return None
    return mask.astype(bool)[:, :, None]


def previous(states, first, t):
    return first if t == 0 else states[t - 1]


def stacked_previous(states, first):
    """[h_0, h_1, ..., h_{T-2}] flattened to [T * B, H]: the state entering each step."""
    prev = np.concatenate([first[None], states[:-1]], axis=0)[:len(states)]
    return prev.reshape(-1, prev.shape[-1])


def masked_output(out, masks, t, state, previous_out, zero_output):
    """Step t's output: the new state where the step is kept, else the carried output."""
    if masks is None:
        out[t] = state
    elif zero_output:
        np.multiply(state, masks[t], out=out[t])
    else:
        np.copyto(out[t], np.where(masks[t], state, previous_out))


def carry_masked(masks, t, dh, g_out, d_out, zero_output):
    """(dh~ reaching the step's raw output, the part of dh passed on unchanged, new d_out)."""
    total = dh + g_out + d_out
    if masks is None:
        return total, None, d_out
    keep_t = masks[t]
    raw = np.where(keep_t, total if not zero_output else dh + g_out, 0)
    passed = np.where(keep_t, 0, dh)
    carried = np.zeros_like(d_out) if zero_output else np.where(keep_t, 0, g_out + d_out)
    return raw, passed, carried


# -- arguments ---------------------------------------------------------------------------------
def check_rnn(what, xw, states, u, gates):
    """(batch, steps, units) of a sequence op's arguments, each None where unknown; raises
    InvalidArgumentError for mixed dtypes or shapes that do not fit."""
    for t in (xw, u, *states):
        if not t.dtype.is_floating or t.dtype != xw.dtype:
            raise InvalidArgumentError(f"{what}: inputs must share one float dtype; got "
                                       f"{[s.dtype.name for s in (xw, u, *states)]}.")
    x_shape, u_shape = TensorShape(xw.shape), TensorShape(u.shape)
    if x_shape.rank not in (None, 3) or u_shape.rank not in (None, 2):
        raise InvalidArgumentError(f"{what}: xw must be [time, batch, {gates}*units] and the "
                                   f"recurrent kernel [units, {gates}*units]; got {x_shape} and "
                                   f"{u_shape}.")
    units = u_shape[0] if u_shape.rank else None
    width = u_shape[1] if u_shape.rank else None
    if units is not None and width is not None and width != gates * units:
        raise InvalidArgumentError(f"{what}: the recurrent kernel {u_shape} must have "
                                   f"{gates} * units columns.")
    batch = x_shape[1] if x_shape.rank else None
    steps = x_shape[0] if x_shape.rank else None
    return batch, steps, units


def mask_input(mask):
    """The op's mask input: [time, batch] booleans, or an empty [0, 0] tensor for none."""
    if mask is None:
        return convert_to_tensor(np.zeros([0, 0], bool))
    mask = convert_to_tensor(mask)
    return mask if mask.dtype == dtypes.bool else cast(mask, dtypes.bool)


# -- the differentiable recurrences, over duals ------------------------------------------------
def static_sizes(what, xw, u):
    """(steps, units), which the step-by-step recurrences need known while they are built."""
    steps = xw.shape[0] if xw.shape.rank else None
    units = u.shape[0] if u.shape.rank else None
    if steps is None or units is None:
        raise InvalidArgumentError(
            f"{what}: forward-mode and higher-order derivatives run the recurrence step by "
            f"step, which needs the number of time steps and of units known; got xw of shape "
            f"{xw.shape} and a recurrent kernel of shape {u.shape}. Give the sequence a static "
            f"length (e.g. an input signature with the time dimension set).")
    return int(steps), int(units)


def dual_steps(value, tangent, steps):
    """The [T, ...] tensor `value` with its tangent (None: zero), as T duals."""
    return unstack_dual(Dual(value, tangent), steps)


def step_masks(mask, dtype, steps):
    """Per step, (m, 1 - m) as [B, 1] tensors of `dtype`, or None where no mask is given."""
    if mask.shape.num_elements() == 0:
        return [None] * steps
    return [(m, 1 - m) for m in unstack(reshape(cast(mask, dtype), [steps, -1, 1]), steps)]


def keep(m, new, old):
    """m new + (1 - m) old (old None: zero), with m = (m, 1 - m) from step_masks."""
    kept = new * m[0]
    return kept if old is None else kept + old * m[1]


def masked_step_output(m, new, previous_out, zero_output):
    if m is None:
        return new
    return new * m[0] if zero_output else keep(m, new, previous_out)


def carry(m, dh, g_t, d_out, zero_output):
    """(dh~ reaching the step's new state, the part of dh passed on unchanged or None, the new
    d_out or None): the masking rule backwards (module docstring), over duals."""
    if m is None:
        return dh + g_t, None, None
    if zero_output:
        return (dh + g_t) * m[0], dh * m[1], None
    carried = g_t if d_out is None else g_t + d_out
    return (dh + carried) * m[0], dh * m[1], carried * m[1]


def gradient_op_rules(tangents_of_grad):
    """(forward-mode rule, gradient) of a gradient op G(p..., mask, reserve..., g...) = J^T g
    whose outputs match its first inputs p (the package docstring derives both), from
    `tangents_of_grad(inputs, tangents, attrs)` -> (the duals of the sequence op's outputs y,
    the duals of G's outputs), evaluated from the inputs with the given tangents."""
    def jvp(primals, tangents, outputs, **attrs):
        return [d.tangent for d in tangents_of_grad(primals, tangents, attrs)[1]]

    def grad(op, *cotangents):
        """J a for g, the tangent of G along a for p; nothing for the mask and reserve."""
        inputs = list(op.inputs)
        directions = list(cotangents) + [None] * (len(inputs) - len(cotangents))
        outputs, grads = tangents_of_grad(inputs, directions, op.attrs)
        skipped = len(inputs) - len(grads) - len(outputs)
        return [d.tangent for d in grads] + [None] * skipped + [d.tangent for d in outputs]
    return jvp, grad


# -- ONNX: the fused sequences as ONNX LSTM / GRU nodes ------------------------------------------
# The input projection is already applied (xw), so ONNX's input weights W are a constant
# selection matrix that reorders the gate blocks of xw into ONNX's order (LSTM: Keras i, f, c, o
# -> ONNX i, o, f, c; GRU: z, r, h in both); R is U's columns in that order, transposed.
def onnx_gates(ctx, op, order):
    xw, h0 = op.inputs[0], op.inputs[1]
    units = h0.shape[-1] if h0.shape.rank == 2 else None
    if units is None:
        ctx.fail("needs the number of units known (the state's last dimension).")
    if op.inputs[-1].shape.num_elements() != 0:  # no mask: an empty [0, 0] input
        ctx.fail("masked sequences are not lowered (ONNX's sequence_lens covers only masks "
                 "that end each sequence); export the model without masking.")
    width = len(order) * units
    columns = np.concatenate([np.arange(k * units, (k + 1) * units) for k in order])
    select = np.zeros((1, width, width), xw.dtype.as_numpy_dtype)
    select[0, np.arange(width), columns] = 1
    return units, columns, ctx.const(select)


def onnx_recurrent(ctx, u, columns):
    picked = ctx.node("Gather", [u, ctx.int64s(columns)], axis=1)      # [H, kH], ONNX order
    return ctx.unsqueeze(ctx.transpose(picked, [1, 0]), [0])            # [1, kH, H]


def onnx_reserved(ctx, op, first):
    """Stand-ins for the reserve outputs (working memory of the gradient op, unused when a
    model runs for inference)."""
    return [ctx.const(np.zeros((0,), t.dtype.as_numpy_dtype)) for t in op.outputs[first:]]
