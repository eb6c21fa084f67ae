"""Op-table rows for ops/nn/rnn/: the fused LSTM and GRU sequences (time major), checked against
a NumPy loop; their gradient ops have gradients and forward-mode rules of their own, so the
rows check second order too."""
import numpy as np
from scipy.special import expit

from wengert.ops.nn import rnn
from op_table import OpInfo, Sample, rand

B, T, H = 2, 4, 3
MASK = np.array([[1, 1, 0, 1], [0, 1, 1, 0]], bool).T  # [time, batch]


def _keep(mask, t, new, old):
    return new if mask is None else np.where(mask[t][:, None], new, old)


def _lstm_ref(xw, h0, c0, u, mask=None, zero_output_for_mask=False):
    h, c, prev, outs = h0, c0, np.zeros_like(h0), []
    for t in range(xw.shape[0]):
        z = xw[t] + h @ u
        i, f, g, o = expit(z[:, :H]), expit(z[:, H:2 * H]), np.tanh(z[:, 2 * H:3 * H]), \
            expit(z[:, 3 * H:])
        c_new = f * c + i * g
        h_new = o * np.tanh(c_new)
        out = _keep(mask, t, h_new, 0 * h_new if zero_output_for_mask else prev)
        h, c = _keep(mask, t, h_new, h), _keep(mask, t, c_new, c)
        outs.append(out)
        prev = out
    return np.stack(outs, 0), h, c


def _gru_ref(xw, h0, u, b, mask=None, reset_after=True, zero_output_for_mask=False):
    h, prev, outs = h0, np.zeros_like(h0), []
    for t in range(xw.shape[0]):
        x = xw[t]
        if reset_after:
            inner = h @ u + b
            z, r = expit(x[:, :H] + inner[:, :H]), expit(x[:, H:2 * H] + inner[:, H:2 * H])
            n = np.tanh(x[:, 2 * H:] + r * inner[:, 2 * H:])
        else:
            z, r = expit(x[:, :H] + h @ u[:, :H]), expit(x[:, H:2 * H] + h @ u[:, H:2 * H])
            n = np.tanh(x[:, 2 * H:] + (r * h) @ u[:, 2 * H:])
        h_new = z * h + (1 - z) * n
        out = _keep(mask, t, h_new, 0 * h_new if zero_output_for_mask else prev)
        h = _keep(mask, t, h_new, h)
        outs.append(out)
        prev = out
    return np.stack(outs, 0), h


def _lstm(xw, h0, c0, u, **kw):
    return rnn.lstm_sequence(xw, h0, c0, u, **kw)


def _gru(xw, h0, u, b, **kw):
    return rnn.gru_sequence(xw, h0, u, b, **kw)


def _gru_no_bias(xw, h0, u, **kw):
    return rnn.gru_sequence(xw, h0, u, None, reset_after=False, **kw)


def _gru_no_bias_ref(xw, h0, u, **kw):
    return _gru_ref(xw, h0, u, None, reset_after=False, **kw)


def _lstm_args():
    return (rand(T, B, 4 * H), rand(B, H), rand(B, H), rand(H, 4 * H, low=-0.7, high=0.7))


def _gru_args():
    return (rand(T, B, 3 * H), rand(B, H), rand(H, 3 * H, low=-0.7, high=0.7), rand(3 * H))


ROWS = [
    OpInfo("rnn.lstm_sequence", _lstm, _lstm_ref, [
        Sample(_lstm_args(), name="plain"),
        Sample(_lstm_args(), {"mask": MASK}, name="masked"),
        Sample(_lstm_args(), {"mask": MASK, "zero_output_for_mask": True}, name="zero_output"),
    ], rtol=1e-4, atol=1e-5),
    OpInfo("rnn.gru_sequence", _gru, _gru_ref, [
        Sample(_gru_args(), name="reset_after"),
        Sample(_gru_args(), {"mask": MASK}, name="masked"),
        Sample(_gru_args(), {"mask": MASK, "zero_output_for_mask": True}, name="zero_output"),
    ], rtol=1e-4, atol=1e-5),
    OpInfo("rnn.gru_sequence_reset_before", _gru_no_bias, _gru_no_bias_ref, [
        Sample(_gru_args()[:3], name="plain"),
        Sample(_gru_args()[:3], {"mask": MASK}, name="masked"),
    ], rtol=1e-4, atol=1e-5),
]
