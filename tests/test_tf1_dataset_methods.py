"""TensorFlow 1's Dataset methods (tf1/dataset_v1.py): `make_one_shot_iterator()`,
`make_initializable_iterator()` over a placeholder, `output_types`/`output_shapes`/
`output_classes`, and the legacy-function map and filter, with what TensorFlow 2.21's
`tf.compat.v1` printed for the same program."""
import numpy as np

import wengert as tf2
import wengert.compat.v1 as tf


def test_tf1_program_with_dataset_methods():
    with tf.Graph().as_default():
        ds = tf.data.Dataset.from_tensor_slices(np.arange(5)).map(lambda v: v * 3).filter(
            lambda v: v > 2).batch(2)
        assert ds.output_types == tf.int64 and ds.output_shapes.as_list() == [None]
        assert ds.output_classes is tf2.Tensor
        nxt = ds.make_one_shot_iterator().get_next()
        x = tf.placeholder(tf.float32, [None])
        it = tf.data.Dataset.from_tensor_slices(x).make_initializable_iterator()
        with tf.Session() as sess:
            assert [sess.run(nxt).tolist() for _ in range(2)] == [[3, 6], [9, 12]]
            sess.run(it.initializer, {x: [1.5, 2.5]})
            assert (sess.run(it.get_next()), sess.run(it.get_next())) == (1.5, 2.5)


def test_legacy_function_forms_and_sparse_slices():
    ds = tf.data.Dataset.range(6).map_with_legacy_function(lambda v: v + 1)
    assert list(ds.filter_with_legacy_function(lambda v: v % 2 == 0).as_numpy_iterator()) == [
        2, 4, 6]
    sparse = tf2.SparseTensor([[0, 0], [2, 1]], [7, 8], [3, 2])
    rows = list(tf.data.Dataset.from_sparse_tensor_slices(sparse))
    assert [r.values.numpy().tolist() for r in rows] == [[7], [], [8]]
