"""Op-table rows for ops/nn/fractional_pool.py and ops/nn/morphology.py: max_pool_with_argmax,
fractional pools, dilation2d and erosion2d.

References loop over output positions. The fractional pools' windows are random: the reference
takes the row and column sequences wengert draws for the same seed and shape (drawn from zeros),
then pools with plain loops; tests/test_fractional_pools_morphology.py checks the sequences themselves.
"""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand
from op_table.conv_rows import distinct
from op_table.pool_nd_rows import ref_pool_nd


def _argmax_fn(x, **kw):
    return tf.nn.max_pool_with_argmax(x, **kw)[0]


def _argmax_ref(x, ksize, strides, padding, include_batch_in_index=False):
    return ref_pool_nd(x, ksize, strides, padding, "max")


def _sequences(pool, x, ratio, kw):
    _, rows, cols = pool(np.zeros(x.shape), ratio, seed=kw.get("seed", 0),
                         pseudo_random=kw.get("pseudo_random", False))
    return rows.numpy(), cols.numpy()


def _fractional_ref(kind):
    pool = tf.nn.fractional_max_pool if kind == "max" else tf.nn.fractional_avg_pool

    def ref(x, pooling_ratio, **kw):
        rows, cols = _sequences(pool, x, pooling_ratio, kw)
        extra = 1 if kw.get("overlapping") else 0
        y = np.zeros((x.shape[0], len(rows) - 1, len(cols) - 1, x.shape[3]))
        for i in range(len(rows) - 1):
            for j in range(len(cols) - 1):
                window = x[:, rows[i]:min(rows[i + 1] + extra, x.shape[1]),
                           cols[j]:min(cols[j + 1] + extra, x.shape[2])]
                y[:, i, j] = window.max(axis=(1, 2)) if kind == "max" else \
                    window.mean(axis=(1, 2))
        return y
    return ref


def _fractional_fn(kind):
    pool = tf.nn.fractional_max_pool if kind == "max" else tf.nn.fractional_avg_pool
    return lambda x, pooling_ratio, **kw: pool(x, pooling_ratio, **kw)[0]


def _fractional_samples(x):
    return [
        Sample((x(2, 7, 9, 2), [1.0, 1.5, 1.7, 1.0]), {"seed": 3}, name="random"),
        Sample((x(1, 8, 6, 2), 1.44), {"seed": 5, "pseudo_random": True}, name="pseudo"),
        Sample((x(1, 7, 7, 1), [1.6, 1.3]), {"seed": 2, "overlapping": True},
               name="overlapping"),
    ]


def ref_dilation(x, w, strides, padding, data_format="NHWC", dilations=None, sign=1):
    s = (strides[1], strides[2])
    r = (1, 1) if dilations is None else (dilations[1], dilations[2])
    n, h, wd, c = x.shape
    kh, kw, _ = w.shape
    eff = [(kh - 1) * r[0] + 1, (kw - 1) * r[1] + 1]
    if padding == "SAME":
        out = [-(-h // s[0]), -(-wd // s[1])]
        pad = [max((out[a] - 1) * s[a] + eff[a] - (h, wd)[a], 0) // 2 for a in (0, 1)]
    else:
        out = [-(-(h - eff[0] + 1) // s[0]), -(-(wd - eff[1] + 1) // s[1])]
        pad = [0, 0]
    y = np.full((n, out[0], out[1], c), -np.inf)
    for p in range(out[0]):
        for q in range(out[1]):
            for i in range(kh):
                for j in range(kw):
                    row, col = p * s[0] + i * r[0] - pad[0], q * s[1] + j * r[1] - pad[1]
                    if 0 <= row < h and 0 <= col < wd:
                        tap = w[i, j] if sign > 0 else w[kh - 1 - i, kw - 1 - j]
                        y[:, p, q] = np.maximum(y[:, p, q], sign * x[:, row, col] + tap)
    return sign * y


def _avg_vjp_fn(x, g, pooling_ratio, **kw):
    """The gradient of fractional_avg_pool in x for the output gradient g (linear in g, so its
    own gradient in g is FractionalAvgPoolGradGrad)."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.fractional_avg_pool(x, pooling_ratio, **kw)[0]
    return tape.gradient(y, x, output_gradients=g)


def _avg_vjp_ref(x, g, pooling_ratio, **kw):
    rows, cols = _sequences(tf.nn.fractional_avg_pool, x, pooling_ratio, kw)
    extra = 1 if kw.get("overlapping") else 0
    dx = np.zeros(x.shape)
    for i in range(len(rows) - 1):
        for j in range(len(cols) - 1):
            r0, r1 = rows[i], min(rows[i + 1] + extra, x.shape[1])
            c0, c1 = cols[j], min(cols[j + 1] + extra, x.shape[2])
            dx[:, r0:r1, c0:c1] += g[:, i:i + 1, j:j + 1] / ((r1 - r0) * (c1 - c0))
    return dx


DILATION_SAMPLES = [
    Sample((distinct(2, 5, 6, 2), rand(2, 3, 2)),
           {"strides": [1, 1, 1, 1], "padding": "SAME"}, name="same"),
    Sample((distinct(1, 7, 6, 2), rand(2, 2, 2)),
           {"strides": [1, 2, 1, 1], "padding": "VALID", "dilations": [1, 2, 2, 1]},
           name="valid_strided_rates"),
]

ROWS = [
    OpInfo("nn.max_pool_with_argmax", _argmax_fn, _argmax_ref, [
        Sample((distinct(2, 5, 5, 3),), {"ksize": 2, "strides": 2, "padding": "VALID"},
               name="2x2"),
        Sample((distinct(1, 5, 6, 2),), {"ksize": 3, "strides": 2, "padding": "SAME",
                                         "include_batch_in_index": True}, name="same_batch"),
    ], notes="inputs without ties"),
    OpInfo("nn.fractional_max_pool", _fractional_fn("max"), _fractional_ref("max"),
           _fractional_samples(distinct), notes="seeded: the same windows every call"),
    OpInfo("nn.fractional_avg_pool", _fractional_fn("avg"), _fractional_ref("avg"),
           _fractional_samples(rand)),
    OpInfo("nn.fractional_avg_pool (gradient, in g)", _avg_vjp_fn, _avg_vjp_ref, [
        Sample((rand(1, 7, 9, 2), rand(1, 4, 5, 2), [1.0, 1.5, 1.7, 1.0]),
               {"seed": 3, "overlapping": True}, wrt=[1], name="overlapping")]),
    OpInfo("nn.dilation2d", tf.nn.dilation2d, ref_dilation, DILATION_SAMPLES),
    OpInfo("nn.erosion2d", tf.nn.erosion2d,
           lambda x, w, **kw: ref_dilation(x, w, sign=-1, **kw), DILATION_SAMPLES),
]
