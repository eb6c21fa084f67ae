"""TensorFlow's gradient conventions for the elementwise math of issue 16: which ops give None,
which raise LookupError (TensorFlow registers nothing for them), which shape parameters get no
gradient, the values at the guards and removable singularities, and reference numbers from
TensorFlow 2.21 for the derivative of igamma in a."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff import explain as ex
from wengert.framework.registry import _GRADIENTS


def _grads(fn, *args):
    args = [tf.constant(np.asarray(a, np.float64)) for a in args]
    with tf.GradientTape(persistent=True) as tape:
        for a in args:
            tape.watch(a)
        y = fn(*args)
    return tape, y, tape.gradient(y, args)


@pytest.mark.parametrize("fn,op_type", [
    (tf.round, "Round"), (tf.floor, "Floor"), (tf.math.ceil, "Ceil"), (tf.math.rint, "Rint"),
    (lambda x: tf.truncatediv(x, tf.constant(2.0, tf.float64)), "TruncateDiv"),
    (lambda x: tf.math.floordiv(x, tf.constant(2.0, tf.float64)), "FloorDiv")])
def test_rounding_ops_give_none_and_explain_names_them(fn, op_type):
    _, _, (g,) = _grads(lambda x: fn(x) * 3.0, [1.4, -2.6])
    assert g is None
    x = tf.constant([1.4, -2.6], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = fn(x) * 3.0
    (entry,) = tape.explain(y, [x])
    assert not entry.has_gradient and entry.cause == ex.NON_DIFFERENTIABLE
    assert op_type in str(entry)


def test_truncatemod_raises_lookup_error_as_tensorflow():
    x = tf.constant([2.5, -3.5], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.truncatemod(x, tf.constant(2.0, tf.float64))
    with pytest.raises(LookupError, match="TruncateMod"):
        tape.gradient(y, x)


def test_bincount_weights_raise_lookup_error_as_tensorflow():
    w = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = tf.math.bincount([0, 2, 2], weights=w)
    with pytest.raises(LookupError, match="DenseBincount"):
        tape.gradient(y, w)


def test_nextafter_gradient_is_one_and_zero():
    _, _, (g1, g2) = _grads(tf.math.nextafter, [1.0, 2.0], [5.0, -5.0])
    np.testing.assert_array_equal(g1.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(g2.numpy(), [0.0, 0.0])


def test_classification_and_bitwise_ops_are_registered_non_differentiable():
    for op_type in ("IsNan", "IsInf", "IsFinite", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
                    "Invert", "LeftShift", "RightShift", "ApproximateEqual", "Round", "Floor",
                    "Ceil", "Rint", "TruncateDiv", "HistogramFixedWidth", "InvertPermutation"):
        assert op_type in _GRADIENTS and _GRADIENTS[op_type] is None
    for op_type in ("TruncateMod", "IgammaGradA", "DenseBincount"):
        assert op_type not in _GRADIENTS  # TensorFlow registers nothing: LookupError


# -- the zero-guarded forms -------------------------------------------------------------------
def test_multiply_no_nan_gradient_in_y_is_x_where_y_is_zero():
    """TensorFlow 2.21: x = [1, 2, 0], y = [0, 3, 0] gives dx = [0, 3, 0], dy = [1, 2, 0]."""
    _, _, (gx, gy) = _grads(tf.math.multiply_no_nan, [1.0, 2.0, 0.0], [0.0, 3.0, 0.0])
    np.testing.assert_array_equal(gx.numpy(), [0.0, 3.0, 0.0])
    np.testing.assert_array_equal(gy.numpy(), [1.0, 2.0, 0.0])


def test_multiply_no_nan_ignores_inf_where_y_is_zero():
    out = tf.math.multiply_no_nan(tf.constant([np.inf, np.nan, 2.0]), tf.constant([0.0, 0.0, 3.0]))
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 6.0])


def test_guarded_gradients_match_tensorflow_at_the_guards():
    """Values from TensorFlow 2.21 for x = [0, 0, 1], y = [0, 2, 0]."""
    x, y = [0.0, 0.0, 1.0], [0.0, 2.0, 0.0]
    _, z, (gx, gy) = _grads(tf.math.xlogy, x, y)
    np.testing.assert_array_equal(z.numpy(), [0.0, 0.0, -np.inf])
    np.testing.assert_array_equal(gx.numpy(), [0.0, 0.0, -np.inf])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 0.0, np.inf])
    _, _, (gx, gy) = _grads(tf.math.xdivy, x, y)
    np.testing.assert_array_equal(gx.numpy(), [0.0, 0.0, np.inf])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 0.0, -np.inf])
    _, z, (gx, gy) = _grads(tf.math.divide_no_nan, x, y)
    np.testing.assert_array_equal(z.numpy(), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(gx.numpy(), [0.0, 0.5, 0.0])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 0.0, 0.0])


# -- special functions --------------------------------------------------------------------------
def test_igamma_gradient_in_a_matches_tensorflow():
    """dP/da and dQ/da from TensorFlow 2.21 (float64), over both branches (series, fraction)."""
    a = [0.5, 2.0, 10.0, 30.0, 1.0, 0.1, 100.0]
    x = [3.0, 0.5, 12.0, 25.0, 1.0, 1e-3, 110.0]
    want = [-0.04724033, -0.15103424, -0.09717797, -0.04995488, -0.43172971, -3.41600284,
            -0.02380866]
    _, _, (ga, _) = _grads(tf.math.igamma, a, x)
    np.testing.assert_allclose(ga.numpy(), want, rtol=1e-6)
    _, _, (ga, _) = _grads(tf.math.igammac, a, x)
    np.testing.assert_allclose(ga.numpy(), -np.asarray(want), rtol=1e-6)


def test_igamma_second_derivative_through_a_raises_as_tensorflow():
    a, x = tf.constant([2.0], tf.float64), tf.constant([1.5], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            y = tf.math.igamma(a, x)
        ga = inner.gradient(y, a)
    with pytest.raises(LookupError, match="IgammaGradA"):
        outer.gradient(ga, a)


def test_igamma_second_derivative_in_x_works():
    a, x = tf.constant(2.0, tf.float64), tf.constant(1.5, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.math.igamma(a, x)
        gx = inner.gradient(y, x)
    # d/dx [x e^-x] = (1 - x) e^-x for a = 2
    np.testing.assert_allclose(outer.gradient(gx, x).numpy(), (1 - 1.5) * np.exp(-1.5))


@pytest.mark.parametrize("fn,args,none_at", [
    (tf.math.betainc, ([2.0], [3.0], [0.4]), (0, 1)),
    (tf.math.zeta, ([2.0], [1.5]), (0,)),
    (tf.math.polygamma, ([1.0], [1.5]), (0,))])
def test_shape_parameters_get_no_gradient(fn, args, none_at):
    _, _, grads = _grads(fn, *args)
    for i, g in enumerate(grads):
        assert (g is None) == (i in none_at)


@pytest.mark.parametrize("fn,slope", [(tf.math.bessel_i1, 0.5), (tf.math.special.bessel_j1, 0.5),
                                      (tf.math.bessel_i1e, 0.5)])
def test_bessel_derivatives_at_zero_are_the_limits(fn, slope):
    """I1'(0) = J1'(0) = I1e'(0) = 1/2 (TensorFlow 2.21's BesselI1 rule gives 1 there)."""
    _, _, (g,) = _grads(fn, [0.0])
    np.testing.assert_allclose(g.numpy(), [slope])


def test_spence_derivative_at_one():
    _, _, (g,) = _grads(tf.math.special.spence, [1.0])
    np.testing.assert_allclose(g.numpy(), [-1.0])


def test_polygamma_of_non_integer_order_is_nan():
    out = tf.math.polygamma(tf.constant([0.5, -1.0, 1.0]), tf.constant([2.0, 2.0, 2.0]))
    assert np.isnan(out.numpy()[:2]).all() and np.isclose(out.numpy()[2], 0.6449341)


@pytest.mark.parametrize("fn", [tf.math.lgamma, tf.math.erfinv, tf.math.bessel_i0,
                                tf.math.special.spence, tf.sinh, tf.floor])
def test_special_functions_keep_float16(fn):
    out = fn(tf.constant([0.25, 0.5], tf.float16))
    assert out.dtype == tf.float16


@pytest.mark.parametrize("fn", [tf.math.lgamma, tf.math.erfc, tf.floor, tf.math.special.dawsn])
def test_integer_input_is_refused_naming_the_op(fn):
    with pytest.raises(tf.errors.InvalidArgumentError, match="cast"):
        fn(tf.constant([1, 2]))


def test_mixed_dtypes_are_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Igamma"):
        tf.math.igamma(tf.constant(1.0, tf.float64), tf.constant(1.0, tf.float32))


def test_integer_division_by_zero_raises():
    with pytest.raises(tf.errors.InvalidArgumentError, match="division by zero"):
        tf.truncatediv(tf.constant([1, 2]), tf.constant([1, 0]))


def test_round_is_bankers_rounding():
    np.testing.assert_array_equal(tf.round([0.5, 1.5, 2.5, -0.5, -1.5]).numpy(),
                                  [0.0, 2.0, 2.0, -0.0, -2.0])


# -- scans -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("exclusive,reverse,want", [
    (False, False, [-0.44020022, -0.32135211, 0.87369962, 0.08785271]),
    (False, True, [0.15329077, -0.04658851, -0.51298784, 0.60628557]),
    (True, False, [-1.46850949, 0.11859156, 0.54991792, 0.0]),
    (True, True, [0.0, 0.04039615, -0.87969108, 0.33929493])])
def test_cumulative_logsumexp_gradient_matches_tensorflow(exclusive, reverse, want):
    """TensorFlow 2.21, x = [0.5, -1, 2, 0.3], upstream [1, -2, 0.5, 0.7] (float64)."""
    x = tf.constant([0.5, -1.0, 2.0, 0.3], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.cumulative_logsumexp(x, exclusive=exclusive, reverse=reverse)
    g = tape.gradient(y, x, output_gradients=tf.constant([1.0, -2.0, 0.5, 0.7], tf.float64))
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-7, atol=1e-12)


def test_cumprod_gradient_is_exact_at_zeros():
    """y = cumprod([2, 0, 3, 4]): dsum(y)/dx = [1, 2 + 6 + 24, 0, 0]. (TensorFlow 2.21's rule,
    div_no_nan(cumsum(g y), x), gives [1, 0, 0, 0].)"""
    x = tf.constant([2.0, 0.0, 3.0, 4.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.cumprod(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.0, 32.0, 0.0, 0.0])


def test_cumprod_gradient_matches_tensorflow_without_zeros():
    x = tf.constant([[2.0, 0.5, 3.0], [1.5, -1.0, 2.0]], tf.float64)
    for exclusive in (False, True):
        for reverse in (False, True):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.math.cumprod(x, axis=1, exclusive=exclusive, reverse=reverse)
            got = tape.gradient(y, x).numpy()
            xs = x.numpy()
            want = np.zeros_like(xs)
            for r in range(2):
                for k in range(3):
                    for i in range(3):
                        members = [j for j in range(3) if (j < i if exclusive else j <= i)] \
                            if not reverse else [j for j in range(3) if (j > i if exclusive
                                                                         else j >= i)]
                        if k in members:
                            want[r, k] += np.prod([xs[r, j] for j in members if j != k])
            np.testing.assert_allclose(got, want)
