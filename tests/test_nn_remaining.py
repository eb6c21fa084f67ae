"""The last of TensorFlow 2.21's tf.nn names (issue 18): collapse_repeated, ctc_unique_labels,
experimental.stateless_dropout / general_dropout, with_space_to_batch and the RNN cell wrappers;
hand-worked cases, graph mode, errors, and all against TensorFlow 2.21 when it is installed."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.testing import check_grads

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


# -- experimental.stateless_dropout / general_dropout ----------------------------------------------
def test_stateless_dropout_is_a_function_of_the_seed():
    x = tf.ones([40, 50])
    a = tf.nn.experimental.stateless_dropout(x, rate=0.3, seed=[1, 2])
    b = tf.nn.experimental.stateless_dropout(x, rate=0.3, seed=[1, 2])
    c = tf.nn.experimental.stateless_dropout(x, rate=0.3, seed=[2, 2])
    np.testing.assert_array_equal(a, b)
    assert np.any(np.asarray(a) != np.asarray(c))
    values = np.unique(np.asarray(a))
    np.testing.assert_allclose(values, [0, 1 / 0.7], rtol=1e-6)
    assert abs(np.mean(np.asarray(a) == 0) - 0.3) < 0.05


def test_stateless_dropout_noise_shape_shares_decisions_and_rate_zero_is_identity():
    x = tf.constant(RNG.normal(size=(3, 10)).astype(np.float32))
    y = np.asarray(tf.nn.experimental.stateless_dropout(x, 2 / 3, seed=[1, 0],
                                                        noise_shape=[1, None]))
    kept = y != 0
    assert np.all(kept == kept[:1]) and 0 < kept[0].sum() < 10
    np.testing.assert_allclose(y[kept], 3 * np.asarray(x)[kept], rtol=1e-6)
    assert tf.nn.experimental.stateless_dropout(x, 0.0, seed=[1, 0]) is x


def test_stateless_dropout_gradients_are_the_scaled_mask():
    x = tf.constant(RNG.normal(size=(4, 6)))
    rate = tf.constant(0.25, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, rate])
        y = tf.nn.experimental.stateless_dropout(x, rate, seed=[5, 6])
    gx, grate = tape.gradient(y, [x, rate])
    keep = np.asarray(y) != 0
    np.testing.assert_allclose(gx, keep / 0.75)
    np.testing.assert_allclose(grate, np.sum(np.asarray(x) * keep) / 0.75 ** 2)
    check_grads(lambda t: tf.nn.experimental.stateless_dropout(t, 0.5, seed=[7, 8]), [x],
                order=2)


def test_stateless_dropout_in_graph_mode():
    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32)])
    def f(x):
        return tf.nn.experimental.stateless_dropout(x, 0.5, seed=[3, 1])

    x = tf.ones([5, 8])
    np.testing.assert_array_equal(f(x), tf.nn.experimental.stateless_dropout(x, 0.5, [3, 1]))


def test_general_dropout_with_a_generator():
    g = tf.random.Generator.from_seed(7)
    x = tf.constant([1.1, 2.2, 3.3, 4.4, 5.5])
    first = np.asarray(tf.nn.experimental.general_dropout(x, 0.5, g.uniform))
    second = np.asarray(tf.nn.experimental.general_dropout(x, 0.5, g.uniform))
    assert np.any(first != second)  # the generator's state advanced
    for y in (first, second):
        np.testing.assert_allclose(y[y != 0], 2 * np.asarray(x)[y != 0], rtol=1e-6)


def test_dropout_errors():
    with pytest.raises(ValueError, match="stateless_dropout.*range \\[0, 1\\)"):
        tf.nn.experimental.stateless_dropout(tf.ones([2]), 1.0, seed=[1, 2])
    with pytest.raises(ValueError, match="floating-point"):
        tf.nn.experimental.stateless_dropout(tf.ones([2], tf.int32), 0.5, seed=[1, 2])
    with pytest.raises(ValueError, match="scalar tensor"):
        tf.nn.experimental.stateless_dropout(tf.ones([2]), tf.constant([0.5]), seed=[1, 2])
    with pytest.raises(TypeError, match="general_dropout.*callable"):
        tf.nn.experimental.general_dropout(tf.ones([2]), 0.5, None)


_SAMPLER = "lambda shape, dtype: tf.reshape(tf.cast(x1, dtype), shape)"
DROPOUT_CASES = [
    TFCase("general_dropout_fixed_draws",
           f"tf.nn.experimental.general_dropout(x0, 0.4, {_SAMPLER})",
           lambda x, u: tf.nn.experimental.general_dropout(
               x, 0.4, lambda shape, dtype: tf.reshape(tf.cast(u, dtype), shape)),
           [RNG.normal(size=(3, 5)), RNG.uniform(size=(3, 5))], wrt=(0,)),
    TFCase("general_dropout_tensor_rate_noise_shape",
           f"tf.nn.experimental.general_dropout(x0, x2, {_SAMPLER}, noise_shape=[1, 5])",
           lambda x, u, r: tf.nn.experimental.general_dropout(
               x, r, lambda shape, dtype: tf.reshape(tf.cast(u, dtype), shape),
               noise_shape=[1, 5]),
           [RNG.normal(size=(3, 5)), RNG.uniform(size=(1, 5)), np.array(0.45)], wrt=(0, 2)),
]


# -- with_space_to_batch --------------------------------------------------------------------------
def _conv(w):
    return lambda i, n, p: tf.nn.convolution(i, w, padding=p)


def test_with_space_to_batch_is_a_dilated_convolution():
    x = tf.constant(RNG.normal(size=(2, 9, 8, 3)))
    w = tf.constant(RNG.normal(size=(3, 2, 3, 4)))
    for padding in ("SAME", "VALID"):
        y = tf.nn.with_space_to_batch(x, [2, 3], padding, _conv(w), filter_shape=[3, 2])
        np.testing.assert_allclose(y, tf.nn.convolution(x, w, padding=padding,
                                                         dilations=[2, 3]), atol=1e-12)
    check_grads(lambda a, b: tf.nn.with_space_to_batch(a, [2, 2], "SAME", _conv(b),
                                                       filter_shape=[3, 2]),
                [x[:1, :5, :5], w[..., :2]], order=2, modes=("rev",))


def test_with_space_to_batch_rate_one_passes_the_padding_through():
    seen = []
    x = tf.ones([1, 4, 4, 1])
    tf.nn.with_space_to_batch(x, [1, 1], "SAME", lambda i, n, p: seen.append((i, n, p)) or i)
    assert seen[0][0] is x and seen[0][1:] == (2, "SAME")


def test_with_space_to_batch_in_graph_mode_with_unknown_batch():
    w = tf.constant(RNG.normal(size=(2, 2, 1, 1)).astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 6, 6, 1], tf.float32)])
    def f(x):
        return tf.nn.with_space_to_batch(x, [2, 2], "SAME", _conv(w), filter_shape=[2, 2])

    x = tf.constant(RNG.normal(size=(3, 6, 6, 1)).astype(np.float32))
    np.testing.assert_allclose(f(x), tf.nn.convolution(x, w, padding="SAME", dilations=2),
                               rtol=1e-5, atol=1e-6)


def test_with_space_to_batch_errors():
    x = tf.ones([1, 4, 4, 1])
    with pytest.raises(ValueError, match="with_space_to_batch.*filter_shape"):
        tf.nn.with_space_to_batch(x, [2, 2], "SAME", _conv(tf.ones([2, 2, 1, 1])))
    with pytest.raises(ValueError, match="with_space_to_batch.*positive"):
        tf.nn.with_space_to_batch(x, [0, 2], "VALID", _conv(tf.ones([2, 2, 1, 1])))
    with pytest.raises(ValueError, match="with_space_to_batch.*monotonically"):
        tf.nn.with_space_to_batch(x, [2, 2], "VALID", _conv(tf.ones([2, 2, 1, 1])),
                                  spatial_dims=[2, 1])
    with pytest.raises(ValueError, match="with_space_to_batch.*padding"):
        tf.nn.with_space_to_batch(x, [2, 2], "FULL", _conv(tf.ones([2, 2, 1, 1])))


_WSB = "tf.nn.with_space_to_batch"
SPACE_CASES = [
    TFCase("wsb_conv_same", f"{_WSB}(x0, [2, 2], 'SAME', lambda i, n, p: "
                            "tf.nn.convolution(i, x1, padding=p), filter_shape=[3, 3])",
           lambda x, w: tf.nn.with_space_to_batch(x, [2, 2], "SAME", _conv(w),
                                                  filter_shape=[3, 3]),
           [RNG.normal(size=(2, 7, 8, 2)), RNG.normal(size=(3, 3, 2, 3))], wrt=(0, 1)),
    TFCase("wsb_pool_valid", f"{_WSB}(x0, [2, 3], 'VALID', lambda i, n, p: "
                             "tf.nn.pool(i, [2, 2], 'AVG', padding=p))",
           lambda x: tf.nn.with_space_to_batch(
               x, [2, 3], "VALID", lambda i, n, p: tf.nn.pool(i, [2, 2], "AVG", padding=p)),
           [RNG.normal(size=(2, 9, 10, 3))], wrt=(0,)),
    TFCase("wsb_explicit", f"{_WSB}(x0, [3, 2], [[0, 0], [1, 2], [2, 1], [0, 0]], "
                           "lambda i, n, p: tf.nn.convolution(i, x1, padding=p))",
           lambda x, w: tf.nn.with_space_to_batch(x, [3, 2], [[0, 0], [1, 2], [2, 1], [0, 0]],
                                                  _conv(w)),
           [RNG.normal(size=(1, 8, 7, 2)), RNG.normal(size=(2, 3, 2, 2))], wrt=(0, 1)),
    TFCase("wsb_spatial_dims_batch_mixing",
           f"{_WSB}(x0, [2, 3], 'VALID', lambda i, n, p: tf.math.cumsum(i, axis=0)[:, :-1], "
           "spatial_dims=[1, 3])",
           lambda x: tf.nn.with_space_to_batch(
               x, [2, 3], "VALID", lambda i, n, p: tf.math.cumsum(i, axis=0)[:, :-1],
               spatial_dims=[1, 3]),
           [RNG.normal(size=(2, 7, 3, 8))], wrt=(0,)),
    TFCase("wsb_nchw", f"{_WSB}(x0, [2], 'SAME', lambda i, n, p: i[:, :, 1:] - i[:, :, :-1], "
                       "filter_shape=[2], data_format='NCW')",
           lambda x: tf.nn.with_space_to_batch(
               x, [2], "SAME", lambda i, n, p: i[:, :, 1:] - i[:, :, :-1], filter_shape=[2],
               data_format="NCW"),
           [RNG.normal(size=(2, 3, 9))], wrt=(0,)),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


CASES = CTC_CASES + DROPOUT_CASES + SPACE_CASES


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name])
