"""TensorFlow 1 graph collections and the functions around variables: GraphKeys,
add_to_collection(s), get_collection(_ref), the variable lists with `scope=`, initializers that
honour collections, report_uninitialized_variables, is_variable_initialized, assign functions,
placeholder_with_default, Print, the global step and regularization losses, compared with
TensorFlow 2.21's `tf.compat.v1` running the same programs (tf1_scenarios.py)."""
import contextlib
import io

import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers
from wengert.graph.regularization_losses import get_regularization_loss, \
    get_regularization_losses

v1 = tf.compat.v1

SCENARIOS = {
    "collections": '''
keys = ["GLOBAL_VARIABLES", "LOCAL_VARIABLES", "MODEL_VARIABLES", "TRAINABLE_VARIABLES",
        "REGULARIZATION_LOSSES", "UPDATE_OPS", "LOSSES", "SUMMARIES", "GLOBAL_STEP",
        "METRIC_VARIABLES", "TRAIN_OP", "INIT_OP", "SAVERS", "QUEUE_RUNNERS"]
out["keys"] = [getattr(tf.GraphKeys, k) for k in keys]
tf.add_to_collection("mine", 1)
tf.add_to_collections(["mine", "yours"], 2)
tf.add_to_collections("single", 3)
tf.get_collection_ref("mine").append(4)
copy = tf.get_collection("mine")
copy.append(5)
out["mine"] = tf.get_collection("mine")
out["yours"] = tf.get_collection("yours") + tf.get_collection("single")
out["none"] = tf.get_collection("none")
with tf.variable_scope("enc"):
    a = tf.get_variable("a", [1])
    with tf.variable_scope("sub") as sub:
        b = tf.get_variable("b", [1], trainable=False)
with tf.variable_scope("encoder"):
    c = tf.get_variable("c", [1])
d = tf.get_variable("d", [1], collections=[tf.GraphKeys.LOCAL_VARIABLES])
e = tf.get_local_variable("e", [1])
m = tf.get_variable("m", [1], collections=[tf.GraphKeys.MODEL_VARIABLES,
                                           tf.GraphKeys.GLOBAL_VARIABLES])
out["global"] = names(tf.global_variables())
out["global_enc"] = names(tf.global_variables("enc"))
out["global_enc_slash"] = names(tf.global_variables(scope="enc/"))
out["regex"] = names(tf.global_variables(".*/b"))
out["trainable"] = names(tf.trainable_variables())
out["trainable_enc"] = names(tf.trainable_variables("enc"))
out["local"] = names(tf.local_variables())
out["model"] = names(tf.model_variables())
out["scope_object"] = [names(sub.global_variables()), names(sub.trainable_variables())]
out["collection_scope"] = names(tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope="enc"))
''',
    "initialization": '''
a = tf.get_variable("a", [2], initializer=tf.ones_initializer())
b = tf.Variable([3.0, 4.0], name="b")
loc = tf.get_variable("loc", [1], initializer=tf.zeros_initializer(),
                      collections=[tf.GraphKeys.LOCAL_VARIABLES])
report = tf.report_uninitialized_variables()
some = tf.report_uninitialized_variables([a, loc])
empty = tf.report_uninitialized_variables([])
init_a = tf.is_variable_initialized(a)
out["report_dtype"] = [report.dtype.name, report.shape.as_list(), empty.shape.as_list()]
with tf.Session() as sess:
    out["before"] = [n.decode() for n in sess.run(report)]
    out["before_a"] = bool(sess.run(init_a))
    sess.run(tf.variables_initializer([a]))
    out["after_a"] = [[n.decode() for n in sess.run(report)], bool(sess.run(init_a))]
    out["some"] = [n.decode() for n in sess.run(some)]
    out["empty"] = [n.decode() for n in sess.run(empty)]
    out["read_uninitialized"] = error_of(lambda: sess.run(b)).split(":")[0]
    sess.run(tf.global_variables_initializer())
    out["after_global"] = [n.decode() for n in sess.run(report)]
    sess.run(tf.local_variables_initializer())
    out["after_local"] = [n.decode() for n in sess.run(report)]
    out["values"] = np.concatenate(sess.run([a, b, loc]))
''',
    "assign_functions": '''
v = tf.Variable([1.0, 2.0], name="v")
to = tf.assign(v, [3.0, 4.0])
add = tf.assign_add(v, [1.0, 1.0])
sub = tf.assign_sub(v, [0.5, 0.5])
w = tf.get_variable("w", [2], initializer=tf.zeros_initializer())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["assign"] = sess.run(to)
    out["assign_add"] = sess.run(add)
    out["assign_sub"] = sess.run(sub)
    out["value"] = sess.run(v)
    out["shape_error"] = error_of(lambda: tf.assign(w, [1.0, 2.0, 3.0]))
''',
    "placeholder_with_default": '''
p = tf.placeholder_with_default([1.0, 2.0], shape=[None], name="p")
q = tf.placeholder_with_default(tf.constant([[1, 2]]), shape=[1, 2])
y = p * 2.0
out["static"] = [p.name, str(p.shape.as_list()), p.dtype.name, q.dtype.name]
out["bad_shape"] = error_of(
    lambda: tf.placeholder_with_default([1.0, 2.0], shape=[3])).split(":")[0]
x = tf.placeholder(tf.float32, [None])
with tf.Session() as sess:
    out["default"] = sess.run(y)
    out["fed"] = sess.run(y, {p: [5.0, 6.0, 7.0]})
    out["q"] = sess.run(q)
    out["grad"] = sess.run(tf.gradients(tf.reduce_sum(p * p), p)[0])
''',
    "global_step": '''
out["none_yet"] = str(tf.train.get_global_step())
step = tf.train.get_or_create_global_step()
out["step"] = [step.name, step.dtype.name, str(step.shape.as_list()), step.trainable]
out["same"] = [tf.train.get_global_step() is step,
               tf.train.get_or_create_global_step() is step]
out["collections"] = [names(tf.get_collection(tf.GraphKeys.GLOBAL_STEP)),
                      names(tf.global_variables()), names(tf.trainable_variables())]
out["again"] = error_of(tf.train.create_global_step)
w = tf.get_variable("w", [], initializer=tf.constant_initializer(3.0))
loss = tf.square(w)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train)
    out["after"] = sess.run([step, w])
''',
    "regularization": '''
def half_sum(t):
    return tf.identity(tf.reduce_sum(t) * 0.5, name="half")
with tf.variable_scope("reg", regularizer=half_sum):
    g = tf.get_variable("g", [2], initializer=tf.ones_initializer())
    h = tf.get_variable("h", [2], initializer=tf.ones_initializer(),
                        regularizer=lambda t: tf.reduce_sum(t * 3.0))
    n = tf.get_variable("n", [1], initializer=tf.ones_initializer(), regularizer=lambda t: None)
with tf.variable_scope("other"):
    k = tf.get_variable("k", [3], initializer=tf.ones_initializer(), regularizer=half_sum)
losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
out["names"] = names(losses)
out["scoped"] = names(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES, "reg"))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["losses"] = sess.run(losses)
''',
    "two_layer_model": '''
def dense(x, units, scope):
    with tf.variable_scope(scope):
        w = tf.get_variable("w", [x.shape[1], units], initializer=tf.constant_initializer(0.1))
        b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
        return tf.matmul(x, w) + b
x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
pred = dense(tf.nn.tanh(dense(x, 4, "layer1")), 1, "layer2")
loss = tf.reduce_mean(tf.square(pred - y))
train = tf.train.AdamOptimizer(0.05).minimize(loss)
with tf.variable_scope("layer1", reuse=True):
    shared = tf.get_variable("w")
out["variables"] = names(tf.trainable_variables())
xs = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
ys = xs @ np.array([[0.5], [-1.0], [2.0]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(20):
        _, value = sess.run([train, loss], {x: xs, y: ys})
    out["loss"] = value
    out["shared_w"] = sess.run(shared)
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name], rtol=1e-4)


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


def _printed(fetch, runs=1):
    stream = io.StringIO()
    with contextlib.redirect_stderr(stream), v1.Session() as sess:
        for _ in range(runs):
            value = sess.run(fetch)
    return value, stream.getvalue()


def test_print_writes_tensorflow_1s_summaries():
    """The lines TensorFlow 2.21 printed for the same ops (stderr of its Print kernel)."""
    with tf.Graph().as_default():
        x = tf.constant([[1.5, 2.0, 3.0], [4.0, 5.0, 6.0]])
        p = v1.Print(x, [x, tf.constant(7), tf.constant([1, 2]), tf.constant(["a", "b"]),
                         tf.constant(2.5)], "msg: ")
        value, text = _printed(p)
        np.testing.assert_array_equal(value, [[1.5, 2.0, 3.0], [4.0, 5.0, 6.0]])
        assert text == "msg: [[1.5 2 3]...][7][1 2][a b][2.5]\n"
        _, text = _printed(v1.Print(tf.constant(1), [x], first_n=2, summarize=10), runs=3)
        assert text == "[[1.5 2 3][4 5 6]]\n" * 2
        _, text = _printed(v1.Print(tf.constant(1), [tf.range(10)]))
        assert text == "[0 1 2...]\n"
        cube = tf.constant(np.arange(24).reshape(2, 3, 4))
        _, text = _printed(v1.Print(tf.constant(1), [cube], summarize=5))
        assert text == "[[[0 1 2 3][4...]]...]\n"
        _, text = _printed(v1.Print(tf.constant(0.943238378), [tf.constant(0.943238378)]))
        assert text == "[0.943238378]\n"


def test_print_passes_the_gradient_to_its_input():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        y = v1.Print(x * 3.0, [x])
        grad = tf.gradients(tf.reduce_sum(y * y), x)[0]
        value, _ = _printed(grad)
        np.testing.assert_allclose(value, 18.0 * np.array([1.0, 2.0]))


def test_eager_print_prints_at_once_and_returns_its_input():
    stream = io.StringIO()
    with contextlib.redirect_stderr(stream):
        y = v1.Print(tf.constant([1.0, 2.0]), [tf.constant(3)], "eager ")
    assert stream.getvalue() == "eager [3]\n"
    np.testing.assert_array_equal(y.numpy(), [1.0, 2.0])


def test_regularization_losses_and_their_sum():
    with tf.Graph().as_default():
        with v1.variable_scope("reg", regularizer=lambda t: tf.reduce_sum(t) * 0.5):
            v1.get_variable("g", [2], initializer=v1.ones_initializer())
        with v1.variable_scope("other"):
            v1.get_variable("k", [3], initializer=v1.ones_initializer(),
                            regularizer=tf.reduce_sum)
        assert len(get_regularization_losses()) == 2
        assert len(get_regularization_losses("reg")) == 1
        total = get_regularization_loss()
        assert total.name == "total_regularization_loss:0"
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess.run([total, get_regularization_loss("other"),
                             get_regularization_loss("none")]) == [4.0, 3.0, 0.0]


def test_assign_refuses_validate_shape_false_and_non_variables():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0])
        with pytest.raises(NotImplementedError, match="validate_shape"):
            v1.assign(v, [1.0, 2.0, 3.0], validate_shape=False)
        with pytest.raises(TypeError, match="ref must be a variable"):
            v1.assign(tf.constant(1.0), 2.0)
