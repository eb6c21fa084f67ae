"""tf.saved_model.load of a SavedModel TensorFlow 2.21 wrote whose functions take composite
tensors (tests/fixtures/saved_model_tf2/composite, write_fixtures.py): a RaggedTensorSpec
argument is called with a RaggedTensor (its flat_values and row_splits are the function's
inputs) and a SparseTensorSpec argument with a SparseTensor (indices, values, dense_shape), as
TensorFlow's restored functions take them; gradients flow through the ragged values. A
one-row ragged tensor runs through a Squeeze whose squeeze_dims the import keeps (TensorFlow's
NodeDef attribute, tf.raw_ops.Squeeze's axis). The expected values are TensorFlow's answers
(row sums), checked by hand."""
import os

import numpy as np
import pytest

import wengert as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "saved_model_tf2",
                    "composite")


@pytest.fixture(scope="module")
def loaded():
    return tf.saved_model.load(HERE)


def test_a_ragged_argument_takes_a_ragged_tensor(loaded):
    x = tf.ragged.constant([[1.0, 2.0], [], [3.0, 4.0, 5.0]])
    np.testing.assert_array_equal(loaded.ragged_sum(x).numpy(), [3.0, 0.0, 12.0])
    np.testing.assert_array_equal(loaded.ragged_sum(tf.ragged.constant([[7.0]])).numpy(), [7.0])


def test_a_sparse_argument_takes_a_sparse_tensor(loaded):
    x = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 3]], [1.0, 4.0, 2.0], [2, 4])
    np.testing.assert_array_equal(loaded.sparse_sum(x).numpy(), [1.0, 6.0])


def test_gradients_flow_through_the_ragged_values(loaded):
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(loaded.ragged_sum(tf.RaggedTensor.from_row_splits(v * v, [0, 1, 3])))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [2.0, 4.0, 6.0])


def test_arguments_that_do_not_fit_the_spec_match_no_trace(loaded):
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.ragged_sum(tf.ragged.constant([[1, 2], [3]]))  # int32, not float32
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.sparse_sum(tf.sparse.SparseTensor([[0, 0]], [1.0], [1, 5]))  # 5 columns, not 4
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.ragged_sum(tf.constant([[1.0, 2.0]]))  # a dense tensor
