"""A composite function's `name=` names the ops it builds, as TensorFlow's `name_scope(name,
default_name)` does: in a TensorFlow 1 graph each op of `f(x, name="foo")` is named "foo/...",
so code that finds tensors by name finds them. Eagerly names are unused and no scope is opened.
The expected names are TensorFlow 2.21's (graph mode, `tf.compat.v1.disable_eager_execution()`),
written as literals."""
import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1

# (function, call building it with name="foo", TensorFlow's name of the output's op; a name
# ending in "/" is the scope only (None: not compared), TensorFlow's own op inside it being a different sequence)
IMAGE = [4, 4, 3]
CASES = [
    ("assert_equal", [3], lambda x: tf.debugging.assert_equal(x, 1., name="foo"), "foo/"),
    ("assert_positive", [3], lambda x: tf.debugging.assert_positive(x, name="foo"), "foo/"),
    ("v1.assert_equal data", [3], lambda x: v1.assert_equal(x, 1., data=[x], name="foo"),
     "foo/"),
    ("assert_all_finite", [3], lambda x: tf.debugging.assert_all_finite(x, "m", name="foo"),
     None),
    ("resize", [1, 4, 4, 3], lambda x: tf.image.resize(x, [8, 8], name="foo"), "foo/"),
    ("total_variation", IMAGE, lambda x: tf.image.total_variation(x, name="foo"), "foo/add"),
    ("rgb_to_grayscale", IMAGE, lambda x: tf.image.rgb_to_grayscale(x, name="foo"), "foo/"),
    ("adjust_hue", IMAGE, lambda x: tf.image.adjust_hue(x, 0.1, name="foo"), "foo/"),
    ("psnr", IMAGE, lambda x: tf.image.psnr(x, x, 1., name="foo"), "foo/"),
    ("v1.image.rot90", IMAGE, lambda x: v1.image.rot90(x, name="foo"), "foo/"),
    ("stft", [64], lambda x: tf.signal.stft(x, 16, 8, name="foo"), "foo/"),
    ("frame", [64], lambda x: tf.signal.frame(x, 16, 8, name="foo"), "foo/"),
    ("dct", [8], lambda x: tf.signal.dct(x, name="foo"), "foo/"),
    ("hann_window", [8], lambda x: tf.signal.hann_window(8, name="foo"), "foo/"),
    ("v1.spectral.dct", [8], lambda x: v1.spectral.dct(x, name="foo"), "foo/"),
    ("lbeta", [3], lambda x: tf.math.lbeta(x, name="foo"), "foo/sub"),
    ("erfcinv", [3], lambda x: tf.math.erfcinv(x, name="foo"), "foo/mul_1"),
    ("is_non_decreasing", [3], lambda x: tf.math.is_non_decreasing(x, name="foo"), "foo/All"),
    ("v1.debugging.is_non_decreasing", [3],
     lambda x: v1.debugging.is_non_decreasing(x, name="foo"), "foo/All"),
    ("normalize", [3], lambda x: tf.linalg.normalize(x, name="foo"), "foo/truediv"),
    ("sort", [3], lambda x: tf.sort(x, name="foo"), "foo/Neg_1"),
    ("linspace", [3], lambda x: tf.linspace(0., 1., 5, name="foo"), "foo/"),
    ("moments", [3], lambda x: tf.nn.moments(x, [0], name="foo"), "foo/"),
    ("batch_normalization", [3],
     lambda x: tf.nn.batch_normalization(x, x, x, x, x, 1e-3, name="foo"), "foo/"),
    ("log_poisson_loss", [3], lambda x: tf.nn.log_poisson_loss(x, x, name="foo"), "foo/sub"),
    ("v1.nn.moments", [3], lambda x: v1.nn.moments(x, [0], name="foo"), "foo/"),
]


def _built(shape, call):
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape, name="x")
        out = call(x)
        names = [op.name for op in graph.get_operations() if op.name != "x"]
    first = out[0] if isinstance(out, (tuple, list)) else out
    return getattr(first, "op", first).name, names


@pytest.mark.parametrize("label, shape, call, tf_name", CASES, ids=[c[0] for c in CASES])
def test_name_scopes_the_ops_built(label, shape, call, tf_name):
    out, names = _built(shape, call)
    assert names and all(n.startswith("foo/") or n == "foo" for n in names), names
    if tf_name is None:  # wengert returns the input itself
        return
    if tf_name.endswith("/"):
        assert out.startswith(tf_name)
    else:
        assert out == tf_name


def test_default_names_and_uniquifying():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [3], name="x")
        a = tf.debugging.assert_positive(x)
        b = tf.debugging.assert_positive(x)
    assert a.name.startswith("assert_positive/") and b.name.startswith("assert_positive_1/")


def test_eager_calls_open_no_scope():
    x = tf.constant(np.array([1., 2., 3.], np.float32))
    assert tf.debugging.assert_positive(x, name="foo") is None
    with tf.name_scope("outer") as scope:
        tf.debugging.assert_equal(x, x, name="foo")
        assert tf.get_current_name_scope() == "outer"
    assert scope == "outer/"
