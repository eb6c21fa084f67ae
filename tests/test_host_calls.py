"""Output and host calls (issue 14 item 5): tf.print, py_function (differentiable),
numpy_function, the tf.debugging.assert_* family, ensure_shape, tf.nest, TensorSpec."""
import collections
import io
import sys

import numpy as np
import pytest

import wengert as tf


def printed(*args, **kwargs):
    stream = io.StringIO()
    tf.print(*args, output_stream=stream, **kwargs)
    return stream.getvalue()


def test_print_formats_as_tensorflow():
    assert printed(tf.constant([1.5, 2.0, 1 / 3]), tf.constant(7), "text",
                   {"a": tf.constant([1, 2])}) == "[1.5 2 0.333333343] 7 text {'a': [1 2]}\n"
    assert printed(tf.range(10), summarize=2) == "[0 1 ... 8 9]\n"
    assert printed(tf.reshape(tf.range(6), [2, 3])) == "[[0 1 2]\n [3 4 5]]\n"
    assert printed(tf.constant(["ab", "c"]), tf.constant(True), sep="|", end="<\n") == \
        '["ab" "c"]|1<\n'
    assert printed(tf.range(8), summarize=-1) == "[0 1 2 3 4 5 6 7]\n"
    assert printed([1, tf.constant(2.5)]) == "[1, 2.5]\n"


def test_print_in_a_function_runs_every_call(capsys, tmp_path):
    @tf.function
    def f(x):
        tf.print("x =", x, output_stream=sys.stdout)
        return x * 2.0
    f(tf.constant(1.0))
    f(tf.constant(2.0))
    with tf.GradientTape() as tape:  # the replayed (differentiable) call prints too
        x = tf.constant(3.0)
        tape.watch(x)
        f(x)
    assert capsys.readouterr().out == "x = 1\nx = 2\nx = 3\n"
    path = tmp_path / "log.txt"
    tf.print("to a file", output_stream=f"file://{path}")
    assert path.read_text() == "to a file\n"


def test_print_in_a_graph_session(capsys):
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2])
        op = tf.print("value:", x, output_stream=sys.stdout)
        with tf.compat.v1.Session() as sess:
            sess.run(op, {x: [1.0, 2.0]})
    assert capsys.readouterr().out == "value: [1 2]\n"


def test_py_function_is_differentiable_to_second_order():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.py_function(lambda a: a ** 3, [x], tf.float32)
        g = inner.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), [3.0, 12.0])
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), [6.0, 12.0])

    @tf.function
    def traced(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            out = tf.py_function(lambda v: tf.sin(v) * 2.0, [a], tf.float32)
        return out, tape.gradient(out, a)
    value, grad = traced(x)
    np.testing.assert_allclose(grad.numpy(), 2 * np.cos([1.0, 2.0]), rtol=1e-6)


def test_py_function_outputs_and_errors():
    pair = tf.py_function(lambda a: (a + 1, tf.strings.as_string(a)), [tf.constant(1)],
                          [tf.int32, tf.string])
    assert int(pair[0]) == 2 and pair[1].numpy() == b"1"
    with pytest.raises(tf.errors.InvalidArgumentError, match="returned 2 value"):
        tf.py_function(lambda a: (a, a), [tf.constant(1.0)], tf.float32)
    calls = []

    @tf.function
    def side_effect(a):
        return tf.py_function(lambda v: calls.append(1) or v, [a], tf.float32)
    side_effect(tf.constant(1.0))
    side_effect(tf.constant(2.0))
    assert len(calls) == 2  # runs each call, not only while tracing


def test_numpy_function():
    out = tf.numpy_function(lambda a: np.sort(a)[::-1].copy(), [tf.constant([3, 1, 2])],
                            tf.int32)
    assert out.numpy().tolist() == [3, 2, 1]
    x = tf.constant([1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.numpy_function(lambda a: a * 2, [x], tf.float32)
    assert tape.gradient(y, x) is None  # no gradient, as in TensorFlow


def test_asserts_eagerly():
    tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"oops(.|\n)*x == y(.|\n)*\[1 3\]"):
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]), message="oops")
    with pytest.raises(tf.errors.InvalidArgumentError, match="x > 0"):
        tf.debugging.assert_positive(tf.constant([1.0, -2.0]))
    tf.debugging.assert_non_negative(tf.constant([0, 1]))
    tf.debugging.assert_less(tf.constant(1.0), 2.0)
    tf.debugging.assert_near(tf.constant(1.0), tf.constant(1.0 + 1e-7))
    with pytest.raises(tf.errors.InvalidArgumentError, match="tolerance"):
        tf.debugging.assert_near(tf.constant(1.0), tf.constant(1.1))
    with pytest.raises(ValueError, match="must have rank 2"):
        tf.debugging.assert_rank(tf.constant([1, 2]), 2)
    with pytest.raises(TypeError, match="tf.float32"):
        tf.debugging.assert_type(tf.constant([1, 2]), tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="incompatible shapes"):
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Summarized data"):
        tf.debugging.Assert(False, [tf.constant(1)])


def test_asserts_in_a_function_check_when_run():
    @tf.function
    def checked(x):
        tf.debugging.assert_positive(x, message="need positive")
        return tf.sqrt(x)
    assert checked(tf.constant([4.0])).numpy().tolist() == [2.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="need positive"):
        checked(tf.constant([-4.0]))


def test_ensure_shape():
    x = tf.constant([[1.0, 2.0, 3.0]])
    assert tf.ensure_shape(x, [None, 3]) is not None
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[1, 3\].*\(2, 3\)|compatible"):
        tf.ensure_shape(x, [2, 3])

    @tf.function(input_signature=[tf.TensorSpec([None, None])])
    def refine(v):
        out = tf.ensure_shape(v, [None, 3])
        assert out.shape.as_list() == [None, 3]  # the static shape is refined
        return out * 2.0
    assert refine(x).shape == (1, 3)
    with pytest.raises(tf.errors.InvalidArgumentError):
        refine(tf.ones([2, 2]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.ensure_shape(x, [1, 3]) ** 2)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[2.0, 4.0, 6.0]])


def test_nest_and_type_specs():
    assert tf.nest.flatten({"b": 1, "a": [2, 3]}) == [2, 3, 1]
    assert tf.nest.map_structure(lambda a, b: a + b, (1, {"x": 2}), (10, {"x": 20})) == (
        11, {"x": 22})
    Point = collections.namedtuple("Point", "x y")
    assert tf.nest.pack_sequence_as(Point(0, 0), [5, 6]) == Point(5, 6)
    with pytest.raises(ValueError, match="same nested structure"):
        tf.nest.assert_same_structure((1, 2), (1, [2, 3]))
    with pytest.raises(TypeError, match="sequence type"):
        tf.nest.assert_same_structure((1, 2), [1, 2])
    assert tf.nest.is_nested([1]) and not tf.nest.is_nested(tf.constant(1))
    spec = tf.type_spec_from_value(tf.constant([1.0, 2.0]))
    assert spec == tf.TensorSpec([2], tf.float32)
    assert tf.TensorSpec([None, 2]).is_compatible_with(tf.zeros([5, 2]))
    assert not tf.TensorSpec([None, 2]).is_compatible_with(tf.zeros([5, 3]))


def test_assert_near_builds_in_a_graph_and_checks_when_run():
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [2])
        check = tf.debugging.assert_near(x, [1.0, 2.0], rtol=1e-3, name="near")
        assert check.name == "near/Assert"
        with v1.Session() as sess:
            sess.run(check, {x: [1.0, 2.0005]})
            with pytest.raises(tf.errors.InvalidArgumentError, match="rtol=0.001"):
                sess.run(check, {x: [1.0, 3.0]})
