"""Random ops and dropout: TensorFlow's global/op seed rules, statistics, graph behaviour."""
import numpy as np
import pytest

import wengert as tf
from wengert.ops.random import philox_draws as draws, seeded as R
from wengert.ops.nn import dropout as nn_dropout


@pytest.fixture(autouse=True)
def _no_global_seed():
    R.set_seed(None)
    yield
    R.set_seed(None)


def test_global_seed_makes_programs_repeat():
    R.set_seed(1234)
    a1, a2 = R.uniform([3]), R.uniform([3])
    n1 = R.normal([2])
    R.set_seed(1234)
    b1, b2 = R.uniform([3]), R.uniform([3])
    np.testing.assert_array_equal(a1.numpy(), b1.numpy())
    np.testing.assert_array_equal(a2.numpy(), b2.numpy())
    assert not np.array_equal(a1.numpy(), a2.numpy())
    np.testing.assert_array_equal(R.normal([2]).numpy(), n1.numpy())


def _philox(draw, seed, seed2, count, dtype, skip_calls=0):
    """What a seeded kernel (seed, seed2) draws on its call number skip_calls + 1 (each earlier
    call of `count` numbers reserved 256 * count blocks): TensorFlow's GuardedPhiloxRandom."""
    return draw(seed, (seed2 << 64) + 256 * count * skip_calls, count, dtype)


def test_op_seed_alone_uses_the_default_global_seed():
    a = R.uniform([2, 2], seed=3)
    b = R.uniform([2, 2], seed=3)  # the same kernel again: the next numbers
    first = _philox(draws.uniform_floats, R.DEFAULT_GRAPH_SEED, 3, 4, np.float32)
    second = _philox(draws.uniform_floats, R.DEFAULT_GRAPH_SEED, 3, 4, np.float32, 1)
    np.testing.assert_array_equal(a.numpy().ravel(), first)
    np.testing.assert_array_equal(b.numpy().ravel(), second)
    R.set_seed(None)  # resets the kernels: the sequence starts again
    np.testing.assert_array_equal(R.uniform([2, 2], seed=3).numpy(), a.numpy())


def test_global_and_op_seed_pair():
    R.set_seed(5)
    a = R.normal([4], seed=9, dtype=tf.float64)
    np.testing.assert_array_equal(a.numpy(), _philox(draws.normals, 5, 9, 4, np.float64))
    R.set_seed(0)
    z = R.normal([4], seed=0, dtype=tf.float64)  # (0, 0) becomes (0, 2**31 - 1)
    np.testing.assert_array_equal(z.numpy(), _philox(draws.normals, 0, 2 ** 31 - 1, 4,
                                                     np.float64))


def test_no_seed_differs_between_calls():
    assert not np.array_equal(R.normal([8]).numpy(), R.normal([8]).numpy())


def test_dtypes_shapes_and_ranges():
    for dtype in (tf.float16, tf.float32, tf.float64):
        for fn in (R.normal, R.uniform, R.truncated_normal):
            t = fn([2, 3], dtype=dtype, seed=1)
            assert t.dtype == dtype and t.shape == (2, 3)
    u = R.uniform([1000], -2.0, 3.0, seed=2)
    assert u.numpy().min() >= -2 and u.numpy().max() < 3
    i = R.uniform([1000], 3, 7, dtype=tf.int64, seed=2)
    assert i.dtype == tf.int64 and set(i.numpy().tolist()) == {3, 4, 5, 6}
    t = R.truncated_normal([5000], 1.0, 0.5, seed=3)
    assert abs(t.numpy() - 1).max() <= 1.0 + 1e-6
    n = R.normal([20000], 2.0, 3.0, seed=4).numpy()
    assert abs(n.mean() - 2) < 0.1 and abs(n.std() - 3) < 0.1
    assert R.normal(tf.constant([2, 2])).shape == (2, 2)


def test_bad_arguments():
    with pytest.raises(ValueError, match="maxval"):
        R.uniform([2], dtype=tf.int32)
    with pytest.raises(tf.InvalidArgumentError, match="minval < maxval"):
        R.uniform([2], 5, 5, dtype=tf.int32)
    with pytest.raises(tf.InvalidArgumentError, match="floating-point"):
        R.normal([2], dtype=tf.int32)


def test_gradients_reach_mean_and_stddev():
    mean, std = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([mean, std])
        total = tf.reduce_sum(R.normal([100], mean, std, seed=1))
    R.set_seed(None)
    draws = R.normal([100], seed=1).numpy()
    dm, ds = tape.gradient(total, [mean, std])
    assert float(dm) == 100.0
    np.testing.assert_allclose(float(ds), draws.sum(), rtol=1e-5)


def test_random_ops_are_impure_and_advance_in_a_graph():
    assert not R.RANDOM_NORMAL.pure and not nn_dropout.DROPOUT.pure
    g = tf.Graph()
    with g.as_default():
        R.set_seed(7)
        a = R.uniform([3])
        b = R.uniform([3])  # same arguments: never merged
    with tf.compat.v1.Session(graph=g) as sess:
        first = sess.run([a, b])
        again = sess.run(a)
    assert not np.array_equal(first[0], first[1])
    assert not np.array_equal(first[0], again)  # each run advances the op's generator


def test_graph_op_seeds_count_from_zero_per_graph():
    """TensorFlow 1's rule: in a graph with seed 5, unseeded ops take op seeds 0, 1, ... (the
    numbers are TensorFlow 2.21's, recorded from the same program)."""
    for _ in range(2):  # a second graph counts from 0 again
        g = tf.Graph()
        with g.as_default():
            tf.compat.v1.set_random_seed(5)
            a, b = R.uniform([2]), R.uniform([2])
            c = R.normal([2], seed=3)
        with tf.compat.v1.Session(graph=g) as sess:
            first, second = sess.run([a, b, c]), sess.run(a)
        np.testing.assert_allclose(first[0], [0.18286479, 0.68998957], rtol=1e-6)
        np.testing.assert_allclose(first[1], [0.3875184, 0.7485455], rtol=1e-6)
        np.testing.assert_allclose(first[2], [-1.4616988, -0.5901872], rtol=1e-6)
        np.testing.assert_allclose(second, [0.9363872, 0.651327], rtol=1e-6)  # a's next run
        np.testing.assert_array_equal(first[0], _philox(draws.uniform_floats, 5, 0, 2,
                                                        np.float32))


def test_traced_function_draws_new_numbers_each_call():
    @tf.function
    def draw():
        return R.uniform([4], seed=1)
    assert not np.array_equal(draw().numpy(), draw().numpy())


def test_dropout_statistics():
    x = tf.ones([200, 500])
    y = nn_dropout.dropout(x, rate=0.3, seed=42).numpy()
    dropped = np.mean(y == 0)
    assert abs(dropped - 0.3) < 0.01
    assert abs(y.mean() - 1.0) < 0.02  # the mean is kept
    np.testing.assert_allclose(y[y != 0], 1 / 0.7, rtol=1e-6)
    assert nn_dropout.dropout(x, 0.0).numpy().min() == 1.0


def test_dropout_gradient_uses_the_same_mask_and_noise_shape():
    x = tf.constant(np.random.default_rng(0).normal(size=(6, 8)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nn_dropout.dropout(x, 0.5, noise_shape=[6, 1], seed=3)
    g = tape.gradient(y, x).numpy()
    kept = y.numpy() != 0
    np.testing.assert_allclose(g, kept * 2.0)
    assert all(row.all() or not row.any() for row in kept)  # whole rows kept or dropped
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nn_dropout.dropout(x, 0.5, noise_shape=[None, 1], seed=3)
    assert tape.gradient(y, x).shape == (6, 8)


def test_dropout_errors():
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        nn_dropout.dropout(tf.ones([2]), 1.0)
    with pytest.raises(ValueError, match="floating-point"):
        nn_dropout.dropout(tf.constant([1, 2]), 0.5)
    with pytest.raises(tf.InvalidArgumentError, match="noise_shape"):
        nn_dropout.dropout(tf.ones([2, 3]), 0.5, noise_shape=[2, 2])


def test_dropout_in_a_graph_with_unknown_batch():
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(tf.float32, [None, 4])
        y = nn_dropout.dropout(p, 0.5, seed=1)
        grad = tf.gradients(tf.reduce_sum(y), [p])[0]
    assert y.shape.as_list() == [None, 4]
    with tf.compat.v1.Session(graph=g) as sess:
        out, d = sess.run([y, grad], {p: np.ones((3, 4), np.float32)})
    np.testing.assert_array_equal(out, d)
