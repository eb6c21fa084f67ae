"""Numeric ops that TensorFlow refuses for strings and bools (issue 32): each raises TensorFlow
2.21's error class before computing, naming the op and the dtype, where wengert used to compute
something (string concatenation, a bool relu6, zeros from one_hot). TensorFlow's answers are
written here as literals (checked by hand in TensorFlow 2.21) so that CI without TensorFlow
checks them.
"""
import numpy as np
import pytest

import wengert as tf

STRINGS = ["a", "b"]


@pytest.mark.parametrize("fn, op_type", [
    (tf.reduce_sum, "Sum"), (tf.reduce_mean, "Mean"), (tf.reduce_prod, "Prod"),
    (tf.reduce_max, "Max"), (tf.reduce_min, "Min"), (tf.cumsum, "Cumsum"),
    (tf.math.cumprod, "Cumprod"), (tf.nn.relu, "Relu"), (tf.nn.relu6, "Relu6")])
def test_numeric_ops_refuse_strings(fn, op_type):
    # TF 2.21: InvalidArgumentError "Value for attr 'T' of string is not in the list of allowed
    # values: float, double, int32, ..."
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=f"{op_type}: Value for attr 'T' of string"):
        fn(tf.constant(STRINGS))


@pytest.mark.parametrize("fn, op_type", [
    (tf.reduce_sum, "Sum"), (tf.cumsum, "Cumsum"), (tf.nn.relu6, "Relu6"),
    (tf.reduce_max, "Max")])
def test_numeric_ops_refuse_bools(fn, op_type):
    # TF 2.21: InvalidArgumentError "Value for attr 'T' of bool is not in the list ..."
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=f"{op_type}: Value for attr 'T' of bool"):
        fn(tf.constant([True, False]))


def test_relu6_of_ints_and_complex():
    out = tf.nn.relu6(tf.constant([-1, 7]))
    np.testing.assert_array_equal(out.numpy(), [0, 6])  # TF 2.21: [0, 6] int32
    with pytest.raises(tf.errors.InvalidArgumentError, match="of complex128"):
        tf.nn.relu6(tf.constant([1 + 1j]))  # TF 2.21: InvalidArgumentError


@pytest.mark.parametrize("indices", [STRINGS, [1.0, 0.0], [True], np.array([1], np.int16)],
                         ids=["string", "float", "bool", "int16"])
def test_one_hot_refuses_indices_of_other_dtypes(indices):
    # TF 2.21: InvalidArgumentError "Value for attr 'TI' of string is not in the list of allowed
    # values: uint8, int8, int32, int64"
    with pytest.raises(tf.errors.InvalidArgumentError, match="OneHot: Value for attr 'TI'"):
        tf.one_hot(tf.constant(indices), 3)


def test_one_hot_of_uint8_indices():
    out = tf.one_hot(tf.constant([1], tf.uint8), 3)
    np.testing.assert_array_equal(out.numpy(), [[0.0, 1.0, 0.0]])  # TF 2.21


@pytest.mark.parametrize("fn", [tf.linalg.diag, tf.linalg.diag_part, tf.linalg.trace])
def test_diagonal_ops_of_strings_cannot_convert_the_padding(fn):
    # TF 2.21: TypeError "Cannot convert 0 to EagerTensor of dtype string"
    value = STRINGS if fn is tf.linalg.diag else [STRINGS, STRINGS]
    with pytest.raises(TypeError, match="Cannot convert padding_value 0.*dtype string"):
        fn(tf.constant(value))


def test_matrix_diag_of_strings_has_no_kernel():
    # TF 2.21: NotFoundError "Could not find device for node: MatrixDiagV3[T=DT_STRING]"
    with pytest.raises(tf.errors.NotFoundError, match="MatrixDiagV3"):
        tf.linalg.diag(tf.constant(STRINGS), padding_value="")


def test_matrix_diag_of_bools():
    out = tf.linalg.diag(tf.constant([True, False]))
    np.testing.assert_array_equal(out.numpy(), [[True, False], [False, False]])  # TF 2.21


@pytest.mark.parametrize("fn", [tf.linalg.tensor_diag, tf.linalg.tensor_diag_part])
@pytest.mark.parametrize("dtype", ["string", "bool", "int8"])
def test_tensor_diag_refuses_dtypes_outside_its_list(fn, dtype):
    # TF 2.21: InvalidArgumentError "Value for attr 'T' of string is not in the list of allowed
    # values: bfloat16, half, float, double, int32, int64, complex64, complex128"
    value = {"string": STRINGS, "bool": [True, False], "int8": np.array([1, 2], np.int8)}[dtype]
    if fn is tf.linalg.tensor_diag_part:
        value = [[value[0], value[1]], [value[1], value[0]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"Value for attr 'T' of {dtype}"):
        fn(tf.constant(value))


def test_trace_of_bools_is_refused_by_sum():
    # TF 2.21: InvalidArgumentError "Value for attr 'T' of bool ..." (its Sum)
    with pytest.raises(tf.errors.InvalidArgumentError, match="of bool"):
        tf.linalg.trace(tf.constant([[True]]))


def test_depthwise_conv2d_of_an_empty_batch():
    out = tf.nn.depthwise_conv2d(tf.zeros([0, 4, 4, 2]), tf.ones([2, 2, 2, 1]), [1, 1, 1, 1],
                                 "VALID")
    assert out.shape.as_list() == [0, 3, 3, 2]  # TF 2.21: shape (0, 3, 3, 2)
    same = tf.nn.depthwise_conv2d(tf.zeros([0, 4, 4, 2]), tf.ones([2, 2, 2, 3]), [1, 2, 2, 1],
                                  "SAME")
    assert same.shape.as_list() == [0, 2, 2, 6]  # TF 2.21: shape (0, 2, 2, 6)


def test_depthwise_conv2d_of_empty_channels():
    out = tf.nn.depthwise_conv2d(tf.zeros([1, 4, 4, 0]), tf.ones([2, 2, 0, 1]), [1, 1, 1, 1],
                                 "VALID")
    assert out.shape.as_list() == [1, 3, 3, 0]  # TF 2.21: shape (1, 3, 3, 0)
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: output size would be < 0
        tf.nn.depthwise_conv2d(tf.zeros([1, 0, 4, 2]), tf.ones([2, 2, 2, 1]), [1, 1, 1, 1],
                               "VALID")


def test_string_checks_hold_while_a_graph_is_built():
    g = tf.Graph()
    with g.as_default():
        s = tf.compat.v1.placeholder(tf.string, [2])
        # TensorFlow's graph builder refuses with TypeError, naming the parameter
        with pytest.raises(TypeError, match="Sum.*parameter 'input' has DataType string"):
            tf.reduce_sum(s)
        with pytest.raises(TypeError, match="OneHot.*parameter 'indices'"):
            tf.one_hot(s, 3)
