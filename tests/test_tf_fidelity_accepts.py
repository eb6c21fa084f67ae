"""Calls that TensorFlow computes and wengert used to refuse (issue 32): leaky_relu of ints,
argmax of bools, stack([]), reverse of a scalar, boolean_mask with a numeric mask, zeros with
float dims inside a function, conv1d with extra batch dimensions, conv2d_transpose of an empty
batch, softmax_cross_entropy_with_logits with int labels, and floats fed to an int placeholder.
TensorFlow 2.21's answers are written here as literals (checked by hand in TensorFlow 2.21) so
that CI without TensorFlow checks them.
"""
import numpy as np
import pytest

import wengert as tf


def test_leaky_relu_of_ints_is_float32():
    out = tf.nn.leaky_relu(tf.constant([-2, 3]))
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), [-0.4, 3.0])  # TF 2.21: [-0.4, 3.] float32
    out = tf.nn.leaky_relu(tf.constant([-3, 3], tf.int8), alpha=0.1)
    np.testing.assert_allclose(out.numpy(), [-0.3, 3.0], rtol=1e-6)  # TF 2.21: [-0.3, 3.]


def test_leaky_relu_of_bools_is_refused():
    # TF 2.21: InvalidArgumentError "Value for attr 'T' of bool is not in the list of allowed
    # values: half, bfloat16, float, double"
    with pytest.raises(tf.errors.InvalidArgumentError, match="LeakyRelu.*of bool"):
        tf.nn.leaky_relu(tf.constant([True]))


def test_argmax_and_argmin_of_bools():
    assert int(tf.argmax(tf.constant([False, True, True]))) == 1  # TF 2.21: 1 (int64)
    assert int(tf.argmin(tf.constant([True, False, True]))) == 1  # TF 2.21: 1
    out = tf.argmax(tf.constant([[True, False], [False, True]]), axis=1)
    np.testing.assert_array_equal(out.numpy(), [0, 1])
    assert out.dtype == tf.int64


def test_stack_of_an_empty_list():
    out = tf.stack([])
    assert out.dtype == tf.float32 and out.shape.as_list() == [0]  # TF 2.21: float32 (0,)
    assert tf.stack(()).shape.as_list() == [0]
    with pytest.raises(IndexError):  # TF 2.21: IndexError "list index out of range"
        tf.stack([], axis=1)


@pytest.mark.parametrize("axis", [[0], [1], [-1], []])
def test_reverse_of_a_scalar_is_the_scalar(axis):
    assert float(tf.reverse(tf.constant(3.0), axis)) == 3.0  # TF 2.21: 3.0 for each axis


def test_reverse_of_a_vector_still_checks_its_axis():
    # TF 2.21: InvalidArgumentError "'axis'[0] = 1 is out of valid range [0, 0"
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.reverse(tf.constant([3.0]), [1])


def test_reverse_of_a_scalar_passes_the_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reverse(x, [0]) * 3.0
    assert float(tape.gradient(y, x)) == 3.0


@pytest.mark.parametrize("mask, expected", [
    ([1.0, 0.0, 1.0], [1.0, 3.0]), ([0.5, 0.0, 2.0], [1.0, 3.0]), ([1, 0, 1], [1.0, 3.0]),
    ([np.nan, 0.0, -1.0], [1.0, 3.0])], ids=["ones", "fractions", "ints", "nan"])
def test_boolean_mask_keeps_nonzero_entries_of_a_numeric_mask(mask, expected):
    out = tf.boolean_mask(tf.constant([1.0, 2.0, 3.0]), tf.constant(mask))
    np.testing.assert_array_equal(out.numpy(), expected)  # TF 2.21: [1., 3.] for each


def test_boolean_mask_with_a_numeric_mask_over_rows():
    out = tf.boolean_mask(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1.0, 0.0]))
    np.testing.assert_array_equal(out.numpy(), [[1.0, 2.0]])  # TF 2.21: [[1., 2.]]


def test_boolean_mask_with_a_string_mask_is_refused():
    # TF 2.21: InvalidArgumentError "Value for attr 'T' of string ... {{node Where}}"
    with pytest.raises(tf.errors.InvalidArgumentError, match="Where.*of string"):
        tf.boolean_mask(tf.constant([1.0, 2.0]), tf.constant(["a", ""]))


def test_zeros_with_float_dims_inside_a_function_truncates():
    @tf.function
    def make():
        return tf.zeros([2.5, 3]), tf.ones([2.7, 1])
    zeros, ones = make()
    assert zeros.shape.as_list() == [2, 3]  # TF 2.21: shape (2, 3)
    assert ones.shape.as_list() == [2, 1]  # TF 2.21: shape (2, 1)


def test_zeros_with_float_dims_eagerly_or_large_is_refused():
    with pytest.raises(TypeError):  # TF 2.21: TypeError "Cannot convert [2.5, 3] to ... int32"
        tf.zeros([2.5, 3])

    @tf.function
    def large():
        return tf.zeros([2.7, 1000])
    with pytest.raises(TypeError):  # TF 2.21: TypeError "Expected int32, but got 2.7"
        large()


def test_conv1d_with_extra_batch_dimensions():
    x = tf.reshape(tf.range(30.0), [2, 3, 5, 1])
    out = tf.nn.conv1d(x, tf.ones([2, 1, 2]), 2, "SAME")
    assert out.shape.as_list() == [2, 3, 3, 2]  # TF 2.21: shape (2, 3, 3, 2)
    np.testing.assert_allclose(out.numpy()[0, :, :, 0], [[1, 5, 4], [11, 15, 9], [21, 25, 14]])
    np.testing.assert_allclose(out.numpy()[1, 0, :, 1], [31, 35, 19])  # TF 2.21 values
    flat = tf.nn.conv1d(tf.reshape(x, [6, 5, 1]), tf.ones([2, 1, 2]), 2, "SAME")
    np.testing.assert_allclose(out.numpy().reshape(6, 3, 2), flat.numpy())


def test_conv1d_with_extra_batch_dimensions_has_gradients():
    x = tf.constant(np.random.default_rng(0).normal(size=(2, 2, 5, 1)))
    w = tf.constant(np.random.default_rng(1).normal(size=(2, 1, 3)))
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.reduce_sum(tf.nn.conv1d(x, w, 1, "VALID") ** 2)
    gx, gw = tape.gradient(y, [x, w])
    with tf.GradientTape() as tape:
        flat = tf.reshape(x, [4, 5, 1])
        tape.watch([flat, w])
        y2 = tf.reduce_sum(tf.nn.conv1d(flat, w, 1, "VALID") ** 2)
    gflat, gw2 = tape.gradient(y2, [flat, w])
    np.testing.assert_allclose(gx.numpy().reshape(4, 5, 1), gflat.numpy())
    np.testing.assert_allclose(gw.numpy(), gw2.numpy())


def test_conv2d_transpose_of_an_empty_batch():
    out = tf.nn.conv2d_transpose(tf.zeros([0, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [0, 3, 3, 1], 1,
                                 "VALID")
    assert out.shape.as_list() == [0, 3, 3, 1]  # TF 2.21: shape (0, 3, 3, 1)


@pytest.mark.parametrize("labels", [[[0, 1]], [[False, True]], np.array([[0.0, 1.0]])],
                         ids=["int", "bool", "float64"])
def test_softmax_cross_entropy_casts_labels_to_the_logits_dtype(labels):
    out = tf.nn.softmax_cross_entropy_with_logits(tf.constant(labels), tf.constant([[1.0, 2.0]]))
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), [0.31326166], rtol=1e-6)  # TF 2.21: [0.31326166]


def test_softmax_cross_entropy_refuses_int_logits():
    # TF 2.21: InvalidArgumentError "Value for attr 'T' of int32 is not in the list of allowed
    # values: half, bfloat16, float, double"
    with pytest.raises(tf.errors.InvalidArgumentError, match="of int32"):
        tf.nn.softmax_cross_entropy_with_logits(tf.constant([[0.0, 1.0]]), tf.constant([[1, 2]]))


def _fed(dtype, value):
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(dtype, [None])
        out = p * 2 if dtype != tf.bool else tf.logical_not(p)
        with tf.compat.v1.Session(graph=g) as sess:
            return sess.run(out, {p: value})


@pytest.mark.parametrize("dtype, value, expected", [
    (tf.int32, [1.7, -2.5], [2, -4]), (tf.int32, np.array([1.7, -2.5]), [2, -4]),
    (tf.int32, ["1"], [2]), (tf.int32, [True], [2]), (tf.int8, [300], [88]),
    (tf.bool, [0.5], [False])], ids=["floats", "float-array", "numeric-string", "bool",
                                     "int8-wraps", "float-to-bool"])
def test_session_feeds_convert_as_numpy_astype(dtype, value, expected):
    out = _fed(dtype, value)
    assert out.dtype == dtype.as_numpy_dtype
    np.testing.assert_array_equal(out, expected)  # TF 2.21: these values


def test_session_feed_of_a_non_numeric_string_is_numpys_value_error():
    # TF 2.21: ValueError "could not convert string to float: np.str_('a')"
    with pytest.raises(ValueError, match="could not convert"):
        _fed(tf.float32, ["a"])
