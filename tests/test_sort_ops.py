"""Sorting and selection as TensorFlow 2.21 does it: gradients of top_k and sort (through
TopKV2), stability and ties, in_top_k's tie rule, and the ops registered without gradient."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.registry import _GRADIENTS

X = np.array([[1.0, 4.0, 2.0, 4.0], [3.0, 0.0, 5.0, 1.0]])


def _gradient(fn):
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    upstream = tf.reshape(tf.cast(tf.range(tf.size(y)), tf.float64) + 1.0, y.shape)
    return tape.gradient(y, x, output_gradients=upstream).numpy()


@pytest.mark.parametrize("fn,want", [
    (lambda a: tf.math.top_k(a, 2)[0], [[0.0, 1.0, 0.0, 2.0], [4.0, 0.0, 3.0, 0.0]]),
    (lambda a: tf.sort(a, axis=0), [[1.0, 6.0, 3.0, 8.0], [5.0, 2.0, 7.0, 4.0]]),
    (lambda a: tf.sort(a, direction="DESCENDING"), [[4.0, 1.0, 3.0, 2.0],
                                                    [6.0, 8.0, 5.0, 7.0]])])
def test_gradients_match_tensorflow(fn, want):
    """Values from TensorFlow 2.21 (upstream gradient 1, 2, 3, ... in row-major order)."""
    np.testing.assert_array_equal(_gradient(fn), want)


def test_top_k_second_derivative_is_a_selection_again():
    x = tf.constant(X)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.math.top_k(x * x, 2)[0])
        g = inner.gradient(y, x)
    # d/dx of 2x at the selected entries: 2 there, 0 elsewhere
    np.testing.assert_array_equal(outer.gradient(g, x).numpy(),
                                  [[0, 2, 0, 2], [2, 0, 2, 0]])


def test_ties_keep_index_order_and_nan_comes_first():
    values, indices = tf.math.top_k(tf.constant([1.0, 3.0, 3.0, 2.0, 3.0]), k=2)
    assert indices.numpy().tolist() == [1, 2]
    _, indices = tf.math.top_k(tf.constant([1.0, np.nan, 3.0]), k=2)
    assert indices.numpy().tolist() == [1, 2]
    assert tf.argsort(tf.constant([1, 3, 3, 1])).numpy().tolist() == [0, 3, 1, 2]
    assert tf.argsort(tf.constant([1, 3, 3, 2]), direction="DESCENDING").numpy().tolist() == [
        1, 2, 3, 0]


@pytest.mark.parametrize("k", [1, 5, 16, 17, 60, 250, 1000])
def test_every_top_k_path_agrees_with_a_stable_sort(k):
    rng = np.random.default_rng(k)
    x = rng.integers(-5, 6, (7, 1000)).astype(np.float32)   # many ties
    x[0, 3] = -np.inf
    values, indices = tf.math.top_k(x, k)
    want = np.argsort(-x, axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(indices.numpy(), want)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, want, 1))


def test_integer_extremes_sort_without_overflow():
    x = tf.constant([-128, 5, 0, 127, -128], tf.int8)
    assert tf.sort(x).numpy().tolist() == [-128, -128, 0, 5, 127]
    assert tf.math.top_k(x, 5)[0].numpy().tolist() == [127, 5, 0, -128, -128]
    assert tf.sort(tf.constant([3, 0, 255], tf.uint8)).numpy().tolist() == [0, 3, 255]


def test_in_top_k_counts_ties_at_the_boundary_as_in():
    predictions = tf.constant([[0.1, 0.5, 0.5], [0.3, 0.3, 0.3], [np.nan, 1.0, 0.0]])
    assert tf.math.in_top_k([2, 0, 1], predictions, k=1).numpy().tolist() == [True, True, False]
    assert tf.nn.in_top_k([5], tf.constant([[0.1, 0.5, 0.3]]), 2).numpy().tolist() == [False]


def test_unique_keeps_first_appearance_order():
    y, idx, count = tf.unique_with_counts(tf.constant([4, 1, 4, 2, 1]))
    assert y.numpy().tolist() == [4, 1, 2]
    assert idx.numpy().tolist() == [0, 1, 0, 2, 1]
    assert count.numpy().tolist() == [2, 2, 1]


def test_searchsorted_batches_over_leading_dimensions():
    out = tf.searchsorted(tf.constant([[1.0, 2.0, 2.0, 5.0], [0.0, 1.0, 2.0, 3.0]]),
                          tf.constant([[2.0, 6.0], [-1.0, 2.5]]), side="right",
                          out_type=tf.int64)
    assert out.dtype == tf.int64 and out.numpy().tolist() == [[3, 4], [0, 3]]


def test_integer_results_are_registered_without_gradient():
    for op_type in ("Unique", "UniqueWithCounts", "LowerBound", "UpperBound", "InTopKV2"):
        assert op_type in _GRADIENTS and _GRADIENTS[op_type] is None
    assert _GRADIENTS["TopKV2"] is not None


def test_top_k_refuses_k_larger_than_the_axis():
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least k = 3"):
        tf.math.top_k(tf.constant([1.0, 2.0]), k=3)


def test_nn_aliases():
    assert tf.nn.top_k is tf.math.top_k and tf.nn.in_top_k is tf.math.in_top_k


def test_multi_output_functions_name_their_results_as_tensorflow():
    """TensorFlow 2.21 returns named tuples: TopKV2(values, indices), Unique(y, idx),
    UniqueWithCounts(y, idx, count), Qr(q, r), Lu(lu, p)."""
    x = tf.constant([3.0, 1.0, 3.0])
    top = tf.math.top_k(x, 2)
    assert type(top).__name__ == "TopKV2" and top.indices.numpy().tolist() == [0, 2]
    assert tf.unique(x).idx.numpy().tolist() == [0, 1, 0]
    assert tf.unique_with_counts(x).count.numpy().tolist() == [2, 1]
    assert type(tf.linalg.qr(tf.eye(2))).__name__ == "Qr"
    assert tf.linalg.lu(tf.eye(2) + 1.0).p.numpy().tolist() == [0, 1]
    values, indices = tf.nn.top_k(x, 1)
    assert values.numpy().tolist() == [3.0] and indices.numpy().tolist() == [0]
