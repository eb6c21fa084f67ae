"""IndexedSlices: sparse gradients of gather / embedding_lookup and how the optimizers apply them."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.indexed_slices import IndexedSlices
from wengert.ops.nn.embedding import embedding_lookup
from wengert.optimizers.optimizer import deduplicate


def _table(rows=6, cols=3, seed=0):
    return np.random.default_rng(seed).normal(size=(rows, cols)).astype(np.float32)


def test_gradient_of_gather_is_indexed_slices_like_tensorflow():
    w = tf.Variable(_table())
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(embedding_lookup(w, [[0, 2], [0, 5]]) * 2.0)
    g = tape.gradient(loss, w)
    assert type(g) is IndexedSlices
    assert g.indices.numpy().tolist() == [0, 2, 0, 5]
    assert g.values.shape == (4, 3) and g.dtype == tf.float32
    assert g.dense_shape.numpy().tolist() == [6, 3] and g.shape == (6, 3)
    dense = tf.convert_to_tensor(g)
    want = np.zeros((6, 3), np.float32)
    np.add.at(want, [0, 2, 0, 5], 2.0)
    np.testing.assert_array_equal(dense.numpy(), want)
    np.testing.assert_array_equal(np.asarray(g), want)


def test_gather_of_a_watched_tensor_and_other_axes():
    x = tf.constant(_table())
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        rows = tf.gather(x, [1, 1])
        cols = tf.gather(x, [2], axis=1)
    assert type(tape.gradient(rows, x)) is IndexedSlices
    assert type(tape.gradient(cols, x)) is tf.Tensor  # only axis 0 is sparse
    assert tape.gradient(rows, x).numpy()[1].tolist() == [2.0, 2.0, 2.0]


def test_sums_sparse_with_sparse_and_with_dense():
    w = tf.Variable(_table())
    with tf.GradientTape(persistent=True) as tape:
        a = tf.reduce_sum(tf.gather(w, [0, 1]))
        b = tf.reduce_sum(tf.gather(w, [1, 3]) * 3.0)
        c = tf.reduce_sum(w * w)
        ab, ac = a + b, a + c
    both = tape.gradient(ab, w)
    assert type(both) is IndexedSlices
    assert sorted(both.indices.numpy().tolist()) == [0, 1, 1, 3]  # concatenated, not summed
    want = np.zeros((6, 3), np.float32)
    want[0] += 1
    want[1] += 4
    want[3] += 3
    np.testing.assert_allclose(tf.convert_to_tensor(both).numpy(), want)
    mixed = tape.gradient(ac, w)
    assert type(mixed) is tf.Tensor
    want = 2 * w.numpy()
    want[[0, 1]] += 1
    np.testing.assert_allclose(mixed.numpy(), want, rtol=1e-6)


def test_intermediate_params_get_a_dense_gradient():
    """A gradient function other than a read/identity never sees IndexedSlices."""
    x = tf.constant(_table())
    seen = []

    @tf.custom_gradient
    def double(t):
        def grad(g):
            seen.append(type(g))
            return g * 2.0
        return t * 2.0, grad
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.gather(double(x), [0, 0, 4]))
    g = tape.gradient(y, x)
    assert seen == [tf.Tensor] and type(g) is tf.Tensor
    assert g.numpy()[0].tolist() == [4.0] * 3 and g.numpy()[4].tolist() == [2.0] * 3


def test_second_order_through_the_sparse_gradient():
    x = tf.constant(_table().astype(np.float64))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.gather(x, [1, 2, 1]) ** 3)
        g = tf.convert_to_tensor(inner.gradient(y, x))
        z = tf.reduce_sum(g)
    h = outer.gradient(z, x).numpy()
    want = np.zeros_like(h)
    want[1] = 2 * 6 * x.numpy()[1]
    want[2] = 6 * x.numpy()[2]
    np.testing.assert_allclose(h, want)


def test_graph_mode_gradient_is_sparse_as_in_tensorflow():
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(tf.float32, [None, 3])
        grad = tf.gradients(tf.reduce_sum(tf.gather(p, [0, 0, 2])), [p])[0]
        assert isinstance(grad, tf.IndexedSlices)
        dense = tf.convert_to_tensor(grad)
    with tf.compat.v1.Session(graph=g) as sess:
        out, summed = sess.run([grad, dense], {p: np.ones((4, 3), np.float32)})
    assert out.indices.tolist() == [0, 0, 2] and out.dense_shape.tolist() == [4, 3]
    assert out.values.tolist() == [[1.0] * 3] * 3
    assert summed[:, 0].tolist() == [2.0, 0.0, 1.0, 0.0]


def test_traced_function_training_an_embedding():
    w = tf.Variable(_table())
    opt = tf.optimizers.SGD(0.5)

    @tf.function
    def step(ids):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(embedding_lookup(w, ids))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
    before = w.numpy()
    step(tf.constant([1, 1, 4]))
    want = before.copy()
    want[1] -= 1.0
    want[4] -= 0.5
    np.testing.assert_allclose(w.numpy(), want, rtol=1e-6)


def test_deduplicate_sums_repeated_rows():
    s = IndexedSlices(tf.constant([[1.0], [2.0], [4.0]]), tf.constant([3, 1, 3]), (5, 1))
    d = deduplicate(s)
    assert d.indices.numpy().tolist() == [1, 3] and d.values.numpy().ravel().tolist() == [2, 5]
    np.testing.assert_array_equal(tf.convert_to_tensor(d).numpy(), tf.convert_to_tensor(s).numpy())


@pytest.mark.parametrize("make", [
    lambda: tf.optimizers.SGD(0.1),
    lambda: tf.optimizers.SGD(0.1, momentum=0.9),
    lambda: tf.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    lambda: tf.optimizers.Adam(0.05),
    lambda: tf.optimizers.Adam(0.05, amsgrad=True),
    lambda: tf.optimizers.RMSprop(0.05),
], ids=["sgd", "momentum", "nesterov", "adam", "amsgrad", "rmsprop-dense"])
def test_optimizers_apply_sparse_like_dense(make):
    # Rows that repeat within a batch: Adam's and RMSprop's squared slots take the pieces'
    # squares, as Keras 3 does (tests/test_sparse_gradient_steps.py), so only SGD's steps
    # equal the dense ones there; without repeats every optimizer's do.
    _train_both(make, ([1, 3, 2, 5], [0, 3], [5, 4, 1]))
    if make().__class__.__name__ == "SGD":
        _train_both(make, ([1, 3, 1, 5], [0, 3], [5, 5, 5]))


@pytest.mark.parametrize("make", [
    lambda: tf.optimizers.SGD(0.1, clipvalue=0.3),
    lambda: tf.optimizers.Adam(0.1, clipnorm=0.5),
    lambda: tf.optimizers.SGD(0.1, global_clipnorm=0.5),
], ids=["clipvalue", "clipnorm", "global_clipnorm"])
def test_clipping_sparse_gradients(make):
    # Clipping acts on the values (TensorFlow's rule): the dense result when no index repeats.
    _train_both(make, ([1, 3, 5], [0, 3]))


def _train_both(make, batches):
    sparse_w, dense_w = tf.Variable(_table()), tf.Variable(_table())
    sparse_opt, dense_opt = make(), make()
    for ids in batches:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(embedding_lookup(sparse_w, ids) ** 2)
        g = tape.gradient(loss, sparse_w)
        assert type(g) is IndexedSlices
        sparse_opt.apply_gradients([(g, sparse_w)])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(embedding_lookup(dense_w, ids) ** 2)
        dense_opt.apply_gradients([(tf.convert_to_tensor(tape.gradient(loss, dense_w)),
                                    dense_w)])
    np.testing.assert_allclose(sparse_w.numpy(), dense_w.numpy(), rtol=1e-5, atol=1e-6)


def test_sgd_touches_only_the_gathered_rows():
    w = tf.Variable(_table(1000, 4))
    before = w.numpy()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(embedding_lookup(w, [7, 9]))
    tf.optimizers.SGD(1.0).apply_gradients([(tape.gradient(loss, w), w)])
    changed = np.nonzero((w.numpy() != before).any(axis=1))[0]
    assert changed.tolist() == [7, 9]


def test_scatter_update_does_not_change_an_earlier_read():
    w = tf.Variable(_table())
    snapshot = w.read_value()
    kept = snapshot.numpy()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(w, [0]))
    tf.optimizers.SGD(1.0).apply_gradients([(tape.gradient(loss, w), w)])
    np.testing.assert_array_equal(snapshot.numpy(), kept)
    assert not np.array_equal(w.numpy(), kept)


def test_shape_and_dtype_checks():
    w = tf.Variable(_table())
    bad = IndexedSlices(tf.ones([1, 3]), tf.constant([0]), (7, 3))
    with pytest.raises(ValueError, match="shape"):
        tf.optimizers.SGD(0.1).apply_gradients([(bad, w)])
    with pytest.raises(TypeError, match="int32 or int64"):
        IndexedSlices(tf.ones([1, 3]), tf.constant([0.0]), (6, 3))
    s = IndexedSlices(tf.ones([1, 3]), tf.constant([0]), (6, 3))
    with pytest.raises(ValueError, match="float64"):
        tf.convert_to_tensor(s, dtype=tf.float64)
    assert (-s).values.numpy().tolist() == [[-1.0] * 3]
    assert "IndexedSlices" in repr(s)


def _indexed_loop(w, y0, steps):
    y = y0
    for i in range(steps):
        y = tf.tanh(y * w[i])
    return tf.reduce_sum(y)


def _indexed_loop_by_hand(w, y0):
    """d sum(y_n) / dw for y_{i+1} = tanh(y_i * w[i]), by hand."""
    ys = [y0]
    for wi in w:
        ys.append(np.tanh(ys[-1] * wi))
    grad, g = np.zeros_like(w), np.ones_like(y0)
    for i in range(len(w) - 1, -1, -1):
        g = g * (1 - ys[i + 1] ** 2)
        grad[i] = g @ ys[i]
        g = g * w[i]
    return grad


def test_int_indexed_loop_gradient_is_dense_and_exact():
    """w[i] in a loop (and two more reads of w): one dense gradient, as TensorFlow returns for
    slices, summed over every read."""
    rng = np.random.default_rng(0)
    w0, y0 = rng.normal(size=30) * 0.5, rng.normal(size=8)
    w = tf.Variable(w0)
    with tf.GradientTape() as tape:
        loss = _indexed_loop(w, tf.constant(y0), 30) + tf.reduce_sum(w[-1] * w[0])
    g = tape.gradient(loss, w)
    assert type(g) is tf.Tensor
    want = _indexed_loop_by_hand(w0, y0)
    want[0] += w0[-1]
    want[-1] += w0[0]
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-12)


def test_int_indexed_rows_of_a_matrix_and_second_order():
    x = tf.constant(np.arange(6.0).reshape(3, 2))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(x[1] * x[1]) + tf.reduce_sum(x[-1] ** 3)
        g = inner.gradient(y, x)
        assert type(g) is tf.Tensor
        np.testing.assert_allclose(g.numpy(), [[0, 0], [4, 6], [48, 75]])
        gg = tf.reduce_sum(g)
    np.testing.assert_allclose(outer.gradient(gg, x).numpy(), [[0, 0], [2, 2], [24, 30]])
