"""Ops whose results hold inf or nan are silent, as TensorFlow's are: no NumPy RuntimeWarning
reaches the user from a kernel (eagerly, in a Session, in a tf.function, in a gradient, in
constant folding), and the user's own NumPy error settings are the same before and after."""
import warnings

import numpy as np
import pytest

import wengert as tf

v1 = tf.compat.v1


@pytest.fixture(autouse=True)
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


def test_eager_ops_are_silent():
    zero = tf.constant([0.0, 1.0])
    assert np.isneginf(tf.math.log(zero).numpy()[0])
    assert np.isinf((tf.constant(1.0) / tf.constant(0.0)).numpy())
    assert np.isnan((tf.constant(0.0) / tf.constant(0.0)).numpy())
    assert np.isinf(tf.exp(tf.constant(1000.0)).numpy())
    assert np.isnan(tf.sqrt(tf.constant(-1.0)).numpy())


def test_gradients_are_silent():
    x = tf.constant([0.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.log(x) + tf.sqrt(x))
    grad = tape.gradient(y, x).numpy()
    assert np.isinf(grad[0]) and grad[1] == pytest.approx(0.5)


def test_traced_functions_are_silent():
    @tf.function
    def f(x):
        return tf.math.log(x) + tf.exp(x * 1000.0)

    out = f(tf.constant([0.0, 1.0])).numpy()
    assert np.isneginf(out[0]) and np.isposinf(out[1])


def test_sessions_and_constant_folding_are_silent():
    with tf.Graph().as_default():
        p = v1.placeholder(tf.float32, [None])
        folded = tf.math.log(tf.constant(0.0))  # a constant: computed while the graph is built
        z = tf.math.log(p) / p + folded
        with v1.Session() as sess:
            assert np.all(np.isneginf(sess.run(z, {p: np.zeros(2, np.float32)})))


def test_the_users_numpy_settings_are_kept():
    before = np.geterr()
    with np.errstate(divide="raise"):
        assert np.isneginf(tf.math.log(tf.constant(0.0)).numpy())
        with pytest.raises(FloatingPointError):
            np.log(np.array(0.0))
    assert np.geterr() == before
    with pytest.raises(RuntimeWarning):
        np.log(np.array(0.0))  # outside wengert's kernels NumPy warns as the user set it


def test_the_errstate_stand_in_restores_what_it_replaced():
    from wengert.framework.float_errors import _ErrstateStandIn
    state, before = _ErrstateStandIn(), np.geterr()
    token = state.set({"all": "ignore"})
    assert set(np.geterr().values()) == {"ignore"}
    np.log(np.array(0.0))
    state.reset(token)
    assert np.geterr() == before
