"""Complex dtypes: conversion and casting rules, and every complex-capable op's forward value
(against NumPy), gradient in TensorFlow's convention (dL/dx + i dL/dy, against central
differences of the real and imaginary parts), second order, forward mode, and graph mode."""
import numpy as np
import pytest

import wengert as tf
from complex_checks import check_gradient, check_jvp, check_second_order, tape_gradient

RNG = np.random.default_rng(1234)


def cplx(*shape, scale=1.0, shift=0.0):
    return scale * (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)) + shift


def near(*shape):
    """Values in a small disc around 0.3 + 0.2i: away from the branch cuts of asin, acos,
    atanh, log and sqrt, and from the poles of tan and atan."""
    return 0.3 + 0.2j + 0.2 * (RNG.uniform(-1, 1, shape) + 1j * RNG.uniform(-1, 1, shape))


def right_half(*shape):
    return cplx(*shape, scale=0.5, shift=2.0)


# name, function of tensors, NumPy reference, input makers
UNARY = [
    ("neg", lambda z: -z, np.negative, cplx),
    ("square", tf.square, np.square, cplx),
    ("exp", tf.exp, np.exp, cplx),
    ("expm1", tf.math.expm1, np.expm1, cplx),
    ("log", tf.math.log, np.log, right_half),
    ("log1p", tf.math.log1p, np.log1p, right_half),
    ("sqrt", tf.sqrt, np.sqrt, right_half),
    ("rsqrt", tf.math.rsqrt, lambda z: 1 / np.sqrt(z), right_half),
    ("reciprocal", tf.math.reciprocal, np.reciprocal, right_half),
    ("sin", tf.sin, np.sin, cplx),
    ("cos", tf.cos, np.cos, cplx),
    ("tan", tf.tan, np.tan, near),
    ("tanh", tf.tanh, np.tanh, near),
    ("sinh", tf.sinh, np.sinh, cplx),
    ("cosh", tf.cosh, np.cosh, cplx),
    ("asin", tf.asin, np.arcsin, near),
    ("acos", tf.acos, np.arccos, near),
    ("atan", tf.atan, np.arctan, near),
    ("asinh", tf.asinh, np.arcsinh, near),
    ("acosh", tf.acosh, np.arccosh, right_half),
    ("atanh", tf.atanh, np.arctanh, near),
    ("real", tf.math.real, np.real, cplx),
    ("imag", tf.math.imag, np.imag, cplx),
    ("conj", tf.math.conj, np.conj, cplx),
    ("angle", tf.math.angle, np.angle, right_half),
    ("abs", tf.abs, np.abs, right_half),
    ("reduce_sum", lambda z: tf.reduce_sum(z, axis=0), lambda z: np.sum(z, axis=0), cplx),
    ("reduce_mean", tf.reduce_mean, np.mean, cplx),
    ("transpose", tf.transpose, np.transpose, cplx),
    ("reshape", lambda z: tf.reshape(z, [-1]), lambda z: z.reshape(-1), cplx),
]

BINARY = [
    ("add", lambda a, b: a + b, np.add),
    ("sub", lambda a, b: a - b, np.subtract),
    ("mul", lambda a, b: a * b, np.multiply),
    ("div", lambda a, b: a / b, np.divide),
    ("pow", tf.pow, np.power),
    ("div_no_nan", tf.math.divide_no_nan, np.divide),
    ("multiply_no_nan", tf.math.multiply_no_nan, np.multiply),
    ("matmul", tf.matmul, np.matmul),
    ("matmul_adjoint_a", lambda a, b: tf.matmul(a, b, adjoint_a=True),
     lambda a, b: np.conj(a).T @ b),
    ("matmul_adjoint_b", lambda a, b: tf.matmul(a, b, adjoint_b=True),
     lambda a, b: a @ np.conj(b).T),
    ("einsum", lambda a, b: tf.einsum("ij,jk->ik", a, b), lambda a, b: a @ b),
]


@pytest.mark.parametrize("name,fn,ref,make", UNARY, ids=[u[0] for u in UNARY])
def test_unary_forward_and_gradients(name, fn, ref, make):
    z = make(2, 3)
    out = fn(tf.constant(z))
    np.testing.assert_allclose(out.numpy(), ref(z), rtol=1e-12, atol=1e-12)
    assert out.dtype == (tf.float64 if np.isrealobj(ref(z)) else tf.complex128)
    check_gradient(fn, [z], RNG)
    check_second_order(fn, [z], RNG)
    check_jvp(fn, [z], RNG)


@pytest.mark.parametrize("name,fn,ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_forward_and_gradients(name, fn, ref):
    a, b = right_half(3, 3), right_half(3, 3)
    np.testing.assert_allclose(fn(tf.constant(a), tf.constant(b)).numpy(), ref(a, b),
                               rtol=1e-12)
    check_gradient(fn, [a, b], RNG)
    check_second_order(fn, [a, b], RNG)
    check_jvp(fn, [a, b], RNG)


def test_broadcasting_gradient_sums_back():
    check_gradient(lambda a, b: a * b, [cplx(3, 4), cplx(4)], RNG)


def test_complex_from_parts_and_mixed_losses():
    x, y = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    z = tf.complex(tf.constant(x), tf.constant(y))
    assert z.dtype == tf.complex128
    np.testing.assert_array_equal(z.numpy(), x + 1j * y)
    assert tf.complex(tf.constant(1.0), tf.constant(2.0)).dtype == tf.complex64
    check_gradient(lambda a, b: tf.abs(tf.complex(a, b) ** 2), [x, y], RNG)
    check_second_order(lambda a, b: tf.math.angle(tf.complex(a, b) + 3.0), [x, y], RNG)
    check_jvp(lambda a, b: tf.exp(tf.complex(a, b)), [x, y], RNG)


def test_gradient_of_real_loss_is_tensorflows_convention():
    """|z|^2 = x^2 + y^2: the gradient is 2x + 2iy = 2z (TensorFlow's, not the Wirtinger dL/dz)."""
    z = tf.constant([1 + 2j, 3 - 1j])
    with tf.GradientTape() as tape:
        tape.watch(z)
        loss = tf.reduce_sum(tf.math.real(z * tf.math.conj(z)))
    np.testing.assert_allclose(tape.gradient(loss, z).numpy(), 2 * z.numpy())


def test_variables_and_optimizers_on_complex():
    """Gradient descent on |z - target|^2 converges: the gradient points uphill in C."""
    target = tf.constant(1.5 - 0.5j, tf.complex64)
    z = tf.Variable(tf.constant(0j, tf.complex64))
    for _ in range(100):
        with tf.GradientTape() as tape:
            loss = tf.abs(z - target) ** 2
        z.assign_sub(0.1 * tape.gradient(loss, z))
    assert z.dtype == tf.complex64
    np.testing.assert_allclose(z.numpy(), 1.5 - 0.5j, atol=1e-5)


def test_graph_mode_matches_eager():
    a, b = right_half(3, 3), right_half(3, 3)

    def f(x, y):
        return tf.reduce_sum(tf.abs(tf.exp(x) * tf.matmul(x, y) / y))

    @tf.function
    def graph_grad(x, y):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            loss = f(x, y)
        return tape.gradient(loss, [x, y])
    got = graph_grad(tf.constant(a), tf.constant(b))
    want = tape_gradient(f, [a, b], np.ones(()))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-10)
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.complex128, [3, 3])
        grad, = tf.gradients(tf.reduce_sum(tf.abs(tf.exp(x))), [x])
        with tf.compat.v1.Session() as sess:
            value = sess.run(grad, {x: a})
    np.testing.assert_allclose(value, tape_gradient(
        lambda x: tf.reduce_sum(tf.abs(tf.exp(x))), [a], np.ones(()))[0], rtol=1e-10)


def test_unconnected_and_output_gradients():
    z, w = tf.constant([1 + 1j]), tf.constant([2 - 1j])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([z, w])
        out = z * 2.0
    assert tape.gradient(out, w) is None
    zero = tape.gradient(out, w, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert zero.dtype == tf.complex128 and zero.numpy()[0] == 0
    np.testing.assert_allclose(tape.gradient(out, z, output_gradients=tf.constant([1j])).numpy(),
                               [2j])


class TestConversionRules:
    def test_python_complex_is_complex128(self):
        assert tf.constant(1 + 2j).dtype == tf.complex128
        assert tf.constant(np.complex64(1j)).dtype == tf.complex64
        assert tf.constant(2.0, tf.complex64).numpy() == 2 + 0j

    def test_complex_does_not_silently_become_real(self):
        with pytest.raises(TypeError, match="imaginary part"):
            tf.constant(1 + 2j, tf.float32)
        with pytest.raises(TypeError):
            tf.constant([1.0]) + 1j

    def test_mixed_dtypes_refused(self):
        with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
            tf.constant([1 + 1j], tf.complex64) + tf.constant([1 + 1j], tf.complex128)

    def test_cast_between_real_and_complex(self):
        z = tf.constant([1.5 + 2j])
        np.testing.assert_array_equal(tf.cast(z, tf.float32).numpy(), [1.5])
        np.testing.assert_array_equal(tf.cast(tf.constant([2.0]), tf.complex64).numpy(), [2 + 0j])
        check_gradient(lambda x: tf.cast(x, tf.complex128) * (1 + 2j), [np.array([0.5, 2.0])],
                       RNG)
        check_gradient(lambda x: tf.cast(x, tf.float64) ** 2, [cplx(3)], RNG)

    def test_dtype_properties(self):
        assert tf.complex64.is_complex and not tf.complex64.is_floating
        assert tf.complex64.real_dtype == tf.float32 and tf.complex128.real_dtype == tf.float64
        assert tf.float32.real_dtype == tf.float32
        assert tf.as_dtype("complex128") is tf.complex128
        assert tf.complex64.as_datatype_enum == 8
        with pytest.raises(TypeError):
            tf.complex64.max

    @pytest.mark.parametrize("call", [
        lambda z: tf.reduce_max(z), lambda z: tf.reduce_min(z), lambda z: tf.argmax(z),
        lambda z: tf.maximum(z, z), lambda z: tf.minimum(z, z), lambda z: z < z,
        lambda z: tf.greater_equal(z, z)])
    def test_complex_numbers_are_not_ordered(self, call):
        with pytest.raises(tf.errors.InvalidArgumentError, match="not ordered"):
            call(tf.constant([1 + 2j, 3j]))
        assert tf.equal(tf.constant([1j]), tf.constant([1j])).numpy().all()

    def test_real_only_ops_refuse_complex(self):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Sigmoid"):
            tf.sigmoid(tf.constant([1j]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="float32 or both float64"):
            tf.complex(tf.constant(1.0), tf.constant(1.0, tf.float64))


class TestEig:
    """linalg.eig / eigvals: values against NumPy, gradients (for losses that do not depend on
    each eigenvector's arbitrary phase) against finite differences, as TensorFlow's _EigGrad."""

    def test_values_and_dtypes(self):
        a = RNG.standard_normal((2, 4, 4))
        e, v = tf.linalg.eig(tf.constant(a))
        assert e.dtype == tf.complex128 and v.dtype == tf.complex128 and e.shape == (2, 4)
        recon = v.numpy() @ (e.numpy()[..., None] * np.linalg.inv(v.numpy()))
        np.testing.assert_allclose(recon, a, atol=1e-10)
        assert tf.linalg.eigvals(tf.constant(a.astype(np.float32))).dtype == tf.complex64
        np.testing.assert_allclose(np.sort_complex(tf.linalg.eigvals(tf.constant(a)).numpy()[0]),
                                   np.sort_complex(np.linalg.eigvals(a[0])), atol=1e-12)

    @pytest.mark.parametrize("make", [lambda: RNG.standard_normal((3, 3)), lambda: cplx(3, 3)],
                             ids=["real", "complex"])
    def test_gradients(self, make):
        a = make()
        check_gradient(tf.linalg.eigvals, [a], RNG)
        check_gradient(lambda x: tf.abs(tf.linalg.eig(x)[1]) ** 2, [a], RNG, rtol=1e-5,
                       atol=1e-6)
        check_second_order(tf.linalg.eigvals, [a], RNG, rtol=1e-4, atol=1e-5)
        check_jvp(tf.linalg.eigvals, [a], RNG)
        check_jvp(lambda x: tf.abs(tf.linalg.eig(x)[1]) ** 2, [a], RNG, rtol=1e-5, atol=1e-6)

    def test_errors(self):
        with pytest.raises(tf.errors.InvalidArgumentError, match="square"):
            tf.linalg.eig(tf.constant(np.ones((2, 3))))
        with pytest.raises(tf.errors.InvalidArgumentError, match="NaN"):
            tf.linalg.eigvals(tf.constant([[np.nan, 0.0], [0.0, 1.0]]))

    def test_adjoint_conjugates(self):
        z = cplx(2, 3)
        np.testing.assert_array_equal(tf.linalg.adjoint(tf.constant(z)).numpy(), z.conj().T)
        np.testing.assert_array_equal(tf.transpose(tf.constant(z), conjugate=True).numpy(),
                                      z.conj().T)


def test_logm_is_complex_only_and_has_no_gradient_as_in_tensorflow():
    from scipy.linalg import expm
    a = cplx(2, 3, 3, scale=0.3) + 2 * np.eye(3)
    out = tf.linalg.logm(tf.constant(a))
    np.testing.assert_allclose(np.stack([expm(m) for m in out.numpy()]), a, atol=1e-10)
    with pytest.raises(tf.errors.InvalidArgumentError, match="MatrixLogarithm.*complex"):
        tf.linalg.logm(tf.constant(np.eye(2)))
    x = tf.constant(a[0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.real(tf.reduce_sum(tf.linalg.logm(x)))
    with pytest.raises(LookupError, match="MatrixLogarithm"):
        tape.gradient(y, x)
