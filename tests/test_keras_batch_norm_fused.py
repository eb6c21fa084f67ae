"""Keras's BatchNormalization in training on float32 inputs, computed by one FusedBatchNormV3
op (keras/layers/normalization.py): outputs and gradients against TensorFlow 2.21's Keras
(tests/tf_reference.py), the moving statistics against NumPy, second derivatives against the
composed float64 form, and the op the training step runs."""
import numpy as np
import pytest

import wengert as tf
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(33)


def _x(*shape):
    return (RNG.normal(size=shape) * 2.0 + 0.5).astype(np.float32)


def _cases():
    return [
        Case("nhwc", L.BatchNormalization(), [_x(4, 5, 5, 3)], training=True),
        Case("nchw", L.BatchNormalization(axis=1, momentum=0.9), [_x(3, 4, 2, 5)],
             training=True),
        Case("nc", L.BatchNormalization(epsilon=1e-5), [_x(6, 4)], training=True),
        Case("nwc", L.BatchNormalization(center=False), [_x(3, 7, 2)], training=True),
        Case("ncw-no-scale", L.BatchNormalization(axis=1, scale=False), [_x(3, 2, 7)],
             training=True),
        Case("ndhwc", L.BatchNormalization(), [_x(2, 3, 2, 3, 4)], training=True),
        Case("wide-channels", L.BatchNormalization(), [_x(2, 6, 6, 40)], training=True),
    ]


def test_matches_tensorflow_keras_in_training():
    cases = _cases()
    results = run_tf(cases, tf_python())
    for case in cases:
        assert_matches(case, results[case.name], rtol=2e-4, atol=2e-5)


def _numpy_batch_norm(x, axis, eps=1e-3):
    axes = tuple(a for a in range(x.ndim) if a != axis % x.ndim)
    mean, var = x.mean(axes, dtype=np.float64), x.var(axes, dtype=np.float64)
    return mean, var, axes


@pytest.mark.parametrize("shape, axis", [((8, 4, 4, 3), -1), ((5, 3, 4, 4), 1), ((9, 2), -1)])
def test_moving_statistics_take_a_step_towards_the_biased_batch_statistics(shape, axis):
    x = _x(*shape)
    layer = L.BatchNormalization(axis=axis, momentum=0.8)
    y = layer(x, training=True)
    mean, var, axes = _numpy_batch_norm(x, axis)
    keep = [1 if a in axes else -1 for a in range(x.ndim)]
    want = (x - mean.reshape(keep)) / np.sqrt(var.reshape(keep) + 1e-3)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(layer.moving_mean.numpy(), 0.2 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer.moving_variance.numpy(), 0.8 + 0.2 * var, rtol=1e-5)


def test_the_traced_training_call_is_one_fused_op():
    layer = L.BatchNormalization()
    x = tf.constant(_x(4, 3, 3, 2))
    step = tf.function(lambda x: layer(x, training=True))
    types = [op.type for op in step.get_concrete_function(x).graph.get_operations()]
    assert types.count("FusedBatchNormV3") == 1
    assert "Mean" not in types and "SquaredDifference" not in types


def _second_order(x, dtype):
    """d/dx of sum((d sum(y^3) / dx) * w) for a fresh layer (gamma, beta drawn fixed)."""
    layer = L.BatchNormalization(dtype=dtype)
    xt = tf.constant(x.astype(dtype))
    layer(xt, training=True)
    layer.set_weights([np.array([1.5, -0.7], dtype), np.array([0.2, 0.3], dtype),
                       np.zeros(2, dtype), np.ones(2, dtype)])
    w = tf.constant(np.linspace(-1, 1, x.size).reshape(x.shape).astype(dtype))
    with tf.GradientTape() as outer:
        outer.watch(xt)
        with tf.GradientTape() as inner:
            inner.watch(xt)
            y = layer(xt, training=True)
            loss = tf.reduce_sum(y * y * y)
        g = inner.gradient(loss, xt)
        total = tf.reduce_sum(g * w)
    return outer.gradient(total, [xt, layer.gamma])


def test_second_derivatives_match_the_composed_float64_form():
    x = _x(3, 2, 2, 2)
    fused = _second_order(x, "float32")  # FusedBatchNormV3 and its gradient's gradient
    composed = _second_order(x, "float64")  # moments and batch_normalization
    for mine, want in zip(fused, composed):
        np.testing.assert_allclose(mine.numpy(), want.numpy(), rtol=2e-3, atol=2e-4)


def test_the_gradient_kernel_takes_a_strided_gradient_as_its_contiguous_copy():
    """A convolution's gradient arrives sliced out of its padded result (strided)."""
    from wengert.ops.nn import batch_norm_kernels
    x, padded = _x(4, 6, 6, 8), _x(4, 8, 8, 8)
    g = padded[:, 1:-1, 1:-1, :]
    scale, mean, var = _x(8), x.mean((0, 1, 2)), x.var((0, 1, 2))
    strided = batch_norm_kernels.backward(g, x, scale, mean, var, 1e-3, 3)
    copied = batch_norm_kernels.backward(np.ascontiguousarray(g), x, scale, mean, var, 1e-3, 3)
    inv = 1 / np.sqrt(var.astype(np.float64) + 1e-3)
    xhat = (x - mean) * inv
    n = x.size // 8
    d_offset, d_scale = g.sum((0, 1, 2), dtype=np.float64), (g * xhat).sum((0, 1, 2))
    dx = (n * g - d_offset - xhat * d_scale) * (scale * inv / n)
    for a, b, want in zip(strided, copied, (dx, d_scale, d_offset)):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(a, want, rtol=1e-4, atol=1e-5)
