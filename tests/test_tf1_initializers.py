"""TensorFlow 1's initializers (`tf.compat.v1.*_initializer`: dtype given when made, TF 1's
defaults, variance scaling and Glorot) and the deprecated TF 1 aliases around variables, compared
with TensorFlow 2.21's `tf.compat.v1` on the same programs (tf1_scenarios.py): deterministic
values exactly, random draws through their statistics, which both must satisfy."""
import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers
from wengert.ops.random.v1_initializers import fans

v1 = tf.compat.v1

SCENARIOS = {
    "deterministic": '''
z = tf.get_variable("z", [2, 2], initializer=tf.zeros_initializer(dtype=tf.int32),
                    dtype=tf.int32)
o = tf.get_variable("o", [3], initializer=tf.ones_initializer())
c = tf.get_variable("c", [2, 2], initializer=tf.constant_initializer([1, 2, 3, 4]))
f = tf.get_variable("f", [2], dtype=tf.float64, initializer=tf.constant_initializer(0.5))
d = tf.get_variable("d", [2], initializer=tf.zeros_initializer(dtype=tf.float64),
                    dtype=tf.float64)
out["dtypes"] = [z.dtype.name, o.dtype.name, c.dtype.name, f.dtype.name, d.dtype.name]
out["called"] = [tf.zeros_initializer(dtype=tf.int64)([2]).dtype.name,
                 tf.ones_initializer(dtype=tf.float64)([1]).dtype.name,
                 tf.constant_initializer(3, dtype=tf.int32)([1]).dtype.name]
out["verify_shape"] = error_of(
    lambda: tf.constant_initializer([1.0, 2.0], verify_shape=True)([3])).split(":")[0]
out["bad_mode"] = error_of(lambda: tf.variance_scaling_initializer(mode="fan")).split(":")[0]
out["bad_scale"] = error_of(lambda: tf.variance_scaling_initializer(scale=0.0)).split(":")[0]
with tf.Session() as sess:
    sess.run(tf.initialize_all_variables())
    out["z"], out["o"], out["c"], out["f"], out["d"] = sess.run([z, o, c, f, d])
''',
    "random_statistics": '''
def stats(init, shape=(200, 300)):
    v = init(list(shape))
    with tf.Session() as sess:
        x = sess.run(v)
    return x
n = tf.random_normal_initializer()
t = tf.truncated_normal_initializer(mean=1.0, stddev=2.0)
u = tf.random_uniform_initializer()
x = stats(n)
out["normal"] = [abs(x.mean()) < 0.02, abs(x.std() - 1.0) < 0.02, x.dtype.name]
x = stats(t)
out["truncated"] = [abs(x.mean() - 1.0) < 0.05, bool(x.min() >= -3.0), bool(x.max() <= 5.0),
                    abs(x.std() - 2.0 * 0.8796) < 0.05]
x = stats(u)
out["uniform"] = [bool(x.min() >= 0.0), bool(x.max() < 1.0), abs(x.mean() - 0.5) < 0.02]
x = stats(tf.glorot_uniform_initializer())
limit = np.sqrt(6.0 / 500)
out["glorot_uniform"] = [bool(np.abs(x).max() <= limit), bool(np.abs(x).max() > 0.99 * limit)]
x = stats(tf.glorot_normal_initializer())
out["glorot_normal"] = [abs(x.std() - np.sqrt(2.0 / 500)) < 0.003,
                        bool(np.abs(x).max() <= 2 * np.sqrt(2.0 / 500) / 0.8796 + 1e-6)]
x = stats(tf.variance_scaling_initializer(scale=2.0, mode="fan_in"), (20, 30, 400))
out["he_truncated"] = [abs(x.std() - np.sqrt(2.0 / 600)) < 0.002]
x = stats(tf.variance_scaling_initializer(2.0, "fan_out", "untruncated_normal"), (100, 400))
out["untruncated"] = [abs(x.std() - np.sqrt(2.0 / 400)) < 0.002]
x = stats(tf.variance_scaling_initializer(3.0, "fan_avg", "uniform"), (300, 100))
out["vs_uniform"] = [bool(np.abs(x).max() <= np.sqrt(9.0 / 200))]
s = tf.random_normal_initializer(seed=3)
a, b = s([4]), s([4])
with tf.Session() as sess:
    a, b = sess.run([a, b])
out["seeded_repeat"] = bool(np.array_equal(a, b))
''',
    "aliases": '''
a = tf.get_variable("a", [1], initializer=tf.ones_initializer())
l = tf.get_variable("l", [1], initializer=tf.zeros_initializer(),
                    collections=[tf.GraphKeys.LOCAL_VARIABLES])
tf.add_to_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES, a)
out["all_variables"] = names(tf.all_variables())
out["moving_average"] = names(tf.moving_average_variables())
out["no_regularizer"] = str(tf.no_regularizer(a))
out["resource"] = tf.resource_variables_enabled()
with tf.variable_op_scope([a], None, default_name="op_scope") as s:
    out["variable_op_scope"] = [s.name, tf.get_variable("w", [1]).name]
with tf.variable_scope("r", regularizer=tf.no_regularizer):
    tf.get_variable("n", [1])
out["no_losses"] = len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
with tf.Session() as sess:
    sess.run(tf.initialize_variables([a]))
    sess.run(tf.initialize_local_variables())
    out["values"] = sess.run([a, l])
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_fans_of_vectors_matrices_and_kernels():
    assert fans([]) == (1, 1)
    assert fans([7]) == (7, 7)
    assert fans([3, 5]) == (3, 5)
    assert fans([2, 3, 4, 5]) == (24, 30)


def test_seeded_initializers_continue_eagerly_and_partition_info_is_checked():
    tf.random.set_seed(None)  # forget the eager kernels: the seed's stream starts again
    init = v1.glorot_uniform_initializer(seed=5)
    first, second = init([3, 4]).numpy(), init([3, 4]).numpy()
    assert not np.array_equal(first, second)  # TF 1's kernels continue the op seed's stream
    tf.random.set_seed(None)
    np.testing.assert_array_equal(init([3, 4]).numpy(), first)
    assert v1.zeros_initializer(dtype=tf.int32)([2]).dtype == tf.int32
    with pytest.raises(TypeError, match="partition_info"):
        v1.ones_initializer()([2], partition_info=object())
    with pytest.raises(ValueError, match="maxval"):
        v1.random_uniform_initializer(dtype=tf.int32)([2])


def test_get_variable_defaults_to_glorot_uniform():
    with tf.Graph().as_default():
        w = v1.get_variable("w", [300, 200])
        with v1.Session() as sess:
            sess.run(w.initializer)
            x = sess.run(w)
    limit = np.sqrt(6.0 / 500)
    assert np.abs(x).max() <= limit and np.abs(x).max() > 0.99 * limit
