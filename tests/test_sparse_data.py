"""SparseTensors in tf.data: from_tensor_slices of a SparseTensor (rows as SparseTensors),
batch of sparse elements, sparse_batch of dense ones, and SparseTensorSpec in element_spec;
the expected values are what TensorFlow 2.21 prints for the same pipelines."""
import numpy as np
import pytest

import wengert as tf

ST = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])


def parts(sp):
    return sp.indices.numpy().tolist(), sp.values.numpy().tolist(), sp.dense_shape.numpy().tolist()


def test_rows_of_a_sparse_tensor():
    ds = tf.data.Dataset.from_tensor_slices(ST)
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([10]), tf.int32)"
    rows = list(ds)
    assert parts(rows[0]) == ([[2]], [31], [10])
    assert parts(rows[1]) == ([], [], [10])
    assert [int(tf.size(r.values)) for r in rows] == [1, 0, 0, 1]


def test_rows_in_a_structure():
    ds = tf.data.Dataset.from_tensor_slices(({"a": ST}, tf.range(4)))
    spec = ds.element_spec
    assert repr(spec[0]["a"]) == "SparseTensorSpec(TensorShape([10]), tf.int32)"
    assert spec[1] == tf.TensorSpec([], tf.int32)
    element = next(iter(ds.skip(3)))
    assert parts(element[0]["a"]) == ([[4]], [2], [10]) and int(element[1]) == 3


def test_batch_of_sparse_elements():
    ds = tf.data.Dataset.from_tensor_slices(ST).batch(3)
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([None, 10]), tf.int32)"
    assert [parts(b) for b in ds] == [([[0, 2]], [31], [3, 10]), ([[0, 4]], [2], [1, 10])]


def test_sparse_batch_of_dense_elements():
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([[1, 0], [0, 2], [3, 3]]))
    batches = ds.sparse_batch(2, [5])
    assert repr(batches.element_spec) == "SparseTensorSpec(TensorShape([None, 5]), tf.int32)"
    assert [parts(b) for b in batches] == [
        ([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 0, 0, 2], [2, 5]), ([[0, 0], [0, 1]], [3, 3], [1, 5])]
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not fit row_shape"):
        list(ds.sparse_batch(2, [1]))


def test_sparse_tensor_spec():
    spec = tf.SparseTensorSpec([None, 3], tf.float32)
    assert repr(spec) == "SparseTensorSpec(TensorShape([None, 3]), tf.float32)"
    assert spec.is_compatible_with(tf.sparse.SparseTensor([[0, 1]], [1.], [5, 3]))
    assert not spec.is_compatible_with(tf.sparse.SparseTensor([[0, 1]], [1], [5, 3]))
    assert tf.SparseTensorSpec.from_value(ST) == tf.SparseTensorSpec([4, 10], tf.int32)
    np.testing.assert_equal(spec.shape.as_list(), [None, 3])
