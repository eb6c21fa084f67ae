"""Reductions at their edges, as TensorFlow 2.21 answers: empty inputs, infinities, integer
norms, axis lists."""
import numpy as np
import pytest

import wengert as tf


@pytest.mark.parametrize("fn,want", [
    (tf.reduce_logsumexp, -np.inf), (tf.reduce_max, -np.inf), (tf.reduce_min, np.inf),
    (tf.reduce_sum, 0.0), (tf.reduce_prod, 1.0), (tf.math.reduce_euclidean_norm, 0.0)])
def test_empty_reductions(fn, want):
    assert fn(tf.zeros([0])).numpy() == want


def test_empty_integer_max_is_the_lowest_integer():
    assert tf.reduce_max(tf.zeros([0], tf.int32)).numpy() == np.iinfo(np.int32).min
    assert tf.reduce_min(tf.zeros([2, 0], tf.int32), axis=1).numpy().tolist() == [
        np.iinfo(np.int32).max] * 2


def test_logsumexp_of_infinities():
    assert tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf])).numpy() == -np.inf
    assert tf.reduce_logsumexp(tf.constant([np.inf, 1.0])).numpy() == np.inf


def test_euclidean_norm_of_integers_truncates():
    assert tf.math.reduce_euclidean_norm(tf.constant([3, 4])).numpy() == 5
    assert tf.math.reduce_euclidean_norm(tf.constant([1, 1])).numpy() == 1


def test_std_and_variance_with_axis_lists():
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_allclose(tf.math.reduce_std(x, axis=[0, 2]).numpy(), x.std(axis=(0, 2)))
    np.testing.assert_allclose(tf.math.reduce_variance(x, axis=[-1], keepdims=True).numpy(),
                               x.var(axis=-1, keepdims=True))


def test_count_nonzero_of_bools_and_axis_lists():
    assert tf.math.count_nonzero([True, False, True]).numpy() == 2
    out = tf.math.count_nonzero([[1, 0], [0, 0]], axis=[0, 1], keepdims=True, dtype=tf.int32)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[1]]


def test_any_all_of_empty():
    assert not tf.reduce_any(tf.zeros([0], tf.bool)).numpy()
    assert tf.reduce_all(tf.zeros([0], tf.bool)).numpy()


def test_argmax_output_types():
    x = tf.constant([[1.0, 3.0], [4.0, 2.0]])
    for dtype in (tf.int16, tf.int32, tf.int64):
        out = tf.argmax(x, axis=1, output_type=dtype)
        assert out.dtype == dtype and out.numpy().tolist() == [1, 0]
    with pytest.raises(TypeError, match="output_type"):
        tf.argmax(x, output_type=tf.uint8)
