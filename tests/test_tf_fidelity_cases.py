"""Calls that a new user tries where wengert gave another answer than TensorFlow (issue 32): each
case asserts what TensorFlow 2.21 returns or raises, written here as literals (checked by hand
in TensorFlow 2.21) so that CI without TensorFlow checks them.

This module holds the wrong answers: integer products with a wider output type, variable
constraints applied by optimizers, tf.function's keywords, add_n's dtypes, softmax of a scalar
and fill's dims.
"""
import numpy as np
import pytest

import wengert as tf


# -- matmul(output_type=...): BatchMatMulV3 -------------------------------------------------------
def test_int8_matmul_with_int32_output_does_not_wrap():
    a = tf.constant([[100, 100]], tf.int8)
    b = tf.constant([[100], [100]], tf.int8)
    out = tf.matmul(a, b, output_type=tf.int32)
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), [[20000]])  # TF 2.21: [[20000]] int32


def test_mixed_uint8_int8_batched_matmul_with_int32_output():
    a = tf.constant([[[200, 200]]], tf.uint8)
    b = tf.constant([[[100], [-100]]], tf.int8)
    out = tf.matmul(a, b, output_type=tf.int32)
    np.testing.assert_array_equal(out.numpy(), [[[0]]])
    uu = tf.matmul(tf.constant([[200, 200]], tf.uint8), tf.constant([[200], [200]], tf.uint8),
                   output_type=tf.int32)
    np.testing.assert_array_equal(uu.numpy(), [[80000]])  # TF 2.21: [[80000]] int32


def test_matmul_output_type_transposes_like_tensorflow():
    a = np.arange(6, dtype=np.int8).reshape(2, 3) * 40
    b = np.arange(6, dtype=np.int8).reshape(2, 3) * 30
    out = tf.matmul(a, tf.constant(b), transpose_b=True, output_type=tf.int32)
    np.testing.assert_array_equal(out.numpy(), a.astype(np.int32) @ b.astype(np.int32).T)


def test_matmul_output_type_equal_to_inputs_is_the_plain_product():
    out = tf.matmul(tf.constant([[1, 2]]), tf.constant([[1], [2]]), output_type=tf.int32)
    np.testing.assert_array_equal(out.numpy(), [[5]])  # TF 2.21: [[5]] int32


@pytest.mark.parametrize("a_dtype, out_dtype", [("float32", "int32"), ("int32", "int64"),
                                                ("int8", "int64"), ("int8", "float32")])
def test_matmul_output_type_without_a_kernel_is_not_found(a_dtype, out_dtype):
    # TF 2.21: NotFoundError "Could not find device for node: BatchMatMulV3[Ta=..., Tout=...]"
    a = tf.constant(np.ones((1, 2), a_dtype))
    with pytest.raises(tf.errors.NotFoundError, match=f"output_type={out_dtype}"):
        tf.matmul(a, tf.constant(np.ones((2, 1), a_dtype)), output_type=out_dtype)


def test_raw_batch_matmul_v3():
    out = tf.raw_ops.BatchMatMulV3(x=tf.constant([[100, 100]], tf.int8),
                                   y=tf.constant([[100, 100]], tf.int8), Tout=tf.int32,
                                   adj_y=True)
    np.testing.assert_array_equal(out.numpy(), [[20000]])


def test_matmul_output_type_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        a = tf.compat.v1.placeholder(tf.int8, [None, 2])
        out = tf.matmul(a, tf.constant([[100], [100]], tf.int8), output_type=tf.int32)
        assert out.dtype == tf.int32 and out.shape.as_list() == [None, 1]
        with tf.compat.v1.Session(graph=g) as sess:
            value = sess.run(out, {a: np.array([[100, 100]], np.int8)})
    np.testing.assert_array_equal(value, [[20000]])


# -- Variable(constraint=...) ------------------------------------------------------------------
def _clip(x):
    return tf.clip_by_value(x, -1.0, 1.0)


@pytest.mark.parametrize("make", [lambda: tf.keras.optimizers.SGD(0.1),
                                  lambda: tf.keras.optimizers.Adam(0.1),
                                  lambda: tf.compat.v1.train.GradientDescentOptimizer(0.1)],
                         ids=["sgd", "adam", "v1-gradient-descent"])
def test_optimizer_step_projects_a_constrained_variable(make):
    v = tf.Variable([4.0, -3.0], constraint=_clip)
    assert v.constraint is _clip
    make().apply_gradients([(tf.constant([-9.0, 1.0]), v)])
    np.testing.assert_allclose(v.numpy(), [1.0, -1.0])  # TF 2.21: [1., -1.] for all three


def test_constraint_applies_after_the_update_inside_a_function():
    v = tf.Variable([4.0, -3.0], constraint=_clip)
    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step():
        opt.apply_gradients([(tf.constant([-9.0, 1.0]), v)])
    step()
    np.testing.assert_allclose(v.numpy(), [1.0, -1.0])  # TF 2.21: [1., -1.]


def test_constraint_is_not_applied_on_creation_or_assign():
    v = tf.Variable([4.0], constraint=lambda x: x * 0.0)
    np.testing.assert_allclose(v.numpy(), [4.0])  # TF 2.21: [4.]
    v.assign([5.0])
    np.testing.assert_allclose(v.numpy(), [5.0])  # TF 2.21: [5.]


def test_v1_optimizer_projects_in_a_session():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable([4.0, -3.0], constraint=_clip)
        train = tf.compat.v1.train.GradientDescentOptimizer(0.1).apply_gradients(
            [(tf.constant([-9.0, 1.0]), v)])
        with tf.compat.v1.Session(graph=g) as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(train)
            value = sess.run(v)
    np.testing.assert_allclose(value, [1.0, -1.0])


def test_constraint_that_is_not_callable_is_refused():
    # TF 2.21: ValueError "Argument `constraint` must be None or a callable. ..."
    with pytest.raises(ValueError, match="constraint"):
        tf.Variable([4.0], constraint=3)


# -- tf.function's keywords -------------------------------------------------------------------
def test_function_refuses_a_misspelt_keyword():
    # TF 2.21: TypeError "function() got an unexpected keyword argument 'input_signatur'"
    with pytest.raises(TypeError, match="input_signatur"):
        tf.function(lambda x: x, input_signatur=[tf.TensorSpec([], tf.float32)])


def test_function_accepts_tensorflows_experimental_keywords():
    f = tf.function(lambda x: x * 2.0, experimental_follow_type_hints=True,
                    experimental_compile=False, experimental_implements=None)
    assert float(f(tf.constant(2.0))) == 4.0


# -- add_n, softmax, fill -------------------------------------------------------------------------
def test_add_n_of_int_and_float_is_refused():
    # TF 2.21: InvalidArgumentError "cannot compute AddN as input #1(zero-based) was expected to
    # be a int32 tensor but is a float tensor"
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #1.*int32.*float32"):
        tf.add_n([tf.constant(1), tf.constant(2.0)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #1.*float32.*int32"):
        tf.add_n([tf.constant([1.0]), tf.constant([2])])


@pytest.mark.parametrize("values", [["a", "b"], [True, False]])
def test_add_n_of_strings_or_bools_is_refused(values):
    # TF 2.21: InvalidArgumentError "Value for attr 'T' of string (bool) is not in the list..."
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T'"):
        tf.add_n([tf.constant(values[0]), tf.constant(values[1])])


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
def test_softmax_of_a_scalar_is_refused(fn):
    # TF 2.21: InvalidArgumentError "logits must have >= 1 dimension, got []"
    with pytest.raises(tf.errors.InvalidArgumentError, match=">= 1 dimension"):
        fn(tf.constant(2.0))
    np.testing.assert_allclose(tf.nn.softmax(tf.constant([2.0])).numpy(), [1.0])


@pytest.mark.parametrize("dims", [[[2, 3]], np.array([[2], [3]]), tf.constant([[2, 3]])],
                         ids=["nested-list", "array", "tensor"])
def test_fill_with_matrix_dims_is_refused(dims):
    # TF 2.21: InvalidArgumentError "dims must represent a vector, got shape [1,2]"
    with pytest.raises(tf.errors.InvalidArgumentError, match="dims must represent a vector"):
        tf.fill(dims, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="dims must represent a vector"):
        tf.zeros(dims)
