"""Op-table rows for ops/nn/conv/conv2d.py and ops/nn/pool.py: convolutions and pooling.

The references are written plainly: nested loops over output positions and kernel offsets of the
definitions (padding and output size as TensorFlow computes them), nothing shared with the kernels.
"""
import math

import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand


# -- plain references ------------------------------------------------------------------------------
def ref_geometry(size, k, s, d, padding):
    """(output size, pad before) along one axis, from TensorFlow's documented formulas."""
    eff = (k - 1) * d + 1
    if padding == "SAME":
        out = math.ceil(size / s)
        return out, max((out - 1) * s + eff - size, 0) // 2
    if padding == "VALID":
        return math.ceil((size - eff + 1) / s), 0
    before, after = padding
    return (size + before + after - eff) // s + 1, before


def _axes(x_hw, k_hw, strides, padding, dilations):
    per_axis = [padding] * 2 if isinstance(padding, str) else [tuple(padding[1]),
                                                                tuple(padding[2])]
    return [ref_geometry(x_hw[a], k_hw[a], strides[a], dilations[a], per_axis[a])
            for a in (0, 1)]


def _pair(v):
    if v is None:
        return (1, 1)
    if isinstance(v, int):
        return (v, v)
    v = list(v)
    return tuple(v[1:3]) if len(v) == 4 else tuple(v) * (2 // len(v))


def ref_conv2d(x, w, strides, padding, data_format="NHWC", dilations=None, depthwise=False):
    if data_format == "NCHW":
        x = x.transpose(0, 2, 3, 1)
        if not isinstance(padding, str):
            padding = [padding[0], padding[2], padding[3], padding[1]]
    (sh, sw), (dh, dw) = _pair(strides), _pair(dilations)
    n, h, wd, c = x.shape
    kh, kw, _, o = w.shape
    (oh, top), (ow, left) = _axes((h, wd), (kh, kw), (sh, sw), padding, (dh, dw))
    y = np.zeros((n, oh, ow, c * o if depthwise else o))
    for p in range(oh):
        for q in range(ow):
            for i in range(kh):
                for j in range(kw):
                    r, s = p * sh + i * dh - top, q * sw + j * dw - left
                    if 0 <= r < h and 0 <= s < wd:
                        if depthwise:
                            y[:, p, q] += (x[:, r, s, :, None] * w[i, j]).reshape(n, -1)
                        else:
                            y[:, p, q] += x[:, r, s] @ w[i, j]
    return y.transpose(0, 3, 1, 2) if data_format == "NCHW" else y


def ref_conv2d_transpose(x, w, output_shape, strides, padding="SAME", data_format="NHWC",
                         dilations=None):
    """Scatter form: every input position adds x * w into the output window it maps to."""
    (sh, sw), (dh, dw) = _pair(strides), _pair(dilations)
    n, h, wd, c = output_shape
    kh, kw = w.shape[:2]
    (oh, top), (ow, left) = _axes((h, wd), (kh, kw), (sh, sw), padding, (dh, dw))
    y = np.zeros((n, h, wd, c))
    for p in range(oh):
        for q in range(ow):
            for i in range(kh):
                for j in range(kw):
                    r, s = p * sh + i * dh - top, q * sw + j * dw - left
                    if 0 <= r < h and 0 <= s < wd:
                        y[:, r, s] += x[:, p, q] @ w[i, j].T
    return y


def ref_pool(x, ksize, strides, padding, kind, data_format="NHWC"):
    if data_format == "NCHW":
        x = x.transpose(0, 2, 3, 1)
    (kh, kw), (sh, sw) = _pair(ksize), _pair(strides)
    n, h, wd, c = x.shape
    (oh, top), (ow, left) = _axes((h, wd), (kh, kw), (sh, sw), padding, (1, 1))
    y = np.zeros((n, oh, ow, c))
    for p in range(oh):
        for q in range(ow):
            r0, s0 = p * sh - top, q * sw - left
            window = x[:, max(r0, 0):r0 + kh, max(s0, 0):s0 + kw]
            y[:, p, q] = window.max(axis=(1, 2)) if kind == "max" else window.mean(axis=(1, 2))
    return y.transpose(0, 3, 1, 2) if data_format == "NCHW" else y


def distinct(*shape, spacing=0.05):
    """Random values at least `spacing` apart (no ties inside a max-pool window, so the
    finite differences do not cross a kink)."""
    size = int(np.prod(shape))
    values = (np.random.default_rng(size).permutation(size) - size / 2) * spacing
    return values.reshape(shape)


# -- samples ---------------------------------------------------------------------------------------
def _conv_sample(x_shape, w_shape, name, **kwargs):
    return Sample((rand(*x_shape), rand(*w_shape)), kwargs, name=name)


CONV_SAMPLES = [
    _conv_sample((2, 5, 5, 3), (3, 3, 3, 4), "same", strides=1, padding="SAME"),
    _conv_sample((2, 6, 5, 2), (3, 2, 2, 3), "valid_s2", strides=2, padding="VALID"),
    _conv_sample((1, 7, 6, 2), (2, 3, 2, 2), "same_s2_s3", strides=[1, 2, 3, 1], padding="SAME"),
    _conv_sample((2, 7, 7, 2), (2, 2, 2, 3), "dilated_same", strides=1, padding="SAME",
                 dilations=2),
    _conv_sample((1, 8, 7, 2), (3, 2, 2, 2), "dilated_valid_s2", strides=2, padding="VALID",
                 dilations=[2, 3]),
    _conv_sample((2, 4, 5, 2), (3, 3, 2, 3), "explicit", strides=[1, 2],
                 padding=[[0, 0], [2, 1], [0, 3], [0, 0]]),
    _conv_sample((2, 3, 5, 4), (2, 2, 3, 2), "nchw", strides=1, padding="SAME",
                 data_format="NCHW"),
    _conv_sample((3, 4, 4, 3), (1, 1, 3, 5), "1x1", strides=1, padding="VALID"),
]

DEPTHWISE_SAMPLES = [
    _conv_sample((2, 5, 5, 3), (3, 3, 3, 2), "same", strides=[1, 1, 1, 1], padding="SAME"),
    _conv_sample((1, 7, 6, 2), (2, 3, 2, 1), "valid_s2", strides=[1, 2, 2, 1], padding="VALID"),
    _conv_sample((2, 6, 6, 2), (2, 2, 2, 2), "dilated", strides=[1, 1, 1, 1], padding="SAME",
                 dilations=[2, 2]),
]

TRANSPOSE_SAMPLES = [
    Sample((rand(2, 3, 3, 4), rand(3, 3, 2, 4)), {"output_shape": [2, 6, 6, 2], "strides": 2},
           name="same_s2"),
    Sample((rand(1, 3, 2, 3), rand(2, 3, 2, 3)), {"output_shape": [1, 7, 6, 2], "strides": 2,
                                                  "padding": "VALID"}, name="valid_s2"),
    Sample((rand(2, 4, 4, 2), rand(3, 3, 3, 2)), {"output_shape": [2, 4, 4, 3], "strides": 1,
                                                  "dilations": 2}, name="dilated"),
]

CONV1D_SAMPLES = [
    Sample((rand(2, 7, 3), rand(3, 3, 4)), {"stride": 1, "padding": "SAME"}, name="same"),
    Sample((rand(2, 8, 2), rand(2, 2, 3)), {"stride": 2, "padding": "VALID", "dilations": 2},
           name="valid_s2_d2"),
]


def _pool_samples(kind):
    x = distinct if kind == "max" else rand
    return [
        Sample((x(2, 5, 5, 3),), {"ksize": 2, "strides": 2, "padding": "VALID"}, name="2x2"),
        Sample((x(2, 5, 6, 2),), {"ksize": 3, "strides": 2, "padding": "SAME"}, name="same"),
        Sample((x(1, 6, 5, 2),), {"ksize": [1, 3, 2, 1], "strides": [1, 1, 2, 1],
                                  "padding": "VALID"}, name="overlap"),
        Sample((x(2, 2, 4, 5),), {"ksize": 2, "strides": 1, "padding": "SAME",
                                  "data_format": "NCHW"}, name="nchw"),
    ]


def _conv1d_ref(x, w, stride, padding, dilations=1):
    y = ref_conv2d(x[:, None], w[None], (1, stride), padding, dilations=(1, dilations))
    return y[:, 0]


ROWS = [
    OpInfo("nn.conv2d", tf.nn.conv2d, ref_conv2d, CONV_SAMPLES, rtol=1e-5, atol=1e-5),
    OpInfo("nn.depthwise_conv2d", tf.nn.depthwise_conv2d,
           lambda x, w, **kw: ref_conv2d(x, w, depthwise=True, **kw), DEPTHWISE_SAMPLES,
           atol=1e-5),
    OpInfo("nn.conv2d_transpose", tf.nn.conv2d_transpose, ref_conv2d_transpose,
           TRANSPOSE_SAMPLES, atol=1e-5),
    OpInfo("nn.conv1d", tf.nn.conv1d, _conv1d_ref, CONV1D_SAMPLES, atol=1e-5),
    OpInfo("nn.max_pool2d", tf.nn.max_pool2d,
           lambda x, **kw: ref_pool(x, kind="max", **kw), _pool_samples("max"),
           notes="inputs without ties, so the finite differences stay on one side of a kink"),
    OpInfo("nn.avg_pool2d", tf.nn.avg_pool2d,
           lambda x, **kw: ref_pool(x, kind="avg", **kw), _pool_samples("avg")),
]
