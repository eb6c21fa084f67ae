"""Op-table rows for the N-d pools of ops/nn/pool.py: 3-D pools, explicit padding, `nn.pool`.

The reference loops over output positions (np.ndindex) and slices each window from the
definitions, padding as TensorFlow computes it; nothing is shared with the kernels.
"""
import math

import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand
from op_table.conv_rows import distinct


def in_float32(fn):
    """`fn` on float32 copies of its float64 arguments, its results cast back to float64: for ops
    that TensorFlow defines for half, bfloat16 and float32 only (float64 inputs are refused)."""
    def run(*args, **kw):
        args = [tf.cast(a, tf.float32) if getattr(a, "dtype", None) == tf.float64 else a
                for a in args]
        out = fn(*args, **kw)
        if isinstance(out, (tuple, list)):
            return type(out)(tf.cast(o, tf.float64) for o in out)
        return tf.cast(out, tf.float64)
    return run


def _tuple(v, nd, data_format):
    if isinstance(v, int):
        return (v,) * nd
    v = list(v)
    if len(v) == nd + 2:
        return tuple(v[2:]) if data_format.startswith("NC") else tuple(v[1:-1])
    return tuple(v) * (nd // len(v))


def ref_pool_nd(x, ksize, strides, padding, kind, data_format=None):
    """Max or mean over each window of an [N, *spatial, C] input (channels first if asked)."""
    nd = x.ndim - 2
    first = bool(data_format) and data_format.startswith("NC")
    if first:
        x = np.moveaxis(x, 1, -1)
    ks, ss = _tuple(ksize, nd, data_format or ""), _tuple(strides, nd, data_format or "")
    out, before = [], []
    for a in range(nd):
        size = x.shape[1 + a]
        if padding == "SAME":
            o = math.ceil(size / ss[a])
            before.append(max((o - 1) * ss[a] + ks[a] - size, 0) // 2)
        elif padding == "VALID":
            o, _ = math.ceil((size - ks[a] + 1) / ss[a]), before.append(0)
        else:
            pair = padding[2 + a] if first else padding[1 + a]
            o = (size + pair[0] + pair[1] - ks[a]) // ss[a] + 1
            before.append(pair[0])
        out.append(o)
    y = np.zeros((x.shape[0], *out, x.shape[-1]))
    for pos in np.ndindex(*out):
        starts = [p * s - b for p, s, b in zip(pos, ss, before)]
        window = x[(slice(None),) + tuple(slice(max(st, 0), st + k)
                                          for st, k in zip(starts, ks))]
        axes = tuple(range(1, nd + 1))
        y[(slice(None),) + pos] = window.max(axis=axes) if kind == "max" else \
            window.mean(axis=axes)
    return np.moveaxis(y, -1, 1) if first else y


def _samples(kind, nd):
    x = distinct if kind == "max" else rand
    if nd == 3:
        return [
            Sample((x(2, 4, 4, 5, 2),), {"ksize": 2, "strides": 2, "padding": "VALID"},
                   name="2x2x2"),
            Sample((x(1, 3, 5, 4, 2),), {"ksize": [2, 3, 2], "strides": [1, 2, 1],
                                         "padding": "SAME"}, name="same_overlap"),
            Sample((x(1, 2, 3, 4, 4),), {"ksize": [1, 1, 2, 2, 1], "strides": [1, 1, 2, 2, 1],
                                         "padding": "SAME", "data_format": "NCDHW"},
                   name="ncdhw"),
        ]
    return [
        Sample((x(2, 7, 3),), {"ksize": 2, "strides": 2, "padding": "VALID"}, name="1d"),
        Sample((x(2, 3, 7),), {"ksize": 3, "strides": 2, "padding": "SAME",
                               "data_format": "NCW"}, name="1d_ncw"),
    ]


def _pool_fn(x, window_shape, pooling_type, **kw):
    return tf.nn.pool(x, window_shape, pooling_type, **kw)


def _pool_ref(x, window_shape, pooling_type, strides=None, padding="VALID", data_format=None):
    nd = len(window_shape)
    return ref_pool_nd(x, window_shape, strides or [1] * nd, padding, pooling_type.lower(),
                       data_format)


POOL_SAMPLES = [
    Sample((distinct(2, 5, 6, 2), [2, 3], "MAX"), {"strides": [1, 2], "padding": "SAME"},
           name="max_2d"),
    Sample((rand(1, 4, 4, 4, 2), [2, 2, 2], "AVG"), {"strides": [2, 2, 2]}, name="avg_3d"),
    Sample((rand(2, 6, 3), [3], "AVG"), {"padding": "SAME"}, name="avg_1d"),
]

EXPLICIT_SAMPLES = [
    Sample((distinct(2, 5, 5, 2),), {"ksize": 2, "strides": 2,
                                     "padding": [[0, 0], [1, 0], [1, 1], [0, 0]]}, name="2d"),
    Sample((distinct(1, 2, 4, 5),), {"ksize": 3, "strides": 1, "data_format": "NCHW",
                                     "padding": [[0, 0], [0, 0], [1, 1], [2, 0]]}, name="nchw"),
]

ROWS = [
    OpInfo("nn.max_pool3d", in_float32(tf.nn.max_pool3d),
           lambda x, **kw: ref_pool_nd(x, kind="max", **kw), _samples("max", 3),
           fwd_rtol=1e-5, rtol=2e-2, atol=1e-3, eps=1e-3, float32=False,
           notes="inputs without ties (finite differences off the kinks); float32, as "
                 "TensorFlow's MaxPool3D refuses float64"),
    OpInfo("nn.avg_pool3d", tf.nn.avg_pool3d, lambda x, **kw: ref_pool_nd(x, kind="avg", **kw),
           _samples("avg", 3)),
    OpInfo("nn.max_pool1d", tf.nn.max_pool1d, lambda x, **kw: ref_pool_nd(x, kind="max", **kw),
           _samples("max", 1)),
    OpInfo("nn.avg_pool1d", tf.nn.avg_pool1d, lambda x, **kw: ref_pool_nd(x, kind="avg", **kw),
           _samples("avg", 1)),
    OpInfo("nn.max_pool2d (explicit padding)", tf.nn.max_pool2d,
           lambda x, **kw: ref_pool_nd(x, kind="max", **kw), EXPLICIT_SAMPLES),
    OpInfo("nn.pool", _pool_fn, _pool_ref, POOL_SAMPLES),
]
