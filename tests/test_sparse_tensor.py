"""The minimal tf.sparse.SparseTensor and its conversions (to_dense, from_dense, reorder):
against NumPy, gradients of to_dense / from_dense / reorder w.r.t. values by finite differences,
graph mode, errors, and against TensorFlow 2.21 when it is installed."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.testing import check_grads


def _st(indices, values, shape):
    return tf.sparse.SparseTensor(indices, values, shape)


def test_fields_shape_dtype_and_repr():
    st = _st([[0, 1], [2, 0]], [1.5, -2.0], [3, 4])
    assert tf.SparseTensor is tf.sparse.SparseTensor
    assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
    assert st.dtype == tf.float32 and st.values.shape == (2,)
    assert st.shape == tf.TensorShape([3, 4]) and st.get_shape() == st.shape
    np.testing.assert_array_equal(st.indices.numpy(), [[0, 1], [2, 0]])
    np.testing.assert_array_equal(st.dense_shape.numpy(), [3, 4])
    assert repr(st).startswith("SparseTensor(indices=") and "dense_shape=" in repr(st)


def test_int32_indices_become_int64():
    st = _st(tf.constant([[0], [3]], tf.int32), [1, 2], tf.constant([5], tf.int32))
    assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
    assert st.dtype == tf.int32


def test_bad_shapes_are_named():
    with pytest.raises(ValueError, match="same number N"):
        _st([[0, 1], [1, 1]], [1.0], [2, 2])
    with pytest.raises(ValueError, match="one column per"):
        _st([[0, 1]], [1.0], [2, 2, 2])
    with pytest.raises(ValueError, match="values must be a vector"):
        _st([[0, 1]], [[1.0]], [2, 2])
    with pytest.raises(TypeError, match="int64"):
        _st([[0.0, 1.0]], [1.0], [2, 2])
    with pytest.raises(TypeError, match="sparse.to_dense: expected a SparseTensor"):
        tf.sparse.to_dense(np.zeros((2, 2)))


def test_to_dense_and_default_value():
    st = _st([[0, 1], [1, 0], [1, 2]], [1.0, 2.0, 3.0], [2, 3])
    np.testing.assert_array_equal(tf.sparse.to_dense(st).numpy(), [[0, 1, 0], [2, 0, 3]])
    np.testing.assert_array_equal(tf.sparse.to_dense(st, default_value=-1.0).numpy(),
                                  [[-1, 1, -1], [2, -1, 3]])
    ints = _st([[2]], tf.constant([7], tf.int32), [4])
    np.testing.assert_array_equal(tf.sparse.to_dense(ints).numpy(), [0, 0, 7, 0])


def test_to_dense_validates_indices_as_tensorflow_does():
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of order"):
        tf.sparse.to_dense(_st([[1, 0], [0, 2]], [1.0, 2.0], [2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="repeated"):
        tf.sparse.to_dense(_st([[0, 0], [0, 0]], [1.0, 2.0], [2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        tf.sparse.to_dense(_st([[5, 0]], [1.0], [2, 3]))
    unordered = _st([[1, 0], [0, 2]], [1.0, 2.0], [2, 3])
    np.testing.assert_array_equal(tf.sparse.to_dense(unordered, validate_indices=False).numpy(),
                                  [[0, 0, 2], [1, 0, 0]])


def test_from_dense_round_trip():
    x = np.array([[0.0, 1.5, 0.0], [-2.0, 0.0, 3.0]])
    st = tf.sparse.from_dense(x)
    np.testing.assert_array_equal(st.indices.numpy(), [[0, 1], [1, 0], [1, 2]])
    np.testing.assert_array_equal(st.values.numpy(), [1.5, -2.0, 3.0])
    np.testing.assert_array_equal(st.dense_shape.numpy(), [2, 3])
    np.testing.assert_array_equal(tf.sparse.to_dense(st).numpy(), x)


def test_reorder_sorts_row_major_and_carries_values():
    st = _st([[1, 2, 0], [0, 1, 1], [1, 0, 3], [0, 1, 0]], [1.0, 2.0, 3.0, 4.0], [2, 3, 4])
    out = tf.sparse.reorder(st)
    np.testing.assert_array_equal(out.indices.numpy(),
                                  [[0, 1, 0], [0, 1, 1], [1, 0, 3], [1, 2, 0]])
    np.testing.assert_array_equal(out.values.numpy(), [4.0, 2.0, 3.0, 1.0])


def test_gradients_flow_to_values():
    idx = [[0, 1], [1, 0], [1, 2]]
    check_grads(lambda v: tf.sparse.to_dense(_st(idx, v, [2, 3])) ** 2,
                [np.array([0.5, -1.0, 2.0])], order=2)
    check_grads(lambda v: tf.sparse.to_dense(_st(idx, v, [2, 3]), default_value=0.25) ** 2,
                [np.array([0.5, -1.0, 2.0])], order=1)
    check_grads(lambda v: tf.sparse.reorder(_st([[1, 0], [0, 2]], v, [2, 3])).values ** 3,
                [np.array([0.5, -1.5])], order=2)
    x = np.array([[0.0, 1.5], [-2.0, 0.0]])
    with tf.GradientTape() as tape:
        xt = tf.constant(x)
        tape.watch(xt)
        total = tf.reduce_sum(tf.sparse.from_dense(xt).values * tf.constant([3.0, 5.0], tf.float64))
    np.testing.assert_array_equal(tape.gradient(total, xt).numpy(), [[0, 3], [5, 0]])


def test_graph_mode_reorder_and_to_dense():
    g = tf.Graph()
    with g.as_default():
        idx = tf.compat.v1.placeholder(tf.int64, [None, 2])
        vals = tf.compat.v1.placeholder(tf.float32, [None])
        st = tf.sparse.reorder(_st(idx, vals, [2, 3]))
        dense = tf.sparse.to_dense(st)
        assert st.shape == tf.TensorShape([2, 3])
    with tf.compat.v1.Session(graph=g) as sess:
        out = sess.run(dense, {idx: [[1, 0], [0, 2]], vals: [1.0, 2.0]})
    np.testing.assert_array_equal(out, [[0, 0, 2], [1, 0, 0]])


def _parts(st):
    return [st.indices, st.values, st.dense_shape]


CASES = [
    TFCase("to_dense", "tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 1], [1, 0]], x0, [2, 3]),"
                       " default_value=0.5)",
           lambda v: tf.sparse.to_dense(_st([[0, 1], [1, 0]], v, [2, 3]), default_value=0.5),
           [np.array([1.0, -2.0])], wrt=(0,)),
    TFCase("from_dense", "(lambda s: [s.indices, s.values, s.dense_shape])(tf.sparse.from_dense("
                         "x0))", lambda x: _parts(tf.sparse.from_dense(x)),
           [np.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])], wrt=(0,)),
    TFCase("reorder", "(lambda s: [s.indices, s.values, s.dense_shape])(tf.sparse.reorder("
                      "tf.sparse.SparseTensor([[2, 1], [0, 3], [2, 0]], x0, [3, 4])))",
           lambda v: _parts(tf.sparse.reorder(_st([[2, 1], [0, 3], [2, 0]], v, [3, 4]))),
           [np.array([1.0, 2.0, 3.0])], wrt=(0,)),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name])
