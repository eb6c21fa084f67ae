"""Op-table rows for ops/nn/conv/conv3d.py: 3-D convolutions and the compositions (transposes of every
rank, generic convolution, atrous and separable convolutions, the backprop functions).

References loop over output positions and kernel offsets (np.ndindex) of the definitions, in
any number of spatial dimensions; nothing is shared with the kernels.
"""
import math

import numpy as np

import wengert as tf
from wengert.compat import v1
from op_table import OpInfo, Sample, rand


def _spatial(v, nd, channels_first):
    if v is None:
        return (1,) * nd
    if isinstance(v, int):
        return (v,) * nd
    v = list(v)
    if len(v) == nd + 2:
        return tuple(v[2:]) if channels_first else tuple(v[1:-1])
    return tuple(v) * (nd // len(v))


def _axis(size, k, s, d, padding):
    eff = (k - 1) * d + 1
    if padding == "SAME":
        out = math.ceil(size / s)
        return out, max((out - 1) * s + eff - size, 0) // 2
    return math.ceil((size - eff + 1) / s), 0


def ref_conv_nd(x, w, strides=1, padding="VALID", data_format=None, dilations=None):
    """y[n, p, o] = sum over offsets k and channels c of x[n, p*s + k*d - pad, c] w[k, c, o]."""
    nd = x.ndim - 2
    first = bool(data_format) and data_format.startswith("NC")
    if first:
        x = np.moveaxis(x, 1, -1)
    ss, ds = _spatial(strides, nd, first), _spatial(dilations, nd, first)
    geo = [_axis(x.shape[1 + a], w.shape[a], ss[a], ds[a], padding) for a in range(nd)]
    out = [g[0] for g in geo]
    y = np.zeros((x.shape[0], *out, w.shape[-1]))
    for pos in np.ndindex(*out):
        for k in np.ndindex(*w.shape[:nd]):
            src = [p * s + kk * d - g[1] for p, s, kk, d, g in zip(pos, ss, k, ds, geo)]
            if all(0 <= i < x.shape[1 + a] for a, i in enumerate(src)):
                y[(slice(None),) + pos] += x[(slice(None),) + tuple(src)] @ w[k]
    return np.moveaxis(y, -1, 1) if first else y


def ref_conv_transpose_nd(y, w, output_shape, strides=1, padding="SAME", data_format=None,
                          dilations=None):
    """The scatter form: each input position adds y @ w[k]^T where the convolution read."""
    nd = y.ndim - 2
    first = bool(data_format) and data_format.startswith("NC")
    if first:
        y = np.moveaxis(y, 1, -1)
        output_shape = [output_shape[0], *output_shape[2:], output_shape[1]]
    ss, ds = _spatial(strides, nd, first), _spatial(dilations, nd, first)
    geo = [_axis(output_shape[1 + a], w.shape[a], ss[a], ds[a], padding) for a in range(nd)]
    x = np.zeros(output_shape)
    for pos in np.ndindex(*y.shape[1:-1]):
        for k in np.ndindex(*w.shape[:nd]):
            dst = [p * s + kk * d - g[1] for p, s, kk, d, g in zip(pos, ss, k, ds, geo)]
            if all(0 <= i < output_shape[1 + a] for a, i in enumerate(dst)):
                x[(slice(None),) + tuple(dst)] += y[(slice(None),) + pos] @ w[k].T
    return np.moveaxis(x, -1, 1) if first else x


def ref_depthwise(x, w, strides=1, padding="VALID", data_format=None, dilations=None):
    n_c, m = w.shape[-2:]
    parts = [ref_conv_nd(x[..., c:c + 1], w[..., c:c + 1, :], strides, padding, None,
                         dilations) for c in range(n_c)]
    return np.concatenate(parts, axis=-1)


# -- samples ---------------------------------------------------------------------------------------
def _conv(x_shape, w_shape, name, **kwargs):
    return Sample((rand(*x_shape), rand(*w_shape)), kwargs, name=name)


CONV3D_SAMPLES = [
    _conv((2, 3, 4, 4, 2), (2, 2, 3, 2, 3), "same", strides=[1, 1, 1, 1, 1], padding="SAME"),
    _conv((1, 5, 4, 5, 2), (3, 2, 2, 2, 2), "valid_s2", strides=[1, 2, 1, 2, 1],
          padding="VALID"),
    _conv((1, 5, 5, 4, 1), (2, 2, 2, 1, 2), "dilated", strides=1, padding="SAME",
          dilations=[1, 2, 2, 1, 1]),
    _conv((2, 2, 3, 4, 3), (2, 2, 2, 2, 2), "ncdhw", strides=1, padding="SAME",
          data_format="NCDHW"),
]

CONV3D_TRANSPOSE_SAMPLES = [
    Sample((rand(1, 2, 3, 3, 3), rand(2, 2, 2, 2, 3)),
           {"output_shape": [1, 4, 6, 5, 2], "strides": 2}, name="same_s2"),
    Sample((rand(2, 2, 2, 3, 2), rand(2, 3, 2, 2, 2)),
           {"output_shape": [2, 3, 4, 4, 2], "strides": 1, "padding": "VALID"}, name="valid"),
]

CONV1D_TRANSPOSE_SAMPLES = [
    Sample((rand(2, 4, 3), rand(3, 2, 3)), {"output_shape": [2, 8, 2], "strides": 2},
           name="same_s2"),
    Sample((rand(1, 3, 5), rand(2, 2, 3)), {"output_shape": [1, 2, 10], "strides": 2,
                                            "padding": "VALID", "data_format": "NCW"},
           name="valid_ncw"),
]

CONVOLUTION_SAMPLES = [
    _conv((2, 7, 2), (3, 2, 3), "1d", padding="SAME", strides=2),
    _conv((1, 5, 6, 2), (2, 3, 2, 2), "2d_dilated", padding="VALID", dilations=2),
    _conv((1, 3, 4, 3, 2), (2, 2, 2, 2, 2), "3d", padding="SAME"),
]


def _conv_transpose_fn(x, w, output_shape, strides, **kw):
    return tf.nn.conv_transpose(x, w, output_shape, strides, **kw)


CONV_TRANSPOSE_SAMPLES = [
    Sample((rand(2, 3, 3), rand(2, 2, 3)), {"output_shape": [2, 6, 2], "strides": 2},
           name="1d"),
    Sample((rand(1, 2, 3, 2), rand(3, 2, 3, 2)), {"output_shape": [1, 4, 6, 3], "strides": 2},
           name="2d"),
]


def _atrous(x, w, rate, padding):
    return ref_conv_nd(x, w, 1, padding, None, rate)


def _atrous_transpose(y, w, output_shape, rate, padding):
    return ref_conv_transpose_nd(y, w, output_shape, 1, padding, None, rate)


def _separable_ref(x, dw, pw, strides, padding, dilations=None):
    return ref_conv_nd(ref_depthwise(x, dw, strides, padding, None, dilations), pw)


SEPARABLE_SAMPLES = [
    Sample((rand(1, 5, 5, 2), rand(3, 3, 2, 2), rand(1, 1, 4, 3)),
           {"strides": [1, 1, 1, 1], "padding": "SAME"}, name="same"),
    Sample((rand(2, 6, 5, 2), rand(2, 2, 2, 1), rand(1, 1, 2, 2)),
           {"strides": [1, 2, 2, 1], "padding": "VALID"}, name="valid_s2"),
]


def _dw_input(sizes_shape):
    def fn(w, dy, **kw):
        return tf.nn.depthwise_conv2d_backprop_input(sizes_shape, w, dy, **kw)

    def ref(w, dy, strides, padding):
        # the adjoint of depthwise_conv2d: <depthwise(x, w), dy> = <x, result>
        result = np.zeros(sizes_shape)
        for index in np.ndindex(*sizes_shape):
            e = np.zeros(sizes_shape)
            e[index] = 1.0
            result[index] = np.sum(ref_depthwise(e, w, strides, padding) * dy)
        return result
    return fn, ref


_DW_IN_FN, _DW_IN_REF = _dw_input([1, 4, 4, 2])


def _dw_filter_fn(x, dy, filter_sizes, **kw):
    return tf.nn.depthwise_conv2d_backprop_filter(x, filter_sizes, dy, **kw)


def _dw_filter_ref(x, dy, filter_sizes, strides, padding):
    result = np.zeros(filter_sizes)
    for index in np.ndindex(*filter_sizes):
        e = np.zeros(filter_sizes)
        e[index] = 1.0
        result[index] = np.sum(ref_depthwise(x, e, strides, padding) * dy)
    return result


def _filter_grad_ref(conv_ref):
    def ref(x, dy, filter_sizes, strides, padding, **kw):
        result = np.zeros(filter_sizes)
        for index in np.ndindex(*filter_sizes):
            e = np.zeros(filter_sizes)
            e[index] = 1.0
            result[index] = np.sum(conv_ref(x, e, strides, padding, **kw) * dy)
        return result
    return ref


def _v1_filter_fn(op):
    def fn(x, dy, filter_sizes, **kw):
        return op(x, filter_sizes, dy, **kw)
    return fn


def _v1_input_fn(w, dy, input_sizes, **kw):
    return v1.nn.conv2d_backprop_input(input_sizes, w, dy, **kw)


ROWS = [
    OpInfo("nn.conv3d", tf.nn.conv3d, ref_conv_nd, CONV3D_SAMPLES, atol=1e-5),
    OpInfo("nn.conv3d_transpose", tf.nn.conv3d_transpose, ref_conv_transpose_nd,
           CONV3D_TRANSPOSE_SAMPLES, atol=1e-5),
    OpInfo("nn.conv1d_transpose", tf.nn.conv1d_transpose, ref_conv_transpose_nd,
           CONV1D_TRANSPOSE_SAMPLES, atol=1e-5),
    OpInfo("nn.conv_transpose", _conv_transpose_fn, ref_conv_transpose_nd,
           CONV_TRANSPOSE_SAMPLES, atol=1e-5),
    OpInfo("nn.convolution", tf.nn.convolution, ref_conv_nd, CONVOLUTION_SAMPLES, atol=1e-5),
    OpInfo("nn.atrous_conv2d", tf.nn.atrous_conv2d, _atrous,
           [Sample((rand(1, 7, 6, 2), rand(3, 2, 2, 3)), {"rate": 2, "padding": "SAME"},
                   name="rate2")], atol=1e-5),
    OpInfo("nn.atrous_conv2d_transpose", tf.nn.atrous_conv2d_transpose, _atrous_transpose,
           [Sample((rand(1, 3, 4, 3), rand(3, 2, 2, 3)),
                   {"output_shape": [1, 7, 6, 2], "rate": 2, "padding": "VALID"},
                   name="rate2")], atol=1e-5),
    OpInfo("nn.separable_conv2d", tf.nn.separable_conv2d, _separable_ref, SEPARABLE_SAMPLES,
           atol=1e-5),
    OpInfo("nn.depthwise_conv2d_backprop_input", _DW_IN_FN, _DW_IN_REF,
           [Sample((rand(2, 2, 2, 2), rand(1, 4, 4, 4)),
                   {"strides": [1, 1, 1, 1], "padding": "SAME"}, name="same")], atol=1e-5),
    OpInfo("nn.depthwise_conv2d_backprop_filter", _dw_filter_fn, _dw_filter_ref,
           [Sample((rand(1, 4, 4, 2), rand(1, 2, 2, 2), [2, 2, 2, 1]),
                   {"strides": [1, 2, 2, 1], "padding": "SAME"}, name="s2")], atol=1e-5),
    OpInfo("compat.v1.nn.conv2d_backprop_filter", _v1_filter_fn(v1.nn.conv2d_backprop_filter),
           _filter_grad_ref(ref_conv_nd),
           [Sample((rand(1, 4, 5, 2), rand(1, 4, 5, 3), [2, 2, 2, 3]),
                   {"strides": [1, 1, 1, 1], "padding": "SAME"}, name="same")], atol=1e-5),
    OpInfo("compat.v1.nn.conv2d_backprop_input", _v1_input_fn,
           lambda w, dy, sizes, **kw: ref_conv_transpose_nd(dy, w, sizes, **kw),
           [Sample((rand(2, 2, 2, 3), rand(1, 2, 3, 3), [1, 4, 5, 2]),
                   {"strides": [1, 2, 2, 1], "padding": "SAME"}, name="s2")], atol=1e-5),
    OpInfo("compat.v1.nn.conv3d_backprop_filter_v2",
           _v1_filter_fn(v1.nn.conv3d_backprop_filter_v2), _filter_grad_ref(ref_conv_nd),
           [Sample((rand(1, 3, 3, 4, 2), rand(1, 3, 3, 4, 2), [2, 2, 2, 2, 2]),
                   {"strides": [1, 1, 1, 1, 1], "padding": "SAME"}, name="same")], atol=1e-5),
]
