"""tf.saved_model.load of a SavedModel TensorFlow 2.21 wrote whose functions and signatures
return composite tensors (tests/fixtures/saved_model_tf2/composite_outputs, write_fixtures.py):
the output signature holds a RaggedTensorSpec or SparseTensorSpec where the function returns
one, and the FunctionDef returns its components in TensorFlow's order (a RaggedTensor's
flat_values then its row_splits from the outermost, a SparseTensor's indices, values and
dense_shape). wengert rebuilds each as a wengert RaggedTensor or SparseTensor: a
tf.strings.split result, tf.sparse.from_dense, a dict mixing both with a dense tensor, a ragged
tensor of ragged rank 2, and the same through the signatures. TensorFlow's answers are literals
(TensorFlow's run of the same calls on the fixture)."""
import os

import numpy as np
import pytest

import wengert as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "saved_model_tf2",
                    "composite_outputs")
X = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]], np.float32)


@pytest.fixture(scope="module")
def loaded():
    return tf.saved_model.load(HERE)


def _ragged(value, values, splits):
    assert isinstance(value, tf.RaggedTensor)
    np.testing.assert_array_equal(value.flat_values.numpy(), values)
    assert [s.numpy().tolist() for s in value.nested_row_splits] == splits


def _sparse(value, indices, values, shape):
    assert isinstance(value, tf.sparse.SparseTensor)
    np.testing.assert_array_equal(value.indices.numpy(), indices)
    np.testing.assert_array_equal(value.values.numpy(), values)
    np.testing.assert_array_equal(value.dense_shape.numpy(), shape)


def test_a_strings_split_result_is_a_ragged_tensor(loaded):
    got = loaded.split(tf.constant(["a b", "", "c d  e"]))
    _ragged(got, [b"a", b"b", b"c", b"d", b"e"], [[0, 2, 2, 5]])
    assert got.to_list() == [[b"a", b"b"], [], [b"c", b"d", b"e"]]


def test_a_sparse_from_dense_result_is_a_sparse_tensor(loaded):
    _sparse(loaded.sparse(tf.constant(X)), [[0, 0], [0, 2], [2, 1]], [1.0, 2.0, 3.0], [3, 3])


def test_a_dict_of_composites_and_a_tensor(loaded):
    got = loaded.mixed(tf.constant(X[:2]))
    assert sorted(got) == ["dense", "ragged", "sparse"]
    _ragged(got["ragged"], [1.0, 0.0, 2.0], [[0, 3, 3]])
    _sparse(got["sparse"], [[0, 0], [0, 2]], [1.0, 2.0], [2, 3])
    np.testing.assert_array_equal(got["dense"].numpy(), X[:2] * 2.0)


def test_a_ragged_tensor_of_ragged_rank_two(loaded):
    got = loaded.nested(tf.constant([1, 2, 3], tf.int64))
    _ragged(got, [0, 1, 2, 3, 4, 5], [[0, 2, 3], [0, 1, 3, 6]])
    assert got.ragged_rank == 2 and got.to_list() == [[[0], [1, 2]], [[3, 4, 5]]]


def test_signatures_return_composites_by_name(loaded):
    got = loaded.signatures["serving_default"](x=tf.constant(X[:1]))
    _ragged(got["ragged"], [1.0, 0.0, 2.0], [[0, 3]])
    _sparse(got["sparse"], [[0, 0], [0, 2]], [1.0, 2.0], [1, 3])
    np.testing.assert_array_equal(got["dense"].numpy(), [[2.0, 0.0, 4.0]])
    split = loaded.signatures["split"]
    assert sorted(split.structured_outputs) == ["output_0"]
    assert isinstance(split.structured_outputs["output_0"], tf.RaggedTensorSpec)
    _ragged(split(x=tf.constant(["x y"]))["output_0"], [b"x", b"y"], [[0, 2]])


def test_gradients_flow_through_the_values_of_a_composite_output(loaded):
    x = tf.constant(X[:2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        got = loaded.mixed(x)
        y = tf.reduce_sum(got["ragged"].flat_values ** 2) + tf.reduce_sum(got["dense"])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 2.0 * X[:2] + 2.0)
