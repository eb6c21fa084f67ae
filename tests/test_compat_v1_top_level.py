"""TensorFlow 1's top-level functions that wengert/tf1/ adds (the scatter updates of graph
variables and `count_up_to`, the v1 sparse and string functions, the graph checks, the v1
initializers and enumerations), each run as a TF 1 program in wengert and in TensorFlow 2.21's
`tf.compat.v1` with eager execution disabled (tf1_scenarios.py), TensorFlow's answers stored."""
import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

SCENARIOS = {
    "scatter": '''
v = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
w = tf.Variable(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
ups = {
    "update": tf.scatter_update(v, [0, 2], [[1., 1., 1.], [2., 2., 2.]]),
    "add": tf.scatter_add(v, [[1, 1]], np.ones((1, 2, 3), np.float32), use_locking=True),
    "sub": tf.scatter_sub(v, 3, [1., 2., 3.]),
    "mul": tf.scatter_mul(v, [0, 0], [[2., 2., 2.], [3., 3., 3.]]),
    "div": tf.scatter_div(v, [1], [[2., 4., 8.]]),
    "max": tf.scatter_max(v, [3, 2], [[100., 0., 100.], [-1., 50., -1.]]),
    "min": tf.scatter_min(v, [0], [[-5., 50., -5.]]),
    "nd_update": tf.scatter_nd_update(w, [[0, 1], [1, 2]], np.full((2, 4), 7., np.float32)),
    "nd_add": tf.scatter_nd_add(w, [[1, 0, 3], [1, 0, 3]], [10., 20.]),
    "nd_sub": tf.scatter_nd_sub(w, [[0]], np.ones((1, 3, 4), np.float32)),
    "batch": tf.batch_scatter_update(v, [[0], [1], [2], [0]], [[9.], [8.], [7.], [6.]])}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for key in ["update", "add", "sub", "mul", "div", "max", "min", "nd_update", "nd_add",
                "nd_sub", "batch"]:
        out[key] = sess.run(ups[key])
    out["after"], out["w_after"] = sess.run([v, w])
out["bad_shape"] = error_of(lambda: tf.scatter_update(v, [0, 1], [[1., 2., 3.]])).split(":")[0]
''',
    "count_up_to": '''
n = tf.Variable(3, dtype=tf.int64)
c = tf.count_up_to(n, 5)
out["dtype"] = c.dtype.name
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["counts"] = [sess.run(c), sess.run(c)]
    out["past"] = error_of(lambda: sess.run(c)).split(":")[0]
    out["final"] = sess.run(n)
''',
    "sparse": '''
dense = tf.sparse_to_dense([[0, 1], [2, 0]], [3, 2], [5, 6], default_value=-1)
vec = tf.sparse_to_dense([1, 3], [5], 2.5)
flag = tf.sparse_to_dense(2, [4], True, False)
ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([3, 1, 0], tf.int64), [2, 2])
vals = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [.5, .25, 2.], [2, 2])
merged = tf.sparse_merge(ids, vals, 5)
merged2 = tf.sparse.merge(ids, vals, 5, already_sorted=True)
a = tf.SparseTensor([[0, 0], [1, 2]], [1., 2.], [2, 3])
b = tf.SparseTensor([[0, 0], [1, 1]], [3., -2.], [2, 3])
total = tf.sparse_add(a, b, thresh=1.5)
both = tf.sparse_concat(1, [a, b])
parts = tf.sparse_split(sp_input=both, num_split=2, axis=1)
data = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
seg = [tf.sparse_segment_sum(data, [0, 1, 3], [0, 0, 1]),
       tf.sparse_segment_mean(data, [0, 1, 3], [0, 0, 1], None, 3),
       tf.sparse_segment_sqrt_n(data, [0, 2, 3], [0, 0, 0])]
prod = tf.sparse_matmul([[1., 2.]], [[3., 1.], [4., 0.]], transpose_b=True, a_is_sparse=True)
spv = tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensorValue([[1]], [4.], [3]))
with tf.Session() as sess:
    out["dense"], out["vec"], out["flag"] = sess.run([dense, vec, flag])
    m, m2 = sess.run([merged, merged2])
    out["merged"] = [m.indices, m.values, m.dense_shape]
    out["merged2_indices"] = m2.indices
    t = sess.run(total)
    out["total"] = [t.indices, t.values] 
    out["parts"] = [p.indices for p in sess.run(parts)]
    out["seg_sum"], out["seg_mean"], out["seg_sqrt_n"] = sess.run(seg)
    out["prod"] = sess.run(prod)
    out["reduce"] = sess.run([tf.sparse_reduce_sum(a, 1), tf.sparse_reduce_max(a, keep_dims=True)])
    out["reduce_sparse"] = sess.run(tf.sparse_reduce_sum_sparse(a, 0)).values
    out["spv"] = sess.run(tf.sparse.to_dense(spv))
out["spv_type"] = type(spv).__name__
''',
    "strings": '''
words = tf.constant([b"hello", b"wengert"])
sub = tf.substr(words, 1, 3)
buckets = tf.string_to_hash_bucket(words, 1000)
with tf.Session() as sess:
    out["substr"] = [s.decode() for s in sess.run(sub)]
    out["buckets"] = sess.run(buckets)
    out["utf8"] = sess.run(tf.substr(tf.constant("h\\u00e9llo"), 1, 2, unit="UTF8_CHAR")).decode()
''',
    "checks": '''
x = tf.placeholder(tf.float32, [2])
y = tf.verify_tensor_all_finite(x * 2., "x went bad")
z = tf.reduce_sum(tf.log(x))
check = tf.add_check_numerics_ops()
v = tf.Variable(1.)
u = tf.Variable([1, 2])
inited = tf.assert_variables_initialized()
with tf.Session() as sess:
    out["y"] = sess.run(y, {x: [1., 2.]})
    out["y_bad"] = error_of(lambda: sess.run(y, {x: [1., np.nan]})).split(":")[0]
    out["check_ok"] = sess.run(z, {x: [1., 2.]})
    out["check_bad"] = error_of(lambda: sess.run([z, check], {x: [0., 2.]})).split(":")[0]
    out["uninit"] = error_of(lambda: sess.run(inited)).split(":")[0]
    sess.run(tf.global_variables_initializer())
    out["init"] = sess.run(inited)
out["float_dtype"] = [tf.assert_same_float_dtype([x, y]).name,
                      tf.assert_same_float_dtype().name,
                      tf.assert_same_float_dtype(None, tf.float64).name]
out["int_dtype"] = error_of(lambda: tf.assert_same_float_dtype([tf.constant([1])]))
out["mixed"] = error_of(lambda: tf.assert_same_float_dtype(
    [x, tf.constant(1., tf.float64)])).split(", ", 1)[1]
out["iterable"] = [error_of(lambda: tf.assert_proper_iterable([1, 2])),
                   error_of(lambda: tf.assert_proper_iterable(x)).split(":")[0],
                   error_of(lambda: tf.assert_proper_iterable("ab")).split(":")[0],
                   error_of(lambda: tf.assert_proper_iterable(3)).split(":")[0]]
''',
    "initializers": '''
shapes = {"orth": [3, 5], "orth3": [2, 3, 2], "unit": [400, 30]}
orth = tf.get_variable("orth", shapes["orth"], initializer=tf.orthogonal_initializer(2.0, seed=1))
orth3 = tf.get_variable("orth3", shapes["orth3"], initializer=tf.initializers.orthogonal())
unit = tf.get_variable("unit", shapes["unit"],
                       initializer=tf.uniform_unit_scaling_initializer(1.5, seed=2))
eye = tf.get_variable("eye", [2, 3], initializer=tf.initializers.identity(3.))
he = tf.get_variable("he", [50, 40], initializer=tf.initializers.he_uniform(seed=3))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, o3, u, e, h = sess.run([orth, orth3, unit, eye, he])
out["orth_gram"] = np.round(o @ o.T, 4) + 0.
out["orth3_gram"] = np.round(o3.reshape(6, 2).T @ o3.reshape(6, 2), 4) + 0.
out["unit_bound"] = [bool(np.abs(u).max() <= 1.5 * np.sqrt(3. / 400)),
                     bool(np.abs(u).max() > 1.4 * np.sqrt(3. / 400))]
out["eye"] = e
out["he_bound"] = [bool(np.abs(h).max() <= np.sqrt(6. / 50)),
                   bool(np.abs(h).max() > 0.9 * np.sqrt(6. / 50))]
out["orth_1d"] = error_of(lambda: tf.orthogonal_initializer()([3])).split(":")[0]
out["configs"] = [sorted(tf.orthogonal_initializer().get_config()),
                  sorted(tf.uniform_unit_scaling_initializer().get_config())]
out["initializers"] = sorted(n for n in dir(tf.initializers) if not n.startswith("_"))
''',
    "enums": '''
out["aggregation"] = [tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT,
                      tf.AggregationMethod.EXPERIMENTAL_TREE,
                      tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]
out["variable_aggregation"] = [str(m) for m in tf.VariableAggregation]
out["first_tower"] = str(tf.VariableAggregation.ONLY_FIRST_TOWER)
out["synchronization"] = [str(m) for m in tf.VariableSynchronization]
x = tf.placeholder(tf.float32, [])
g = tf.gradients(x * x + x, [x], aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE)
v = tf.Variable(1., synchronization=tf.VariableSynchronization.AUTO,
                aggregation=tf.VariableAggregation.MEAN)
tf.disable_resource_variables()
tf.enable_tensor_equality()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["grad"], out["v"] = sess.run([g[0], v], {x: 3.})
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_eager_scatter_and_count():
    v = tf.Variable([1., 2., 3.])
    np.testing.assert_allclose(v1.scatter_add(v, [0, 0], [1., 1.]), [3., 2., 3.])
    np.testing.assert_allclose(v.numpy(), [3., 2., 3.])
    n = tf.Variable(0)
    assert int(v1.count_up_to(n, 1)) == 0 and int(n.numpy()) == 1
    with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 1"):
        v1.count_up_to(n, 1)


def test_scatter_errors_name_the_function():
    with pytest.raises(TypeError, match="scatter_update: ref must be a variable"):
        v1.scatter_update(tf.constant([1.]), [0], [2.])
    with pytest.raises(TypeError, match="count_up_to: ref must be int32 or int64"):
        v1.count_up_to(tf.Variable(1.), 3)
    with pytest.raises(NotImplementedError, match="disable_tensor_equality"):
        v1.disable_tensor_equality()


def test_sparse_to_dense_gradient_reaches_values():
    values = tf.constant([2., 3.])
    with tf.GradientTape() as tape:
        tape.watch(values)
        dense = v1.sparse_to_dense([[0, 0], [1, 1]], [2, 2], values)
        loss = tf.reduce_sum(dense * tf.constant([[1., 5.], [7., 11.]]))
    np.testing.assert_allclose(tape.gradient(loss, values), [1., 11.])
