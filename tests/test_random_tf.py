"""wengert's random numbers are TensorFlow's own: each case is one expression evaluated with
TensorFlow 2.21 (stored in tests/references/ for CI) and with wengert standing in for `tf`.

Covered: the key/counter raw ops (StatelessRandomGetKeyCounter, the V2 draws, StatelessShuffle),
the stateless ops (normal, uniform, truncated normal over float16/32/64, integers in a
range and over the full range, categorical, shuffle, dropout, split and fold_in) for many shapes
and seeds; tf.random.Generator (from_seed, consecutive draws continuing TensorFlow's stream,
split, make_seeds, reset_from_seed, skip, draws in tf.function); and the seeded ops with global
and op seeds (uniform, normal, truncated normal, integers, shuffle, categorical, tf.nn.dropout),
including repeated calls continuing one kernel's stream and set_seed replaying it, eagerly and in
tf.function (op seeds counted per graph); and the seeded initializers (tf's, TF 1's and Keras
3's, which draw through these ops). float32
normals may differ from TensorFlow's in the last bit (glibc's logf/sinf/cosf against correctly
rounded ones), hence a relative tolerance of 1e-6.
"""
import numpy as np
import pytest

import wengert as wtf
from tf_ops_reference import TFCase, check, run_tf_or_skip


def _case(name, expr, rtol=1e-6, atol=0.0):
    env = {"tf": wtf, "np": np, "keras": wtf.keras}
    return TFCase(name, expr, lambda: eval(expr, env), [], rtol=rtol, atol=atol)  # noqa: S307


SHAPES = ["[]", "[1]", "[3]", "[5, 7]", "[1001]"]
SEEDS = ["[1, 2]", "[0, 0]", "tf.constant([-5, 2**31 - 1], tf.int32)",
         "tf.constant([2**62 + 3, -7], tf.int64)"]
FLOATS = ["tf.float16", "tf.float32", "tf.float64"]

CASES = []
for i, shape in enumerate(SHAPES):
    for j, seed in enumerate(SEEDS):
        for k, dt in enumerate(FLOATS):
            for fn in ("normal", "uniform", "truncated_normal"):
                CASES.append(_case(f"stateless_{fn}_{i}{j}{k}",
                                   f"tf.random.stateless_{fn}({shape}, seed={seed}, dtype={dt})",
                                   rtol=1e-3 if dt == "tf.float16" else 1e-6))
        for k, dt in enumerate(["tf.int32", "tf.int64"]):
            CASES.append(_case(f"stateless_int_{i}{j}{k}", f"tf.random.stateless_uniform("
                               f"{shape}, seed={seed}, minval=-3, maxval=1000003, dtype={dt})"))
            CASES.append(_case(f"stateless_full_int_{i}{j}{k}", f"tf.random.stateless_uniform("
                               f"{shape}, seed={seed}, minval=None, maxval=None, dtype={dt})"))
CASES += [
    _case("stateless_scaled", "tf.random.stateless_normal([4, 3], [7, 8], mean=2.0, stddev=3.0)"),
    _case("stateless_uniform_range", "tf.random.stateless_uniform([9], [7, 8], -2.0, 5.0)"),
    _case("stateless_int_negative", "tf.random.stateless_uniform([9], [7, 8], -2**31, 2**31 - 1,"
          " dtype=tf.int32)"),
    _case("stateless_int64_wide", "tf.random.stateless_uniform([9], [7, 8], -2**62, 2**62,"
          " dtype=tf.int64)"),
    _case("stateless_categorical_rows", "tf.random.stateless_categorical(tf.math.log([[0.1, 0.2,"
          " 0.7], [0.5, 0.25, 0.25], [0.9, 0.05, 0.05]]), 7, seed=[3, 9])"),
    _case("stateless_categorical_int32", "tf.random.stateless_categorical([[1.0, 2.0, -1.0, 0.5]],"
          " 25, seed=[11, 4], dtype=tf.int32)"),
    _case("stateless_shuffle_1d", "tf.random.experimental.stateless_shuffle(tf.range(50), "
          "seed=[5, 6])"),
    _case("stateless_shuffle_2d", "tf.random.experimental.stateless_shuffle(tf.reshape("
          "tf.range(24.0), [8, 3]), seed=[-1, 12])"),
    _case("stateless_dropout", "tf.nn.experimental.stateless_dropout(tf.ones([4, 5]), rate=0.3, "
          "seed=[1, 2])"),
    _case("stateless_dropout_noise_shape", "tf.nn.experimental.stateless_dropout(tf.ones([4, 5]),"
          " rate=0.5, seed=[3, 2], noise_shape=[4, 1])"),
    _case("split", "tf.random.split([1, 2], 3)"),
    _case("split_int64", "tf.random.split(tf.constant([9, 2**40], tf.int64))"),
    _case("fold_in", "tf.random.fold_in([1, 2], 7)"),
    _case("fold_in_int64", "tf.random.fold_in([4, 5], tf.constant(2**40, tf.int64))"),
]

GEN = "(lambda g: [{}])(tf.random.Generator.from_seed({}))"
CASES += [
    _case("generator_sequence", GEN.format(
        "g.normal([2, 3]), g.uniform([5]), g.normal([1]), g.truncated_normal([6]), "
        "g.uniform([4], 0, 100, dtype=tf.int32), g.uniform([3], dtype=tf.float64), "
        "g.normal([3], dtype=tf.float64), g.uniform_full_int([3], dtype=tf.int64), g.state", 1234)),
    _case("generator_big_seed", GEN.format("g.normal([7]), g.state", "2**70 + 2**64 * 3 + 5")),
    _case("generator_vector_seed", GEN.format("g.state, g.uniform([3])", "[7, 8]")),
    _case("generator_make_seeds", GEN.format("g.make_seeds(3), g.normal([2])", 99)),
    _case("generator_split", GEN.format(
        "[c.normal([3]) for c in g.split(3)], [c.state for c in g.split(2)], g.uniform([2])", 5)),
    _case("generator_reset", GEN.format(
        "g.normal([3]), g.reset_from_seed(5) or g.normal([3]), (g.skip(10), g.normal([2]))[1]",
        7)),
    _case("generator_in_function", GEN.format(
        "[tf.function(lambda: g.normal([2]))() for _ in range(1)][0], g.normal([2])", 3)),
    _case("generator_after_binomial", GEN.format(
        "(g.binomial([3], 10.0, 0.5), g.normal([2]), g.state)[1:]", 4)),
    _case("generator_after_binomial_2d", GEN.format(
        "(g.binomial([2, 4], [5.0, 9.0, 2.0, 7.0], 0.3), g.uniform([3]), g.state)[1:]", 6)),
    _case("generator_int64_range", GEN.format(
        "g.uniform([5], -10, 10, dtype=tf.int64), g.uniform([5], -10, 10, dtype=tf.int32)", 8)),
]

SEEDED = "(tf.random.set_seed({}), [{}])[1]"
CASES += [
    _case("seeded_global_and_op", SEEDED.format(
        42, "tf.random.uniform([2], seed=1), tf.random.uniform([2], seed=1), "
        "tf.random.normal([3], seed=1), tf.random.uniform([3], seed=2)")),
    _case("seeded_global_only", SEEDED.format(
        7, "tf.random.uniform([3]), tf.random.normal([3]), tf.random.truncated_normal([5]), "
        "tf.random.uniform([2])")),
    _case("seeded_op_only", SEEDED.format(
        "None", "tf.random.normal([4], seed=3), tf.random.normal([4], seed=3)")),
    _case("seeded_zero_pair", SEEDED.format("0", "tf.random.normal([3], seed=0)")),
    _case("seeded_dtypes", SEEDED.format(
        11, "tf.random.uniform([5], seed=4, dtype=tf.float64), "
        "tf.random.normal([5], seed=4, dtype=tf.float64), "
        "tf.random.truncated_normal([7], seed=4, dtype=tf.float64), "
        "tf.random.normal([6], seed=4, dtype=tf.float16), "
        "tf.random.uniform([6], 5, 17, seed=4, dtype=tf.int32), "
        "tf.random.uniform([6], -5, 2**40, seed=4, dtype=tf.int64)")),
    _case("seeded_scaled", SEEDED.format(
        3, "tf.random.normal([2, 2], 1.0, 2.0, seed=5), tf.random.uniform([3], -1.0, 1.0, seed=5)")),
    _case("seeded_shuffle", SEEDED.format(
        5, "tf.random.shuffle(tf.range(10), seed=2), tf.random.shuffle(tf.range(10), seed=2), "
        "tf.random.shuffle(tf.reshape(tf.range(12), [6, 2]), seed=3)")),
    _case("seeded_categorical", SEEDED.format(
        5, "tf.random.categorical(tf.math.log([[0.2, 0.8], [0.6, 0.4]]), 5, seed=2), "
        "tf.random.categorical(tf.math.log([[0.2, 0.8], [0.6, 0.4]]), 5, seed=2)")),
    _case("seeded_dropout", SEEDED.format(
        5, "tf.nn.dropout(tf.ones([3, 4]), 0.5, seed=2), tf.nn.dropout(tf.ones([3, 4]), 0.5, "
        "seed=2)")),
]

KEYED = ("(lambda k, c: [{}])(tf.constant(np.array([987654321987], np.uint64)), "
         "tf.constant(np.array([2**64 - 3, 9], np.uint64)))")
CASES += [
    _case("raw_get_key_counter", "tf.raw_ops.StatelessRandomGetKeyCounter(seed=[-5, 2**31 - 1])"),
    _case("raw_get_key_counter_int64", "tf.raw_ops.StatelessRandomGetKeyCounter("
          "seed=tf.constant([2**62, 7], tf.int64))"),
    _case("raw_keyed_draws", KEYED.format(
        "tf.raw_ops.StatelessRandomNormalV2(shape=[5], key=k, counter=c, alg=1), "
        "tf.raw_ops.StatelessRandomUniformV2(shape=[5], key=k, counter=c, alg=3, "
        "dtype=tf.float64), "
        "tf.raw_ops.StatelessTruncatedNormalV2(shape=[6], key=k, counter=c, alg=1), "
        "tf.raw_ops.StatelessRandomUniformIntV2(shape=[5], key=k, counter=c, alg=1, minval=-5, "
        "maxval=50), "
        "tf.raw_ops.StatelessRandomUniformFullIntV2(shape=[5], key=k, counter=c, alg=1, "
        "dtype=tf.int64), "
        "tf.raw_ops.StatelessShuffle(value=tf.range(7), key=k, counter=c, alg=1)")),
]

FUNCTION = "(tf.random.set_seed({}), {})[1]"
CASES += [
    _case("function_global_seed", FUNCTION.format(
        3, "tf.function(lambda: [tf.random.uniform([2]), tf.random.normal([2])])()")),
    _case("function_op_seeds", FUNCTION.format(
        3, "tf.function(lambda: [tf.random.uniform([2], seed=5), tf.random.uniform([2], "
        "seed=5)])()")),
    _case("function_called_twice", FUNCTION.format(
        3, "(lambda f: [f(), f()])(tf.function(lambda: tf.random.uniform([2])))")),
    _case("function_after_eager", FUNCTION.format(
        4, "[tf.random.uniform([2]), tf.function(lambda: tf.random.uniform([2]))()]")),
]

INITIALIZERS = [
    "tf.random_normal_initializer(seed=1)([3, 4])",
    "tf.random_uniform_initializer(-1.0, 1.0, seed=2)([5])",
    "tf.compat.v1.glorot_uniform_initializer(seed=3)([3, 4])",
    "tf.compat.v1.truncated_normal_initializer(seed=13)([6])",
    "(lambda i: [i([3]), i([3])])(tf.compat.v1.random_normal_initializer(seed=14))",
    "tf.compat.v1.orthogonal_initializer(seed=15)([3, 3])",
    "tf.initializers.GlorotUniform(seed=3)((4, 5))",
    "keras.initializers.GlorotNormal(seed=3)((4, 5))",
    "keras.initializers.RandomNormal(seed=3)((4,))",
    "keras.initializers.TruncatedNormal(seed=3)((6,))",
    "keras.initializers.HeNormal(seed=5)((3, 2))",
    "keras.initializers.HeUniform(seed=5)((3, 2))",
    "keras.initializers.LecunNormal(seed=5)((2, 3, 4))",
    "keras.initializers.VarianceScaling(2.0, 'fan_out', 'untruncated_normal', seed=6)((3, 5))",
    "keras.initializers.Orthogonal(seed=5)((3, 3))",
    "keras.initializers.Orthogonal(gain=2.0, seed=5)((2, 5))",
    "keras.initializers.RandomUniform(seed=5)((5,))",
    "keras.layers.Dense(3, kernel_initializer=keras.initializers.GlorotUniform(seed=1))("
    "np.ones((1, 2), 'float32'))",
]
CASES += [_case(f"initializer_{i}", f"(tf.random.set_seed(None), {expr})[1]", rtol=1e-5)
          for i, expr in enumerate(INITIALIZERS)]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_random_numbers_are_tensorflows(case, tf_results):
    check(case, tf_results[case.name])
