"""Batch normalization: moments, batch_normalization, fused_batch_norm training vs inference."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads
from wengert.ops.nn import batch_norm as N

RNG = np.random.default_rng(0)


def _x(*shape, dtype=np.float32):
    return RNG.normal(size=shape).astype(dtype)


def test_training_normalizes_with_batch_statistics():
    x = _x(8, 4, 4, 3) * 3 + 2
    y, mean, var = N.fused_batch_norm(x, np.ones(3, np.float32), np.zeros(3, np.float32))
    assert y.dtype == tf.float32 and mean.shape == (3,) and var.shape == (3,)
    np.testing.assert_allclose(y.numpy().mean((0, 1, 2)), 0, atol=1e-5)
    np.testing.assert_allclose(y.numpy().var((0, 1, 2)), 1, atol=2e-3)  # eps = 0.001
    np.testing.assert_allclose(mean.numpy(), x.mean((0, 1, 2)), rtol=1e-5)
    # The returned variance has Bessel's correction (for running averages), as in TensorFlow.
    np.testing.assert_allclose(var.numpy(), x.var((0, 1, 2), ddof=1), rtol=1e-5)


def test_inference_uses_the_given_statistics():
    x = _x(2, 3, 3, 4)
    scale, offset = np.full(4, 2, np.float32), np.full(4, 0.5, np.float32)
    mean, var = np.full(4, 0.1, np.float32), np.full(4, 4.0, np.float32)
    y, m, v = N.fused_batch_norm(x, scale, offset, mean, var, epsilon=0.0, is_training=False)
    np.testing.assert_allclose(y.numpy(), (x - 0.1) / 2 * 2 + 0.5, rtol=1e-6)
    np.testing.assert_array_equal(m.numpy(), mean)
    np.testing.assert_array_equal(v.numpy(), var)
    # the same computation composed of ordinary ops
    composed = N.batch_normalization(x, mean, var, offset, scale, 0.0)
    np.testing.assert_allclose(y.numpy(), composed.numpy(), rtol=1e-6)


def test_training_matches_moments_plus_batch_normalization():
    x = _x(4, 5, 3)  # float32: TensorFlow's FusedBatchNormV3 refuses float64
    scale, offset = RNG.uniform(0.5, 2, 3).astype(np.float32), RNG.normal(size=3).astype(
        np.float32)
    mean, var = N.moments(tf.constant(x), [0, 1])
    composed = N.batch_normalization(x, mean, var, offset, scale, 1e-3)
    y = N.fused_batch_norm(x, scale, offset, data_format="NWC")[0]
    np.testing.assert_allclose(y.numpy(), composed.numpy(), rtol=1e-5, atol=1e-5)
    xt = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xt)
        a = tf.reduce_sum(N.fused_batch_norm(xt, scale, offset, data_format="NWC")[0] ** 3)
        m, v = N.moments(xt, [0, 1])
        b = tf.reduce_sum(N.batch_normalization(xt, m, v, offset, scale, 1e-3) ** 3)
    np.testing.assert_allclose(tape.gradient(a, xt).numpy(), tape.gradient(b, xt).numpy(),
                               rtol=1e-3, atol=1e-3)


def test_moments_keepdims_and_float16():
    x = _x(2, 3, 4)
    mean, var = N.moments(x, axes=[0, 2], keepdims=True)
    assert mean.shape == (1, 3, 1) and var.shape == (1, 3, 1)
    m16, v16 = N.moments(x.astype(np.float16), [0])
    assert m16.dtype == tf.float16 and v16.dtype == tf.float16
    np.testing.assert_allclose(m16.numpy(), x.mean(0), atol=2e-3)


def _in_float32(f):
    def run(*args):
        out = f(*[tf.cast(a, tf.float32) for a in args])
        return tf.nest.map_structure(lambda t: tf.cast(t, tf.float64), out)
    return run


def test_second_order_in_training():
    x, s, o = _x(3, 2, 2, dtype=np.float64), RNG.uniform(0.5, 2, 2), RNG.normal(size=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="FusedBatchNormV3.*float64"):
        N.fused_batch_norm(x, s, o)  # as TensorFlow's: half, bfloat16 and float32 only
    check_grads(_in_float32(lambda x, s, o: N.fused_batch_norm(x, s, o)[0]), [x, s, o],
                order=2, eps=1e-3, rtol=3e-2, atol=3e-3)
    check_grads(_in_float32(lambda x, s, o: N.fused_batch_norm(x, s, o)), [x, s, o], order=1,
                modes=("fwd", "rev"), eps=1e-3, rtol=3e-2, atol=3e-3)


def test_half_precision_input_with_float32_parameters():
    x = _x(4, 2, 2, 3).astype(np.float16)
    y, mean, var = N.fused_batch_norm(x, np.ones(3, np.float32), np.zeros(3, np.float32))
    assert y.dtype == tf.float16 and mean.dtype == tf.float32


def test_graph_mode_with_unknown_batch():
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(tf.float32, [None, 3])
        y, mean, var = N.fused_batch_norm(p, tf.ones([3]), tf.zeros([3]))
        loss = tf.reduce_sum(y * y * y) + tf.reduce_sum(mean * var)
        grad = tf.gradients(loss, [p])[0]
    assert y.shape.as_list() == [None, 3] and mean.shape.as_list() == [3]
    x = RNG.normal(size=(5, 3)).astype(np.float32)
    with tf.compat.v1.Session(graph=g) as sess:
        got = sess.run(grad, {p: x})
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y, mean, var = N.fused_batch_norm(xt, tf.ones([3]), tf.zeros([3]))
        loss = tf.reduce_sum(y * y * y) + tf.reduce_sum(mean * var)
    np.testing.assert_allclose(got, tape.gradient(loss, xt).numpy(), rtol=1e-4, atol=1e-4)


def test_errors_name_the_problem():
    x = _x(2, 2, 2, 3)
    with pytest.raises(tf.InvalidArgumentError, match="channels"):
        N.fused_batch_norm(x, np.ones(4, np.float32), np.zeros(4, np.float32))
    with pytest.raises(tf.InvalidArgumentError, match="dtype"):
        N.fused_batch_norm(x, np.ones(3), np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="mean"):
        N.fused_batch_norm(x, np.ones(3, np.float32), np.zeros(3, np.float32),
                           is_training=False)
    with pytest.raises(tf.InvalidArgumentError, match="data_format"):
        N.fused_batch_norm(x, np.ones(3, np.float32), np.zeros(3, np.float32),
                           data_format="HWNC")
