"""Fused recurrent sequences: a whole LSTM or GRU time loop as one op with its own gradient.

Keras's LSTM and GRU layers (keras/layers/recurrent*.py) project every time step's input at
once (one matmul, `xw = x W + b`), then hand the recurrence to one of these ops, the way cuDNN or
TensorFlow's BlockLSTM run the loop in one kernel: the NumPy kernel loops over time with one
[B, H] x [H, kH] product per step, and the gradient op runs back-propagation through time the
same way. Both take Keras's weight layout.

LSTMSequence(xw [T, B, 4H], h0 [B, H], c0 [B, H], U [H, 4H], mask [T, B] or [0]), gates in
Keras's order i, f, c, o:
    z_t = xw_t + h_{t-1} U;  i, f, o = sigmoid(z_i, z_f, z_o);  g = tanh(z_c)
    c~_t = f c_{t-1} + i g;  h~_t = o tanh(c~_t)
GRUSequence(xw [T, B, 3H], h0, U [H, 3H], b_rec [3H], mask), gates z, r, h (reset_after=True,
TF 2's default: r multiplies the recurrent projection; False: r multiplies the state first):
    z, r = sigmoid(xw_z + h U_z + b_z, xw_r + h U_r + b_r)
    n = tanh(xw_h + r (h U_h + b_h))          or  tanh(xw_h + (r h) U_h)
    h~_t = z h_{t-1} + (1 - z) n
Masking (Keras's rule): where mask[b, t] is False the states keep their previous values and the
output repeats the previous step's output (zeros before the first kept step), or is zero with
`zero_output_for_mask`: h_t = m h~_t + (1 - m) h_{t-1}, out_t = m h~_t + (1 - m) out_{t-1}.
Everything is time major, as cuDNN's sequences are: each step reads and writes contiguous rows.
Outputs: the output sequence [T, B, H], the final states, and reserve outputs (gate activations
and per-step states, time major) that the gradient op reads; the reserve outputs are working
memory, not differentiable (as TensorFlow's reserve_space).

Gradients (back-propagation through time, from the last step to the first; dh, dc are the
gradients reaching the states, d_out the one carried by masked outputs):
    LSTM: dh~ = m (dh + g_t + d_out), dc~ = m dc + dh~ o (1 - tanh^2 c~)
          dz = (dc~ g i(1-i), dc~ c_{t-1} f(1-f), dc~ i (1-g^2), dh~ tanh(c~) o(1-o))
          dh_{t-1} = dz U^T + (1-m) dh,  dc_{t-1} = dc~ f + (1-m) dc,  dU = sum h_{t-1}^T dz
    GRU:  dz = dh~ (h_{t-1} - n) z(1-z), dn = dh~ (1-z)(1-n^2), dr = dn (h U_h + b_h) r(1-r)
          (reset_after), d inner = (dz, dr, dn r); dh_{t-1} = dh~ z + d inner U^T + (1-m) dh
dxw_t = dz (the gate pre-activations' gradient). The gradient ops have no gradient themselves
(TensorFlow's BlockLSTMGrad has none either): the Keras layers use the composed cell loop when a
second tape records. Forward mode has its own rule: the tangent recurrence, written in wengert
ops from the primal gate activations.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..reshape_ops import reshape
from ..array_ops import stack
from ..indexing_ops import gather
from ..matmul_ops import matmul
from ..math_ops import add, cast, multiply, subtract

__all__ = ["lstm_sequence", "gru_sequence"]


def _expit():
    """sigmoid(x) = (1 + tanh(x / 2)) / 2, in place: three fast ufuncs (SciPy's float32 expit
    is scalar code, about 30 times slower per element)."""
    def expit(x, out):
        np.multiply(x, 0.5, out=out)
        np.tanh(out, out=out)
        out *= 0.5
        out += 0.5
        return out
    return expit


def _mask_steps(mask, dtype):
    """The [T, B] mask as [T, B, 1] booleans, or None for "every step counts"."""
    if mask.size == 0:
        return None
    return mask.astype(bool)[:, :, None]


def _previous(states, first, t):
    return first if t == 0 else states[t - 1]


def _stacked_previous(states, first):
    """[h_0, h_1, ..., h_{T-2}] flattened to [T * B, H]: the state entering each step."""
    prev = np.concatenate([first[None], states[:-1]], axis=0)[:len(states)]
    return prev.reshape(-1, prev.shape[-1])


def _masked_output(out, masks, t, state, previous_out, zero_output):
    """Step t's output: the new state where the step is kept, else the carried output."""
    if masks is None:
        out[t] = state
    elif zero_output:
        np.multiply(state, masks[t], out=out[t])
    else:
        np.copyto(out[t], np.where(masks[t], state, previous_out))


# -- LSTM ---------------------------------------------------------------------------------------
def _lstm_kernel(xw, h0, c0, u, mask, zero_output_for_mask=False):
    expit = _expit()
    steps, (batch, units) = xw.shape[0], h0.shape
    xs, masks = xw, _mask_steps(mask, xw.dtype)
    gates = np.empty((steps, batch, 4 * units), xw.dtype)
    tanh_c = np.empty((steps, batch, units), xw.dtype)
    hs, cs = np.empty_like(tanh_c), np.empty_like(tanh_c)
    out = np.empty_like(tanh_c)
    h, c = h0, c0
    for t in range(steps):
        z = gates[t]
        np.matmul(h, u, out=z)
        z += xs[t]
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
        _masked_output(out, masks, t, h_new, out[t - 1] if t else np.zeros_like(h0),
                       zero_output_for_mask)
        h, c = h_new, c_new
    return out, np.array(h), np.array(c), gates, tanh_c, hs, cs


def _carry_masked(masks, t, dh, g_out, d_out, zero_output):
    """(dh~ reaching the step's raw output, the part of dh passed on unchanged, new d_out)."""
    total = dh + g_out + d_out
    if masks is None:
        return total, None, d_out
    keep = masks[t]
    raw = np.where(keep, total if not zero_output else dh + g_out, 0)
    passed = np.where(keep, 0, dh)
    carried = np.zeros_like(d_out) if zero_output else np.where(keep, 0, g_out + d_out)
    return raw, passed, carried


def _lstm_grad_kernel(u, h0, c0, mask, gates, tanh_c, hs, cs, g_seq, g_h, g_c,
                      zero_output_for_mask=False):
    steps, batch, units = tanh_c.shape
    masks = _mask_steps(mask, u.dtype)
    g_out = g_seq
    dz_all = np.empty(gates.shape, gates.dtype)
    dh, dc = np.array(g_h, gates.dtype), np.array(g_c, gates.dtype)
    d_out = np.zeros_like(dh)
    for t in range(steps - 1, -1, -1):
        dh_raw, dh_pass, d_out = _carry_masked(masks, t, dh, g_out[t], d_out,
                                               zero_output_for_mask)
        i, f, g, o = (gates[t][:, k * units:(k + 1) * units] for k in range(4))
        th = tanh_c[t]
        dc_raw = dc if masks is None else np.where(masks[t], dc, 0)
        dc_raw = dc_raw + dh_raw * o * (1 - th * th)
        dz = dz_all[t]
        dz[:, :units] = dc_raw * g * i * (1 - i)
        dz[:, units:2 * units] = dc_raw * _previous(cs, c0, t) * f * (1 - f)
        dz[:, 2 * units:3 * units] = dc_raw * i * (1 - g * g)
        dz[:, 3 * units:] = dh_raw * th * o * (1 - o)
        dc_next = dc_raw * f
        dh = dz @ u.T
        if masks is not None:
            dc_next += np.where(masks[t], 0, dc)
            dh += dh_pass
        dc = dc_next
    du = _stacked_previous(hs, h0).T @ dz_all.reshape(-1, 4 * units)
    return dz_all, dh, dc, du.astype(u.dtype)


def _check_rnn(what, xw, states, u, mask, gates):
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


def _lstm_rule(xw, h0, c0, u, mask, zero_output_for_mask=False):
    batch, steps, units = _check_rnn("LSTMSequence", xw, (h0, c0), u, mask, 4)
    seq = TensorShape((steps, batch, units))
    state = TensorShape((batch, units))
    tm = TensorShape((steps, batch, units))
    width = None if units is None else 4 * units
    return [(s, xw.dtype) for s in (seq, state, state, TensorShape((steps, batch, width)), tm,
                                    tm, tm)]


def _lstm_grad(op, g_seq, g_h, g_c, *_reserve):
    xw, h0, c0, u, mask = op.inputs
    seq, _, _, gates, tanh_c, hs, cs = op.outputs
    g_seq, g_h, g_c = (g if g is not None else _zeros_of(t) for g, t in
                       ((g_seq, seq), (g_h, h0), (g_c, c0)))
    dxw, dh0, dc0, du = execute(LSTM_SEQUENCE_GRAD, (u, h0, c0, mask, gates, tanh_c, hs, cs,
                                                     g_seq, g_h, g_c), dict(op.attrs))
    return dxw, dh0, dc0, du, None


def _zeros_of(t):
    from ..broadcast_ops import zeros_like_gradient
    return zeros_like_gradient(t)


def _lstm_grad_rule(u, h0, c0, mask, gates, tanh_c, hs, cs, g_seq, g_h, g_c,
                    zero_output_for_mask=False):
    return [(TensorShape(gates.shape), u.dtype), (h0.shape, u.dtype), (c0.shape, u.dtype),
            (u.shape, u.dtype)]


def _lstm_jvp(primals, tangents, outputs, zero_output_for_mask=False):
    """The tangent recurrence: d z_t = d xw_t + d h_{t-1} U + h_{t-1} d U, through the gates."""
    xw, h0, c0, u, mask = primals
    dxw, dh, dc, du, _ = [_tangent(t, p) for t, p in zip(tangents, primals)]
    _, _, _, gates, tanh_c, hs, cs = outputs
    units = int(u.shape[0])
    h, c = h0, c0
    masks = _jvp_masks(mask, xw)
    d_outs, d_out = [], None
    for t in range(int(xw.shape[0])):
        dz = add(dxw[t], add(matmul(dh, u), matmul(h, du)))
        act = gates[t]
        i, f, g, o = (act[:, k * units:(k + 1) * units] for k in range(4))
        di, df, dg, do = (dz[:, k * units:(k + 1) * units] for k in range(4))
        di, df, do = (multiply(d, a * (1 - a)) for d, a in ((di, i), (df, f), (do, o)))
        dg = multiply(dg, 1 - g * g)
        dc_raw = add(add(multiply(df, c), multiply(f, dc)), add(multiply(di, g), multiply(i, dg)))
        th = tanh_c[t]
        dh_raw = add(multiply(do, th), multiply(o * (1 - th * th), dc_raw))
        dh, dc, d_out = _jvp_step(masks, t, dh_raw, dh, dc_raw, dc, d_out, zero_output_for_mask)
        d_outs.append(d_out)
        h, c = hs[t], cs[t]
    return [stack(d_outs, axis=0), dh, dc, None, None, None, None]


def _tangent(t, primal):
    from ..broadcast_ops import zeros_like
    return t if t is not None or not primal.dtype.is_floating else zeros_like(primal)


def _jvp_masks(mask, xw):
    if mask.shape.num_elements() == 0:
        return None
    return cast(mask, xw.dtype)


def _jvp_step(masks, t, dh_raw, dh, dc_raw, dc, d_out, zero_output):
    """(d h_t, d c_t, d out_t) from the raw step's tangents and the masks."""
    if masks is None:
        return dh_raw, dc_raw, dh_raw
    m = gather(masks, [t], axis=0)
    m = reshape(m, [-1, 1])
    keep = lambda new, old: add(multiply(m, new), multiply(1 - m, old))  # noqa: E731
    if zero_output:
        out = multiply(m, dh_raw)
    else:
        out = keep(dh_raw, d_out if d_out is not None else multiply(dh_raw, 0.0))
    return keep(dh_raw, dh), (None if dc_raw is None else keep(dc_raw, dc)), out


# -- ONNX: the fused sequences as ONNX LSTM / GRU nodes ---------------------------------------
# The input projection is already applied (xw), so ONNX's input weights W are a constant
# selection matrix that reorders the gate blocks of xw into ONNX's order (LSTM: Keras i, f, c, o
# -> ONNX i, o, f, c; GRU: z, r, h in both); R is U's columns in that order, transposed.
def _onnx_gates(ctx, op, order):
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


def _onnx_recurrent(ctx, u, columns):
    picked = ctx.node("Gather", [u, ctx.int64s(columns)], axis=1)      # [H, kH], ONNX order
    return ctx.unsqueeze(ctx.transpose(picked, [1, 0]), [0])            # [1, kH, H]


def _onnx_reserved(ctx, op, first):
    """Stand-ins for the reserve outputs (working memory of the gradient op, unused when a
    model runs for inference)."""
    return [ctx.const(np.zeros((0,), t.dtype.as_numpy_dtype)) for t in op.outputs[first:]]


def _lstm_onnx(ctx, op, xw, h0, c0, u, mask):
    units, columns, select = _onnx_gates(ctx, op, (0, 3, 1, 2))
    bias = ctx.const(np.zeros((1, 8 * units), op.inputs[0].dtype.as_numpy_dtype))
    seq, h, c = ctx.node("LSTM", [xw, select, _onnx_recurrent(ctx, u, columns), bias, "",
                                  ctx.unsqueeze(h0, [0]), ctx.unsqueeze(c0, [0])],
                         outputs=3, hidden_size=int(units))
    return [ctx.squeeze(seq, [1]), ctx.squeeze(h, [0]), ctx.squeeze(c, [0])] + \
        _onnx_reserved(ctx, op, 3)


def _gru_onnx(ctx, op, xw, h0, u, b_rec, mask):
    units, columns, select = _onnx_gates(ctx, op, (0, 1, 2))
    zeros = ctx.const(np.zeros((3 * units,), op.inputs[0].dtype.as_numpy_dtype))
    bias = ctx.unsqueeze(ctx.node("Concat", [zeros, ctx.node("Gather", [
        b_rec, ctx.int64s(columns)], axis=0)], axis=0), [0])
    seq, h = ctx.node("GRU", [xw, select, _onnx_recurrent(ctx, u, columns), bias, "",
                              ctx.unsqueeze(h0, [0])], outputs=2, hidden_size=int(units),
                      linear_before_reset=int(bool(op.attrs.get("reset_after", True))))
    return [ctx.squeeze(seq, [1]), ctx.squeeze(h, [0])] + _onnx_reserved(ctx, op, 2)


LSTM_SEQUENCE_GRAD = defop("LSTMSequenceGrad", _lstm_grad_kernel, shape=_lstm_grad_rule,
                           grad=None, num_outputs=4)
LSTM_SEQUENCE = defop("LSTMSequence", _lstm_kernel, shape=_lstm_rule, grad=_lstm_grad,
                      jvp=_lstm_jvp, num_outputs=7, onnx=_lstm_onnx)


# -- GRU ----------------------------------------------------------------------------------------
def _gru_kernel(xw, h0, u, b_rec, mask, reset_after=True, zero_output_for_mask=False):
    expit = _expit()
    steps, (batch, units) = xw.shape[0], h0.shape
    xs, masks = xw, _mask_steps(mask, xw.dtype)
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
            a[:, :2 * units] += xs[t][:, :2 * units]
        else:
            np.matmul(h, u[:, :2 * units], out=a[:, :2 * units])
            a[:, :2 * units] += xs[t][:, :2 * units]
        expit(a[:, :2 * units], out=a[:, :2 * units])
        z, r, n = a[:, :units], a[:, units:2 * units], a[:, 2 * units:]
        if reset_after:
            np.multiply(r, inner[t], out=n)
        else:
            np.multiply(r, h, out=inner[t])
            np.matmul(inner[t], u[:, 2 * units:], out=n)
        n += xs[t][:, 2 * units:]
        np.tanh(n, out=n)
        h_new = hs[t]
        np.subtract(h, n, out=h_new)
        h_new *= z
        h_new += n
        if masks is not None:
            np.copyto(h_new, h, where=~masks[t])
        _masked_output(out, masks, t, h_new, out[t - 1] if t else np.zeros_like(h0),
                       zero_output_for_mask)
        h = h_new
    return out, np.array(h), gates, inner, hs


def _gru_grad_kernel(u, h0, mask, gates, inner, hs, g_seq, g_h, reset_after=True,
                     zero_output_for_mask=False):
    steps, batch, units = inner.shape
    masks = _mask_steps(mask, u.dtype)
    g_out = g_seq
    dx_all = np.empty(gates.shape, gates.dtype)
    d_inner_all = np.empty(gates.shape, gates.dtype) if reset_after else None
    dh = np.array(g_h, gates.dtype)
    d_out = np.zeros_like(dh)
    u_zr, u_h = u[:, :2 * units], u[:, 2 * units:]
    for t in range(steps - 1, -1, -1):
        dh_raw, dh_pass, d_out = _carry_masked(masks, t, dh, g_out[t], d_out,
                                               zero_output_for_mask)
        z, r, n = (gates[t][:, k * units:(k + 1) * units] for k in range(3))
        h_prev = _previous(hs, h0, t)
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
    prev = _stacked_previous(hs, h0)
    if reset_after:
        flat = d_inner_all.reshape(-1, 3 * units)
        du, db = prev.T @ flat, flat.sum(axis=0)
    else:
        flat = dx_all.reshape(-1, 3 * units)
        du = np.concatenate([prev.T @ flat[:, :2 * units],
                             inner.reshape(-1, units).T @ flat[:, 2 * units:]], axis=1)
        db = np.zeros(3 * units, u.dtype)
    return dx_all, dh, du.astype(u.dtype), db.astype(u.dtype)


def _gru_rule(xw, h0, u, b_rec, mask, reset_after=True, zero_output_for_mask=False):
    batch, steps, units = _check_rnn("GRUSequence", xw, (h0, b_rec), u, mask, 3)
    tm = TensorShape((steps, batch, units))
    return [(TensorShape((steps, batch, units)), xw.dtype), (TensorShape((batch, units)),
                                                             xw.dtype),
            (TensorShape((steps, batch, None if units is None else 3 * units)), xw.dtype),
            (tm, xw.dtype), (tm, xw.dtype)]


def _gru_grad(op, g_seq, g_h, *_reserve):
    xw, h0, u, b_rec, mask = op.inputs
    seq, _, gates, inner, hs = op.outputs
    g_seq = g_seq if g_seq is not None else _zeros_of(seq)
    g_h = g_h if g_h is not None else _zeros_of(h0)
    dxw, dh0, du, db = execute(GRU_SEQUENCE_GRAD, (u, h0, mask, gates, inner, hs, g_seq, g_h),
                               dict(op.attrs))
    return dxw, dh0, du, db, None


def _gru_grad_rule(u, h0, mask, gates, inner, hs, g_seq, g_h, reset_after=True,
                   zero_output_for_mask=False):
    return [(TensorShape(gates.shape), u.dtype), (h0.shape, u.dtype), (u.shape, u.dtype),
            (TensorShape(gates.shape)[2:], u.dtype)]


def _gru_jvp(primals, tangents, outputs, reset_after=True, zero_output_for_mask=False):
    xw, h0, u, b_rec, mask = primals
    dxw, dh, du, db, _ = [_tangent(t, p) for t, p in zip(tangents, primals)]
    _, _, gates, inner, hs = outputs
    units = int(u.shape[0])
    masks, h, d_out, d_outs = _jvp_masks(mask, xw), h0, None, []
    for t in range(int(xw.shape[0])):
        act = gates[t]
        z, r, n = (act[:, k * units:(k + 1) * units] for k in range(3))
        dx = dxw[t]
        if reset_after:
            d_in = add(add(matmul(dh, u), matmul(h, du)), db)
            d_zr = add(dx[:, :2 * units], d_in[:, :2 * units])
        else:
            d_zr = add(dx[:, :2 * units], add(matmul(dh, u[:, :2 * units]),
                                               matmul(h, du[:, :2 * units])))
        dz = multiply(d_zr[:, :units], z * (1 - z))
        dr = multiply(d_zr[:, units:], r * (1 - r))
        if reset_after:
            d_n_in = add(multiply(r, d_in[:, 2 * units:]), multiply(dr, inner[t]))
        else:
            rh = inner[t]
            d_rh = add(multiply(dr, h), multiply(r, dh))
            d_n_in = add(matmul(d_rh, u[:, 2 * units:]), matmul(rh, du[:, 2 * units:]))
        dn = multiply(add(dx[:, 2 * units:], d_n_in), 1 - n * n)
        dh_raw = add(add(multiply(dz, subtract(h, n)), multiply(z, dh)), multiply(1 - z, dn))
        dh, _, d_out = _jvp_step(masks, t, dh_raw, dh, None, None, d_out, zero_output_for_mask)
        d_outs.append(d_out)
        h = hs[t]
    return [stack(d_outs, axis=0), dh, None, None, None]


GRU_SEQUENCE_GRAD = defop("GRUSequenceGrad", _gru_grad_kernel, shape=_gru_grad_rule, grad=None,
                          num_outputs=4)
GRU_SEQUENCE = defop("GRUSequence", _gru_kernel, shape=_gru_rule, grad=_gru_grad, jvp=_gru_jvp,
                     num_outputs=5, onnx=_gru_onnx)


# -- public -------------------------------------------------------------------------------------
def _mask_input(mask, xw):
    if mask is None:
        return convert_to_tensor(np.zeros([0, 0], bool))
    mask = convert_to_tensor(mask)
    return mask if mask.dtype == dtypes.bool else cast(mask, dtypes.bool)


def lstm_sequence(xw, h0, c0, recurrent_kernel, mask=None, zero_output_for_mask=False,
                  name=None):
    """Run an LSTM over xw = x W + b [time, batch, 4 units] (Keras's gate order i, f, c, o)
    from states (h0, c0), mask [time, batch]; returns (outputs [time, batch, units], h_T,
    c_T)."""
    xw = convert_to_tensor(xw)
    args = [xw, convert_to_tensor(h0), convert_to_tensor(c0),
            convert_to_tensor(recurrent_kernel), _mask_input(mask, xw)]
    outs = execute(LSTM_SEQUENCE, args, {"zero_output_for_mask": bool(zero_output_for_mask)},
                   name)
    return outs[0], outs[1], outs[2]


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
    args = [xw, convert_to_tensor(h0), u, convert_to_tensor(recurrent_bias),
            _mask_input(mask, xw)]
    outs = execute(GRU_SEQUENCE, args, {"reset_after": bool(reset_after),
                                        "zero_output_for_mask": bool(zero_output_for_mask)},
                   name)
    return outs[0], outs[1]

