"""check_grads in both modes, the public wengert.testing.check_grads, test.compute_gradient."""
import numpy as np
import pytest

import wengert as tf
from wengert import test as tf_test
from wengert import testing
from wengert.autodiff.checker import GradientCheckError, check_grads
from wengert.framework.execute import execute
from wengert.framework.registry import defop

# x^3 with a correct gradient but a wrong JVP, and the other way round.
_WRONG_JVP = defop("TestCheckerWrongJvp", lambda x: x ** 3,
                   grad=lambda op, g: g * 3.0 * op.inputs[0] * op.inputs[0],
                   jvp=lambda p, t, o: t[0] * 2.0 * p[0] * p[0])
_WRONG_VJP = defop("TestCheckerWrongVjp", lambda x: x ** 3,
                   grad=lambda op, g: g * 2.0 * op.inputs[0] * op.inputs[0],
                   jvp=lambda p, t, o: t[0] * 3.0 * p[0] * p[0])
X = [np.array([0.5, 1.5, -1.0])]


def test_forward_mode_catches_a_wrong_jvp_rule():
    f = lambda x: execute(_WRONG_JVP, (x,))  # noqa: E731
    check_grads(f, X, order=1, modes=("rev",))
    with pytest.raises(GradientCheckError, match="forward mode"):
        check_grads(f, X, order=1, modes=("fwd",))


def test_reverse_mode_catches_a_wrong_vjp_rule():
    f = lambda x: execute(_WRONG_VJP, (x,))  # noqa: E731
    check_grads(f, X, order=1, modes=("fwd",))
    with pytest.raises(GradientCheckError, match="reverse mode"):
        check_grads(f, X, order=1, modes=("rev",))


def test_order_two_names_the_composition_that_fails():
    """A custom gradient right at first order whose rule hides x from higher orders."""
    from wengert.autodiff.custom import custom_gradient

    @custom_gradient
    def cube(x):
        return x * x * x, lambda dy: dy * 3.0 * tf.stop_gradient(x * x)
    f = lambda x: tf.reduce_sum(cube(x))  # noqa: E731
    check_grads(f, X, order=1, modes=("fwd", "rev"))
    with pytest.raises(GradientCheckError, match="order-2 .* reverse over reverse"):
        check_grads(f, X, order=2, modes=("rev",))
    with pytest.raises(GradientCheckError, match="order-2 .* forward over "):
        check_grads(f, X, order=2, modes=("fwd", "rev"))


def test_public_check_grads_both_modes_by_default():
    assert testing.check_grads(lambda x, y: tf.tanh(x) * tf.exp(y),
                               [np.array([0.3, -0.2]), np.array([0.1, 0.4])], order=3)
    with pytest.raises(GradientCheckError):
        testing.check_grads(lambda x: execute(_WRONG_JVP, (x,)), X, order=1)
    with pytest.raises(ValueError, match="modes"):
        testing.check_grads(tf.sin, X, modes=("sideways",))


def test_compute_gradient_documented_example_and_layout():
    @tf.function
    def test_func(x):
        return x * x
    theoretical, numerical = tf_test.compute_gradient(test_func, [1.0])
    assert theoretical[0].dtype == np.float32 and theoretical[0].shape == (1, 1)
    np.testing.assert_allclose(theoretical[0], [[2.0]])
    np.testing.assert_allclose(numerical[0], [[2.0]], rtol=1e-4)
    a, b = np.random.default_rng(0).standard_normal((2, 3)), np.arange(12.0).reshape(3, 4)
    theoretical, numerical = tf_test.compute_gradient(tf.matmul, [a, b])
    assert theoretical[0].shape == (8, 6) and theoretical[1].shape == (8, 12)  # y rows, x cols
    # d y[i, k] / d a[i, j] = b[j, k]
    np.testing.assert_allclose(theoretical[0][1, 0:3], b[:, 1])
    for t, n in zip(theoretical, numerical):
        np.testing.assert_allclose(t, n, rtol=1e-6, atol=1e-8)


def test_compute_gradient_needs_a_list():
    with pytest.raises(ValueError, match="list or tuple"):
        tf_test.compute_gradient(tf.sin, np.array([1.0]))
