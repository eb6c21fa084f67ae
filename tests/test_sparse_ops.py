"""tf.sparse beyond the op table: bad input (TensorFlow's error classes, naming the entry and
the shapes), graph mode through placeholders and a Session, and finite-difference gradients of
the functions composed of other ops (slice, split, concat, transpose...)."""
import numpy as np
import pytest

import wengert as tf
from wengert.testing import check_grads

IDX = np.array([[0, 1], [1, 0], [1, 2], [2, 2]], np.int64)


def sp(values, indices=IDX, shape=(4, 3)):
    return tf.sparse.SparseTensor(indices, values, list(shape))


def test_out_of_range_indices_name_the_entry():
    bad = sp([1., 2.], np.array([[0, 1], [5, 0]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"m \(5\) from index\[1,0\]"):
        tf.sparse.sparse_dense_matmul(bad, tf.ones([3, 1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[5, 0\]"):
        tf.sparse.add(bad, sp([1., 2.], np.array([[0, 0], [1, 1]])))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[5, 0\]"):
        tf.sparse.reduce_sum(bad, axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[5, 0\]"):
        tf.sparse.to_dense(bad)


def test_out_of_order_indices_name_the_entry():
    unordered = sp([1., 2.], np.array([[1, 0], [0, 1]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\].*out of order"):
        tf.sparse.to_dense(unordered)
    np.testing.assert_array_equal(tf.sparse.to_dense(tf.sparse.reorder(unordered)).numpy(),
                                  [[0, 2, 0], [1, 0, 0], [0, 0, 0], [0, 0, 0]])


def test_shape_mismatches_name_the_op_and_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="SparseTensorDenseMatMul.*inner dimension does not match: 3 vs. 2"):
        tf.sparse.sparse_dense_matmul(sp([1., 2., 3., 4.]), tf.ones([2, 1]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="SparseAdd.*shapes do not match: got 4 and 5 for dimension 0"):
        tf.sparse.add(sp([1., 2., 3., 4.]), sp([1., 2., 3., 4.], shape=(5, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="SparseTensorDenseAdd.*sparse side 4 vs dense side 2"):
        tf.sparse.add(sp([1., 2., 3., 4.]), tf.ones([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension 2"):
        tf.sparse.reduce_sum(sp([1., 2., 3., 4.]), axis=2)
    with pytest.raises(TypeError, match="At least one input should be SparseTensor"):
        tf.sparse.add(tf.ones([2]), tf.ones([2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input shapes must match"):
        tf.sparse.concat(0, [sp([1., 2., 3., 4.]), sp([1., 2., 3., 4.], shape=(4, 4))])


def test_dtype_mismatch_is_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match="SparseTensorDenseMatMul"):
        tf.sparse.sparse_dense_matmul(sp(np.ones(4, np.float32)), tf.ones([3, 1], tf.float64))


def test_graph_mode_through_placeholders():
    values = np.array([1., 2., 3., 4.])
    b = np.arange(6.).reshape(3, 2)
    with tf.Graph().as_default():
        v = tf.compat.v1.placeholder(tf.float64, [None])
        d = tf.compat.v1.placeholder(tf.float64, [3, 2])
        a = tf.sparse.SparseTensor(tf.constant(IDX), v, tf.constant([4, 3], tf.int64))
        product = tf.sparse.sparse_dense_matmul(a, d)
        total = tf.sparse.reduce_sum(tf.sparse.add(a, a), axis=1)
        soft = tf.sparse.softmax(a).values
        grads = tf.gradients(tf.reduce_sum(product) + tf.reduce_sum(soft * soft), [v, d])
        assert product.shape.as_list() == [4, 2]
        with tf.compat.v1.Session() as sess:
            got = sess.run([product, total, grads], {v: values, d: b})
    dense = np.zeros((4, 3))
    dense[tuple(IDX.T)] = values
    np.testing.assert_allclose(got[0], dense @ b)
    np.testing.assert_allclose(got[1], 2 * dense.sum(1))
    np.testing.assert_allclose(got[2][1], dense.T @ np.ones((4, 2)))


@pytest.mark.parametrize("fn", [
    lambda v: tf.sparse.slice(sp(v), [1, 0], [2, 3]).values,
    lambda v: tf.concat([s.values for s in tf.sparse.split(sp_input=sp(v), num_split=2,
                                                           axis=1)], 0),
    lambda v: tf.sparse.concat(1, [sp(v), sp(v * v)]).values,
    lambda v: tf.sparse.transpose(sp(v)).values,
    lambda v: tf.sparse.retain(sp(v), [True, False, True, True]).values,
    lambda v: tf.sparse.to_dense(tf.sparse.expand_dims(sp(v), 0)),
], ids=["slice", "split", "concat", "transpose", "retain", "expand_dims"])
def test_composed_functions_differentiate_the_values(fn):
    check_grads(fn, [np.array([0.3, -1.2, 0.7, 2.1])], order=2)


def test_reduce_max_and_sparse_outputs_have_no_gradient():
    v = tf.constant([1., 2., 3., 4.])
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = tf.sparse.reduce_max(sp(v), axis=1)
    with pytest.raises(LookupError, match="SparseReduceMax"):
        tape.gradient(out, v)


def test_compat_v1_names():
    a = sp([1., 2., 3., 4.])
    np.testing.assert_allclose(
        tf.compat.v1.sparse.reduce_sum(a, reduction_axes=1, keep_dims=True).numpy(),
        [[1.], [5.], [4.], [0.]])
    out = tf.compat.v1.sparse.reduce_sum_sparse(a, axis=0)
    assert out.indices.numpy().tolist() == [[0], [1], [2]]
    total = tf.compat.v1.sparse.add(a, a, thresh=0.5)
    np.testing.assert_allclose(total.values.numpy(), [2., 4., 6., 8.])


def test_reshape_and_fill_errors_are_tensorflows():
    a = sp([1., 2., 3., 4.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="12 dense values.*has 20"):
        tf.sparse.reshape(a, [4, 5])
    with pytest.raises(tf.errors.InvalidArgumentError, match="only one output dimension"):
        tf.sparse.reshape(a, [-1, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must all be non-negative"):
        tf.sparse.bincount([1, -1, 3])
    with pytest.raises(ValueError, match="mutually exclusive"):
        tf.sparse.bincount([1, 2], weights=[1., 2.], binary_output=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="shapes do not match"):
        tf.sparse.maximum(a, sp([1., 2., 3., 4.], shape=(4, 4)))


def test_new_ops_in_graph_mode():
    values = np.array([1., 2., 3., 4.])
    with tf.Graph().as_default():
        v = tf.compat.v1.placeholder(tf.float64, [None])
        a = tf.sparse.SparseTensor(tf.constant(IDX), v, tf.constant([5, 3], tf.int64))
        filled, empty = tf.sparse.fill_empty_rows(a, tf.constant(-1., tf.float64))
        grad = tf.gradients(tf.reduce_sum(filled.values * filled.values), v)[0]
        moved = tf.sparse.reshape(a, [3, 5])
        with tf.compat.v1.Session() as sess:
            got = sess.run([filled.values, empty, grad, moved.indices], {v: values})
    np.testing.assert_allclose(got[0], [1., 2., 3., 4., -1., -1.])
    assert got[1].tolist() == [False, False, False, True, True]
    np.testing.assert_allclose(got[2], 2 * values)
    assert got[3].tolist() == [[0, 1], [0, 3], [1, 0], [1, 3]]


def test_with_values_set_shape_and_dense_operands():
    a = sp([1., 2., 3., 4.])
    assert a.with_values(a.values * 10).values.numpy().tolist() == [10., 20., 30., 40.]
    a.set_shape([4, None])
    with pytest.raises(ValueError, match="not compatible"):
        a.set_shape([3, 3])
    assert (a * 2.).values.numpy().tolist() == [2., 4., 6., 8.]
    assert (a / tf.constant([1., 2., 4.])).values.numpy().tolist() == [0.5, 2., 0.75, 1.]
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not broadcast"):
        a * tf.ones([2, 2])
    with pytest.raises(TypeError):
        a + 1.  # noqa: B018 (TensorFlow defines no sparse + dense operator)
