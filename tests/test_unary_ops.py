"""Behaviour of the unary math ops beyond the op table: TensorFlow's conventions at kinks,
stability for large arguments, dtype rules and errors, erf accuracy, and fused backward ops."""
import contextlib
import math
import warnings

import numpy as np
import pytest

import wengert as tf
from wengert.framework.context import state

FLOAT_OPS = [tf.sqrt, tf.math.rsqrt, tf.math.reciprocal, tf.exp, tf.math.expm1, tf.math.log,
             tf.math.log1p, tf.sin, tf.cos, tf.tan, tf.tanh, tf.sigmoid, tf.math.softplus,
             tf.math.erf]
ALL_OPS = FLOAT_OPS + [tf.abs, tf.sign]
OP_TYPES = {tf.sqrt: "Sqrt", tf.math.rsqrt: "Rsqrt", tf.math.reciprocal: "Reciprocal",
            tf.exp: "Exp", tf.math.expm1: "Expm1", tf.math.log: "Log", tf.math.log1p: "Log1p",
            tf.sin: "Sin", tf.cos: "Cos", tf.tan: "Tan", tf.tanh: "Tanh", tf.sigmoid: "Sigmoid",
            tf.math.softplus: "Softplus", tf.math.erf: "Erf"}


def grad_and_hessian_diag(f, x):
    """f(x), df/dx and d2f/dx2 of an elementwise f (summed over elements)."""
    x = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return y, g, outer.gradient(g, x)


@contextlib.contextmanager
def no_runtime_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


# -- namespaces ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sqrt", "rsqrt", "reciprocal", "exp", "expm1", "log", "log1p",
                                  "abs", "sign", "sin", "cos", "tan", "tanh", "sigmoid",
                                  "softplus", "erf"])
def test_public_in_top_level_and_math(name):
    assert getattr(tf, name) is getattr(tf.math, name)


def test_abs_operator_uses_abs():
    assert abs(tf.constant([-2.0, 3.0])).numpy().tolist() == [2.0, 3.0]


# -- TensorFlow's conventions at kinks -------------------------------------------------------------
def test_abs_gradient_at_zero_is_zero():
    _, g, h = grad_and_hessian_diag(tf.abs, np.array([-2.0, 0.0, 3.0]))
    np.testing.assert_array_equal(g.numpy(), [-1.0, 0.0, 1.0])
    np.testing.assert_array_equal(h.numpy(), [0.0, 0.0, 0.0])


def test_sign_gradient_is_zeros_not_none():
    x = tf.constant([-2.0, 0.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sign(x)
    g = tape.gradient(y, x)
    assert g is not None
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 0.0])


def test_sqrt_gradient_at_zero_is_inf():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _, g, _ = grad_and_hessian_diag(tf.sqrt, np.array([0.0, 4.0]))
    assert np.isinf(g.numpy()[0]) and g.numpy()[1] == 0.25


# -- large arguments ----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softplus_is_stable_for_large_arguments(dtype):
    x = np.array([-1000.0, -100.0, 0.0, 100.0, 1000.0], dtype=dtype)
    with no_runtime_warnings():
        y, g, h = grad_and_hessian_diag(tf.math.softplus, x)
    y, g, h = y.numpy(), g.numpy(), h.numpy()
    assert y[4] == 1000.0 and y[3] == 100.0 and y[2] == pytest.approx(math.log(2.0))
    assert 0.0 <= y[0] < 1e-30
    np.testing.assert_array_equal(g[[0, 2, 4]], [0.0, 0.5, 1.0])
    assert np.all(np.isfinite(h)) and h[2] == pytest.approx(0.25)
    assert y.dtype == g.dtype == h.dtype == dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sigmoid_is_stable_for_large_arguments(dtype):
    x = np.array([-1000.0, -50.0, 0.0, 50.0, 1000.0], dtype=dtype)
    with no_runtime_warnings():
        y, g, h = grad_and_hessian_diag(tf.sigmoid, x)
    y = y.numpy()
    assert y[0] == 0.0 and y[4] == 1.0 and y[2] == 0.5
    assert 0.0 < y[1] < 1e-20  # exp(-50), not flushed to 0
    assert np.all(np.isfinite(g.numpy())) and np.all(np.isfinite(h.numpy()))
    assert g.numpy()[2] == 0.25 and g.numpy()[0] == 0.0


def test_tanh_saturates_with_zero_gradient():
    with no_runtime_warnings():
        y, g, h = grad_and_hessian_diag(tf.tanh, np.array([-1000.0, 1000.0]))
    np.testing.assert_array_equal(y.numpy(), [-1.0, 1.0])
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(h.numpy(), [0.0, 0.0])


def test_erf_gradient_underflows_to_zero_for_large_arguments():
    with no_runtime_warnings():
        y, g, h = grad_and_hessian_diag(tf.math.erf, np.array([-40.0, 40.0]))
    np.testing.assert_array_equal(y.numpy(), [-1.0, 1.0])
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0])


def test_exp_overflows_to_inf_like_tensorflow():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert tf.exp(tf.constant(1000.0)).numpy() == np.inf
    assert tf.exp(tf.constant(-1000.0)).numpy() == 0.0


def test_expm1_and_log1p_are_accurate_near_zero():
    x = tf.constant([1e-12, -1e-15], dtype=tf.float64)
    np.testing.assert_allclose(tf.math.expm1(x).numpy(), [1e-12, -1e-15], rtol=1e-12)
    np.testing.assert_allclose(tf.math.log1p(x).numpy(), [1e-12, -1e-15], rtol=1e-12)


# -- dtypes -------------------------------------------------------------------------------------
@pytest.mark.parametrize("op", FLOAT_OPS, ids=lambda f: OP_TYPES[f])
@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_float_ops_refuse_integers(op, dtype):
    x = tf.constant([1, 4], dtype=dtype)
    with pytest.raises(tf.InvalidArgumentError, match=rf"{OP_TYPES[op]}.*{dtype.name}.*cast"):
        op(x)


def test_python_int_is_refused_like_tensorflow():
    with pytest.raises(tf.InvalidArgumentError, match="Sqrt.*int32.*2.0"):
        tf.sqrt(4)


@pytest.mark.parametrize("op", [tf.abs, tf.sign], ids=["abs", "sign"])
def test_abs_and_sign_refuse_bool(op):
    with pytest.raises(tf.InvalidArgumentError, match="bool.*cast"):
        op(tf.constant([True, False]))


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64, tf.int8])
def test_abs_and_sign_work_on_integers(dtype):
    x = tf.constant([-3, 0, 5], dtype=dtype)
    assert tf.abs(x).dtype == dtype and tf.abs(x).numpy().tolist() == [3, 0, 5]
    assert tf.sign(x).dtype == dtype and tf.sign(x).numpy().tolist() == [-1, 0, 1]


def test_integer_sources_get_no_gradient():
    x = tf.constant([-3, 2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.abs(x)
    assert tape.gradient(y, x) is None


@pytest.mark.parametrize("op", ALL_OPS, ids=lambda f: OP_TYPES.get(f, f.__name__))
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_float32_in_float32_out_for_values_and_gradients(op, shape):
    x = np.full(shape, 0.7, dtype=np.float32)
    y, g, h = grad_and_hessian_diag(op, x)
    assert y.dtype == tf.float32 and y.shape == shape
    assert g.dtype == tf.float32 and g.shape == shape
    if h is not None:  # sign's gradient does not depend on x
        assert h.dtype == tf.float32


def test_python_float_becomes_float32():
    assert tf.exp(1.0).dtype == tf.float32
    assert tf.math.erf(0.5).dtype == tf.float32


def test_float16_is_supported():
    x = tf.constant(np.array([0.5, 1.0], dtype=np.float16))
    for op in FLOAT_OPS:
        assert op(x).dtype == tf.float16


def test_variables_are_read_and_differentiated():
    v = tf.Variable([0.5, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = tf.math.log(v)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [2.0, 0.5])


# -- erf accuracy ---------------------------------------------------------------------------------
def test_erf_matches_math_erf_on_a_dense_grid():
    grid = np.concatenate([np.linspace(-8.0, 8.0, 40001),
                           np.logspace(-310, 1.5, 3000), -np.logspace(-310, 1.5, 3000),
                           [0.46875, -0.46875, 4.0, -4.0, 26.0, 26.6, 30.0, 1e300, -1e300]])
    got = tf.math.erf(tf.constant(grid)).numpy()
    want = np.array([math.erf(v) for v in grid])
    rel = np.abs(got - want) / np.maximum(np.abs(want), np.finfo(np.float64).tiny)
    assert rel.max() < 2e-15, grid[np.argmax(rel)]


def test_erf_special_values():
    x = tf.constant([0.0, -0.0, np.inf, -np.inf, np.nan])
    y = tf.math.erf(x).numpy()
    assert y[0] == 0.0 and np.signbit(y[1]) and y[2] == 1.0 and y[3] == -1.0 and np.isnan(y[4])


def test_erf_is_odd_and_float32_is_rounded_from_float64():
    x = np.linspace(-5, 5, 1001)
    np.testing.assert_array_equal(tf.math.erf(-x).numpy(), -tf.math.erf(x).numpy())
    y32 = tf.math.erf(tf.constant(x.astype(np.float32))).numpy()
    want = np.array([math.erf(v) for v in x.astype(np.float32)]).astype(np.float32)
    np.testing.assert_array_equal(y32, want)


def test_erf_derivatives():
    x = np.array([-1.5, 0.0, 0.3, 2.0])
    _, g, h = grad_and_hessian_diag(tf.math.erf, x)
    gauss = 2.0 / math.sqrt(math.pi) * np.exp(-x * x)
    np.testing.assert_allclose(g.numpy(), gauss, rtol=1e-14)
    np.testing.assert_allclose(h.numpy(), -2.0 * x * gauss, rtol=1e-14, atol=1e-300)


# -- fused backward ops -------------------------------------------------------------------------
@pytest.mark.parametrize("op,grad_type", [(tf.tanh, "TanhGrad"), (tf.sigmoid, "SigmoidGrad"),
                                          (tf.sqrt, "SqrtGrad"), (tf.math.rsqrt, "RsqrtGrad"),
                                          (tf.math.reciprocal, "ReciprocalGrad")])
def test_hot_ops_take_one_backward_op(op, grad_type):
    x = tf.constant([0.5, 1.5, 2.5])
    seed = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = op(x)
    ran = []
    state.observers = (lambda op_def, *rest: ran.append(op_def.type),)
    try:
        tape.gradient(y, x, output_gradients=seed)
    finally:
        state.observers = ()
    assert ran == [grad_type]


def test_closed_form_second_derivatives():
    x = np.array([-1.2, 0.3, 2.0])
    cases = [
        (tf.tanh, lambda x: 1 - np.tanh(x) ** 2, lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
        (tf.sqrt, lambda x: 0.5 / np.sqrt(x), lambda x: -0.25 * x ** -1.5),
        (tf.math.rsqrt, lambda x: -0.5 * x ** -1.5, lambda x: 0.75 * x ** -2.5),
        (tf.math.reciprocal, lambda x: -1 / x ** 2, lambda x: 2 / x ** 3),
        (tf.tan, lambda x: 1 / np.cos(x) ** 2, lambda x: 2 * np.tan(x) / np.cos(x) ** 2),
    ]
    for op, d1, d2 in cases:
        xs = np.abs(x) if op in (tf.sqrt, tf.math.rsqrt) else x
        _, g, h = grad_and_hessian_diag(op, xs)
        np.testing.assert_allclose(g.numpy(), d1(xs), rtol=1e-12, err_msg=op.__name__)
        np.testing.assert_allclose(h.numpy(), d2(xs), rtol=1e-12, err_msg=op.__name__)
    s = 1 / (1 + np.exp(-x))
    _, g, h = grad_and_hessian_diag(tf.sigmoid, x)
    np.testing.assert_allclose(g.numpy(), s * (1 - s), rtol=1e-12)
    np.testing.assert_allclose(h.numpy(), s * (1 - s) * (1 - 2 * s), rtol=1e-12)


def test_third_derivative_of_tanh():
    x = tf.constant([0.4, -0.9], dtype=tf.float64)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.tanh(x)
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    g3 = t3.gradient(g2, x).numpy()
    t = np.tanh(x.numpy())
    np.testing.assert_allclose(g3, -2 * (1 - t ** 2) * (1 - 3 * t ** 2), rtol=1e-12)


def test_log_of_zero_gives_minus_inf_and_sqrt_of_negative_nan():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert tf.math.log(tf.constant(0.0)).numpy() == -np.inf
        assert np.isnan(tf.sqrt(tf.constant(-1.0)).numpy())
