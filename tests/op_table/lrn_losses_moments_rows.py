"""Op-table rows for ops/nn/lrn.py, nn/activations.py, nn/losses.py, nn/batch_norm.py and ops/nn/isotonic.py: LRN, crelu, the extra losses, the
moments helpers, zero_fraction, approx_max_k/min_k, isotonic_regression.

References are plain NumPy from the definitions (loops over the channel window for LRN, a
brute-force pool-adjacent-violators for isotonic regression)."""
import math

import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, positive, rand
from op_table.pool_nd_rows import in_float32


def ref_lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    c = x.shape[-1]
    y = np.empty_like(x)
    for d in range(c):
        lo, hi = max(0, d - depth_radius), min(c, d + depth_radius + 1)
        norm = bias + alpha * np.sum(x[..., lo:hi] ** 2, axis=-1)
        y[..., d] = x[..., d] / norm ** beta
    return y


def ref_log_poisson(targets, log_input, compute_full_loss=False):
    loss = np.exp(log_input) - log_input * targets
    if compute_full_loss:
        z = np.maximum(targets, 1.0)
        stirling = z * np.log(z) - z + 0.5 * np.log(2 * math.pi * z)
        loss = loss + np.where(targets > 1, stirling, 0.0)
    return loss


def ref_weighted_xent(labels, logits, pos_weight):
    sig = 1 / (1 + np.exp(-logits))
    return -(pos_weight * labels * np.log(sig) + (1 - labels) * np.log(1 - sig))


def _suff_fn(x, axes, shift=None, keepdims=False):
    return tf.nn.sufficient_statistics(x, axes, shift, keepdims)[:3]


def _suff_ref(x, axes, shift=None, keepdims=False):
    c = x - (0 if shift is None else shift)
    count = np.prod([x.shape[a] for a in axes])
    return (np.array(float(count)), c.sum(axis=tuple(axes), keepdims=keepdims),
            (c ** 2).sum(axis=tuple(axes), keepdims=keepdims))


def _norm_ref(counts, mean_ss, variance_ss, shift):
    mean = mean_ss / counts
    return mean + shift, variance_ss / counts - mean ** 2


def _weighted_ref(x, axes, frequency_weights, keepdims=False):
    w = np.broadcast_to(frequency_weights, x.shape)
    axes = tuple(axes)
    mean = (w * x).sum(axes, keepdims=True) / w.sum(axes, keepdims=True)
    var = (w * (x - mean) ** 2).sum(axes, keepdims=True) / w.sum(axes, keepdims=True)
    if not keepdims:
        mean, var = np.squeeze(mean, axes), np.squeeze(var, axes)
    return mean, var


def _bn_global_ref(t, m, v, beta, gamma, variance_epsilon, scale_after_normalization):
    scale = gamma if scale_after_normalization else 1.0
    return (t - m) / np.sqrt(v + variance_epsilon) * scale + beta


def _bn_global_fn(t, m, v, beta, gamma, variance_epsilon, scale_after_normalization):
    return tf.nn.batch_norm_with_global_normalization(t, m, v, beta, gamma, variance_epsilon,
                                                      scale_after_normalization)


def _approx_ref(largest):
    def ref(x, k, reduction_dimension=-1):
        moved = np.moveaxis(x, reduction_dimension, -1)
        order = np.argsort(-moved if largest else moved, axis=-1, kind="stable")[..., :k]
        values = np.take_along_axis(moved, order, -1)
        return np.moveaxis(values, -1, reduction_dimension)
    return ref


def _approx_fn(fn):
    return lambda x, k, **kw: fn(x, k, **kw)[0]


def ref_isotonic(x, decreasing=True, axis=-1):
    """Brute force by the min-max formula of the non-increasing fit:
    y_i = min_{j <= i} max_{k >= i} mean(x[j..k])."""
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    sign = 1.0 if decreasing else -1.0
    out = np.empty(rows.shape)
    n = rows.shape[1]
    for r, row in enumerate(rows * sign):
        for i in range(n):
            out[r, i] = min(max(row[j:k + 1].mean() for k in range(i, n)) for j in range(i + 1))
    return np.moveaxis((out * sign).reshape(moved.shape), -1, axis)


def _isotonic_fn(x, **kw):
    return tf.nn.isotonic_regression(x, **kw)[0]


ROWS = [
    OpInfo("nn.local_response_normalization", in_float32(tf.nn.local_response_normalization),
           ref_lrn, [
        Sample((rand(2, 3, 2, 7),), {"depth_radius": 2, "bias": 1.5, "alpha": 0.3,
                                     "beta": 0.75}, name="r2"),
        Sample((rand(1, 2, 2, 3),), {}, name="defaults_wider_than_channels"),
    ], grad2=False, fwd_rtol=1e-5, rtol=2e-2, atol=1e-3, eps=1e-3, float32=False,
           notes="TensorFlow registers no gradient for LRNGrad; float32, as TensorFlow's LRN "
                 "refuses float64"),
    OpInfo("nn.crelu", tf.nn.crelu, lambda x, axis=-1: np.concatenate(
        [np.maximum(x, 0), np.maximum(-x, 0)], axis), [
        Sample((rand(3, 4) + 0.05 * np.sign(rand(3, 4)),), name="last"),
        Sample((rand(2, 3) + 0.05,), {"axis": 0}, name="axis0")]),
    OpInfo("nn.log_poisson_loss", tf.nn.log_poisson_loss, ref_log_poisson, [
        Sample((positive(3, 4, high=3.0), rand(3, 4)), wrt=[1], name="short"),
        Sample((positive(3, 4, low=0.2, high=4.0), rand(3, 4)), {"compute_full_loss": True},
               wrt=[1], name="full")]),
    OpInfo("nn.weighted_cross_entropy_with_logits", tf.nn.weighted_cross_entropy_with_logits,
           ref_weighted_xent, [
               Sample((rand(3, 4, low=0.0, high=1.0), rand(3, 4)), {"pos_weight": 2.5},
                      name="scalar_weight")]),
    OpInfo("nn.sufficient_statistics", _suff_fn, _suff_ref, [
        Sample((rand(3, 4),), {"axes": [0]}, name="axis0"),
        Sample((rand(2, 3, 4),), {"axes": [0, 2], "shift": 0.5, "keepdims": True},
               name="shift_keepdims")]),
    OpInfo("nn.normalize_moments", tf.nn.normalize_moments, _norm_ref, [
        Sample((np.array(4.0), rand(3), positive(3), rand(3)), wrt=[1, 2, 3], name="shift")]),
    OpInfo("nn.weighted_moments", tf.nn.weighted_moments, _weighted_ref, [
        Sample((rand(3, 4),), {"axes": [0], "frequency_weights": positive(3, 1)},
               name="row_weights"),
        Sample((rand(2, 3), [0, 1], positive(2, 3)), {"keepdims": True}, name="all")]),
    OpInfo("nn.batch_norm_with_global_normalization", _bn_global_fn, _bn_global_ref, [
        Sample((rand(2, 3), rand(3), positive(3), rand(3), rand(3), 0.01, True), name="scale"),
        Sample((rand(2, 3), rand(3), positive(3), rand(3), rand(3), 0.01, False),
               wrt=[0, 1, 2, 3], name="no_scale")]),
    OpInfo("nn.zero_fraction", tf.nn.zero_fraction, lambda v: np.mean(v == 0),
           [Sample((np.array([0.0, 1.5, 0.0, -2.0, 3.0]),), name="vector")], grad=False,
           float32=False),
    OpInfo("nn.approx_max_k", _approx_fn(tf.nn.approx_max_k), _approx_ref(True), [
        Sample((np.random.default_rng(5).permutation(12).reshape(3, 4) * 0.3, 2), name="last"),
        Sample((np.random.default_rng(6).permutation(12).reshape(4, 3) * 0.3, 2),
               {"reduction_dimension": 0}, name="dim0")]),
    OpInfo("nn.approx_min_k", _approx_fn(tf.nn.approx_min_k), _approx_ref(False), [
        Sample((np.random.default_rng(7).permutation(10).reshape(2, 5) * 0.3, 3), name="last")]),
    OpInfo("nn.isotonic_regression", _isotonic_fn, ref_isotonic, [
        Sample((np.array([[1.0, 3.0, 2.0, 4.0, 0.5], [5.0, 3.2, 3.9, 1.0, 1.5]]),),
               name="decreasing"),
        Sample((np.array([[2.0, 0.5, 1.5, 3.0], [1.0, 2.0, 0.2, 0.1]]),),
               {"decreasing": False}, name="increasing"),
        Sample((np.array([[5.0, 1.0], [2.0, 4.5], [1.2, 1.0]]),), {"axis": 0}, name="axis0"),
    ], notes="inputs away from ties between block means"),
]
