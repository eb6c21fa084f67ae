"""tf.shape results used as shapes in graphs (issue 16 item 4): folded while the graph is built
when they are known (framework/static_value.py), read when the graph runs when they are not."""
import numpy as np
import pytest

import wengert as tf

v1 = tf.compat.v1


def _run(build, *shapes_and_values):
    with tf.Graph().as_default():
        holders = [v1.placeholder(tf.float32, s) for s, _ in shapes_and_values]
        out = build(*holders)
        with v1.Session() as sess:
            return out, sess.run(out, {h: v for h, (_, v) in zip(holders, shapes_and_values)})


X23 = np.arange(6, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize("dims", [[2, 3], [None, 3], [None, None]])
def test_reshape_to_the_shape_of_another(dims):
    out, value = _run(lambda x, y: tf.reshape(x, tf.shape(y)), ([None], np.arange(6.0)),
                      (dims, X23))
    np.testing.assert_array_equal(value, X23)
    assert out.shape.as_list() == dims


def test_reshape_with_a_computed_leading_dimension():
    out, value = _run(lambda x: tf.reshape(x, [tf.shape(x)[0], -1]),
                      ([None, 2, 3], np.zeros((4, 2, 3), np.float32)))
    assert value.shape == (4, 6) and out.shape.as_list() == [None, None]
    _, value = _run(lambda x: tf.reshape(x, tf.stack([tf.shape(x)[0], 6])),
                    ([None, 2, 3], np.zeros((4, 2, 3), np.float32)))
    assert value.shape == (4, 6)


def test_known_shapes_fold_while_building():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [2, 3])
        size = tf.shape(x)[0] * tf.shape(x)[1]
        assert tf.get_static_value(size) == 6 and int(size) == 6
        out = tf.reshape(x, [size])
        assert out.shape.as_list() == [6]
        assert out.op.get_attr("shape") == (6,)      # an attribute: nothing left to run
        assert tf.zeros(tf.shape(x)).shape.as_list() == [2, 3]
        assert tf.one_hot([0, 1], tf.shape(x)[1]).shape.as_list() == [2, 3]
        assert tf.eye(tf.shape(x)[0]).shape.as_list() == [2, 2]


def test_placeholder_values_are_not_folded():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.int32, [])
        assert tf.get_static_value(x + 1) is None
        with pytest.raises(TypeError, match="not known while the graph is built"):
            int(x)


@pytest.mark.parametrize("make", [
    lambda x: tf.zeros(tf.shape(x)), lambda x: tf.ones([tf.shape(x)[0], 2]),
    lambda x: tf.fill(tf.shape(x), 2.0), lambda x: tf.broadcast_to(x[:1], tf.shape(x)),
    lambda x: tf.scatter_nd([[0]], x[:1], tf.shape(x))])
def test_creation_from_runtime_shapes(make):
    _, value = _run(make, ([None, 3], X23))
    eager = make(tf.constant(X23)).numpy()
    np.testing.assert_array_equal(value, eager)


def test_gradients_through_a_runtime_reshape():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        y = tf.reshape(x * x, [tf.shape(x)[0] * 3])
        (g,) = tf.gradients(tf.reduce_sum(y), [x])
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(g, {x: X23}), 2 * X23)


def test_traced_function_with_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def flatten_pairs(x):
        return tf.reshape(x, [-1, tf.shape(x)[1] * 2])
    assert flatten_pairs(tf.zeros([4, 3])).shape == (2, 6)


def test_unknown_shapes_say_what_to_do():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        perm = tf.stack([tf.shape(x)[0] * 0 + 1, 0])  # a permutation known only when it runs
        with pytest.raises(TypeError, match="known while the graph is built"):
            tf.transpose(x, perm)


def test_required_space_to_batch_paddings():
    """TensorFlow 2.21: input [5, 7], block [2, 4] -> paddings [[0, 1], [0, 1]], crops the same."""
    paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 4])
    assert paddings.numpy().tolist() == [[0, 1], [0, 1]]
    assert crops.numpy().tolist() == [[0, 1], [0, 1]]

def test_shapes_equal_lists_tuples_and_none_as_in_tensorflow():
    assert tf.TensorShape([64]) == [64] and [64] == tf.TensorShape([64])
    assert tf.TensorShape([None, 3]) == [None, 3] and tf.TensorShape([2, 3]) == (2, 3)
    assert tf.TensorShape(None) == None  # noqa: E711 - TensorFlow's unknown rank equals None
    assert tf.TensorShape([2]) != [3] and not tf.TensorShape([2]) != [2]
    assert tf.TensorShape(None) != tf.TensorShape([])  # an unknown rank is not a scalar
    assert tf.TensorShape([2]) != "ab"
    assert {tf.TensorShape([2, 3]): "kept"}[(2, 3)] == "kept"
