"""Op-table rows for ops/scan_ops.py: cumprod (with zeros: its gradient is exact, to second
order for one zero per slice) and cumulative_logsumexp, inclusive/exclusive and forward/reverse.

An exclusive cumulative_logsumexp starts from -inf (the log of an empty sum), which finite
differences cannot judge, so its gradient rows differentiate the other entries."""
import itertools

import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, positive, rand


def _scan(accumulate, identity):
    def ref(x, axis=0, exclusive=False, reverse=False):
        if reverse:
            x = np.flip(x, axis)
        out = accumulate(x, axis)
        if exclusive:
            out = np.concatenate([np.full_like(np.take(out, [0], axis), identity),
                                  np.delete(out, -1, axis)], axis)
        return np.flip(out, axis) if reverse else out
    return ref


_cumprod = _scan(lambda x, axis: np.cumprod(x, axis), 1.0)
_cumlse = _scan(lambda x, axis: np.logaddexp.accumulate(x, axis), -np.inf)
_MODES = [dict(zip(("exclusive", "reverse"), m)) for m in itertools.product((False, True), (False, True))]


def _with_zeros(*shape):
    x = rand(*shape)
    x[..., 1] = 0.0
    x[0, -1] = 0.0      # one slice with two zeros
    return x


def _one_zero_per_slice(*shape):
    x = positive(*shape) * np.sign(rand(*shape) + 0.01)
    x[..., 2] = 0.0
    return x


def _cumprod_samples(make):
    return ([Sample((make(3, 4),), dict(m, axis=1), name=f"axis1-{m}") for m in _MODES]
            + [Sample((make(4, 3).T.copy(),), dict(m, axis=0), name=f"axis0-{m}")
               for m in _MODES[::3]])


def _inner(x, axis, exclusive, reverse):
    """The entries of an exclusive scan other than its -inf one."""
    if not exclusive:
        return x
    key = [slice(None)] * axis + [slice(None, -1) if reverse else slice(1, None)]
    return x[tuple(key)]


def _cumlse_inner(x, axis=0, exclusive=False, reverse=False):
    return _inner(tf.math.cumulative_logsumexp(x, axis, exclusive, reverse), axis, exclusive,
                  reverse)


def _cumlse_inner_ref(x, axis=0, exclusive=False, reverse=False):
    out = _cumlse(x, axis, exclusive, reverse)
    if not exclusive:
        return out
    key = [slice(None)] * out.ndim
    key[axis] = slice(None, -1) if reverse else slice(1, None)
    return out[tuple(key)]


ROWS = [
    OpInfo("cumprod", tf.math.cumprod, _cumprod, _cumprod_samples(rand)),
    OpInfo("cumprod_one_zero", tf.math.cumprod, _cumprod, _cumprod_samples(_one_zero_per_slice)),
    OpInfo("cumprod_two_zeros", tf.math.cumprod, _cumprod, _cumprod_samples(_with_zeros),
           grad2=False, notes="exact first derivative; with two zeros in a slice the second "
                              "derivative's terms through both zeros are not kept"),
    OpInfo("cumprod_int", tf.math.cumprod, _cumprod,
           [Sample((np.array([[2, -1, 3], [0, 4, 5]], np.int32),), {"axis": 1, "reverse": True})],
           grad=False),
    OpInfo("cumulative_logsumexp", _cumlse_inner, _cumlse_inner_ref,
           [Sample((rand(3, 4) * 3,), dict(m, axis=1), name=f"axis1-{m}") for m in _MODES]
           + [Sample((rand(4, 2) * 3,), dict(m, axis=0), name=f"axis0-{m}") for m in _MODES]
           + [Sample((np.array([[800.0, 801.0, -900.0], [-1e3, 0.0, 1e3]]),), {"axis": 1},
                     name="large")]),
    OpInfo("cumulative_logsumexp_exclusive", tf.math.cumulative_logsumexp, _cumlse,
           [Sample((rand(3, 4),), dict(m, axis=1), name=str(m)) for m in _MODES], grad=False),
]
