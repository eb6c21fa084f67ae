"""tf.sets against TensorFlow 2.21: union, intersection and difference of the sets in the last
dimension of dense and sparse tensors (results sorted, duplicates once, the dense shape's last
dimension the largest result), size, strings, the raw ops, graph mode, and TensorFlow's errors.
TensorFlow's answers are written below as it returned them."""
import numpy as np
import pytest

import wengert as tf

A = [[[1, 2, 2], [3, 4, 5]], [[5, 6, 7], [1, 1, 1]]]
B = [[[2, 9, 1], [4, 4, 4]], [[7, 8, 5], [2, 3, 1]]]
SPARSE = ([[0, 0], [0, 1], [1, 0]], [5, 3, 7], [2, 4])

TF_ANSWERS = {
    "intersection": ([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]],
                     [1, 2, 4, 5, 7, 1], [2, 2, 2]),
    "union": ([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 1, 1], [0, 1, 2], [1, 0, 0],
               [1, 0, 1], [1, 0, 2], [1, 0, 3], [1, 1, 0], [1, 1, 1], [1, 1, 2]],
              [1, 2, 9, 3, 4, 5, 5, 6, 7, 8, 1, 2, 3], [2, 2, 4]),
    "difference": ([[0, 1, 0], [0, 1, 1], [1, 0, 0]], [3, 5, 6], [2, 2, 2]),
    "b_minus_a": (None, [9, 8, 2, 3], [2, 2, 2]),
    "dense_sparse": (None, [1, 3], [1, 2]),
    "strings": ([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]], [b"a", b"c", b"d", b"a", b"b"], [2, 3]),
    "empty": ([], [], [1, 0]),
    "sparse_sparse": ([[0, 0], [0, 1], [1, 0]], [3, 5, 7], [2, 2]),
}

CASES = {
    "intersection": lambda: tf.sets.intersection(A, B),
    "union": lambda: tf.sets.union(A, B),
    "difference": lambda: tf.sets.difference(A, B),
    "b_minus_a": lambda: tf.sets.difference(A, B, aminusb=False),
    "dense_sparse": lambda: tf.sets.intersection(
        [[1, 3]], tf.SparseTensor([[0, 0], [0, 2]], [1, 3], [1, 3])),
    "strings": lambda: tf.sets.union([["a", "c"], ["b", "b"]], [["c", "d"], ["a", "a"]]),
    "empty": lambda: tf.sets.intersection([[1, 2]], [[3, 4]]),
    "sparse_sparse": lambda: tf.sets.union(tf.SparseTensor(*SPARSE), tf.SparseTensor(*SPARSE)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    result = CASES[name]()
    indices, values, shape = TF_ANSWERS[name]
    if indices is not None:
        assert result.indices.numpy().tolist() == indices
    assert result.values.numpy().tolist() == values
    assert result.dense_shape.numpy().tolist() == shape


def test_size_of_sparse_sets():
    assert tf.sets.size(tf.sparse.from_dense(A)).numpy().tolist() == [[2, 3], [3, 1]]
    assert tf.sets.size(tf.sparse.from_dense([[1, 0, 3], [0, 0, 2]])).numpy().tolist() == [2, 1]


def test_sparse_first_is_flipped_as_tensorflow_does():
    sparse = tf.SparseTensor([[0, 0], [0, 2]], [1, 3], [1, 3])
    assert tf.sets.difference(sparse, [[3, 4]]).values.numpy().tolist() == [1]
    assert tf.sets.difference([[3, 4]], sparse).values.numpy().tolist() == [4]


def test_raw_ops_and_v1_names():
    indices, values, shape = tf.raw_ops.DenseToDenseSetOperation(
        set1=[[1, 2]], set2=[[2, 3]], set_operation="union")
    assert values.numpy().tolist() == [1, 2, 3] and shape.numpy().tolist() == [1, 3]
    size = tf.raw_ops.SetSize(set_indices=[[0, 0], [0, 1]], set_values=[4, 4], set_shape=[1, 2])
    assert size.numpy().tolist() == [1]
    assert tf.compat.v1.sets.set_union is tf.sets.union


def test_in_a_graph():
    with tf.Graph().as_default():
        a = tf.compat.v1.placeholder(tf.int32, [None, 3])
        result = tf.sets.intersection(a, [[1, 2, 3], [4, 5, 6]])
        with tf.compat.v1.Session() as sess:
            out = sess.run(result, {a: np.array([[3, 1, 9], [6, 6, 7]])})
    assert out.values.tolist() == [1, 3, 6] and out.dense_shape.tolist() == [2, 2]


def test_bad_input():
    with pytest.raises(TypeError, match="invalid dtype"):
        tf.sets.union([[1.0]], [[2.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Mismatched shapes \[1\] vs \[2\]"):
        tf.sets.union([[1]], [[1], [2]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank 0 < 2"):
        tf.sets.union(1, 2)
    with pytest.raises(TypeError, match="Types don't match"):
        tf.sets.union(tf.constant([[1]], tf.int64), [[1]])
    with pytest.raises(TypeError, match="Expected `SparseTensor`"):
        tf.sets.size([[1, 2]])
    unordered = tf.SparseTensor([[1, 0], [0, 0]], [1, 2], [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of order"):
        tf.sets.union(unordered, unordered)
    assert tf.sets.union(unordered, unordered,
                         validate_indices=False).values.numpy().tolist() == [2, 1]
