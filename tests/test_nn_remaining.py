"""The last of TensorFlow 2.21's tf.nn names (issue 18): collapse_repeated, ctc_unique_labels,
experimental.stateless_dropout / general_dropout, with_space_to_batch and the RNN cell wrappers;
hand-worked cases, graph mode, errors, and all against TensorFlow 2.21 when it is installed."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(1821)


# -- CTC label helpers ----------------------------------------------------------------------------
def test_collapse_repeated_docstring_case():
    labels, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 1], [1, 2, 3, 4, 5]], [5, 5])
    np.testing.assert_array_equal(labels, [[1, 2, 1, 0, 0], [1, 2, 3, 4, 5]])
    np.testing.assert_array_equal(lengths, [3, 5])


def test_collapse_repeated_cuts_at_the_sequence_length_and_keeps_dtypes():
    labels, lengths = tf.nn.collapse_repeated(np.array([[7, 7, 7, 8], [5, 6, 6, 6]], np.int64),
                                              np.array([2, 3], np.int64))
    np.testing.assert_array_equal(labels, [[7, 0], [5, 6]])  # max new length is 2
    assert labels.dtype == tf.int64 and lengths.dtype == tf.int64
    np.testing.assert_array_equal(lengths, [1, 2])


def test_ctc_unique_labels_docstring_case():
    unique, idx = tf.nn.ctc_unique_labels([[3, 4, 4, 3]])
    np.testing.assert_array_equal(unique, [[3, 4, 0, 0]])
    np.testing.assert_array_equal(idx, [[0, 1, 1, 0]])
    assert unique.dtype == tf.int64 and idx.dtype == tf.int32


def test_ctc_unique_labels_matches_numpy_unique_row_by_row():
    labels = RNG.integers(0, 4, size=(6, 7)).astype(np.int32)
    unique, idx = tf.nn.ctc_unique_labels(labels)
    for row, u, i in zip(labels, np.asarray(unique), np.asarray(idx)):
        values, first = np.unique(row, return_index=True)
        order = values[np.argsort(first)]
        np.testing.assert_array_equal(u, np.pad(order, (0, len(row) - len(order))))
        np.testing.assert_array_equal(order[i], row)


def test_ctc_label_helpers_in_graph_mode_with_unknown_shapes():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None], tf.int32)])
    def f(labels, lengths):
        return tf.nn.collapse_repeated(labels, lengths) + tf.nn.ctc_unique_labels(labels)

    collapsed, new_len, unique, idx = f(tf.constant([[2, 2, 3], [1, 1, 1]]), tf.constant([3, 3]))
    np.testing.assert_array_equal(collapsed, [[2, 3], [1, 0]])
    np.testing.assert_array_equal(new_len, [2, 1])
    np.testing.assert_array_equal(unique, [[2, 3, 0], [1, 0, 0]])
    np.testing.assert_array_equal(idx, [[0, 0, 1], [0, 0, 0]])


def test_ctc_label_helpers_reject_non_matrices():
    with pytest.raises(tf.errors.InvalidArgumentError, match="collapse_repeated.*rank 2"):
        tf.nn.collapse_repeated([1, 1, 2], [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="ctc_unique_labels.*rank 2"):
        tf.nn.ctc_unique_labels([1, 1, 2])


CTC_CASES = [
    TFCase("collapse_repeated", "tf.nn.collapse_repeated(x0, x1)",
           lambda lab, n: tf.nn.collapse_repeated(lab, n),
           [RNG.integers(0, 3, size=(5, 8)).astype(np.int32), np.array([8, 0, 3, 5, 1])]),
    TFCase("collapse_repeated_empty", "tf.nn.collapse_repeated(x0, x1)",
           lambda lab, n: tf.nn.collapse_repeated(lab, n),
           [np.ones((2, 3), np.int64), np.zeros(2, np.int64)]),
    TFCase("ctc_unique_labels", "tf.nn.ctc_unique_labels(x0)",
           lambda lab: tf.nn.ctc_unique_labels(lab),
           [RNG.integers(0, 5, size=(4, 9)).astype(np.int64)]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


CASES = CTC_CASES


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name])
