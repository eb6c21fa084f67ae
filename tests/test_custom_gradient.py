"""custom_gradient, recompute_grad and grad_pass_through: TensorFlow's semantics and errors."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.custom import custom_gradient, grad_pass_through, recompute_grad
from wengert.autodiff.forward import ForwardAccumulator


@custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def _grad(fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x)


@pytest.mark.filterwarnings("ignore:overflow encountered in exp")
def test_log1pexp_documented_example():
    np.testing.assert_allclose(_grad(log1pexp, tf.constant(100.)).numpy(), 1.0)


def test_clip_gradient_by_norm_documented_example():
    @custom_gradient
    def clip_gradient_by_norm(x, norm):
        y = tf.identity(x)

        def grad_fn(dresult):
            return [tf.clip_by_norm(dresult, norm), None]
        return y, grad_fn
    x = tf.constant([3.0, 4.0])
    g = _grad(lambda x: clip_gradient_by_norm(x, 0.5) * 10.0, x)
    np.testing.assert_allclose(np.linalg.norm(g.numpy()), 0.5, rtol=1e-6)


def test_second_order_and_forward_mode_use_the_custom_rule():
    x = tf.constant(1.0, dtype=tf.float64)
    s = 1 / (1 + np.exp(-1.0))
    with tf.GradientTape() as outer:
        outer.watch(x)
        g = _grad(log1pexp, x)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), s * (1 - s))
    with ForwardAccumulator(x, tf.constant(2.0, dtype=tf.float64)) as acc:
        y = log1pexp(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), 2 * s)


def test_no_tape_just_runs_f():
    np.testing.assert_allclose(log1pexp(tf.constant(0.0)).numpy(), np.log(2.0))


def test_wrong_number_of_gradients_is_a_clear_error():
    @custom_gradient
    def f(x, y):
        return x * y, lambda dy: dy  # one gradient for two inputs
    x, y = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = f(x, y)
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        tape.gradient(z, x)


def test_variables_need_the_keyword_and_get_their_gradients():
    v = tf.Variable(2.0)

    @custom_gradient
    def missing(x):
        return x * v, lambda dy: dy * v
    with tf.GradientTape():
        with pytest.raises(TypeError, match="keyword argument 'variables'"):
            missing(tf.constant(3.0))

    @custom_gradient
    def scale(x):
        def grad(dy, variables):
            assert variables == [v]
            return dy * v, [dy * x * 10.0]
        return x * v, grad
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    gx, gv = tape.gradient(y, [x, v])
    assert float(gx) == 2.0 and float(gv) == 30.0

    @custom_gradient
    def too_few(x):
        return x * v, lambda dy, variables=None: (dy, [])
    with tf.GradientTape() as tape:
        y = too_few(x)
    with pytest.raises(ValueError, match="gradient for each variable"):
        tape.gradient(y, v)


def test_f_must_return_a_pair():
    @custom_gradient
    def bad(x):
        return x
    with tf.GradientTape():
        with pytest.raises(TypeError, match="pair"):
            bad(tf.constant(1.0))


def test_multiple_outputs_and_graph_modes():
    @custom_gradient
    def two(x):
        return (x * 2.0, x * 3.0), lambda a, b: a * 20.0 + b * 30.0

    @tf.function
    def traced(x):
        a, b = two(x)
        return a + b

    @tf.function
    def single(x):
        return log1pexp(x)
    x = tf.constant(1.0)
    assert float(_grad(traced, x)) == 50.0
    assert float(_grad(lambda t: tf.add_n(list(two(t))), x)) == 50.0
    np.testing.assert_allclose(_grad(single, x).numpy(), 1 / (1 + np.exp(-1.0)), rtol=1e-6)

    @tf.function
    def inside(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = log1pexp(x)
        return tape.gradient(y, x)
    np.testing.assert_allclose(inside(x).numpy(), 1 / (1 + np.exp(-1.0)), rtol=1e-6)


def _block(x):
    for _ in range(4):
        x = tf.tanh(x) * 1.5
    return x


def test_recompute_grad_identical_gradients_fewer_records():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal(5))
    with tf.GradientTape(persistent=True) as plain:
        plain.watch(x)
        a = _block(x)
    with tf.GradientTape(persistent=True) as saving:
        saving.watch(x)
        b = recompute_grad(_block)(x)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(plain.gradient(a, x).numpy(), saving.gradient(b, x).numpy())
    assert len(saving._records) == 1 < len(plain._records)


def test_recompute_grad_with_variables():
    w = tf.Variable([[0.5, -0.2], [0.1, 0.3]], dtype=tf.float64)
    layer = lambda x: tf.tanh(tf.matmul(x, w))  # noqa: E731
    x = tf.constant([[1.0, 2.0]], dtype=tf.float64)
    with tf.GradientTape() as t1:
        y1 = tf.reduce_sum(layer(x))
    with tf.GradientTape() as t2:
        y2 = tf.reduce_sum(recompute_grad(layer)(x))
    np.testing.assert_allclose(t1.gradient(y1, w).numpy(), t2.gradient(y2, w).numpy())


def test_grad_pass_through_documented_example():
    x = tf.Variable(1.0, name="x")
    z = tf.Variable(3.0, name="z")
    with tf.GradientTape() as tape:
        y = grad_pass_through(x.assign)(z ** 2)
    assert float(x.numpy()) == 9.0
    np.testing.assert_allclose(tape.gradient(y, z).numpy(), 6.0)
    w = tf.constant([0.4, 1.6])
    np.testing.assert_array_equal(_grad(grad_pass_through(tf.sign), w).numpy(), [1.0, 1.0])


def test_a_private_or_lambda_function_names_a_valid_op_in_tf_function():
    @tf.custom_gradient
    def _clip(x):
        return tf.identity(x), lambda dy: dy * 0.5

    halve = tf.custom_gradient(lambda x: (x * 1.0, lambda dy: dy * 0.5))

    @tf.function
    def f(x):
        return _clip(x) * 2.0 + halve(x)

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_allclose(y.numpy(), [3.0, 6.0])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.5, 1.5])
    names = [op.name for op in f.get_concrete_function(x).graph.get_operations()]
    assert "clip" in names and any(n.startswith("lambda") for n in names)
