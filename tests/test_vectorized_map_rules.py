"""vectorized_map's batching rules (an OpDef's `vmap`, and the per-element kernel loop for ops
without one) agree with a Python loop over the examples: MatMul with every transpose and either
operand batched, BiasAdd and BiasAddGrad channels last and first, values and gradients through
an outer tape, and errors of a failing kernel explained as `execute` explains them."""
import numpy as np
import pytest

import wengert as tf
from wengert.control_flow import vectorize

RNG = np.random.default_rng(32)


def _looped(fn, elems):
    rows = [fn(tuple(e[i] for e in elems)) for i in range(int(elems[0].shape[0]))]
    return np.stack([np.asarray(r) for r in rows])


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
@pytest.mark.parametrize("batched", ["a", "b", "both"])
def test_matmul_batches_as_batch_matmul(transpose_a, transpose_b, batched):
    a = tf.constant(RNG.normal(size=(5, 3, 4)))
    b = tf.constant(RNG.normal(size=(5, 4, 2)))
    if transpose_a:
        a = tf.constant(np.swapaxes(a.numpy(), 1, 2))
    if transpose_b:
        b = tf.constant(np.swapaxes(b.numpy(), 1, 2))

    def fn(example):
        ai, bi = example
        ai = ai if batched in ("a", "both") else a[0]
        bi = bi if batched in ("b", "both") else b[0]
        return tf.matmul(ai, bi, transpose_a=transpose_a, transpose_b=transpose_b)

    got = tf.vectorized_map(fn, (a, b))
    np.testing.assert_allclose(got, _looped(fn, (a, b)), rtol=1e-12)


@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_bias_add_and_its_gradient_batch(data_format):
    value = tf.constant(RNG.normal(size=(4, 2, 3, 5)))
    bias = tf.Variable(RNG.normal(size=(5 if data_format == "NHWC" else 3,)))

    def fn(example):
        (v,) = example
        with tf.GradientTape() as tape:
            out = tf.reduce_sum(tf.nn.bias_add(v, bias, data_format=data_format) ** 2)
        return tape.gradient(out, bias)

    np.testing.assert_allclose(tf.vectorized_map(fn, (value,)), _looped(fn, (value,)),
                               rtol=1e-12)


def test_rules_are_recorded_by_an_outer_tape():
    x = tf.constant(RNG.normal(size=(6, 3)))
    w = tf.Variable(RNG.normal(size=(3, 2)))

    def fn(xi):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.tanh(tf.matmul(xi[None], w)) ** 2)
        return tape.gradient(loss, w)

    with tf.GradientTape() as outer:
        total = tf.reduce_sum(tf.vectorized_map(fn, x) ** 2)
    with tf.GradientTape() as reference:
        expected = tf.add_n([tf.reduce_sum(fn(x[i]) ** 2) for i in range(6)])
    np.testing.assert_allclose(total, expected, rtol=1e-12)
    np.testing.assert_allclose(outer.gradient(total, w), reference.gradient(expected, w),
                               rtol=1e-10)


def test_ops_without_rules_loop_their_kernel():
    x = tf.constant(RNG.normal(size=(4, 3, 3)))

    def fn(xi):
        return tf.linalg.det(xi) + tf.reduce_sum(tf.linalg.inv(xi))

    np.testing.assert_allclose(tf.vectorized_map(fn, x), _looped(lambda e: fn(e[0]), (x,)),
                               rtol=1e-10)
    with pytest.raises(ValueError, match="no batching rule"):
        tf.vectorized_map(fn, x, fallback_to_while_loop=False)


def test_a_failing_kernel_is_explained_as_execute_explains_it():
    singular = tf.constant(np.zeros((2, 3, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.vectorized_map(tf.linalg.cholesky, singular)


def test_the_kernel_loop_is_skipped_when_a_tape_watches_the_inputs():
    x = tf.constant(RNG.normal(size=(3, 2, 2)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.vectorized_map(tf.linalg.det, x))
    np.testing.assert_allclose(tape.gradient(y, x),
                               [np.linalg.det(m) * np.linalg.inv(m).T for m in x.numpy()],
                               rtol=1e-10)
    assert vectorize._watched([x]) is False


def test_python_control_flow_on_an_element_raises_tensorflows_error():
    def fn(row):
        if row[0] > 0:  # a Python `if` on a traced element, as TensorFlow refuses it too
            return row * 2.0
        return row * 3.0

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Python bool"):
        tf.vectorized_map(fn, tf.constant([[1.0, -2.0], [-3.0, 4.0]]))
    assert issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError)
