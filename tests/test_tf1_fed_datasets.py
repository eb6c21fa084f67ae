"""Datasets over placeholders in TensorFlow 1 graphs (data/fed_sources.py): the pipeline is
built over `tf.placeholder`s and each run of the initializable iterator's initializer with a
feed_dict starts a pass over the fed arrays, as in TensorFlow 2.21's `tf.compat.v1` (its
output for the same program is written below)."""
import numpy as np
import pytest

import wengert.compat.v1 as tf

TF_PRINTED = [[[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]], [1, 2], [[12.0, 14.0, 16.0]], [3], "end",
              [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]], [1, 2], "end"]


@pytest.fixture
def graph():
    with tf.Graph().as_default() as g:
        yield g


def test_feeding_two_arrays_through_one_pipeline(graph):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (a * 2.0, b + 1)).batch(2)
    it = tf.data.make_initializable_iterator(ds)
    shapes = tf.data.get_output_shapes(ds)
    assert [s.as_list() for s in shapes] == [[None, 3], [None]]
    assert tf.data.get_output_types(ds) == (tf.float32, tf.int64)
    nxt, printed = it.get_next(), []
    with tf.Session() as sess:
        for arr in (np.arange(9, dtype=np.float32).reshape(3, 3), np.ones((2, 3), np.float32)):
            sess.run(it.initializer, {x: arr, y: np.arange(len(arr))})
            while True:
                try:
                    a, b = sess.run(nxt)
                    printed += [a.tolist(), b.tolist()]
                except tf.errors.OutOfRangeError:
                    printed.append("end")
                    break
    assert printed == TF_PRINTED


def test_from_tensors_and_constants_beside_placeholders(graph):
    x = tf.placeholder(tf.int32, [2], name="x")
    ds = tf.data.Dataset.from_tensors({"x": x, "k": np.int32(5)}).repeat(2)
    it = tf.data.make_initializable_iterator(ds)
    nxt = it.get_next()
    with tf.Session() as sess:
        sess.run(it.initializer, {x: [1, 2]})
        got = [sess.run(nxt) for _ in range(2)]
    assert [(g["x"].tolist(), int(g["k"])) for g in got] == [([1, 2], 5), ([1, 2], 5)]


def test_initializer_needs_the_feed_and_one_shot_refuses(graph):
    x = tf.placeholder(tf.float32, [None], name="x")
    ds = tf.data.Dataset.from_tensor_slices(x)
    with pytest.raises(ValueError, match="one-shot iterator"):
        tf.data.make_one_shot_iterator(ds)
    it = tf.data.make_initializable_iterator(ds)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="x"):
            sess.run(it.initializer)
    with pytest.raises(tf.errors.FailedPreconditionError, match="make_initializable_iterator"):
        next(iter(ds._stage()))
