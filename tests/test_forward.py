"""ForwardAccumulator: TensorFlow's documented behaviour, nesting with tapes, tf.function."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.forward import ForwardAccumulator, linear
from wengert.framework.context import state
from wengert.framework.execute import execute
from wengert.framework.registry import defop


def test_documented_example_forward_over_backward():
    v = tf.Variable([1., 2.])
    with ForwardAccumulator(v, tf.constant([1., 0.])) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v ** 3.)
        backward = tape.gradient(y, v)
    np.testing.assert_allclose(backward.numpy(), [3., 12.])
    np.testing.assert_allclose(acc.jvp(backward).numpy(), [6., 0.])
    np.testing.assert_allclose(acc.jvp(y).numpy(), 3.)


def test_jvp_of_simple_function_and_of_primal():
    x = tf.constant([0.5, -1.0], dtype=tf.float64)
    u = tf.constant([1.0, 2.0], dtype=tf.float64)
    with ForwardAccumulator(x, u) as acc:
        y = tf.sin(x) * x
    want = (np.cos([0.5, -1.0]) * [0.5, -1.0] + np.sin([0.5, -1.0])) * [1.0, 2.0]
    np.testing.assert_allclose(acc.jvp(y).numpy(), want)
    assert acc.jvp(x) is u
    assert acc.jvp([y, x])[1] is u


def test_primal_given_twice_raises():
    x = tf.constant(1.0)
    with pytest.raises(ValueError, match="more than once"):
        ForwardAccumulator([x, x], [tf.constant(1.0), tf.constant(2.0)])


def test_tangent_shape_and_count_mismatch_raise():
    with pytest.raises(ValueError, match="shape"):
        ForwardAccumulator(tf.constant([1.0, 2.0]), tf.constant([1.0]))
    with pytest.raises(ValueError, match="tangents"):
        ForwardAccumulator([tf.constant(1.0)], [])


def test_unconnected_none_or_zero():
    x, z = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    with ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = z * 2.0
    assert acc.jvp(y) is None
    np.testing.assert_array_equal(
        acc.jvp(y, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy(), [0.0, 0.0])


def test_inactive_outside_the_block_and_observer_removed():
    x = tf.constant(2.0)
    with ForwardAccumulator(x, tf.constant(1.0)) as acc:
        assert state.observers
    assert state.observers == ()
    y = x * x
    assert acc.jvp(y) is None


def test_stop_gradient_and_integer_outputs_have_no_tangent():
    v = tf.Variable([1.0, 2.0])
    with ForwardAccumulator(v, tf.constant([1.0, 1.0])) as acc:
        s = tf.stop_gradient(v)
        k = tf.cast(v, tf.int32)
        y = v * 3.0
    assert acc.jvp(s) is None and acc.jvp(k) is None
    np.testing.assert_allclose(acc.jvp(y).numpy(), [3.0, 3.0])


def _mlp_loss(w, x):
    h = tf.tanh(tf.matmul(x, w))
    return tf.reduce_sum(tf.nn.softplus(h) * h)


def test_forward_over_reverse_hvp_equals_reverse_over_reverse():
    rng = np.random.default_rng(0)
    w = tf.constant(rng.standard_normal((3, 2)))
    x = tf.constant(rng.standard_normal((4, 3)))
    u = tf.constant(rng.standard_normal((3, 2)))
    with ForwardAccumulator(w, u) as acc:
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = _mlp_loss(w, x)
        g = tape.gradient(loss, w)
    hvp_fwd = acc.jvp(g).numpy()
    with tf.GradientTape() as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            loss = _mlp_loss(w, x)
        g = inner.gradient(loss, w)
    hessian = outer.jacobian(g, w).numpy().reshape(6, 6)
    np.testing.assert_allclose(hvp_fwd.reshape(-1), hessian @ u.numpy().reshape(-1), rtol=1e-10)
    # reverse over forward gives the same product
    with tf.GradientTape() as tape:
        tape.watch(w)
        with ForwardAccumulator(w, u) as acc:
            loss = _mlp_loss(w, x)
        directional = acc.jvp(loss)
    np.testing.assert_allclose(tape.gradient(directional, w).numpy(), hvp_fwd, rtol=1e-10)


def test_nested_accumulators_give_second_directional_derivative():
    x = tf.constant(0.7, dtype=tf.float64)
    with ForwardAccumulator(x, tf.constant(1.0, dtype=tf.float64)) as outer:
        with ForwardAccumulator(x, tf.constant(1.0, dtype=tf.float64)) as inner:
            y = tf.sin(x) * x
        first = inner.jvp(y)
    second = outer.jvp(first)
    np.testing.assert_allclose(first.numpy(), np.cos(0.7) * 0.7 + np.sin(0.7))
    np.testing.assert_allclose(second.numpy(), 2 * np.cos(0.7) - 0.7 * np.sin(0.7))


def test_through_tf_function_matches_eager():
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.exp(x) * x[::-1])

    x = tf.constant([0.1, 0.2, 0.3], dtype=tf.float64)
    u = tf.constant([1.0, -1.0, 2.0], dtype=tf.float64)
    f(x)  # traced once outside
    with ForwardAccumulator(x, u) as acc:
        y_traced = f(x)
    with ForwardAccumulator(x, u) as acc2:
        y_eager = f.python_function(x)
    np.testing.assert_allclose(acc.jvp(y_traced).numpy(), acc2.jvp(y_eager).numpy())


def test_transposed_vjp_fallback_for_an_op_with_only_a_gradient():
    cube = defop("TestForwardCube", lambda x: x ** 3,
                 grad=lambda op, g: g * 3.0 * op.inputs[0] * op.inputs[0])
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with ForwardAccumulator(x, tf.constant([1.0, 0.5], dtype=tf.float64)) as acc:
        y = execute(cube, (x,))
    np.testing.assert_allclose(acc.jvp(y).numpy(), [3.0, 6.0])


def test_linear_marker_applies_the_op_to_tangents():
    double = defop("TestForwardDouble", lambda x: x * 2, grad=lambda op, g: g * 2.0, jvp=linear)
    x = tf.constant([1.0, 2.0])
    with ForwardAccumulator(x, tf.constant([3.0, 4.0])) as acc:
        y = execute(double, (x,))
    np.testing.assert_allclose(acc.jvp(y).numpy(), [6.0, 8.0])
    with pytest.raises(TypeError, match="marker"):
        linear((), (), ())
