"""tf.random beyond normal/uniform (issue 14 item 3): Generator, stateless ops, categorical,
shuffle, gamma (reparameterized in alpha), poisson, candidate sampling, initializers. Values are
compared with TensorFlow's guarantees (shapes, dtypes, determinism), not its bit streams."""
import numpy as np
import pytest

import wengert as tf


# -- Generator -----------------------------------------------------------------------------------
def test_generator_is_reproducible_and_advances():
    g = tf.random.Generator.from_seed(1)
    a, b = g.normal([3]), g.normal([3])
    assert not np.allclose(a.numpy(), b.numpy())
    again = tf.random.Generator.from_seed(1)
    np.testing.assert_array_equal(again.normal([3]).numpy(), a.numpy())
    g.reset_from_seed(1)
    np.testing.assert_array_equal(g.normal([3]).numpy(), a.numpy())
    assert g.state.dtype is tf.int64 and g.state.shape == (3,)
    copy = tf.random.Generator(copy_from=g)
    np.testing.assert_array_equal(copy.uniform([4]).numpy(), g.uniform([4]).numpy())


def test_generator_draws_shapes_dtypes_and_ranges():
    g = tf.random.Generator.from_seed(7)
    u = g.uniform([1000], minval=2.0, maxval=3.0, dtype=tf.float64)
    assert u.dtype is tf.float64 and 2.0 <= u.numpy().min() and u.numpy().max() < 3.0
    ints = g.uniform([1000], minval=-3, maxval=4, dtype=tf.int32)
    assert ints.dtype is tf.int32 and set(ints.numpy()) == set(range(-3, 4))
    with pytest.raises(ValueError, match="both None or both given"):
        g.uniform([2], dtype=tf.int32)
    full = g.uniform_full_int([4], tf.int64)
    assert full.dtype is tf.int64
    t = g.truncated_normal([5000], stddev=2.0)
    assert np.abs(t.numpy()).max() <= 4.0
    b = g.binomial([2000], counts=10.0, probs=0.3)
    assert b.dtype is tf.int32 and abs(b.numpy().mean() - 3.0) < 0.15
    seeds = g.make_seeds(3)
    assert seeds.shape == (2, 3) and seeds.dtype is tf.int64
    image_noise = tf.random.stateless_normal([2], seeds[:, 0])
    assert image_noise.shape == (2,)


def test_split_gives_independent_generators():
    g = tf.random.Generator.from_seed(3)
    parts = g.split(3)
    draws = [p.normal([4]).numpy() for p in parts]
    assert len(parts) == 3 and not np.allclose(draws[0], draws[1])
    again = tf.random.Generator.from_seed(3).split(3)
    np.testing.assert_array_equal(again[2].normal([4]).numpy(), draws[2])


def test_generator_inside_function_advances_each_call():
    g = tf.random.Generator.from_seed(5)

    @tf.function
    def draw():
        return g.normal([2])
    first, second = draw().numpy(), draw().numpy()
    assert not np.allclose(first, second)
    eager = tf.random.Generator.from_seed(5)
    np.testing.assert_array_equal(eager.normal([2]).numpy(), first)
    np.testing.assert_array_equal(eager.normal([2]).numpy(), second)


def test_generator_state_is_checkpointed(tmp_path):
    g = tf.random.Generator.from_seed(9)
    g.normal([2])
    path = tf.train.Checkpoint(rng=g).write(str(tmp_path / "rng"))
    expected = g.normal([3]).numpy()
    restored = tf.random.Generator.from_seed(123)
    tf.train.Checkpoint(rng=restored).restore(path).assert_consumed()
    np.testing.assert_array_equal(restored.normal([3]).numpy(), expected)


def test_global_generator():
    g = tf.random.get_global_generator()
    assert g is tf.random.get_global_generator()
    mine = tf.random.Generator.from_seed(11)
    tf.random.set_global_generator(mine)
    try:
        assert tf.random.get_global_generator() is mine
    finally:
        tf.random.set_global_generator(g)
    with pytest.raises(TypeError, match="Generator"):
        tf.random.set_global_generator(object())


# -- stateless ---------------------------------------------------------------------------------------
def test_stateless_ops_are_pure_functions_of_the_seed():
    for fn in (lambda s: tf.random.stateless_normal([3], s),
               lambda s: tf.random.stateless_uniform([3], s),
               lambda s: tf.random.stateless_truncated_normal([3], s),
               lambda s: tf.random.stateless_uniform([3], s, 0, 10, tf.int64),
               lambda s: tf.random.stateless_poisson([3], s, 2.0),
               lambda s: tf.random.stateless_binomial([3], s, 5.0, 0.5),
               lambda s: tf.random.stateless_gamma([3], s, 2.0)):
        a, b, c = fn([1, 2]).numpy(), fn([1, 2]).numpy(), fn(tf.constant([1, 3])).numpy()
        np.testing.assert_array_equal(a, b)
        assert not np.array_equal(a, c) or a.dtype.kind == "i"

    @tf.function
    def traced(seed):  # the seed is a tensor input: one trace, different numbers per seed
        return tf.random.stateless_normal([2], seed)
    x = traced(tf.constant([1, 2])).numpy()
    np.testing.assert_array_equal(x, tf.random.stateless_normal([2], [1, 2]).numpy())
    assert not np.allclose(x, traced(tf.constant([4, 5])).numpy())
    assert traced.experimental_get_tracing_count() == 1


def test_stateless_bad_seeds():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\]"):
        tf.random.stateless_normal([2], seed=[1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="integer"):
        tf.random.stateless_normal([2], seed=[1.0, 2.0])
    with pytest.raises(ValueError, match="both None or both given"):
        tf.random.stateless_uniform([2], [1, 2], minval=0, dtype=tf.int32)


def test_fold_in_and_split():
    seeds = tf.random.split([1, 2], 3)
    assert seeds.shape == (3, 2) and len({tuple(r) for r in seeds.numpy()}) == 3
    a, b = tf.random.fold_in([1, 2], 0), tf.random.fold_in([1, 2], 1)
    assert a.shape == (2,) and not np.array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(tf.random.fold_in([1, 2], 1).numpy(), b.numpy())


# -- categorical, shuffle, poisson, candidates ----------------------------------------------------------
def test_categorical_frequencies_and_zero_probabilities():
    logits = tf.constant([np.log([0.1, 0.6, 0.3]), [0.0, -np.inf, -np.inf]], tf.float32)
    draws = tf.random.categorical(logits, 20000, seed=1)
    assert draws.dtype is tf.int64 and draws.shape == (2, 20000)
    freq = np.bincount(draws.numpy()[0], minlength=3) / 20000
    np.testing.assert_allclose(freq, [0.1, 0.6, 0.3], atol=0.02)
    assert set(draws.numpy()[1]) == {0}  # log(0) = -inf: never drawn
    s = tf.random.stateless_categorical(logits, 5, seed=[1, 2], dtype=tf.int32)
    assert s.dtype is tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError, match="matrix"):
        tf.random.categorical([1.0, 2.0], 3)


def test_shuffle_permutes_the_first_dimension():
    x = tf.reshape(tf.range(12), [6, 2])
    y = tf.random.shuffle(x, seed=4).numpy()
    assert sorted(map(tuple, y)) == sorted(map(tuple, x.numpy()))
    assert float(tf.random.shuffle(tf.constant(5.0))) == 5.0


def test_poisson_moments_and_dtype():
    x = tf.random.poisson([4000], [1.0, 6.0], seed=2)
    assert x.shape == (4000, 2) and x.dtype is tf.float32
    np.testing.assert_allclose(x.numpy().mean(0), [1.0, 6.0], rtol=0.06)
    assert tf.random.poisson([2], 3.0, dtype=tf.int64).dtype is tf.int64


def test_uniform_candidate_sampler():
    true = tf.constant([[1, 2], [3, 4]], tf.int64)
    sampled, true_count, sampled_count = tf.random.uniform_candidate_sampler(
        true, num_true=2, num_sampled=5, unique=True, range_max=10, seed=3)
    assert sampled.dtype is tf.int64 and len(set(sampled.numpy())) == 5
    assert sampled.numpy().min() >= 0 and sampled.numpy().max() < 10
    assert true_count.shape == (2, 2) and sampled_count.shape == (5,)
    assert 0.4 < float(sampled_count[0]) < 1.0  # 1 - 0.9^n for n >= 5 tries
    _, tc, _ = tf.random.uniform_candidate_sampler(true, 2, 4, False, 8)
    np.testing.assert_allclose(tc.numpy(), 0.5)  # 4 draws * 1/8
    with pytest.raises(tf.errors.InvalidArgumentError, match="range_max"):
        tf.random.uniform_candidate_sampler(true, 2, 11, True, 10)


# -- gamma ---------------------------------------------------------------------------------------
def test_gamma_moments_and_reparameterized_gradients():
    alpha, beta = tf.constant([0.5, 2.0, 7.0]), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([alpha, beta])
        x = tf.random.gamma([20000], alpha, beta, seed=1)
        mean = tf.reduce_mean(x, 0)
    np.testing.assert_allclose(mean.numpy(), alpha.numpy() / 2.0, rtol=0.04)
    d_alpha, d_beta = tape.gradient(mean, [alpha, beta])
    # E[x] = alpha / beta, so d/dalpha = 1 / beta and d/dbeta = -sum(alpha) / beta^2 in expectation
    np.testing.assert_allclose(d_alpha.numpy(), [0.5, 0.5, 0.5], rtol=0.05)
    np.testing.assert_allclose(float(d_beta), -9.5 / 4.0, rtol=0.04)
    with pytest.raises(LookupError, match="RandomGammaGrad"):
        with tf.GradientTape() as outer:
            outer.watch(alpha)
            with tf.GradientTape() as inner:
                inner.watch(alpha)
                s = tf.reduce_sum(tf.random.gamma([3], alpha, seed=2))
            g = inner.gradient(s, alpha)
        outer.gradient(g, alpha)  # TensorFlow has no second derivative here either


def test_gamma_shape_and_errors():
    assert tf.random.gamma([2, 3], [[1.0], [2.0]], [1.0, 2.0, 3.0]).shape == (2, 3, 2, 3)
    assert tf.random.gamma([4], 2.0, dtype=tf.float64).dtype is tf.float64
    with pytest.raises(ValueError, match="floating"):
        tf.random.gamma([2], 1.0, dtype=tf.int32)
    with pytest.raises(ValueError, match="must end with"):
        tf.random.stateless_gamma([2, 3], [1, 2], tf.ones([4]))


# -- initializers -------------------------------------------------------------------------------------
def test_initializers_at_the_top_level():
    init = tf.random_normal_initializer(mean=1.0, stddev=0.5, seed=3)
    w = tf.Variable(init(shape=[200, 50]))
    assert abs(w.numpy().mean() - 1.0) < 0.02 and abs(w.numpy().std() - 0.5) < 0.02
    np.testing.assert_array_equal(init(shape=[2]).numpy(), init(shape=[2]).numpy())
    u = tf.random_uniform_initializer(-1.0, 1.0)([1000])
    assert -1.0 <= u.numpy().min() and u.numpy().max() < 1.0
    assert tf.zeros_initializer()([2], tf.float64).dtype is tf.float64
    np.testing.assert_array_equal(tf.ones_initializer()([2]).numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(tf.constant_initializer([1, 2])([2], tf.float32).numpy(),
                                  [1.0, 2.0])
    assert tf.initializers.GlorotUniform()([3, 4]).shape == (3, 4)
    assert tf.random_uniform_initializer(0, 10)([5], tf.int32).dtype is tf.int32
    with pytest.raises(ValueError, match="floating point"):
        tf.random_normal_initializer()([2], tf.int32)
    with pytest.raises(TypeError, match="3 elements"):
        tf.constant_initializer([1, 2, 3])([2])
    assert tf.random_normal_initializer(seed=1).get_config() == {
        "mean": 0.0, "stddev": 0.05, "seed": 1}


def test_learned_unigram_counts_are_shared_eagerly_and_per_graph_node():
    true = tf.constant([[5, 5]], tf.int64)
    sampler = tf.random.learned_unigram_candidate_sampler

    def expected_counts(name):
        return sampler(true, 2, 6, False, 6, seed=7, name=name)[1].numpy()

    assert np.allclose(expected_counts("learned_shared"), 1.0)  # counts all 1: 6 draws x 1/6
    assert np.allclose(expected_counts("learned_shared"), 6 * 3 / 8)  # 5 seen twice: P = 3/8
    graph = tf.Graph()
    with graph.as_default():
        node_a = sampler(true, 2, 6, False, 6, seed=7, name="learned_shared")[1]
        node_b = sampler(true, 2, 6, False, 6, seed=7, name="learned_shared")[1]
    with tf.compat.v1.Session(graph=graph) as sess:
        a1, b1 = sess.run(node_a), sess.run(node_b)
        a2 = sess.run(node_a)
    assert np.allclose(a1, 1.0) and np.allclose(b1, 1.0)  # a table of its own per node
    assert np.allclose(a2, 6 * 3 / 8)  # which learns across the session's runs
