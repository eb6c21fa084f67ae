"""Op-table rows for ops/nn/batch_norm.py (moments, batch_normalization, fused_batch_norm) and
ops/nn/embedding.py (embedding_lookup)."""
import numpy as np

from wengert.ops.nn import embedding, batch_norm
from op_table import OpInfo, Sample, ints, positive, rand
from op_table.pool_nd_rows import in_float32

EPS = 1e-3


def _moments_ref(x, axes, keepdims=False):
    return x.mean(tuple(axes), keepdims=keepdims), x.var(tuple(axes), keepdims=keepdims)


def _bn_ref(x, mean, variance, offset, scale, variance_epsilon):
    return (x - mean) / np.sqrt(variance + variance_epsilon) * scale + offset


def _per_channel(v, ndim, data_format):
    return v.reshape((1, -1) + (1,) * (ndim - 2)) if data_format.startswith("NC") else v


def _fused_ref(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
               is_training=True):
    c = 1 if data_format.startswith("NC") else x.ndim - 1
    axes = tuple(a for a in range(x.ndim) if a != c)
    if is_training:
        mean, variance = x.mean(axes), x.var(axes)
        n = x.size // x.shape[c]
        out_mean, out_var = mean, variance * n / (n - 1)
    else:
        out_mean, out_var = mean, variance

    def b(v):
        return _per_channel(v, x.ndim, data_format)
    y = (x - b(mean)) / np.sqrt(b(variance) + epsilon) * b(scale) + b(offset)
    return y, out_mean, out_var


# TensorFlow's FusedBatchNormV3 refuses float64: the rows run it in float32
@in_float32
def _training(x, scale, offset, **kw):
    return batch_norm.fused_batch_norm(x, scale, offset, **kw)


@in_float32
def _inference(x, scale, offset, mean, variance, **kw):
    return batch_norm.fused_batch_norm(x, scale, offset, mean, variance, is_training=False, **kw)


def _inference_ref(x, scale, offset, mean, variance, **kw):
    return _fused_ref(x, scale, offset, mean, variance, is_training=False, **kw)


@in_float32
def _y_only(x, scale, offset, **kw):
    return batch_norm.fused_batch_norm(x, scale, offset, **kw)[0]


ROWS = [
    OpInfo("nn.moments", batch_norm.moments, _moments_ref, [
        Sample((rand(3, 4),), {"axes": [0]}, name="batch"),
        Sample((rand(2, 3, 3, 4),), {"axes": [0, 1, 2]}, name="nhwc"),
        Sample((rand(2, 3, 4),), {"axes": [1], "keepdims": True}, name="keepdims"),
    ]),
    OpInfo("nn.batch_normalization", batch_norm.batch_normalization, _bn_ref, [
        Sample((rand(4, 3), rand(3), positive(3), rand(3), positive(3), EPS), name="2d"),
        Sample((rand(2, 2, 3, 3), rand(3), positive(3), rand(3), positive(3), EPS), name="4d"),
        Sample((rand(2, 3), rand(2, 1), positive(2, 1), rand(), positive(), EPS),
               name="broadcast"),
    ]),
    OpInfo("nn.fused_batch_norm", _training, _fused_ref, [
        Sample((rand(4, 2, 2, 3), positive(3), rand(3)), name="NHWC"),
        Sample((rand(3, 2, 2, 2), positive(2), rand(2)), {"data_format": "NCHW"}, name="NCHW"),
        Sample((rand(5, 3), positive(3), rand(3)), {"epsilon": 0.01}, name="2d"),
    ], fwd_rtol=1e-5, rtol=2e-2, atol=1e-3, eps=1e-3, float32=False),
    OpInfo("nn.fused_batch_norm.y", _y_only, lambda *a, **k: _fused_ref(*a, **k)[0], [
        Sample((rand(3, 2, 2, 3), positive(3), rand(3)), name="NHWC"),
    ], fwd_rtol=1e-5, rtol=2e-2, atol=1e-3, eps=1e-3, float32=False),
    OpInfo("nn.fused_batch_norm.inference", _inference, _inference_ref, [
        Sample((rand(2, 2, 2, 3), positive(3), rand(3), rand(3), positive(3)), name="NHWC"),
        Sample((rand(2, 3, 2, 2), positive(3), rand(3), rand(3), positive(3)),
               {"data_format": "NCHW"}, name="NCHW"),
    ], fwd_rtol=1e-5, rtol=2e-2, atol=1e-3, eps=1e-3, float32=False),
    OpInfo("nn.embedding_lookup", embedding.embedding_lookup,
           lambda p, ids: np.take(p, ids, axis=0), [
               Sample((rand(6, 3), ints(4, high=6)), name="ids1d"),
               Sample((rand(5, 2, 2), ints(2, 3, high=5)), name="ids2d"),
               Sample((rand(4, 3), np.array([1, 1, 3], np.int32)), name="repeated"),
           ]),
]
