"""map_fn, scan, foldl, foldr and vectorized_map (issue 16 item 5): values against a Python
loop, eagerly and in graphs (leading dimension known or not), and derivatives to second order."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads
from wengert.control_flow import vectorize

v1 = tf.compat.v1
X = np.arange(1.0, 7.0).reshape(3, 2) / 3.0


def _row_fn(r):
    return tf.tanh(r) * tf.reduce_sum(r * r)


def test_map_fn_matches_a_loop_and_keeps_structures():
    out = tf.map_fn(lambda p: (p[0] + p[1], p[0] * 2), (tf.constant([1, 2]), tf.constant([10, 20])))
    assert [o.numpy().tolist() for o in out] == [[11, 22], [2, 4]]
    got = tf.map_fn(lambda d: {"s": tf.reduce_sum(d["a"])}, {"a": tf.constant(X)})
    np.testing.assert_allclose(got["s"].numpy(), X.sum(1))


def test_map_fn_output_signature():
    out = tf.map_fn(lambda r: tf.cast(tf.reduce_sum(r), tf.int32), tf.constant(X),
                    fn_output_signature=tf.int32)
    assert out.dtype == tf.int32
    with pytest.raises(TypeError, match="output signature"):
        tf.map_fn(lambda r: r, tf.constant(X), fn_output_signature=tf.int32)
    empty = tf.map_fn(lambda r: r, tf.zeros([0, 2]), fn_output_signature=tf.TensorSpec([2]))
    assert empty.shape == (0, 2)


@pytest.mark.parametrize("fn,want", [
    (lambda: tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3])), [1, 3, 6]),
    (lambda: tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3]), reverse=True), [6, 5, 3]),
    (lambda: tf.scan(lambda a, x: a * x, tf.constant([1, 2, 3]), initializer=tf.constant(2)),
     [2, 4, 12]),
    (lambda: tf.foldl(lambda a, x: a - x, tf.constant([1, 2, 3])), -4),
    (lambda: tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3])), 0),
    (lambda: tf.foldl(lambda a, x: a - x, tf.constant([1, 2, 3]), initializer=10), 4)])
def test_scans_and_folds_as_tensorflow(fn, want):
    assert fn().numpy().tolist() == want


def test_scan_with_structured_state():
    out = tf.scan(lambda a, x: (a[0] + x, a[1] * x), tf.constant([1.0, 2.0, 3.0]),
                  initializer=(tf.constant(0.0), tf.constant(1.0)))
    assert out[0].numpy().tolist() == [1.0, 3.0, 6.0] and out[1].numpy().tolist() == [1, 2, 6]


@pytest.mark.parametrize("make", [
    lambda x: tf.map_fn(_row_fn, x),
    lambda x: tf.scan(lambda a, r: a * tf.sin(r) + r, x),
    lambda x: tf.foldr(lambda a, r: a * r + tf.exp(r), x, initializer=tf.ones([2], tf.float64)),
    lambda x: tf.vectorized_map(_row_fn, x)])
def test_second_order_derivatives(make):
    check_grads(make, [X], order=2, modes=("rev", "fwd"))


@pytest.mark.parametrize("dims", [[3, 2], [None, 2]])
def test_graph_mode_with_known_and_unknown_lengths(dims):
    eager = [tf.map_fn(_row_fn, tf.constant(X)), tf.scan(lambda a, r: a + r, tf.constant(X)),
             tf.foldl(lambda a, r: a * r, tf.constant(X)),
             tf.vectorized_map(_row_fn, tf.constant(X))]
    eager_grad = None
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float64, dims)
        outs = [tf.map_fn(_row_fn, x), tf.scan(lambda a, r: a + r, x),
                tf.foldl(lambda a, r: a * r, x), tf.vectorized_map(_row_fn, x)]
        (g,) = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), [x])
        with v1.Session() as sess:
            got = sess.run(outs + [g], {x: X})
    for a, b in zip(got, eager):
        np.testing.assert_allclose(a, b.numpy())
    xe = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(xe)
        total = tf.add_n([tf.reduce_sum(o) for o in (
            tf.map_fn(_row_fn, xe), tf.scan(lambda a, r: a + r, xe),
            tf.foldl(lambda a, r: a * r, xe), tf.vectorized_map(_row_fn, xe))])
    eager_grad = tape.gradient(total, xe).numpy()
    np.testing.assert_allclose(got[-1], eager_grad)


def test_traced_function_with_an_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float64)])
    def f(x):
        return tf.map_fn(lambda r: tf.reduce_sum(r), x) + tf.scan(lambda a, r: a + r[0], x,
                                                                 initializer=tf.constant(
                                                                     0.0, tf.float64))
    np.testing.assert_allclose(f(tf.constant(X)).numpy(), X.sum(1) + np.cumsum(X[:, 0]))


def test_vectorized_map_runs_elementwise_ops_once_for_the_batch(monkeypatch):
    def no_loops(*args, **kwargs):
        raise AssertionError("an elementwise op fell back to a loop")
    monkeypatch.setattr(vectorize, "map_fn", no_loops)
    b = tf.constant([0.5, -1.0], tf.float64)
    out = tf.vectorized_map(lambda r: tf.nn.softmax(tf.tanh(r * b) + 1.0), tf.constant(X))
    want = tf.map_fn(lambda r: tf.nn.softmax(tf.tanh(r * b) + 1.0), tf.constant(X))
    np.testing.assert_allclose(out.numpy(), want.numpy())


def test_vectorized_map_falls_back_per_op_or_refuses():
    out = tf.vectorized_map(lambda r: tf.reduce_sum(r) * r, tf.constant(X))
    np.testing.assert_allclose(out.numpy(), X.sum(1, keepdims=True) * X)
    with pytest.raises(ValueError, match="Sum"):
        tf.vectorized_map(lambda r: tf.reduce_sum(r) * r, tf.constant(X),
                          fallback_to_while_loop=False)


def test_vectorized_map_gradients_reach_captured_tensors_and_variables():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float64)
    c = tf.constant(2.0, tf.float64)
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(c)
        fn = lambda r: tf.linalg.matvec(w, r) * c  # noqa: E731
        y = tf.reduce_sum(tf.vectorized_map(fn, x))
        z = tf.reduce_sum(tf.map_fn(fn, x))
    for a, b in zip(tape.gradient(y, [w, c]), tape.gradient(z, [w, c])):
        np.testing.assert_allclose(a.numpy(), b.numpy())


def test_unbatched_outputs_are_tiled():
    out = tf.vectorized_map(lambda r: (r, tf.constant([1, 2])), tf.constant(X))
    assert out[1].numpy().tolist() == [[1, 2]] * 3
