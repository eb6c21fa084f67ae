"""ForwardAccumulator: TensorFlow's documented behaviour, nesting with tapes, tf.function."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.forward import ForwardAccumulator, linear, linear_in, op_tangents
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


def test_linear_in_gives_no_tangent_when_only_a_reference_input_has_one():
    """ReduceBroadcast(g, like) reads `like` for its shape only: a tangent on `like` alone gives
    the output no tangent (no zeros computed and carried on)."""
    from wengert.ops.reduce_ops import REDUCE_BROADCAST
    assert type(REDUCE_BROADCAST.jvp) is linear_in and REDUCE_BROADCAST.jvp.indices == (0,)
    g, like = tf.constant(2.0), tf.constant([1.0, 2.0, 3.0])
    attrs = {"axis": None}
    out = execute(REDUCE_BROADCAST, (g, like), attrs)
    assert op_tangents(REDUCE_BROADCAST, [g, like], [None, tf.ones_like(like)], [out],
                       attrs) == [None]
    (tangent,) = op_tangents(REDUCE_BROADCAST, [g, like], [tf.constant(5.0), None], [out], attrs)
    np.testing.assert_allclose(tangent.numpy(), [5.0, 5.0, 5.0])


def test_seed_of_a_reverse_pass_carries_no_tangent():
    """Forward over reverse: the gradient of sum(x * c) is c broadcast, which does not depend
    on x, so it has no tangent at all (not a tangent of zeros)."""
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with ForwardAccumulator(x, tf.constant([1.0, 1.0], dtype=tf.float64)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x * 3.0)
        g = tape.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), [3.0, 3.0])
    assert acc.jvp(g) is None


def _rosenbrock(x):
    head, tail = x[:-1], x[1:]
    return tf.reduce_sum(100.0 * tf.square(tail - tf.square(head)) + tf.square(1.0 - head))


def _hvp(x, v):
    with ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _rosenbrock(x)
        g = tape.gradient(y, x)
    return acc.jvp(g)


def test_accumulator_inside_tf_function_matches_eager_hvp():
    """An accumulator opened while tracing adds the tangent ops to the function's graph."""
    rng = np.random.default_rng(3)
    x, v = tf.constant(rng.uniform(-2, 2, 7)), tf.constant(rng.standard_normal(7))
    traced = tf.function(_hvp)
    want = _hvp(x, v).numpy()
    np.testing.assert_allclose(traced(x, v).numpy(), want, rtol=1e-12)
    xs, vs = x.numpy(), v.numpy()  # the tridiagonal Hessian, by hand
    diag = np.zeros(7)
    diag[:-1] = 1200 * xs[:-1] ** 2 - 400 * xs[1:] + 2
    diag[1:] += 200
    off = -400 * xs[:-1]
    by_hand = diag * vs
    by_hand[:-1] += off * vs[1:]
    by_hand[1:] += off * vs[:-1]
    np.testing.assert_allclose(want, by_hand, rtol=1e-10)


def test_accumulator_in_a_tf1_graph_documented_example():
    with tf.Graph().as_default():
        v = tf.compat.v1.placeholder(tf.float64, [2])
        with ForwardAccumulator(v, tf.constant([1.0, 0.0], dtype=tf.float64)) as acc:
            with tf.GradientTape() as tape:
                tape.watch(v)
                y = tf.reduce_sum(v ** 3.0)
            backward = tape.gradient(y, v)
        jvp = acc.jvp(backward)
        with tf.compat.v1.Session() as sess:
            got_backward, got_jvp = sess.run([backward, jvp], {v: [1.0, 2.0]})
    np.testing.assert_allclose(got_backward, [3.0, 12.0])
    np.testing.assert_allclose(got_jvp, [6.0, 0.0])
