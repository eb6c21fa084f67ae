"""RaggedTensor without TensorFlow: printed forms (TensorFlow 2.21's text), to_list and numpy,
the static shape, gradients through the flat values against central differences in float64,
the partitions built inside a tf.function, and the errors for bad partitions and bad
arguments."""
import numpy as np
import pytest

import wengert as tf
from keras_ops_checks import numeric_gradient_check

RNG = np.random.default_rng(7)
R = tf.RaggedTensor


def test_printed_forms_match_tensorflow():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert repr(rt) == "<tf.RaggedTensor [[1, 2], [3]]>" == str(rt)
    r3 = tf.ragged.constant([[[1., 2.], [3.]], [], [[4.]]])
    assert repr(r3) == "<tf.RaggedTensor [[[1.0, 2.0], [3.0]], [], [[4.0]]]>"
    uniform = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert repr(uniform) == "<tf.RaggedTensor [[[1, 2],\n  [3, 4]], [[5, 6]]]>"
    assert repr(tf.ragged.constant([[b"a"], []])) == "<tf.RaggedTensor [[b'a'], []]>"


def test_to_list_numpy_and_static_shape():
    r3 = tf.ragged.constant([[[1, 2], [3]], [], [[4]]])
    assert r3.to_list() == [[[1, 2], [3]], [], [[4]]]
    assert r3.shape.as_list() == [3, None, None] and r3.ragged_rank == 2
    assert r3.dtype == tf.int32 and r3.row_splits.dtype == tf.int64
    rows = tf.ragged.constant([[1, 2], [3]]).numpy()
    assert rows.dtype == object and [r.tolist() for r in rows] == [[1, 2], [3]]
    assert tf.ragged.constant([[1, 2], [3, 4]]).numpy().tolist() == [[1, 2], [3, 4]]
    uniform = R.from_uniform_row_length(tf.range(6), 2)
    assert uniform.shape.as_list() == [3, 2]
    assert tf.ragged.constant([]).shape.as_list() == [0]  # ragged_rank 0: a dense tensor


def test_gradient_through_to_tensor_by_finite_differences():
    splits = np.array([0, 3, 3, 5], np.int64)

    def fn(v, d):
        return R.from_row_splits(v, splits).to_tensor(default_value=d, shape=[4, 2])
    numeric_gradient_check(fn, [RNG.standard_normal(5), np.array(0.25)], RNG)


def test_gradient_through_getitem_and_merge_dims_by_finite_differences():
    def fn(v):
        rt = R.from_nested_row_lengths(v, [[2, 1], [1, 0, 3]])
        return rt[:, :, 1:].merge_dims(0, 1).to_tensor()
    numeric_gradient_check(fn, [RNG.standard_normal(4)], RNG)


def test_partitions_in_a_function():
    @tf.function
    def padded(values, lengths):
        return R.from_row_lengths(values, lengths).to_tensor()
    out = padded(tf.constant([1., 2., 3.]), tf.constant([1, 0, 2], tf.int64))
    np.testing.assert_array_equal(out.numpy(), [[1, 0], [0, 0], [2, 3]])


def test_validate_false_skips_the_checks():
    rt = R.from_row_splits([1, 2, 3], [0, 1, 3], validate=False)
    assert rt.to_list() == [[1], [2, 3]]


@pytest.mark.parametrize("build, error", [
    (lambda: R.from_row_splits([1, 2, 3], [0, 2, 1, 3]), tf.errors.InvalidArgumentError),
    (lambda: R.from_row_lengths([1, 2, 3], [2, -1, 2]), tf.errors.InvalidArgumentError),
    (lambda: R.from_value_rowids([1, 2], [0, 3], nrows=2), tf.errors.InvalidArgumentError),
    (lambda: R.from_uniform_row_length([1, 2, 3], 2, nrows=2), tf.errors.InvalidArgumentError),
    (lambda: R.from_row_splits([1, 2], [0.0, 2.0]), ValueError),
    (lambda: R.from_row_splits(1.0, [0, 1]), ValueError),
    (lambda: R.from_tensor([1, 2]), ValueError),
    (lambda: R.from_tensor([[1, 2]], lengths=[1], padding=0), ValueError),
    (lambda: tf.ragged.constant([[1], 2]), ValueError),
    (lambda: tf.ragged.constant([[1, 2], [3]]).merge_dims(1, 0), ValueError),
    (lambda: tf.ragged.constant([[1, 2], [3]]).with_values(tf.constant([1, 2])), ValueError),
    (lambda: tf.convert_to_tensor(tf.ragged.constant([[1, 2], [3]])), TypeError),
    (lambda: R.from_sparse(tf.SparseTensor([[0, 1]], [1.0], [2, 2])),
     tf.errors.InvalidArgumentError),
])
def test_bad_input(build, error):
    with pytest.raises(error):
        build()


def test_cross_and_shape_print_as_tensorflow():
    a = tf.ragged.constant([["a", "b"], ["c"]])
    b = tf.ragged.constant([[1], [2, 3]], dtype=tf.int64)
    crossed = tf.ragged.cross([a, b, tf.constant([["x"], ["y"]])])
    assert crossed.to_list() == [[b"a_X_1_X_x", b"b_X_1_X_x"], [b"c_X_2_X_y", b"c_X_3_X_y"]]
    r3 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert repr(tf.shape(r3)) == \
        "<DynamicRaggedShape lengths=[3, (2, 0, 1), (2, 1, 3)] num_row_partitions=2>"
    uniform = tf.RaggedTensor.from_uniform_row_length(tf.zeros([6, 2]), 3)
    assert repr(tf.shape(uniform)) == "<DynamicRaggedShape lengths=[2, 3, 2] num_row_partitions=1>"
    assert int(tf.shape(uniform)[1]) == 3


def test_gradient_through_elementwise_and_reductions_by_finite_differences():
    splits = np.array([0, 2, 3, 5], np.int64)

    def fn(v, d):
        rt = R.from_row_splits(v, splits)
        return tf.stack([tf.reduce_sum(tf.sin(rt) * rt + d, axis=1),
                         tf.reduce_mean(rt * rt, axis=1)])
    numeric_gradient_check(fn, [RNG.standard_normal(5), np.array(0.3)], RNG)


def test_gradient_reaches_the_dense_tensor_that_built_the_values():
    x = tf.constant(RNG.standard_normal((3, 4)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        rt = R.from_tensor(x * 2.0, lengths=[1, 4, 2])
        loss = tf.reduce_sum(tf.reduce_max(rt, axis=1))
    grad = tape.gradient(loss, x).numpy()
    want = np.zeros((3, 4))
    for i, n in enumerate([1, 4, 2]):
        want[i, int(np.argmax(x.numpy()[i, :n]))] = 2.0
    np.testing.assert_allclose(grad, want)


def test_compat_v1_value_and_placeholder():
    v1 = tf.compat.v1
    value = v1.ragged.RaggedTensorValue(np.array([1, 2, 3]), np.array([0, 2, 3]))
    assert value.to_list() == [[1, 2], [3]] and value.ragged_rank == 1
    with tf.Graph().as_default():
        p = v1.ragged.placeholder(tf.float32, 1)
        total = tf.reduce_sum(p * 2.0, axis=1)
        with v1.Session() as session:
            out = session.run(total, {p.flat_values: [1.0, 2.0, 3.0], p.row_splits: [0, 2, 3]})
    np.testing.assert_allclose(out, [6.0, 6.0])
