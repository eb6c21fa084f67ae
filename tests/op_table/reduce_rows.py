"""Op-table rows for ops/reduce_ops.py: sums, means, extrema, products, logsumexp, norms,
variance, logical reductions, argmax/argmin, count_nonzero and cumsum.

Each differentiable reduction is sampled over all axes, one axis, a negative axis with keepdims,
a list of axes, and an empty axis list (the identity). Random inputs have no ties, so max/min
are differentiable there (ties are tested in tests/test_reduce_linalg_ops.py).
"""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, positive, rand, rand_away


def _np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def _ref(np_fn):
    def ref(x, axis=None, keepdims=False):
        return np_fn(x, axis=_np_axis(axis), keepdims=keepdims)
    return ref


_AXES = [({}, "all"), ({"axis": 1}, "axis1"), ({"axis": -1, "keepdims": True}, "neg-keepdims"),
         ({"axis": [0, 2]}, "list"), ({"axis": [], "keepdims": False}, "empty-list"),
         ({"keepdims": True}, "all-keepdims")]


def _reductions(make=rand):
    samples = [Sample((make(2, 3, 4),), kw, name=label) for kw, label in _AXES]
    samples.append(Sample((np.asarray(make()),), name="scalar"))
    samples.append(Sample((make(5),), {"axis": 0}, name="vector"))
    return samples


def _logsumexp(x, axis=None, keepdims=False):
    axis = _np_axis(axis)
    top = np.max(x, axis=axis, keepdims=True)
    return np.log(np.sum(np.exp(x - top), axis=axis, keepdims=keepdims)) + (
        top if keepdims else np.squeeze(top, axis))


def _with_one_zero(*shape):
    """Positive values with one exact zero in each row of the last axis."""
    x = positive(*shape)
    x[..., 1] = 0.0
    return x


def _cumsum(x, axis=0, exclusive=False, reverse=False):
    if reverse:
        x = np.flip(x, axis)
    out = np.cumsum(x, axis=axis)
    if exclusive:
        out = out - x
    return np.flip(out, axis) if reverse else out


_CUMSUM = [Sample((rand(3, 4),), {}, name="axis0"),
           Sample((rand(3, 4),), {"axis": 1, "exclusive": True}, name="exclusive"),
           Sample((rand(3, 4),), {"axis": -1, "reverse": True}, name="reverse"),
           Sample((rand(2, 3, 2),), {"axis": 1, "exclusive": True, "reverse": True},
                  name="exclusive-reverse")]

_BOOL = np.array([[True, False, True], [True, True, True]])

ROWS = [
    OpInfo("reduce_sum", tf.reduce_sum, _ref(np.sum), _reductions()),
    OpInfo("reduce_mean", tf.reduce_mean, _ref(np.mean), _reductions()),
    OpInfo("reduce_max", tf.reduce_max, _ref(np.max), _reductions()),
    OpInfo("reduce_min", tf.reduce_min, _ref(np.min), _reductions()),
    OpInfo("reduce_prod", tf.reduce_prod, _ref(np.prod), _reductions() + [
        Sample((_with_one_zero(3, 4),), {"axis": 1}, name="one-zero-per-row"),
        Sample((_with_one_zero(3, 4),), {"axis": 0}, name="one-zero-column")]),
    OpInfo("reduce_prod_two_zeros", tf.reduce_prod, _ref(np.prod),
           [Sample((_with_one_zero(2, 3),), {}, name="two-zeros"),
            Sample((_with_one_zero(2, 3),), {"axis": 0}, name="two-zeros-axis0")],
           grad2=False, notes="with two zeros in a slice the gradient is 0 (exact), but its "
                              "derivative is not: the rule treats 'product of the others' as 0 "
                              "there (TensorFlow's rule is not exact there either)."),
    OpInfo("reduce_logsumexp", tf.reduce_logsumexp, _logsumexp, _reductions() + [
        Sample((np.array([[1000.0, 1001.0, 999.5], [-1000.0, -1001.0, -999.0]]),), {"axis": 1},
               name="large")]),
    OpInfo("reduce_euclidean_norm", tf.math.reduce_euclidean_norm,
           lambda x, axis=None, keepdims=False: np.sqrt(_ref(np.sum)(x * x, axis, keepdims)),
           [Sample((rand_away(2, 3, 4),), kw, name=label) for kw, label in _AXES[:4]]),
    OpInfo("reduce_variance", tf.math.reduce_variance, _ref(np.var), _reductions()[:4]),
    OpInfo("reduce_std", tf.math.reduce_std, _ref(np.std), _reductions()[:4]),
    OpInfo("cumsum", tf.math.cumsum, _cumsum, _CUMSUM),
    OpInfo("reduce_any", tf.reduce_any, _ref(np.any),
           [Sample((_BOOL,), {"axis": 1}), Sample((_BOOL,), {}), Sample((_BOOL,), {
               "axis": 0, "keepdims": True})], grad=False),
    OpInfo("reduce_all", tf.reduce_all, _ref(np.all),
           [Sample((_BOOL,), {"axis": 1}), Sample((_BOOL,), {}), Sample((_BOOL,), {
               "axis": -2, "keepdims": True})], grad=False),
    OpInfo("argmax", tf.argmax, lambda x, axis=None, **_: np.argmax(x, 0 if axis is None else axis),
           [Sample((rand(3, 4),)), Sample((rand(3, 4),), {"axis": 1}),
            Sample((rand(2, 3, 4),), {"axis": -1, "output_type": tf.int32})], grad=False),
    OpInfo("argmin", tf.argmin, lambda x, axis=None, **_: np.argmin(x, 0 if axis is None else axis),
           [Sample((rand(3, 4),)), Sample((rand(3, 4),), {"axis": 1}),
            Sample((rand(2, 3, 4),), {"axis": -1, "output_type": tf.int32})], grad=False),
    OpInfo("count_nonzero", tf.math.count_nonzero,
           lambda x, axis=None, keepdims=None: np.count_nonzero(x, axis=axis, keepdims=bool(
               keepdims)),
           [Sample((np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]]),)),
            Sample((np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]]),), {"axis": 1,
                                                                       "keepdims": True})],
           grad=False),
]
