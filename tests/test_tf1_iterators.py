"""TensorFlow 1's dataset iterators in a graph, as TensorFlow 2.21's tf.compat.v1.data runs
them: a one-shot iterator reads the dataset once across Session.run calls, an initializable
one restarts on its initializer, and the errors TensorFlow raises."""
import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1


def test_one_shot_iterator_reads_once_across_runs():
    graph = tf.Graph()
    with graph.as_default():
        dataset = v1.data.Dataset.range(3).map(lambda x: (x, x * 2))
        iterator = v1.data.make_one_shot_iterator(dataset)
        first, second = iterator.get_next()
        assert (first.name, second.name) == ("IteratorGetNext:0", "IteratorGetNext:1")
        assert iterator.output_types == (tf.int64, tf.int64)
        assert v1.data.get_output_shapes(iterator) == (tf.TensorShape([]), tf.TensorShape([]))
        with v1.Session() as sess:
            assert [tuple(int(v) for v in sess.run((first, second))) for _ in range(3)] == [
                (0, 0), (1, 2), (2, 4)]
            with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
                sess.run(first)
        optional = v1.data.make_one_shot_iterator(dataset).get_next_as_optional()
        with v1.Session() as sess:
            assert [bool(sess.run(optional.has_value())) for _ in range(4)] == [True] * 3 + [
                False]


def test_initializable_iterator_restarts_and_refuses_reads_before_it():
    graph = tf.Graph()
    with graph.as_default():
        iterator = v1.data.make_initializable_iterator(
            v1.data.Dataset.from_tensor_slices(np.arange(4.)).batch(2))
        batch = iterator.get_next()
        assert batch.shape.as_list() == [None]
        with v1.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError, match="has not been "
                                                                        "initialized"):
                sess.run(batch)
            sess.run(iterator.initializer)
            assert sess.run(batch).tolist() == [0., 1.]
            sess.run(iterator.initializer)
            assert [sess.run(batch).tolist() for _ in range(2)] == [[0., 1.], [2., 3.]]


def test_a_tf1_input_loop_trains():
    graph = tf.Graph()
    with graph.as_default():
        x = np.linspace(-1, 1, 64).astype(np.float32)
        dataset = v1.data.Dataset.from_tensor_slices((x, 3 * x + 1)).repeat().batch(16)
        features, labels = v1.data.make_one_shot_iterator(dataset).get_next()
        w, b = v1.get_variable("w", [], initializer=v1.zeros_initializer()), \
            v1.get_variable("b", [], initializer=v1.zeros_initializer())
        loss = v1.losses.mean_squared_error(labels, w * features + b)
        train = v1.train.GradientDescentOptimizer(0.5).minimize(loss)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(200):
                sess.run(train)
            assert sess.run([w, b]) == pytest.approx([3., 1.], abs=1e-3)


def test_eager_forms():
    iterator = v1.data.make_one_shot_iterator(tf.data.Dataset.range(2))
    assert [int(v) for v in iterator] == [0, 1]
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        v1.data.make_initializable_iterator(tf.data.Dataset.range(2))
