"""wengert.optimize.minimize: SciPy with exact gradients and Hessian-vector products."""
import numpy as np
import pytest

import wengert as tf

pytest.importorskip("scipy")
from wengert import optimize  # noqa: E402


def rosenbrock(x):
    return tf.reduce_sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


@pytest.mark.parametrize("method", ["L-BFGS-B", "BFGS", "CG", "Newton-CG", "trust-ncg",
                                    "trust-krylov", "trust-exact", "dogleg"])
def test_rosenbrock_converges(method):
    result = optimize.minimize(rosenbrock, [-1.2, 1.0], method=method)
    assert result.success, result.message
    np.testing.assert_allclose(result.x, [1.0, 1.0], atol=2e-4)
    # Exact derivatives: the same path as SciPy's own hand-written Rosenbrock derivatives.
    so = pytest.importorskip("scipy.optimize")
    second = {"hessp": so.rosen_hess_prod} if method in ("Newton-CG", "trust-ncg",
                                                         "trust-krylov") else {}
    if method in ("trust-exact", "dogleg"):
        second = {"hess": so.rosen_hess}
    reference = so.minimize(so.rosen, [-1.2, 1.0], method=method, jac=so.rosen_der, **second)
    np.testing.assert_allclose(result.x, reference.x, rtol=1e-6)
    assert result.nit == reference.nit


def test_gradient_and_hessian_vector_product_are_exact():
    x = np.array([-1.2, 1.0, 0.7])
    value, grad = optimize.value_and_gradient(rosenbrock, x)
    # d/dx0 = -400 x0 (x1 - x0^2) - 2 (1 - x0), etc.
    x0, x1, x2 = x
    expected = [-400 * x0 * (x1 - x0 ** 2) - 2 * (1 - x0),
                200 * (x1 - x0 ** 2) - 400 * x1 * (x2 - x1 ** 2) - 2 * (1 - x1),
                200 * (x2 - x1 ** 2)]
    np.testing.assert_allclose(grad, expected, rtol=1e-12)
    assert value == pytest.approx(100 * (x1 - x0 ** 2) ** 2 + (1 - x0) ** 2
                                  + 100 * (x2 - x1 ** 2) ** 2 + (1 - x1) ** 2)
    scipy_optimize = pytest.importorskip("scipy.optimize")
    p = np.array([0.3, -0.5, 2.0])
    np.testing.assert_allclose(optimize.hessian_vector_product(rosenbrock, x, p),
                               scipy_optimize.rosen_hess_prod(x, p), rtol=1e-12)


def test_shape_of_x0_is_kept_and_extra_args_pass_through():
    target = np.array([[1.0, 2.0], [3.0, 4.0]])

    def loss(x, t):
        return tf.reduce_sum((x - t) ** 2)

    result = optimize.minimize(loss, np.zeros((2, 2)), args=(tf.constant(target),),
                               method="trust-ncg")
    assert result.x.shape == (2, 2)
    np.testing.assert_allclose(result.x, target, atol=1e-6)


def test_float32_function_and_jac_false():
    def loss(x):
        return tf.reduce_sum(tf.cast((x - 3.0) ** 2, tf.float32))

    result = optimize.minimize(loss, [0.0], method="Nelder-Mead", jac=False)
    np.testing.assert_allclose(result.x, [3.0], atol=1e-3)


def test_traced_function_works():
    result = optimize.minimize(tf.function(rosenbrock), [-1.2, 1.0], method="trust-ncg")
    np.testing.assert_allclose(result.x, [1.0, 1.0], atol=1e-4)


def test_non_scalar_output_is_an_error():
    with pytest.raises(ValueError, match="scalar"):
        optimize.minimize(lambda x: x * 2.0, [1.0, 2.0])


def test_missing_scipy_gives_a_clear_error(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_scipy(name, *args, **kwargs):
        if name.startswith("scipy"):
            raise ImportError("no scipy here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_scipy)
    with pytest.raises(ImportError, match=r"wengert\[scipy\]"):
        optimize.minimize(rosenbrock, [0.0, 0.0])
