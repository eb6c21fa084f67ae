"""while_loop: eager, Session graph and traced function agree on values and gradients; gradients
and second derivatives against finite differences (float64); nesting with cond; errors."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads
from wengert.control_flow.cond import cond
from wengert.control_flow.while_loop import while_loop

from test_cond import three_ways

v1 = tf.compat.v1


def square_until_100(v):
    return while_loop(lambda v: v < 100, lambda v: v * v, [v])[0]


def power5(x):
    _, y = while_loop(lambda i, y: i < 5, lambda i, y: (i + 1, y * x),
                      [tf.constant(0), tf.ones_like(x)])
    return y


def test_documented_square_until_100():
    out, grads = three_ways(square_until_100, [np.float32(2.0)])
    assert out == 256.0 and grads[0] == 1024.0


def test_documented_power5_gradient():
    x = np.array([1.3, -0.7, 2.0])
    out, grads = three_ways(power5, [x])
    np.testing.assert_allclose(out, x ** 5)
    np.testing.assert_allclose(grads[0], 5 * x ** 4)


@pytest.mark.parametrize("f", [square_until_100, power5])
def test_gradients_match_finite_differences_to_second_order(f):
    x = np.array(1.7) if f is square_until_100 else np.array([1.3, 0.6])
    check_grads(f, [x], order=2)
    check_grads(tf.function(f), [x], order=2)


def test_second_derivative_in_session():
    graph = tf.Graph()
    with graph.as_default():
        v = v1.placeholder(tf.float64, [])
        y = square_until_100(v)
        dy = tf.gradients(y, v)[0]
        d2 = tf.gradients(dy, v)[0]
        with v1.Session() as sess:
            assert sess.run([y, dy, d2], {v: 2.0}) == [256.0, 1024.0, 8 * 7 * 2.0 ** 6]


def test_captured_tensors_get_summed_gradients():
    def f(x, w):  # y_{t+1} = tanh(w * y_t + x), 6 steps: w and x are loop invariants
        return while_loop(lambda i, y: i < 6, lambda i, y: (i + 1, tf.tanh(w * y + x)),
                          (0, x))[1]
    args = [np.array([0.3, -0.2]), np.array([0.9, 1.1])]
    three_ways(f, args, wrt=(0, 1))
    check_grads(f, args, order=2)
    check_grads(tf.function(f), args, order=2)


def test_nested_structures_and_maximum_iterations():
    def f(x):
        state = {"acc": x, "pair": (x * 0.5, tf.constant(1))}
        out = while_loop(lambda s: s["acc"] < 50.0,
                         lambda s: {"acc": s["acc"] * 1.5 + s["pair"][0],
                                    "pair": (s["pair"][0] * 1.1, s["pair"][1] + 1)},
                         [state], maximum_iterations=4)[0]
        return out["acc"] + tf.cast(out["pair"][1], x.dtype)
    out, _ = three_ways(f, [np.float64(1.0)])
    x = 1.0
    acc, half = x, x * 0.5
    for _ in range(4):
        acc, half = acc * 1.5 + half, half * 1.1
    assert out == pytest.approx(acc + 5)
    check_grads(f, [np.array(1.0)], order=2)


def test_integer_counter_gets_none():
    i0 = tf.constant(0)
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([i0, x])
        i, y = tf.function(lambda i, x: while_loop(lambda i, y: i < 3,
                                                   lambda i, y: (i + 1, y * 2.0), (i, x)))(i0, x)
    assert tape.gradient(y, i0) is None
    assert tape.gradient(y, x).numpy() == 8.0


def test_zero_iterations():
    out, grads = three_ways(lambda x: while_loop(lambda v: v < 0, lambda v: v * v, [x])[0],
                            [np.float64(3.0)])
    assert out == 3.0 and grads[0] == 1.0


def test_cond_inside_loop_and_loop_inside_cond():
    def f(x):
        def body(i, y):
            return i + 1, cond(y > 1.0, lambda: y * 0.5 + x, lambda: y * y + 1.0)
        _, y = while_loop(lambda i, y: i < 4, body, (0, x))
        return cond(x > 0, lambda: while_loop(lambda a: a < 10.0, lambda a: a * 1.7 + x, [y])[0],
                    lambda: y)
    for x in (0.8, -0.4):
        three_ways(f, [np.float64(x)])
        check_grads(tf.function(f), [np.array(x)], order=2)


def test_loop_inside_loop():
    def f(x):
        def outer(i, y):
            inner = while_loop(lambda j, z: j < i, lambda j, z: (j + 1, z * x), (0, y))[1]
            return i + 1, inner * 0.5
        return while_loop(lambda i, y: i < 3, outer, (1, x))[1]
    three_ways(f, [np.float64(1.2)])
    check_grads(tf.function(f), [np.array(1.2)], order=2)


def test_shape_change_without_invariant_raises():
    def grow(x):
        return while_loop(lambda v: tf.size(v) < 8, lambda v: tf.concat([v, v], 0), [x])[0]
    x = tf.constant([1.0])
    with pytest.raises(ValueError, match="shape_invariants"):
        grow(x)
    with pytest.raises(ValueError, match=r"enters the loop with shape \(1,\)"):
        tf.function(grow)(x)


def test_shape_invariant_allows_growth():
    def grow(x):
        return while_loop(lambda v: tf.size(v) < 8, lambda v: tf.concat([v, v], 0), [x],
                          shape_invariants=[tf.TensorShape([None])])[0]
    x = tf.constant([1.0, 2.0])
    assert grow(x).numpy().tolist() == [1.0, 2.0] * 4
    assert tf.function(grow)(x).numpy().tolist() == [1.0, 2.0] * 4


def test_bad_inputs():
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="dtype float32, but body returns dtype int32"):
        while_loop(lambda v: v < 3, lambda v: tf.constant(2), [x])
    with pytest.raises(ValueError, match="structure of loop_vars"):
        while_loop(lambda a, b: a < 3, lambda a, b: a + 1, [x, x])
    with pytest.raises(TypeError, match="callables"):
        while_loop(None, lambda v: v, [x])
    with pytest.raises(TypeError, match="bool scalar"):
        tf.function(lambda v: while_loop(lambda v: v, lambda v: v * 2.0, [v]))(x)
    with pytest.raises(ValueError, match="not compatible with its initial shape"):
        while_loop(lambda v: True, lambda v: v, [x], shape_invariants=[tf.TensorShape([2])])


def test_graph_loop_is_one_op():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [])
        square_until_100(x)
    assert [op.type for op in graph.get_operations()].count("While") == 1


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_forward_mode_through_while_loop(traced):
    """x^5 by a loop of five multiplications: the forward-mode derivative is 5 x^4."""
    def power5(x):
        _, y = tf.while_loop(lambda i, y: i < 5, lambda i, y: (i + 1, y * x),
                             [tf.constant(0), tf.ones_like(x)])
        return y
    f = tf.function(power5) if traced else power5
    x = tf.constant(1.3, tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0, tf.float64)) as acc:
        y = f(x)
    np.testing.assert_allclose(y.numpy(), 1.3 ** 5)
    np.testing.assert_allclose(acc.jvp(y).numpy(), 5 * 1.3 ** 4)
