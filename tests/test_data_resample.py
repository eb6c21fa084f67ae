"""Dataset.rejection_resample built as TensorFlow 2.21 builds it (data/resampling.py): the
rejection sampler mixed with the original stream. Literals are what TensorFlow gave for the same
pipelines where the output is deterministic (the original stream alone, the sampler alone with
two classes); where it draws, the class frequencies are checked against the target and against
TensorFlow's recorded frequencies and lengths (its draws use Philox, wengert's NumPy)."""
import numpy as np
import pytest

import wengert as tf
from wengert.data.resampling import _mixing
from wengert.framework.errors import InvalidArgumentError


def _labels():
    rng = np.random.default_rng(0)
    return rng.choice(3, size=20000, p=[0.6, 0.3, 0.1]).astype(np.int32)


def _frequencies(ds):
    classes = [int(c) for c, _ in ds.as_numpy_iterator()]
    return len(classes), np.bincount(classes, minlength=3) / len(classes)


def test_mixing_probabilities_reach_the_target():
    p, t = np.float32([0.6, 0.3, 0.1]), np.float32([0.2, 0.3, 0.5])
    accept, m = _mixing(p, t)
    sampler = p * accept / np.sum(p * accept)
    np.testing.assert_allclose(m * p + (1 - m) * sampler, t, rtol=1e-5)
    assert m == np.float32(0.2) / np.float32(0.6) and accept.min() == 0 and accept.max() == 1


@pytest.mark.parametrize("initial, tf_length, tf_freq", [
    ([0.6, 0.3, 0.1], 4299, [0.196, 0.315, 0.488]),
    (None, 4356, [0.202, 0.314, 0.483])])
def test_frequencies_follow_the_target_as_tensorflows(initial, tf_length, tf_freq):
    ds = tf.data.Dataset.from_tensor_slices(_labels())
    out = ds.rejection_resample(lambda x: x, [0.2, 0.3, 0.5], initial, seed=1)
    assert out.cardinality().numpy() == tf.data.UNKNOWN_CARDINALITY
    length, freq = _frequencies(out)
    np.testing.assert_allclose(freq, [0.2, 0.3, 0.5], atol=0.025)
    np.testing.assert_allclose(freq, tf_freq, atol=0.025)
    assert abs(length - tf_length) < 300
    again, _ = _frequencies(ds.rejection_resample(lambda x: x, [0.2, 0.3, 0.5], initial, seed=1))
    assert again == length


def test_target_equal_to_initial_is_the_original_stream():
    ds = tf.data.Dataset.from_tensor_slices(_labels())
    out = ds.rejection_resample(lambda x: x, [0.6, 0.3, 0.1], [0.6, 0.3, 0.1], seed=1)
    assert out.cardinality().numpy() == 20000
    pairs = list(out.as_numpy_iterator())
    assert [int(c) for c, _ in pairs] == _labels().tolist()
    two = tf.data.Dataset.from_tensor_slices(np.int32([1, 0, 0, 1]))
    typed = two.rejection_resample(lambda x: tf.cast(x, tf.int64), [0.5, 0.5], [0.5, 0.5])
    assert typed.element_spec == (tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.int32))
    assert typed.cardinality().numpy() == 4


def test_zero_target_keeps_one_class_in_order():
    out = tf.data.Dataset.range(12).rejection_resample(
        lambda x: tf.cast(x % 3 == 0, tf.int32), [0.0, 1.0], [0.5, 0.5])
    assert [(int(c), int(x)) for c, x in out.as_numpy_iterator()] == [(1, 0), (1, 3), (1, 6),
                                                                       (1, 9)]
    assert out.cardinality().numpy() == tf.data.UNKNOWN_CARDINALITY
    pairs = tf.data.Dataset.range(50).map(lambda x: (x % 2, x * 10)).rejection_resample(
        lambda a, b: tf.cast(a, tf.int32), [0.0, 1.0], [0.5, 0.5], seed=3)
    assert pairs.element_spec == (tf.TensorSpec([], tf.int32),
                                  (tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.int64)))
    assert [(int(c), int(a), int(b)) for c, (a, b) in pairs.take(3).as_numpy_iterator()] == [
        (1, 1, 10), (1, 1, 30), (1, 1, 50)]


def test_dict_elements_and_estimated_zero_class():
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3, 4], "b": [5., 6., 7., 8.]})
    out = ds.rejection_resample(lambda e: tf.cast(e["a"] % 2, tf.int32), [0.3, 0.7], [0.3, 0.7])
    got = list(out.as_numpy_iterator())
    assert [int(c) for c, _ in got] == [1, 0, 1, 0]
    assert [float(e["b"]) for _, e in got] == [5.0, 6.0, 7.0, 8.0]
    est = tf.data.Dataset.from_tensor_slices(_labels()).rejection_resample(
        lambda x: x, [0.5, 0.5, 0.0], seed=3)
    length, freq = _frequencies(est)
    assert freq[2] == 0 and abs(freq[0] - 0.495) < 0.02 and abs(length - 12074) < 400


def test_errors_and_out_of_range_classes():
    ds = tf.data.Dataset.range(5)
    with pytest.raises(InvalidArgumentError, match="initial_dist has 3 classes"):
        ds.rejection_resample(lambda x: tf.cast(x, tf.int32), [0.5, 0.5], [0.2, 0.3, 0.5])
    with pytest.raises(InvalidArgumentError, match="non-negative"):
        ds.rejection_resample(lambda x: tf.cast(x, tf.int32), [0.5, -0.5])
    with pytest.raises(TypeError, match="scalar integer"):
        ds.rejection_resample(lambda x: tf.cast(x, tf.float32), [0.5, 0.5])
    same = ds.rejection_resample(lambda x: tf.cast(x, tf.int32), [0.5, 0.5], [0.5, 0.5])
    assert [int(c) for c, _ in same.as_numpy_iterator()] == [0, 1, 2, 3, 4]
    estimated = ds.rejection_resample(lambda x: tf.cast(x, tf.int32), [0.5, 0.5])
    assert [int(c) for c, _ in estimated.as_numpy_iterator()] == [0, 1, 2, 3, 4]
    sampled = ds.rejection_resample(lambda x: tf.cast(x, tf.int32) * 2, [0.0, 1.0], [0.5, 0.5])
    with pytest.raises(InvalidArgumentError, match="class_func returned 2"):
        list(sampled)
