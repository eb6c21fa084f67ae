"""wengert.func: JAX-style transforms, their composition and their error messages."""
import numpy as np
import pytest

import wengert as tf
from wengert import func


def f(x):
    return tf.reduce_sum(tf.sin(x) * x)


X = np.array([0.5, 1.0, -0.3])


def x64():
    return tf.constant(X)


def test_grad_and_value_and_grad():
    np.testing.assert_allclose(func.grad(f)(x64()).numpy(), np.cos(X) * X + np.sin(X))
    value, g = func.value_and_grad(f)(x64())
    np.testing.assert_allclose(value.numpy(), np.sum(np.sin(X) * X))
    np.testing.assert_allclose(g.numpy(), np.cos(X) * X + np.sin(X))


def test_grad_of_grad_and_python_float_input():
    d2 = func.grad(func.grad(lambda x: x ** 3))(2.0)
    assert d2.dtype == tf.float32
    np.testing.assert_allclose(d2.numpy(), 12.0)


def test_argnums_tuple_has_aux_and_pytrees():
    def loss(params, x):
        return tf.reduce_sum(params["w"] * x) + params["b"], "aux"
    params = {"w": tf.constant([1.0, 2.0]), "b": tf.constant(0.5)}
    grads, aux = func.grad(loss, has_aux=True)(params, tf.constant([3.0, 4.0]))
    assert aux == "aux"
    np.testing.assert_allclose(grads["w"].numpy(), [3.0, 4.0])
    np.testing.assert_allclose(grads["b"].numpy(), 1.0)
    gx, gy = func.grad(lambda a, b: tf.reduce_sum(a * b), argnums=(0, 1))(
        tf.constant([1.0, 2.0]), tf.constant([5.0, 7.0]))
    np.testing.assert_allclose(gx.numpy(), [5.0, 7.0])
    np.testing.assert_allclose(gy.numpy(), [1.0, 2.0])


def test_unconnected_argument_gets_zeros():
    g = func.grad(lambda a, b: tf.reduce_sum(a), argnums=1)(tf.constant([1.0]), tf.constant(2.0))
    np.testing.assert_array_equal(g.numpy(), 0.0)


def test_grad_of_non_scalar_output_shows_the_shape():
    with pytest.raises(TypeError, match=r"scalar-output.*shape: \(3,\)"):
        func.grad(tf.sin)(x64())


def test_grad_refuses_integer_input_with_the_fix():
    with pytest.raises(TypeError, match="int32.*cast"):
        func.grad(lambda x: tf.reduce_sum(x))(tf.constant([1, 2]))
    with pytest.raises(TypeError, match=r"2\.0 instead of 2"):
        func.grad(lambda x: x * x)(2)


def test_grad_of_pair_without_has_aux_says_so():
    with pytest.raises(TypeError, match="has_aux=True"):
        func.grad(lambda x: (f(x), 1))(x64())
    with pytest.raises(TypeError, match="pair"):
        func.grad(f, has_aux=True)(x64())


def test_vjp_callable_several_times():
    out, vjp_fn = func.vjp(tf.sin, x64())
    np.testing.assert_allclose(out.numpy(), np.sin(X))
    (ct,) = vjp_fn(tf.ones_like(out))
    np.testing.assert_allclose(ct.numpy(), np.cos(X))
    (ct2,) = vjp_fn(tf.constant([2.0, 0.0, 1.0], dtype=tf.float64))
    np.testing.assert_allclose(ct2.numpy(), np.cos(X) * [2.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="shape"):
        vjp_fn(tf.constant([1.0], dtype=tf.float64))


def test_jvp_and_errors():
    out, tangent = func.jvp(tf.sin, (x64(),), (tf.ones_like(x64()),))
    np.testing.assert_allclose(out.numpy(), np.sin(X))
    np.testing.assert_allclose(tangent.numpy(), np.cos(X))
    with pytest.raises(TypeError, match="tuples"):
        func.jvp(tf.sin, x64(), tf.ones_like(x64()))
    with pytest.raises(ValueError, match="equal shapes"):
        func.jvp(tf.sin, (x64(),), (tf.constant([1.0], dtype=tf.float64),))


def test_jvp_with_the_same_tensor_twice():
    x = x64()
    _, t = func.jvp(lambda a, b: a * b, (x, x), (tf.ones_like(x), tf.zeros_like(x)))
    np.testing.assert_allclose(t.numpy(), X)


def test_jacfwd_equals_jacrev():
    g = lambda x: tf.tanh(x) * tf.reduce_sum(x * x)  # noqa: E731
    fwd, rev = func.jacfwd(g)(x64()), func.jacrev(g)(x64())
    assert fwd.shape == (3, 3)
    np.testing.assert_allclose(fwd.numpy(), rev.numpy(), rtol=1e-12)


def test_hessian_and_hvp():
    hess = func.hessian(f)(x64()).numpy()
    np.testing.assert_allclose(hess, np.diag(2 * np.cos(X) - X * np.sin(X)), atol=1e-12)
    v = tf.constant([1.0, -2.0, 0.5], dtype=tf.float64)
    np.testing.assert_allclose(func.hvp(f, x64(), v).numpy(), hess @ v.numpy())
    (hv,) = func.hvp(f, (x64(),), (v,))
    np.testing.assert_allclose(hv.numpy(), hess @ v.numpy())


def test_hessian_of_a_matrix_argument():
    w = tf.constant(np.arange(4.0).reshape(2, 2) / 4)
    hess = func.hessian(lambda w: tf.reduce_sum(tf.square(tf.matmul(w, w))))(w)
    assert hess.shape == (2, 2, 2, 2)
    np.testing.assert_allclose(hess.numpy(), np.transpose(hess.numpy(), (2, 3, 0, 1)),
                               atol=1e-12)
