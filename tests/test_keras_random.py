"""keras.random: distributions (moments and ranges with fixed seeds), seeds (an int repeats, a
SeedGenerator advances, None draws from the global generator), traced use in tf.function and in
a layer driven by fit, the errors for bad input, and TensorFlow's Keras 3 as the reference for
shapes, dtypes and errors.

The numbers themselves are TensorFlow's for the same seed (Keras 3 draws through the stateless
ops, whose Philox streams wengert reproduces): the comparison with TensorFlow checks that each
side repeats its numbers for an int seed, that the two agree in shape and dtype, and that the
values are TensorFlow's, except gamma, beta and binomial, whose samplers are NumPy's.
"""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, run_tf_or_skip
from wengert import keras
from wengert.keras import random as kr

N = 20000


def _np(t):
    return np.asarray(t)


# -- distributions ---------------------------------------------------------------------------
def test_normal_moments_and_defaults():
    x = kr.normal((N,), mean=2.0, stddev=3.0, seed=11)
    assert x.dtype == tf.float32 and x.shape == (N,)
    v = _np(x)
    assert abs(v.mean() - 2.0) < 0.1 and abs(v.std() - 3.0) < 0.1
    assert kr.normal((2, 3), dtype="float64", seed=1).dtype == tf.float64


def test_truncated_normal_stays_within_two_stddevs():
    v = _np(kr.truncated_normal((N,), mean=1.0, stddev=0.5, seed=3))
    assert v.min() >= 0.0 and v.max() <= 2.0
    assert abs(v.mean() - 1.0) < 0.02
    assert abs(v.std() - 0.5 * 0.8796) < 0.01  # the std of N(0, 1) cut at +-2 is 0.8796


def test_uniform_range_and_moments():
    v = _np(kr.uniform((N,), minval=-2.0, maxval=4.0, seed=5))
    assert v.dtype == np.float32 and v.min() >= -2.0 and v.max() < 4.0
    assert abs(v.mean() - 1.0) < 0.05 and abs(v.var() - 3.0) < 0.1  # (b - a)^2 / 12
    t = kr.uniform((3,), minval=tf.constant(1.0), maxval=tf.constant(2.0), seed=5)
    assert np.all((_np(t) >= 1.0) & (_np(t) < 2.0))


def test_randint_range_dtype_and_coverage():
    x = kr.randint((N,), 3, 9, seed=7)
    assert x.dtype == tf.int32
    v = _np(x)
    assert set(np.unique(v)) == set(range(3, 9))
    assert np.all(np.abs(np.bincount(v - 3) / N - 1 / 6) < 0.015)
    assert kr.randint((4,), 0, 5, dtype="int64", seed=1).dtype == tf.int64
    assert kr.randint((4,), 0, 5, dtype="uint8", seed=1).dtype == tf.uint8


def test_categorical_frequencies_follow_softmax():
    logits = np.log(np.array([[0.2, 0.3, 0.5], [0.7, 0.2, 0.1]], np.float32))
    x = kr.categorical(logits, 8000, seed=2)
    assert x.dtype == tf.int32 and x.shape == (2, 8000)
    for row, probs in zip(_np(x), np.exp(logits)):
        assert np.all(np.abs(np.bincount(row, minlength=3) / 8000 - probs) < 0.02)
    assert kr.categorical(logits, 2, dtype="int64", seed=2).dtype == tf.int64


def test_gamma_moments():
    v = _np(kr.gamma((N,), alpha=3.0, seed=4))
    assert v.dtype == np.float32 and v.min() > 0
    assert abs(v.mean() - 3.0) < 0.06 and abs(v.var() - 3.0) < 0.2


def test_beta_moments():
    a, b = 2.0, 5.0
    v = _np(kr.beta((N,), alpha=a, beta=b, seed=8))
    assert v.min() > 0 and v.max() < 1
    assert abs(v.mean() - a / (a + b)) < 0.005
    assert abs(v.var() - a * b / ((a + b) ** 2 * (a + b + 1))) < 0.002
    assert kr.beta((2, 3), alpha=[1.0, 2.0, 3.0], beta=2.0, seed=1).shape == (2, 3)


def test_binomial_moments_and_dtype():
    x = kr.binomial((N,), counts=10, probabilities=0.3, seed=6)
    assert x.dtype == tf.float32
    v = _np(x)
    assert np.all(v == np.round(v)) and v.min() >= 0 and v.max() <= 10
    assert abs(v.mean() - 3.0) < 0.05 and abs(v.var() - 2.1) < 0.1


def test_dropout_rate_scale_and_noise_shape():
    x = np.ones((200, 100), np.float32)
    v = _np(kr.dropout(x, 0.25, seed=1))
    assert set(np.unique(v)) == {0.0, np.float32(1 / 0.75)}
    assert abs((v == 0).mean() - 0.25) < 0.01
    shared = _np(kr.dropout(x, 0.5, noise_shape=(None, 1), seed=2))
    assert np.all(shared == shared[:, :1])  # one decision per row
    assert kr.dropout(x, 0.0, seed=1) is x  # rate 0 draws nothing, as in Keras
    assert not _np(kr.dropout(x, 1.0, seed=1)).any()


def test_dropout_noise_shape_with_unknown_sizes_in_a_trace():
    f = tf.function(lambda x: kr.dropout(x, 0.5, noise_shape=(None, 1), seed=3),
                    input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    v = _np(f(np.ones((6, 4), np.float32)))
    assert v.shape == (6, 4) and np.all(v == v[:, :1])


def test_shuffle_is_a_permutation_along_the_axis():
    x = np.arange(24).reshape(4, 6)
    rows = _np(kr.shuffle(x, seed=3))
    assert sorted(map(tuple, rows)) == sorted(map(tuple, x))
    cols = _np(kr.shuffle(x, axis=1, seed=3))
    assert np.array_equal(np.sort(cols, axis=1), x)
    assert not np.array_equal(_np(kr.shuffle(np.arange(100), seed=3)), np.arange(100))


# -- seeds ------------------------------------------------------------------------------------
DRAWS = {
    "normal": lambda s: kr.normal((5,), seed=s),
    "uniform": lambda s: kr.uniform((5,), seed=s),
    "truncated_normal": lambda s: kr.truncated_normal((5,), seed=s),
    "randint": lambda s: kr.randint((5,), 0, 1000, seed=s),
    "categorical": lambda s: kr.categorical(np.zeros((1, 50), np.float32), 5, seed=s),
    "gamma": lambda s: kr.gamma((5,), 2.0, seed=s),
    "beta": lambda s: kr.beta((5,), 2.0, 3.0, seed=s),
    "binomial": lambda s: kr.binomial((5,), 100, 0.5, seed=s),
    "dropout": lambda s: kr.dropout(np.ones((20,), np.float32), 0.5, seed=s),
    "shuffle": lambda s: kr.shuffle(np.arange(20), seed=s),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_an_int_seed_repeats_and_a_generator_advances(name):
    draw = DRAWS[name]
    assert np.array_equal(_np(draw(42)), _np(draw(42)))
    assert not np.array_equal(_np(draw(42)), _np(draw(43)))
    gen_a, gen_b = kr.SeedGenerator(42), kr.SeedGenerator(42)
    first, second = _np(draw(gen_a)), _np(draw(gen_a))
    assert not np.array_equal(first, second)
    assert np.array_equal(first, _np(draw(gen_b))) and np.array_equal(second, _np(draw(gen_b)))
    assert np.array_equal(first, _np(draw(42)))  # a generator's first draw is its seed's


def test_seed_generator_state_next_and_config():
    gen = kr.SeedGenerator(7, name="noise_seed")
    assert gen.state.dtype == tf.int64 and not gen.state.trainable
    assert list(_np(gen.state)) == [7, 0]
    assert list(_np(gen.next())) == [7, 0] and list(_np(gen.next())) == [7, 1]
    assert list(_np(gen.state)) == [7, 2]
    assert gen.get_config() == {"seed": 7, "name": "noise_seed"}
    again = kr.SeedGenerator.from_config(gen.get_config())
    assert list(_np(again.state)) == [7, 0]
    assert kr.SeedGenerator().get_config()["seed"] is None
    assert tf.keras.random.SeedGenerator is kr.SeedGenerator


def test_unseeded_draws_differ_and_set_random_seed_replays_them():
    keras.utils.set_random_seed(3)
    try:
        a, b = _np(kr.normal((4,))), _np(kr.normal((4,)))
        assert not np.array_equal(a, b)
        keras.utils.set_random_seed(3)
        assert np.array_equal(_np(kr.normal((4,))), a)
        assert np.array_equal(_np(kr.normal((4,))), b)
        gen = kr.SeedGenerator()  # its seed comes from Python's random, seeded too
        keras.utils.set_random_seed(3)
        kr.normal((4,)), kr.normal((4,))
        assert list(_np(kr.SeedGenerator().state)) == list(_np(gen.state))
    finally:
        tf.random.set_seed(None)


# -- traced use --------------------------------------------------------------------------------
def test_a_generator_in_tf_function_advances_like_eager_draws():
    gen, eager = kr.SeedGenerator(5), kr.SeedGenerator(5)
    f = tf.function(lambda: (kr.normal((3,), seed=gen), kr.uniform((2,), seed=gen)))
    for _ in range(3):
        traced = f()
        assert np.array_equal(_np(traced[0]), _np(kr.normal((3,), seed=eager)))
        assert np.array_equal(_np(traced[1]), _np(kr.uniform((2,), seed=eager)))
    assert list(_np(gen.state)) == [5, 6]
    assert f.experimental_get_tracing_count() == 1


def test_unseeded_draws_in_tf_function_differ_per_call():
    f = tf.function(lambda: kr.normal((4,)))
    assert not np.array_equal(_np(f()), _np(f()))


class NoiseLayer(keras.layers.Layer):
    """Keras's pattern: a SeedGenerator made in __init__, drawn from in call."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, x, training=None):
        if training:
            return x + keras.random.normal(tf.shape(x), seed=self.seed_generator)
        return x


def test_a_layer_s_generator_in_tf_function_and_fit():
    layer = NoiseLayer()
    f = tf.function(lambda x: layer(x, training=True))
    x = np.zeros((2, 3), np.float32)
    first, second = _np(f(x)), _np(f(x))
    assert not np.array_equal(first, second)
    assert np.array_equal(first, _np(kr.normal((2, 3), seed=1337)))
    assert list(_np(layer.seed_generator.state)) == [1337, 2]
    model = keras.Sequential([keras.layers.Input((3,)), NoiseLayer(), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    model.fit(np.zeros((8, 3), np.float32), np.zeros((8, 1), np.float32), batch_size=2,
              epochs=1, verbose=0)
    assert list(_np(model.layers[0].seed_generator.state)) == [1337, 4]  # one draw per step
    assert np.array_equal(_np(model.predict(np.ones((2, 3), np.float32), verbose=0)),
                          _np(model(np.ones((2, 3), np.float32))))


# -- bad input --------------------------------------------------------------------------------
def test_a_generator_made_inside_a_traced_function_is_refused():
    f = tf.function(lambda: kr.normal((2,), seed=kr.SeedGenerator(1)))
    with pytest.raises(ValueError, match=r"SeedGenerator: created inside a traced function.*"
                                         r"self\.seed_generator = keras\.random\.SeedGenerator"):
        f()


@pytest.mark.parametrize("seed", [(1, 2), 1.5, "3", np.int64(3), True])
def test_a_seed_that_is_not_an_int_or_generator_is_refused(seed):
    with pytest.raises(ValueError, match=r"keras\.random\.normal: argument `seed` must be an int"):
        kr.normal((2,), seed=seed)


def test_bad_arguments_name_the_fix():
    with pytest.raises(ValueError, match="SeedGenerator: argument `seed` must be a Python int"):
        kr.SeedGenerator(seed=2.0)
    with pytest.raises(ValueError, match="unrecognized keyword arguments"):
        kr.SeedGenerator(1, dtype="int32")
    with pytest.raises(ValueError, match=r"`keras.random.uniform` requires a floating point"):
        kr.uniform((2,), dtype="int32")
    with pytest.raises(ValueError, match=r"`keras.random.randint` requires an integer"):
        kr.randint((2,), 0, 4, dtype="float32")
    with pytest.raises(ValueError, match=r"`logits` should be a 2-D tensor"):
        kr.categorical(np.zeros(3, np.float32), 2)
    with pytest.raises(ValueError, match="set_random_seed: expected `seed`"):
        keras.utils.set_random_seed(1.5)


# -- against TensorFlow's Keras 3 ------------------------------------------------------------------
def _same(expr):
    """A TF expression drawing twice with one int seed, stacked: rows equal in both."""
    return f"tf.stack([{expr}, {expr}])"


TF_DRAWS = [
    ("normal", "keras.random.normal((3, 4), seed=1)", lambda: kr.normal((3, 4), seed=1)),
    ("normal_f64", "keras.random.normal((2,), mean=1.0, stddev=2.0, dtype='float64', seed=1)",
     lambda: kr.normal((2,), mean=1.0, stddev=2.0, dtype="float64", seed=1)),
    ("uniform", "keras.random.uniform((3, 4), seed=1)", lambda: kr.uniform((3, 4), seed=1)),
    ("uniform_range", "keras.random.uniform((5,), minval=2, maxval=3, seed=4)",
     lambda: kr.uniform((5,), minval=2, maxval=3, seed=4)),
    ("truncated_normal", "keras.random.truncated_normal((4, 2), seed=2)",
     lambda: kr.truncated_normal((4, 2), seed=2)),
    ("randint", "keras.random.randint((6,), 0, 10, seed=3)",
     lambda: kr.randint((6,), 0, 10, seed=3)),
    ("randint_int64", "keras.random.randint((2, 2), 5, 9, dtype='int64', seed=3)",
     lambda: kr.randint((2, 2), 5, 9, dtype="int64", seed=3)),
    ("categorical", "keras.random.categorical(np.zeros((2, 5), 'float32'), 7, seed=1)",
     lambda: kr.categorical(np.zeros((2, 5), np.float32), 7, seed=1)),
    ("gamma", "keras.random.gamma((3,), alpha=2.0, seed=5)",
     lambda: kr.gamma((3,), alpha=2.0, seed=5)),
    ("beta", "keras.random.beta((2, 3), alpha=2.0, beta=3.0, seed=5)",
     lambda: kr.beta((2, 3), alpha=2.0, beta=3.0, seed=5)),
    ("binomial", "keras.random.binomial((4,), counts=10, probabilities=0.5, seed=5)",
     lambda: kr.binomial((4,), counts=10, probabilities=0.5, seed=5)),
    ("dropout", "keras.random.dropout(np.ones((4, 3), 'float32'), 0.5, seed=2)",
     lambda: kr.dropout(np.ones((4, 3), np.float32), 0.5, seed=2)),
    ("shuffle", "keras.random.shuffle(np.arange(8), seed=2)",
     lambda: kr.shuffle(np.arange(8), seed=2)),
]

TF_ERRORS = [
    ("tuple_seed", "keras.random.normal((2,), seed=(1, 2))", lambda: kr.normal((2,), seed=(1, 2))),
    ("uniform_int", "keras.random.uniform((2,), dtype='int32')",
     lambda: kr.uniform((2,), dtype="int32")),
    ("randint_float", "keras.random.randint((2,), 0, 3, dtype='float32')",
     lambda: kr.randint((2,), 0, 3, dtype="float32")),
    ("categorical_1d", "keras.random.categorical(np.zeros(3, 'float32'), 2)",
     lambda: kr.categorical(np.zeros(3, np.float32), 2)),
    ("generator_float_seed", "keras.random.SeedGenerator(2.0)",
     lambda: kr.SeedGenerator(2.0)),
    ("set_random_seed_float", "keras.utils.set_random_seed(1.5)",
     lambda: keras.utils.set_random_seed(1.5)),
]

CASES = ([TFCase(name, _same(expr), fn, []) for name, expr, fn in TF_DRAWS]
         + [TFCase(f"error_{name}", expr, fn, []) for name, expr, fn in TF_ERRORS]
         + [TFCase("normal_large", "keras.random.normal((20000,), seed=9)",
                   lambda: kr.normal((20000,), seed=9), []),
            TFCase("uniform_large", "keras.random.uniform((20000,), seed=9)",
                   lambda: kr.uniform((20000,), seed=9), [])])


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", [c for c in CASES if c.name in {n for n, _, _ in TF_DRAWS}],
                         ids=repr)
def test_shapes_dtypes_and_repeats_match_tensorflow(case, tf_results):
    result = tf_results[case.name]
    assert "error" not in result, result.get("error")
    theirs = result["outputs"][0]
    assert np.array_equal(theirs[0], theirs[1])  # TF repeats an int seed's numbers
    ours = _np(case.fn())
    assert ours.shape == theirs.shape[1:] and ours.dtype == theirs.dtype
    assert np.array_equal(ours, _np(case.fn()))
    if case.name in ("gamma", "beta", "binomial"):  # NumPy's samplers: not TensorFlow's stream
        assert not np.array_equal(ours, theirs[0])
    else:  # TensorFlow's Philox draws (float32 normals may differ in the last bit)
        np.testing.assert_allclose(ours, theirs[0], rtol=1e-6, err_msg=case.name)


@pytest.mark.parametrize("case", [c for c in CASES if c.name.startswith("error_")], ids=repr)
def test_bad_input_raises_as_tensorflow_does(case, tf_results):
    assert tf_results[case.name].get("error", "").startswith("ValueError"), tf_results[case.name]
    with pytest.raises(ValueError):
        case.fn()


@pytest.mark.parametrize("name", ["normal_large", "uniform_large"])
def test_distributions_agree_with_tensorflow(name, tf_results):
    theirs = tf_results[name]["outputs"][0]
    ours = _np(next(c for c in CASES if c.name == name).fn())
    assert abs(ours.mean() - theirs.mean()) < 0.04 and abs(ours.std() - theirs.std()) < 0.03
    qs = [0.05, 0.25, 0.5, 0.75, 0.95]
    assert np.allclose(np.quantile(ours, qs), np.quantile(theirs, qs), atol=0.04)
