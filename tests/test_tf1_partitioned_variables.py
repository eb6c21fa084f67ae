"""TensorFlow 1's partitioned variables: `get_variable(..., partitioner=...)` with the three
partitioners, shard names and shapes, the full value read back, sharing and TensorFlow's errors,
compared with TensorFlow 2.21's `tf.compat.v1` on the same programs (tf1_scenarios.py)."""
import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

SCENARIOS = {
    "partitioners": '''
shape = tf.TensorShape([10, 6])
out["fixed"] = tf.fixed_size_partitioner(3)(shape=shape, dtype=tf.float32)
out["fixed_axis1"] = tf.fixed_size_partitioner(8, axis=1)(shape=shape, dtype=tf.float32)
out["axis_size"] = tf.variable_axis_size_partitioner(100)(shape, tf.float32)
out["axis_size_max"] = tf.variable_axis_size_partitioner(30, max_shards=4)(shape, tf.float64)
out["min_max"] = tf.min_max_variable_partitioner(4, min_slice_size=64)(shape, tf.float32)
out["min_max_one"] = tf.min_max_variable_partitioner(4)(shape, tf.float32)
''',
    "variables": '''
value = np.arange(30, dtype=np.float32).reshape(10, 3)
with tf.variable_scope("emb", partitioner=tf.fixed_size_partitioner(3)):
    p = tf.get_variable("table", initializer=tf.constant(value))
    q = tf.get_variable("ones", [5, 2], initializer=tf.ones_initializer())
out["parts"] = [v.name for v in p]
out["shapes"] = [str(v.shape.as_list()) for v in p] + [str(v.shape.as_list()) for v in q]
out["whole"] = [p.name, str(p.get_shape().as_list()), p.dtype.name, len(p)]
out["globals"] = names(tf.global_variables())
with tf.variable_scope("emb", reuse=True):
    out["shared"] = tf.get_variable("table") is p
    out["shared_with_partitioner"] = tf.get_variable(
        "ones", [5, 2], partitioner=tf.fixed_size_partitioner(3)) is q
def wrong(**kw):
    with tf.variable_scope("emb", reuse=True):
        tf.get_variable("table", **kw)
out["other_partitions"] = error_of(
    lambda: wrong(shape=[10, 3], partitioner=tf.fixed_size_partitioner(2)))
out["other_shape"] = error_of(
    lambda: wrong(shape=[9, 3], partitioner=tf.fixed_size_partitioner(3)))
out["again"] = error_of(lambda: tf.get_variable(
    "emb/table", initializer=tf.constant(value), partitioner=tf.fixed_size_partitioner(3)))
out["unpartitioned"] = error_of(lambda: tf.get_variable("emb/table", [10, 3]))
out["rank0"] = error_of(lambda: tf.get_variable(
    "s", [], partitioner=tf.fixed_size_partitioner(2))).split(":")[0]
x = tf.constant(np.ones((2, 10), np.float32))
y = tf.matmul(x, p)
rows = tf.nn.embedding_lookup(p.as_tensor(), [1, 7])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["y"], out["rows"], out["q"] = sess.run([y, rows, q.as_tensor()])
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


def test_shard_initializers_see_the_full_shape():
    with tf.Graph().as_default():
        p = v1.get_variable("w", [400, 100], partitioner=v1.fixed_size_partitioner(4))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            x = sess.run(p.as_tensor())
    limit = np.sqrt(6.0 / 500)
    assert x.shape == (400, 100) and np.abs(x).max() <= limit < 1.01 * np.abs(x).max()
