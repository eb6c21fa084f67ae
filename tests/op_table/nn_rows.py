"""Op-table rows for ops/nn/activations.py: activations, softmax, cross-entropy losses, bias_add."""
import math

import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, ints, rand, rand_away

SELU_SCALE, SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717


def _one(*shape, **kw):
    return [Sample((rand_away(*shape, **kw),))]


def _shapes(*shapes, **kw):
    return [Sample((rand_away(*s, **kw),), name=str(s)) for s in shapes]


_erf = np.vectorize(math.erf)


def _expit(x):
    return 1 / (1 + np.exp(-x))


def _np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _np_log_softmax(x, axis=-1):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def _prob_rows(*shape, axis=-1):
    return _np_softmax(rand(*shape, low=-1, high=1), axis)


def _gelu(x, approximate=False):
    if approximate:
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + _erf(x / np.sqrt(2)))


def _sparse_ref(labels, logits):
    return -np.take_along_axis(_np_log_softmax(logits), labels[..., None], -1)[..., 0]


def _sigmoid_ce_ref(labels, logits):
    p = _expit(logits)
    return -labels * np.log(p) - (1 - labels) * np.log(1 - p)


def _bias_nchw(v, b):
    return v + b.reshape((-1,) + (1,) * (v.ndim - 2))


def _l2_normalize(x, axis=None):
    return x / np.sqrt(np.maximum(np.sum(x * x, axis=axis, keepdims=True), 1e-12))


ROWS = [
    OpInfo("nn.relu", tf.nn.relu, lambda x: np.maximum(x, 0), _shapes((3, 4), (), (5,))),
    OpInfo("nn.relu6", tf.nn.relu6, lambda x: np.clip(x, 0, 6),
           [Sample((rand_away(4, 5, low=-3, high=9, gap=0.1, points=(0.0, 6.0)),))]),
    OpInfo("nn.leaky_relu", tf.nn.leaky_relu, lambda x, alpha=0.2: np.where(x > 0, x, alpha * x),
           _one(3, 4) + [Sample((rand_away(6),), {"alpha": 0.05}, name="alpha")]),
    OpInfo("nn.elu", tf.nn.elu, lambda x: np.where(x > 0, x, np.expm1(x)), _shapes((3, 4), ())),
    OpInfo("nn.selu", tf.nn.selu,
           lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)), _one(3, 4)),
    OpInfo("nn.gelu", tf.nn.gelu, _gelu,
           [Sample((rand(3, 4, low=-3, high=3),)),
            Sample((rand(3, 4, low=-3, high=3),), {"approximate": True}, name="tanh")]),
    OpInfo("nn.silu", tf.nn.silu, lambda x, beta=1.0: x * _expit(beta * x),
           [Sample((rand(3, 4),)), Sample((rand(5),), {"beta": 1.5}, name="beta")]),
    OpInfo("nn.softmax", tf.nn.softmax, _np_softmax,
           [Sample((rand(3, 5),)), Sample((rand(2, 3, 4),), {"axis": 1}, name="axis1"),
            Sample((rand(4) * 100,), name="large")]),
    OpInfo("nn.log_softmax", tf.nn.log_softmax, _np_log_softmax,
           [Sample((rand(3, 5),)), Sample((rand(2, 3, 4),), {"axis": 0}, name="axis0")]),
    OpInfo("nn.softmax_cross_entropy_with_logits", tf.nn.softmax_cross_entropy_with_logits,
           lambda labels, logits, axis=-1: -np.sum(labels * _np_log_softmax(logits, axis), axis),
           [Sample((_prob_rows(4, 5), rand(4, 5)), name="2d"),
            Sample((_prob_rows(6), rand(6)), name="1d"),
            Sample((_prob_rows(3, 4, 2, axis=1), rand(3, 4, 2)), {"axis": 1}, name="axis1")]),
    OpInfo("nn.sparse_softmax_cross_entropy_with_logits",
           tf.nn.sparse_softmax_cross_entropy_with_logits, _sparse_ref,
           [Sample((ints(4, high=5), rand(4, 5)), name="2d"),
            Sample((ints(2, 3, high=4), rand(2, 3, 4)), name="3d")]),
    OpInfo("nn.sigmoid_cross_entropy_with_logits",
           lambda labels, logits: tf.nn.sigmoid_cross_entropy_with_logits(labels, logits),
           _sigmoid_ce_ref,
           [Sample((rand(3, 4, low=0, high=1), rand_away(3, 4, low=-4, high=4)))]),
    OpInfo("nn.l2_loss", tf.nn.l2_loss, lambda t: np.sum(t * t) / 2,
           _shapes((3, 4), ()), fwd_rtol=1e-6),
    OpInfo("nn.bias_add", tf.nn.bias_add, lambda v, b, data_format=None: (
               _bias_nchw(v, b) if data_format == "NCHW" else v + b),
           [Sample((rand(3, 4), rand(4)), name="2d"), Sample((rand(2, 3, 4), rand(4)), name="3d"),
            Sample((rand(2, 3, 4, 2), rand(3)), {"data_format": "NCHW"}, name="NCHW")]),
    OpInfo("nn.l2_normalize", tf.nn.l2_normalize, _l2_normalize,
           [Sample((rand(3, 4),), {"axis": 1}, name="axis1"), Sample((rand(5),), name="all")]),
    # sigmoid, tanh and softplus are re-exported from unary_ops (rows there); check the names.
    OpInfo("nn.sigmoid", tf.nn.sigmoid, _expit, _one(4)),
    OpInfo("nn.softplus", tf.nn.softplus, lambda x: np.logaddexp(x, 0), _one(4)),
]
