"""The fused LSTM sequence: LSTMSequence, its gradient op LSTMSequenceGrad, and their derivatives.

LSTMSequence(xw [T, B, 4H], h0 [B, H], c0 [B, H], U [H, 4H], mask [T, B] or [0, 0]), gates in
Keras's order i, f, c, o:
    z_t = xw_t + h_{t-1} U;  i, f, o = sigmoid(z_i, z_f, z_o);  g = tanh(z_c)
    c~_t = f c_{t-1} + i g;  h~_t = o tanh(c~_t)
masked by Keras's rule (sequence.py; c_t like h_t). Outputs: the output sequence [T, B, H], h_T,
c_T, and reserve outputs that the gradient op reads: the gate activations [T, B, 4H], tanh(c~_t),
h_t and c_t [T, B, H].

LSTMSequenceGrad(xw, h0, c0, U, mask, reserve..., g_seq, g_h, g_c) is back-propagation through
time, from the last step to the first (dh, dc reach the states; dh~ is the part of dh reaching
the step's new state, by the masking rule):
    dc~ = m dc + dh~ o (1 - tanh^2 c~)
    dz = (dc~ g i(1-i), dc~ c_{t-1} f(1-f), dc~ i (1-g^2), dh~ tanh(c~) o(1-o)) = dxw_t
    dh_{t-1} = dz U^T + (1-m) dh,   dc_{t-1} = dc~ f + (1-m) dc,   dU = sum_t h_{t-1}^T dz_t.
Both kernels are NumPy loops with one [B, H] x [H, 4H] product per step. xw is an input of the
gradient op only so that its own gradient can recompute the recurrence from it: its kernel never
reads it (`unread`), so a compiled plan frees xw after the forward op.

The same two recurrences are written once more over duals in wengert ops (`_forward`,
`_backward`): they give LSTMSequence's forward-mode rule, LSTMSequenceGrad's forward-mode rule
and LSTMSequenceGrad's gradient (the package docstring derives the last), so every derivative
beyond the first differentiates again.
"""
import numpy as np

from ....framework.execute import execute
from ....framework.registry import defop
from ....framework.tensor import convert_to_tensor
from ....framework.tensor_shape import TensorShape
from ...broadcast_ops import zeros_like_gradient
from .dual import Dual, concat, matmul, reshape, sigmoid, stack, tanh
from .sequence import (carry, carry_masked, check_rnn, dual_steps, expit, gradient_op_rules,
                       keep, mask_input, mask_steps, masked_output, masked_step_output,
                       onnx_gates, onnx_recurrent, onnx_reserved, previous, stacked_previous,
                       static_sizes, step_masks)

__all__ = ["lstm_sequence"]


# -- the NumPy kernels -------------------------------------------------------------------------
def _lstm_kernel(xw, h0, c0, u, mask, zero_output_for_mask=False):
    steps, (batch, units) = xw.shape[0], h0.shape
    masks = mask_steps(mask)
    gates = np.empty((steps, batch, 4 * units), xw.dtype)
    tanh_c = np.empty((steps, batch, units), xw.dtype)
    hs, cs = np.empty_like(tanh_c), np.empty_like(tanh_c)
    out = np.empty_like(tanh_c)
    h, c = h0, c0
    for t in range(steps):
        z = gates[t]
        np.matmul(h, u, out=z)
        z += xw[t]
        expit(z[:, :2 * units], out=z[:, :2 * units])
        np.tanh(z[:, 2 * units:3 * units], out=z[:, 2 * units:3 * units])
        expit(z[:, 3 * units:], out=z[:, 3 * units:])
        i, f, g, o = (z[:, k * units:(k + 1) * units] for k in range(4))
        c_new, h_new = cs[t], hs[t]
        np.multiply(f, c, out=c_new)
        c_new += i * g
        np.tanh(c_new, out=tanh_c[t])
        np.multiply(o, tanh_c[t], out=h_new)
        if masks is not None:
            np.copyto(c_new, c, where=~masks[t])
            np.copyto(h_new, h, where=~masks[t])
        masked_output(out, masks, t, h_new, out[t - 1] if t else np.zeros_like(h0),
                      zero_output_for_mask)
        h, c = h_new, c_new
    return out, np.array(h), np.array(c), gates, tanh_c, hs, cs


def _lstm_grad_kernel(xw, h0, c0, u, mask, gates, tanh_c, hs, cs, g_seq, g_h, g_c,
                      zero_output_for_mask=False):
    steps, _, units = tanh_c.shape
    masks = mask_steps(mask)
    dz_all = np.empty(gates.shape, gates.dtype)
    dh, dc = np.array(g_h, gates.dtype), np.array(g_c, gates.dtype)
    d_out = np.zeros_like(dh)
    for t in range(steps - 1, -1, -1):
        dh_raw, dh_pass, d_out = carry_masked(masks, t, dh, g_seq[t], d_out,
                                              zero_output_for_mask)
        i, f, g, o = (gates[t][:, k * units:(k + 1) * units] for k in range(4))
        th = tanh_c[t]
        dc_raw = dc if masks is None else np.where(masks[t], dc, 0)
        dc_raw = dc_raw + dh_raw * o * (1 - th * th)
        dz = dz_all[t]
        dz[:, :units] = dc_raw * g * i * (1 - i)
        dz[:, units:2 * units] = dc_raw * previous(cs, c0, t) * f * (1 - f)
        dz[:, 2 * units:3 * units] = dc_raw * i * (1 - g * g)
        dz[:, 3 * units:] = dh_raw * th * o * (1 - o)
        dc_next = dc_raw * f
        dh = dz @ u.T
        if masks is not None:
            dc_next += np.where(masks[t], 0, dc)
            dh += dh_pass
        dc = dc_next
    du = stacked_previous(hs, h0).T @ dz_all.reshape(-1, 4 * units)
    return dz_all, dh, dc, du.astype(u.dtype)


# -- the recurrences over duals ----------------------------------------------------------------
def _forward(xw, h0, c0, u, mask, zero_output):
    """The LSTM over duals xw, h0, c0, u: (per-step records for _backward, the outputs, h_T,
    c_T)."""
    steps, units = static_sizes("LSTMSequence", xw.value, u.value)
    h, c, out, records, outs = h0, c0, None, [], []
    for x, m in zip(dual_steps(xw.value, xw.tangent, steps),
                    step_masks(mask, xw.value.dtype, steps)):
        z = x + matmul(h, u)
        i, f = sigmoid(z[:, :units]), sigmoid(z[:, units:2 * units])
        g, o = tanh(z[:, 2 * units:3 * units]), sigmoid(z[:, 3 * units:])
        c_new = f * c + i * g
        th = tanh(c_new)
        h_new = o * th
        records.append((h, c, i, f, g, o, th, m))
        out = masked_step_output(m, h_new, out, zero_output)
        outs.append(out)
        h, c = (h_new, c_new) if m is None else (keep(m, h_new, h), keep(m, c_new, c))
    return records, stack(outs), h, c


def _backward(records, u, g_seq, g_h, g_c, zero_output):
    """Back-propagation through time over duals (the module docstring's recurrence): dxw, dh0,
    dc0, dU."""
    dh, dc, d_out, dzs = g_h, g_c, None, []
    for (h, c, i, f, g, o, th, m), g_t in zip(reversed(records), reversed(g_seq)):
        dh_new, passed, d_out = carry(m, dh, g_t, d_out, zero_output)
        dc_new = (dc if m is None else dc * m[0]) + dh_new * o * (1 - th * th)
        dz = concat([dc_new * g * i * (1 - i), dc_new * c * f * (1 - f),
                     dc_new * i * (1 - g * g), dh_new * th * o * (1 - o)], 1)
        dzs.append(dz)
        dh = matmul(dz, u, transpose_b=True)
        dh = dh if passed is None else dh + passed
        dc = dc_new * f if m is None else dc_new * f + dc * m[1]
    units = int(u.value.shape[0])
    dz_all = stack(dzs[::-1])
    before = reshape(stack([r[0] for r in records]), [-1, units])
    return dz_all, dh, dc, matmul(before, reshape(dz_all, [-1, 4 * units]), transpose_a=True)


def _tangents_of_grad(inputs, tangents, attrs):
    """The duals of LSTMSequence's outputs and of LSTMSequenceGrad's, from LSTMSequenceGrad's
    inputs and their tangents (None: zero)."""
    zero_output = attrs["zero_output_for_mask"]
    xw, h0, c0, u = (Dual(p, t) for p, t in zip(inputs[:4], tangents[:4]))
    records, seq, h, c = _forward(xw, h0, c0, u, inputs[4], zero_output)
    g_seq = dual_steps(inputs[9], tangents[9], len(records))
    grads = _backward(records, u, g_seq, Dual(inputs[10], tangents[10]),
                      Dual(inputs[11], tangents[11]), zero_output)
    return (seq, h, c), grads


# -- shapes and derivative rules ---------------------------------------------------------------
def _lstm_rule(xw, h0, c0, u, mask, zero_output_for_mask=False):
    batch, steps, units = check_rnn("LSTMSequence", xw, (h0, c0), u, 4)
    state = TensorShape((batch, units))
    tm = TensorShape((steps, batch, units))
    width = None if units is None else 4 * units
    return [(s, xw.dtype) for s in (tm, state, state, TensorShape((steps, batch, width)), tm,
                                    tm, tm)]


def _lstm_grad(op, g_seq, g_h, g_c, *_reserve):
    """The fused back-propagation through time (the reserve outputs are working memory: their
    gradients are ignored)."""
    xw, h0, c0, u, mask = op.inputs
    seq, _, _, gates, tanh_c, hs, cs = op.outputs
    g_seq, g_h, g_c = (g if g is not None else zeros_like_gradient(t) for g, t in
                       ((g_seq, seq), (g_h, h0), (g_c, c0)))
    dxw, dh0, dc0, du = execute(LSTM_SEQUENCE_GRAD, (xw, h0, c0, u, mask, gates, tanh_c, hs, cs,
                                                     g_seq, g_h, g_c), dict(op.attrs))
    return dxw, dh0, dc0, du, None


def _lstm_jvp(primals, tangents, outputs, zero_output_for_mask=False):
    """The tangent recurrence, recomputed from the inputs over duals."""
    duals = [Dual(p, t) for p, t in zip(primals[:4], tangents[:4])]
    _, seq, h, c = _forward(*duals, primals[4], zero_output_for_mask)
    return [seq.tangent, h.tangent, c.tangent, None, None, None, None]


def _lstm_grad_rule(xw, h0, c0, u, mask, gates, tanh_c, hs, cs, g_seq, g_h, g_c,
                    zero_output_for_mask=False):
    return [(TensorShape(gates.shape), u.dtype), (h0.shape, u.dtype), (c0.shape, u.dtype),
            (u.shape, u.dtype)]


_lstm_grad_jvp, _lstm_grad_grad = gradient_op_rules(_tangents_of_grad)


def _lstm_onnx(ctx, op, xw, h0, c0, u, mask):
    units, columns, select = onnx_gates(ctx, op, (0, 3, 1, 2))
    bias = ctx.const(np.zeros((1, 8 * units), op.inputs[0].dtype.as_numpy_dtype))
    seq, h, c = ctx.node("LSTM", [xw, select, onnx_recurrent(ctx, u, columns), bias, "",
                                  ctx.unsqueeze(h0, [0]), ctx.unsqueeze(c0, [0])],
                         outputs=3, hidden_size=int(units))
    return [ctx.squeeze(seq, [1]), ctx.squeeze(h, [0]), ctx.squeeze(c, [0])] + \
        onnx_reserved(ctx, op, 3)


LSTM_SEQUENCE_GRAD = defop("LSTMSequenceGrad", _lstm_grad_kernel, shape=_lstm_grad_rule,
                           grad=_lstm_grad_grad, jvp=_lstm_grad_jvp, num_outputs=4, unread=(0,))
LSTM_SEQUENCE = defop("LSTMSequence", _lstm_kernel, shape=_lstm_rule, grad=_lstm_grad,
                      jvp=_lstm_jvp, num_outputs=7, onnx=_lstm_onnx)


def lstm_sequence(xw, h0, c0, recurrent_kernel, mask=None, zero_output_for_mask=False,
                  name=None):
    """Run an LSTM over xw = x W + b [time, batch, 4 units] (Keras's gate order i, f, c, o)
    from states (h0, c0), mask [time, batch]; returns (outputs [time, batch, units], h_T,
    c_T)."""
    args = [convert_to_tensor(xw), convert_to_tensor(h0), convert_to_tensor(c0),
            convert_to_tensor(recurrent_kernel), mask_input(mask)]
    outs = execute(LSTM_SEQUENCE, args, {"zero_output_for_mask": bool(zero_output_for_mask)},
                   name)
    return outs[0], outs[1], outs[2]
