"""Graph-mode `gradients()` and `hessians()`: nodes under the "gradients" scope, stop_gradients,
grad_ys, unconnected gradients, higher orders against closed forms, Hessians against finite
differences, missing gradients, eager mode."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.execute import execute
from wengert.framework.registry import _GRADIENTS, _OP_DEFS, defop
from wengert.ops import shape_rules

v1 = tf.compat.v1


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


def _run(graph, fetches, feed=None):
    with v1.Session(graph=graph) as sess:
        sess.run(v1.variables_initializer(graph.get_collection("variables")))
        return sess.run(fetches, feed)


def test_gradient_nodes_go_under_the_gradients_scope():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.ones((3, 2), np.float32), name="w")
        loss = tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) ** 2)
        before = len(g.get_operations())
        gw, = tf.gradients(loss, [w])
        mid = len(g.get_operations())
        gx, = tf.gradients(loss, x, name="my_grads")
    new = g.get_operations()[before:mid]
    assert new and all(op.name.startswith("gradients/") for op in new)
    assert all(op.name.startswith("my_grads/") for op in g.get_operations()[mid:])
    assert gw.shape == (3, 2) and gx.shape.as_list() == [None, 3]
    xs = np.array([[1.0, -2.0, 3.0], [0.5, 0.5, 0.5]], np.float32)
    got_w, got_x = _run(g, [gw, gx], {x: xs})
    h = np.maximum(xs @ np.ones((3, 2)), 0)
    np.testing.assert_allclose(got_w, xs.T @ (h / 2), rtol=1e-6)
    np.testing.assert_allclose(got_x, (h / 2) @ np.ones((2, 3)), rtol=1e-6)


def test_a_second_gradients_call_gets_a_new_scope():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(2.0)
        a, = tf.gradients(x * x, [x])
        b, = tf.gradients(x * x, [x])
    assert a.name.startswith("gradients/") and b.name.startswith("gradients_1/")


def test_stop_gradients_documented_example():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(0.0)
        b = 2 * a
        stopped = tf.gradients(a + b, [a, b], stop_gradients=[a, b])
        plain = tf.gradients(a + b, [a, b])
    assert _run(g, stopped) == [1.0, 1.0]
    assert _run(g, plain) == [3.0, 1.0]


def test_stop_gradients_on_an_intermediate():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [], name="x")
        h = x * x
        y = h * x  # x**3, with h held constant: dy/dx = h = x**2
        held, = tf.gradients(y, [x], stop_gradients=[h])
        full, = tf.gradients(y, [x])
    assert _run(g, [held, full], {x: 3.0}) == [9.0, 27.0]


def test_grad_ys_weights_the_targets():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [3], name="x")
        y1 = x * x
        y2 = tf.reduce_sum(x)
        gy = v1.placeholder(tf.float64, [3], name="gy")
        out, = tf.gradients([y1, y2], [x], grad_ys=[gy, None])
        half, = tf.gradients(y1, x, grad_ys=np.full(3, 0.5))
        with pytest.raises(ValueError, match="grad_ys"):
            tf.gradients([y1, y2], [x], grad_ys=[gy])
        with pytest.raises(ValueError, match="shape"):
            tf.gradients(y1, [x], grad_ys=[np.ones(4)])
    xs = np.array([1.0, 2.0, 3.0])
    w = np.array([1.0, -1.0, 2.0])
    got, got_half = _run(g, [out, half], {x: xs, gy: w})
    np.testing.assert_allclose(got, 2 * xs * w + 1.0)
    np.testing.assert_allclose(got_half, xs)


def test_unconnected_gradients_and_integer_sources():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        u = v1.placeholder(tf.float32, [2], name="u")
        i = v1.placeholder(tf.int32, [2], name="i")
        y = tf.reduce_sum(x * tf.cast(i, tf.float32))
        assert tf.gradients(y, [u, i]) == [None, None]
        zu, = tf.gradients(y, [u], unconnected_gradients=tf.UnconnectedGradients.ZERO)
        with pytest.raises(ValueError, match="unconnected"):
            tf.gradients(y, [u], unconnected_gradients="bogus")
    np.testing.assert_array_equal(_run(g, zu, {u: [1.0, 2.0]}), [0.0, 0.0])


def test_variables_used_twice_sum_their_gradients():
    g = tf.Graph()
    with g.as_default():
        w = tf.Variable(3.0, name="w")
        with tf.name_scope("again"):
            y = w * w + tf.sin(w)
        gw, = tf.gradients(y, [w])
    assert _run(g, gw) == pytest.approx(6.0 + np.cos(3.0))


def test_third_order_matches_closed_form():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [4], name="x")
        y = tf.reduce_sum(x * tf.sin(x))   # y' = sin + x cos, y'' = 2cos - x sin,
        d1, = tf.gradients(y, x)           # y''' = -3 sin - x cos
        d2, = tf.gradients(d1, x)
        d3, = tf.gradients(d2, x)
        e = tf.reduce_sum(tf.exp(2.0 * x) * tf.tanh(x))
        e1, = tf.gradients(e, x)
        e2, = tf.gradients(e1, x)
        e3, = tf.gradients(e2, x)
    xs = np.array([-1.3, 0.2, 0.7, 2.0])
    got = _run(g, [d1, d2, d3, e3], {x: xs})
    s, c = np.sin(xs), np.cos(xs)
    np.testing.assert_allclose(got[0], s + xs * c, rtol=1e-12)
    np.testing.assert_allclose(got[1], 2 * c - xs * s, rtol=1e-12)
    np.testing.assert_allclose(got[2], -3 * s - xs * c, rtol=1e-12)
    # e''' by finite differences of the analytic e''
    t = np.tanh

    def e2_exact(v):
        sech2 = 1 - t(v) ** 2
        return np.exp(2 * v) * (4 * t(v) + 4 * sech2 - 2 * t(v) * sech2)
    h = 1e-5
    np.testing.assert_allclose(got[3], (e2_exact(xs + h) - e2_exact(xs - h)) / (2 * h),
                               rtol=1e-6)


def test_higher_order_through_a_matmul_model():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [None, 2], name="x")
        w = tf.Variable(np.array([[0.5], [-1.0]]), name="w")
        y = tf.reduce_sum(tf.matmul(x, w) ** 3)
        gw, = tf.gradients(y, [w])
        ggw, = tf.gradients(tf.reduce_sum(gw), [w])
    xs = np.array([[1.0, 2.0], [3.0, -1.0]])
    z = xs @ np.array([[0.5], [-1.0]])
    got_g, got_gg = _run(g, [gw, ggw], {x: xs})
    np.testing.assert_allclose(got_g, xs.T @ (3 * z ** 2), rtol=1e-12)
    # d/dw sum_j sum_n x_nj 3 z_n^2 = sum_n 6 z_n x_n (sum_j x_nj)
    np.testing.assert_allclose(got_gg, xs.T @ (6 * z * xs.sum(1, keepdims=True)), rtol=1e-12)


def test_hessians_closed_form_and_finite_differences():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [3], name="x")
        m = v1.placeholder(tf.float64, [2, 2], name="m")
        f = tf.reduce_sum(x ** 3) + x[0] * x[1] + tf.reduce_sum(tf.exp(m) * m[0, 1])
        hx, hm = tf.hessians(f, [x, m])
        assert hx.name.startswith("hessians/")
        assert hx.shape == (3, 3) and hm.shape == (2, 2, 2, 2)
        gm, = tf.gradients(f, [m])
    xs = np.array([1.0, 2.0, -3.0])
    ms = np.array([[0.1, 0.2], [-0.3, 0.4]])
    got_x, got_m = _run(g, [hx, hm], {x: xs, m: ms})
    np.testing.assert_allclose(got_x, np.diag(6 * xs) + np.array([[0, 1, 0], [1, 0, 0],
                                                                   [0, 0, 0]]), rtol=1e-12)
    assert got_m.shape == (2, 2, 2, 2)
    h = 1e-6
    fd = np.zeros((2, 2, 2, 2))
    with v1.Session(graph=g) as sess:
        for idx in np.ndindex(2, 2):
            e = np.zeros((2, 2))
            e[idx] = h
            plus = sess.run(gm, {x: xs, m: ms + e})
            minus = sess.run(gm, {x: xs, m: ms - e})
            fd[(...,) + idx] = (plus - minus) / (2 * h)
    np.testing.assert_allclose(got_m, fd, rtol=1e-6, atol=1e-8)


def test_hessians_need_a_known_shape():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float64, [None], name="x")
        with pytest.raises(ValueError, match="statically known shape"):
            tf.hessians(tf.reduce_sum(x * x), x)


@pytest.fixture
def no_grad_op():
    op_def = defop("TestGraphNoGradient", lambda x: x * 1.0, shape=shape_rules.same)
    yield lambda x, name=None: execute(op_def, (x,), name=name)
    _OP_DEFS.pop("TestGraphNoGradient")
    _GRADIENTS.pop("TestGraphNoGradient", None)


def test_missing_gradient_raises_lookup_error_naming_op_and_type(no_grad_op):
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        y = no_grad_op(x, name="mystery")
        z = tf.reduce_sum(y * 2.0)
        with pytest.raises(LookupError, match=r"'mystery'.*TestGraphNoGradient"):
            tf.gradients(z, [x])
        # not on the path: no error
        w = v1.placeholder(tf.float32, [2], name="w")
        assert tf.gradients(tf.reduce_sum(w * 2.0) + 0 * z, [w])[0] is not None


def test_not_differentiable_ops_give_none():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [3], name="x")
        y = tf.reduce_sum(tf.cast(tf.argmax(x), tf.float32))
        assert tf.gradients(y, [x]) == [None]


def test_gradients_in_eager_mode_point_to_gradient_tape():
    with pytest.raises(RuntimeError, match="GradientTape"):
        tf.gradients(tf.constant(1.0), [tf.constant(1.0)])
    with pytest.raises(RuntimeError, match="GradientTape"):
        tf.hessians(tf.constant(1.0), [tf.constant(1.0)])


def test_gradients_of_tensors_from_another_graph_raise():
    g1 = tf.Graph()
    with g1.as_default():
        a = tf.constant(1.0)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="another graph"):
            tf.gradients(tf.constant(1.0), [a])


def test_graph_gradients_equal_tape_gradients():
    rng = np.random.default_rng(3)
    xs, ws = rng.normal(size=(5, 4)), rng.normal(size=(4, 3))

    def model(x, w):
        return tf.reduce_sum(tf.nn.softmax(tf.tanh(tf.matmul(x, w))) * tf.exp(x[:, :3]))

    xe, we = tf.constant(xs), tf.constant(ws)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([xe, we])
        out = model(xe, we)
    want = [t.numpy() for t in tape.gradient(out, [xe, we])]
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [5, 4])
        w = v1.placeholder(tf.float64, [4, 3])
        grads = tf.gradients(model(x, w), [x, w])
    got = _run(g, grads, {x: xs, w: ws})
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12)
