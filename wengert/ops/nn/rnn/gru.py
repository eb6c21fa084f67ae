"""The fused GRU sequence: GRUSequence, its gradient op GRUSequenceGrad, and their derivatives.

GRUSequence(xw [T, B, 3H], h0 [B, H], U [H, 3H], b_rec [3H], mask [T, B] or [0, 0]), gates z, r,
h. reset_after=True (TensorFlow 2's default: r multiplies the recurrent projection):
    a = h_{t-1} U + b_rec;  z, r = sigmoid(xw_z + a_z, xw_r + a_r);  n = tanh(xw_h + r a_h)
reset_after=False (r multiplies the state first; b_rec is unused):
    z, r = sigmoid(xw_zr + h_{t-1} U_zr);  n = tanh(xw_h + (r h_{t-1}) U_h)
and in both h~_t = z h_{t-1} + (1 - z) n, masked by Keras's rule (sequence.py). Outputs: the
output sequence [T, B, H], h_T, and reserve outputs for the gradient op: the gate activations
[T, B, 3H], the inner term (a_h, or r h_{t-1}) and h_t [T, B, H].

GRUSequenceGrad(xw, h0, U, b_rec, mask, reserve..., g_seq, g_h) is back-propagation through time
(dh~ the part of the state's gradient reaching the step's new state, by the masking rule):
    dz = dh~ (h_{t-1} - n) z(1-z),   dn = dh~ (1-z)(1-n^2),   dxw_t = (dz, dr, dn)
    reset_after:  dr = dn a_h r(1-r);  da = (dz, dr, dn r);  dh_{t-1} = dh~ z + da U^T + (1-m) dh;
                  dU = sum h_{t-1}^T da,  d b_rec = sum da
    reset_before: d(rh) = dn U_h^T;  dr = d(rh) h_{t-1} r(1-r);
                  dh_{t-1} = dh~ z + d(rh) r + (dz, dr) U_zr^T + (1-m) dh;
                  dU = (sum h_{t-1}^T (dz, dr), sum (r h_{t-1})^T dn),  d b_rec = 0.
Both kernels are NumPy loops; the same recurrences over duals in wengert ops (`_forward`,
`_backward`) give the forward-mode rules and the gradient of the gradient op, as for the LSTM
(lstm.py; the package docstring derives it).
"""
import numpy as np

from ....framework.execute import execute
from ....framework.registry import defop
from ....framework.tensor import convert_to_tensor
from ....framework.tensor_shape import TensorShape
from ...broadcast_ops import zeros_like_gradient
from .dual import Dual, concat, matmul, reduce_sum, reshape, sigmoid, stack, tanh
from .sequence import (carry, carry_masked, check_rnn, dual_steps, expit, gradient_op_rules,
                       keep, mask_input, mask_steps, masked_output, masked_step_output,
                       onnx_gates, onnx_recurrent, onnx_reserved, previous, stacked_previous,
                       static_sizes, step_masks)

__all__ = ["gru_sequence"]


# -- the NumPy kernels -------------------------------------------------------------------------
def _gru_kernel(xw, h0, u, b_rec, mask, reset_after=True, zero_output_for_mask=False):
    steps, (batch, units) = xw.shape[0], h0.shape
    masks = mask_steps(mask)
    gates = np.empty((steps, batch, 3 * units), xw.dtype)
    inner = np.empty((steps, batch, units), xw.dtype)
    hs, out = np.empty_like(inner), np.empty_like(inner)
    h = h0
    for t in range(steps):
        a = gates[t]
        if reset_after:
            np.matmul(h, u, out=a)
            a += b_rec
            inner[t] = a[:, 2 * units:]
            a[:, :2 * units] += xw[t][:, :2 * units]
        else:
            np.matmul(h, u[:, :2 * units], out=a[:, :2 * units])
            a[:, :2 * units] += xw[t][:, :2 * units]
        expit(a[:, :2 * units], out=a[:, :2 * units])
        z, r, n = a[:, :units], a[:, units:2 * units], a[:, 2 * units:]
        if reset_after:
            np.multiply(r, inner[t], out=n)
        else:
            np.multiply(r, h, out=inner[t])
            np.matmul(inner[t], u[:, 2 * units:], out=n)
        n += xw[t][:, 2 * units:]
        np.tanh(n, out=n)
        h_new = hs[t]
        np.subtract(h, n, out=h_new)
        h_new *= z
        h_new += n
        if masks is not None:
            np.copyto(h_new, h, where=~masks[t])
        masked_output(out, masks, t, h_new, out[t - 1] if t else np.zeros_like(h0),
                      zero_output_for_mask)
        h = h_new
    return out, np.array(h), gates, inner, hs


def _gru_grad_kernel(xw, h0, u, b_rec, mask, gates, inner, hs, g_seq, g_h, reset_after=True,
                     zero_output_for_mask=False):
    steps, _, units = inner.shape
    masks = mask_steps(mask)
    dx_all = np.empty(gates.shape, gates.dtype)
    d_inner_all = np.empty(gates.shape, gates.dtype) if reset_after else None
    dh = np.array(g_h, gates.dtype)
    d_out = np.zeros_like(dh)
    u_zr, u_h = u[:, :2 * units], u[:, 2 * units:]
    for t in range(steps - 1, -1, -1):
        dh_raw, dh_pass, d_out = carry_masked(masks, t, dh, g_seq[t], d_out,
                                              zero_output_for_mask)
        z, r, n = (gates[t][:, k * units:(k + 1) * units] for k in range(3))
        h_prev = previous(hs, h0, t)
        dx = dx_all[t]
        dx[:, :units] = dh_raw * (h_prev - n) * z * (1 - z)
        dn = dx[:, 2 * units:]
        np.multiply(dh_raw * (1 - z), 1 - n * n, out=dn)
        if reset_after:
            dx[:, units:2 * units] = dn * inner[t] * r * (1 - r)
            di = d_inner_all[t]
            di[:, :2 * units] = dx[:, :2 * units]
            np.multiply(dn, r, out=di[:, 2 * units:])
            dh_new = dh_raw * z + di @ u.T
        else:
            d_rh = dn @ u_h.T
            dx[:, units:2 * units] = d_rh * h_prev * r * (1 - r)
            dh_new = dh_raw * z + d_rh * r + dx[:, :2 * units] @ u_zr.T
        if masks is not None:
            dh_new += dh_pass
        dh = dh_new
    prev = stacked_previous(hs, h0)
    if reset_after:
        flat = d_inner_all.reshape(-1, 3 * units)
        du, db = prev.T @ flat, flat.sum(axis=0)
    else:
        flat = dx_all.reshape(-1, 3 * units)
        du = np.concatenate([prev.T @ flat[:, :2 * units],
                             inner.reshape(-1, units).T @ flat[:, 2 * units:]], axis=1)
        db = np.zeros(3 * units, u.dtype)
    return dx_all, dh, du.astype(u.dtype), db.astype(u.dtype)


# -- the recurrences over duals ----------------------------------------------------------------
def _step(x, h, u, b_rec, units, reset_after):
    """One unmasked step: (z, r, n, the inner term a_h or r h, h~)."""
    if reset_after:
        a = matmul(h, u) + b_rec
        z, r = sigmoid(x[:, :units] + a[:, :units]), sigmoid(x[:, units:2 * units] +
                                                              a[:, units:2 * units])
        inner = a[:, 2 * units:]
        n = tanh(x[:, 2 * units:] + r * inner)
    else:
        a = matmul(h, u[:, :2 * units])
        z, r = sigmoid(x[:, :units] + a[:, :units]), sigmoid(x[:, units:2 * units] +
                                                              a[:, units:])
        inner = r * h
        n = tanh(x[:, 2 * units:] + matmul(inner, u[:, 2 * units:]))
    return z, r, n, inner, n + z * (h - n)


def _forward(xw, h0, u, b_rec, mask, reset_after, zero_output):
    """The GRU over duals: (per-step records for _backward, the outputs, h_T)."""
    steps, units = static_sizes("GRUSequence", xw.value, u.value)
    h, out, records, outs = h0, None, [], []
    for x, m in zip(dual_steps(xw.value, xw.tangent, steps),
                    step_masks(mask, xw.value.dtype, steps)):
        z, r, n, inner, h_new = _step(x, h, u, b_rec, units, reset_after)
        records.append((h, z, r, n, inner, m))
        out = masked_step_output(m, h_new, out, zero_output)
        outs.append(out)
        h = h_new if m is None else keep(m, h_new, h)
    return records, stack(outs), h


def _backward(records, u, g_seq, g_h, reset_after, zero_output):
    """Back-propagation through time over duals (the module docstring's recurrence): dxw, dh0,
    dU, d b_rec (None for reset_before, where it is zero)."""
    units = int(u.value.shape[0])
    dh, d_out, dxs, dins = g_h, None, [], []
    for (h, z, r, n, inner, m), g_t in zip(reversed(records), reversed(g_seq)):
        dh_new, passed, d_out = carry(m, dh, g_t, d_out, zero_output)
        dz = dh_new * (h - n) * z * (1 - z)
        dn = dh_new * (1 - z) * (1 - n * n)
        if reset_after:
            dr = dn * inner * r * (1 - r)
            d_in = concat([dz, dr, dn * r], 1)
            dins.append(d_in)
            dh = dh_new * z + matmul(d_in, u, transpose_b=True)
        else:
            d_rh = matmul(dn, u[:, 2 * units:], transpose_b=True)
            dr = d_rh * h * r * (1 - r)
            dh = dh_new * z + d_rh * r + matmul(concat([dz, dr], 1), u[:, :2 * units],
                                                transpose_b=True)
        dxs.append(concat([dz, dr, dn], 1))
        dh = dh if passed is None else dh + passed
    dx_all = stack(dxs[::-1])
    before = reshape(stack([rec[0] for rec in records]), [-1, units])
    if reset_after:
        flat = reshape(stack(dins[::-1]), [-1, 3 * units])
        return dx_all, dh, matmul(before, flat, transpose_a=True), reduce_sum(flat, 0)
    flat = reshape(dx_all, [-1, 3 * units])
    inners = reshape(stack([rec[4] for rec in records]), [-1, units])
    du = concat([matmul(before, flat[:, :2 * units], transpose_a=True),
                 matmul(inners, flat[:, 2 * units:], transpose_a=True)], 1)
    return dx_all, dh, du, Dual(None)


def _tangents_of_grad(inputs, tangents, attrs):
    """The duals of GRUSequence's outputs and of GRUSequenceGrad's, from GRUSequenceGrad's
    inputs and their tangents (None: zero)."""
    reset_after, zero_output = attrs["reset_after"], attrs["zero_output_for_mask"]
    xw, h0, u, b_rec = (Dual(p, t) for p, t in zip(inputs[:4], tangents[:4]))
    records, seq, h = _forward(xw, h0, u, b_rec, inputs[4], reset_after, zero_output)
    g_seq = dual_steps(inputs[8], tangents[8], len(records))
    grads = _backward(records, u, g_seq, Dual(inputs[9], tangents[9]), reset_after,
                      zero_output)
    return (seq, h), grads


# -- shapes and derivative rules ---------------------------------------------------------------
def _gru_rule(xw, h0, u, b_rec, mask, reset_after=True, zero_output_for_mask=False):
    batch, steps, units = check_rnn("GRUSequence", xw, (h0, b_rec), u, 3)
    tm = TensorShape((steps, batch, units))
    width = None if units is None else 3 * units
    return [(tm, xw.dtype), (TensorShape((batch, units)), xw.dtype),
            (TensorShape((steps, batch, width)), xw.dtype), (tm, xw.dtype), (tm, xw.dtype)]


def _gru_grad(op, g_seq, g_h, *_reserve):
    """The fused back-propagation through time (the reserve outputs are working memory: their
    gradients are ignored)."""
    xw, h0, u, b_rec, mask = op.inputs
    seq, _, gates, inner, hs = op.outputs
    g_seq = g_seq if g_seq is not None else zeros_like_gradient(seq)
    g_h = g_h if g_h is not None else zeros_like_gradient(h0)
    dxw, dh0, du, db = execute(GRU_SEQUENCE_GRAD, (xw, h0, u, b_rec, mask, gates, inner, hs,
                                                   g_seq, g_h), dict(op.attrs))
    return dxw, dh0, du, db, None


def _gru_jvp(primals, tangents, outputs, reset_after=True, zero_output_for_mask=False):
    """The tangent recurrence, recomputed from the inputs over duals."""
    duals = [Dual(p, t) for p, t in zip(primals[:4], tangents[:4])]
    _, seq, h = _forward(*duals, primals[4], reset_after, zero_output_for_mask)
    return [seq.tangent, h.tangent, None, None, None]


def _gru_grad_rule(xw, h0, u, b_rec, mask, gates, inner, hs, g_seq, g_h, reset_after=True,
                   zero_output_for_mask=False):
    return [(TensorShape(gates.shape), u.dtype), (h0.shape, u.dtype), (u.shape, u.dtype),
            (TensorShape(gates.shape)[2:], u.dtype)]


_gru_grad_jvp, _gru_grad_grad = gradient_op_rules(_tangents_of_grad)


def _gru_onnx(ctx, op, xw, h0, u, b_rec, mask):
    units, columns, select = onnx_gates(ctx, op, (0, 1, 2))
    zeros = ctx.const(np.zeros((3 * units,), op.inputs[0].dtype.as_numpy_dtype))
    bias = ctx.unsqueeze(ctx.node("Concat", [zeros, ctx.node("Gather", [
        b_rec, ctx.int64s(columns)], axis=0)], axis=0), [0])
    seq, h = ctx.node("GRU", [xw, select, onnx_recurrent(ctx, u, columns), bias, "",
                              ctx.unsqueeze(h0, [0])], outputs=2, hidden_size=int(units),
                      linear_before_reset=int(bool(op.attrs.get("reset_after", True))))
    return [ctx.squeeze(seq, [1]), ctx.squeeze(h, [0])] + onnx_reserved(ctx, op, 2)


GRU_SEQUENCE_GRAD = defop("GRUSequenceGrad", _gru_grad_kernel, shape=_gru_grad_rule,
                          grad=_gru_grad_grad, jvp=_gru_grad_jvp, num_outputs=4, unread=(0,))
GRU_SEQUENCE = defop("GRUSequence", _gru_kernel, shape=_gru_rule, grad=_gru_grad, jvp=_gru_jvp,
                     num_outputs=5, onnx=_gru_onnx)


def gru_sequence(xw, h0, recurrent_kernel, recurrent_bias=None, mask=None, reset_after=True,
                 zero_output_for_mask=False, name=None):
    """Run a GRU over xw = x W + b [time, batch, 3 units] (gates z, r, h) from state h0, with
    recurrent bias (reset_after), mask [time, batch]; returns (outputs [time, batch, units],
    h_T)."""
    xw = convert_to_tensor(xw)
    u = convert_to_tensor(recurrent_kernel)
    if recurrent_bias is None:
        width = u.shape[1] if u.shape.rank else None
        recurrent_bias = np.zeros([width or 0], xw.dtype.as_numpy_dtype)
    args = [xw, convert_to_tensor(h0), u, convert_to_tensor(recurrent_bias), mask_input(mask)]
    outs = execute(GRU_SEQUENCE, args, {"reset_after": bool(reset_after),
                                        "zero_output_for_mask": bool(zero_output_for_mask)},
                   name)
    return outs[0], outs[1]
