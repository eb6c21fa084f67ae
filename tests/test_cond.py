"""cond, case and switch_case: eager, Session graph and traced function give the same values and
gradients; gradients of the If/Case ops against finite differences; bad input errors."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads
from wengert.control_flow.cond import case, cond, switch_case

v1 = tf.compat.v1


def _eager(fn, args, wrt):
    tensors = [tf.constant(a) for a in args]
    with tf.GradientTape(persistent=True) as tape:
        for i in wrt:
            tape.watch(tensors[i])
        out = fn(*tensors)
    # Eagerly an input the taken branch does not use is unconnected (None, as in TensorFlow);
    # in a graph the If op gives it zeros. Compare with zeros.
    grads = [tape.gradient(out, tensors[i], unconnected_gradients="zero") for i in wrt]
    return out.numpy(), [g.numpy() for g in grads]


def _traced(fn, args, wrt):
    traced = tf.function(fn)
    plain = traced(*[tf.constant(a) for a in args]).numpy()  # the compiled plan

    @tf.function
    def with_grads(*xs):
        with tf.GradientTape(persistent=True) as tape:
            for i in wrt:
                tape.watch(xs[i])
            out = fn(*xs)
        return out, [tape.gradient(out, xs[i], unconnected_gradients="zero") for i in wrt]
    out, grads = with_grads(*[tf.constant(a) for a in args])
    replayed = _eager(traced, args, wrt)  # an outer tape: the traced ops are replayed eagerly
    np.testing.assert_allclose(plain, out.numpy())
    np.testing.assert_allclose(replayed[0], out.numpy())
    for g, r in zip(grads, replayed[1]):
        np.testing.assert_allclose(g.numpy(), r)
    return out.numpy(), [g.numpy() for g in grads]


def _session(fn, args, wrt):
    graph = tf.Graph()
    with graph.as_default():
        holders = [v1.placeholder(tf.as_dtype(np.asarray(a).dtype), np.shape(a)) for a in args]
        out = fn(*holders)
        grads = tf.gradients(out, [holders[i] for i in wrt])
        with v1.Session() as sess:
            values = sess.run([out] + grads, dict(zip(holders, args)))
    return values[0], values[1:]


def three_ways(fn, args, wrt=(0,)):
    """The value and gradients in eager, Session and traced form, checked equal; returned."""
    args = [np.asarray(a) for a in args]
    want = _eager(fn, args, wrt)
    for mode in (_session, _traced):
        got = mode(fn, args, wrt)
        np.testing.assert_allclose(got[0], want[0], rtol=1e-6, err_msg=mode.__name__)
        for g, w in zip(got[1], want[1]):
            np.testing.assert_allclose(g, w, rtol=1e-6, err_msg=mode.__name__)
    return want


def test_documented_example_42x_or_3x():
    def f(x, c):
        return cond(c < 2, lambda: 42.0 * x, lambda: 3.0 * x)
    for c, value, grad in ((1, 420.0, 42.0), (3, 30.0, 3.0)):
        out, grads = three_ways(f, [np.float32(10.0), np.int32(c)])
        assert out == value and grads[0] == grad


@pytest.mark.parametrize("p,dx", [(True, 4.0), (False, 0.0)])
def test_untaken_branch_gets_zeros(p, dx):
    def f(x, y, pred):
        return cond(pred, lambda: x * y * 2.0, lambda: tf.constant(2.0))
    out, grads = three_ways(f, [np.float32(1.0), np.float32(2.0), np.bool_(p)], wrt=(0,))
    assert grads[0] == dx


def test_branches_returning_tuples_and_dicts():
    def f(x):
        pair = cond(x > 0, lambda: (x * x, {"a": x, "b": 2.0 * x}),
                    lambda: (x, {"a": -x, "b": x * x * x}))
        return pair[0] + pair[1]["a"] * pair[1]["b"]
    for x in (1.5, -0.5):
        three_ways(f, [np.float64(x)])
        check_grads(f, [np.float64(x)], order=2)
        check_grads(tf.function(f), [np.float64(x)], order=2)


def test_nested_cond_and_second_order():
    def f(x):
        return cond(x > 0, lambda: cond(x > 1, lambda: x ** 3, lambda: tf.sin(x)),
                    lambda: x * tf.exp(x))
    for x in (2.0, 0.5, -1.0):
        three_ways(f, [np.float64(x)])
        check_grads(tf.function(f), [np.array(x)], order=2)


def test_captured_tensor_and_variable_in_traced_function():
    w = tf.Variable(2.0, dtype=tf.float64)
    outside = tf.constant(5.0, tf.float64)

    @tf.function
    def f(x):
        return cond(x > 0, lambda: w * x * outside, lambda: x)
    with tf.GradientTape() as tape:
        y = f(tf.constant(3.0, tf.float64))
    assert y.numpy() == 30.0
    assert tape.gradient(y, w).numpy() == 15.0


def test_cond_graph_is_one_op():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [])
        cond(x > 0, lambda: x * 2.0 + 1.0, lambda: x - 1.0)
    types = [op.type for op in graph.get_operations()]
    assert types.count("If") == 1 and "Mul" not in types


def test_switch_case_three_ways():
    def f(i, x):
        return switch_case(i, [lambda: x * 2.0, lambda: x * x, lambda: -x])
    for i, value, grad in ((0, 6.0, 2.0), (1, 9.0, 6.0), (2, -3.0, -1.0), (7, -3.0, -1.0)):
        out, grads = three_ways(f, [np.int32(i), np.float32(3.0)], wrt=(1,))
        assert out == value and grads[0] == grad


def test_switch_case_default_and_dict():
    def f(i, x):
        return switch_case(i, {0: lambda: x, 1: lambda: x * 3.0}, default=lambda: x * 0.0)
    assert three_ways(f, [np.int32(1), np.float32(2.0)], wrt=(1,))[0] == 6.0
    assert three_ways(f, [np.int32(-1), np.float32(2.0)], wrt=(1,))[0] == 0.0


def test_case_first_true_predicate_wins():
    def f(x):
        return case([(x < 0, lambda: -x), (x < 1, lambda: x * x)], default=lambda: 2.0 * x)
    for x, value, grad in ((-1.0, 1.0, -1.0), (0.5, 0.25, 1.0), (3.0, 6.0, 2.0)):
        out, grads = three_ways(f, [np.float32(x)])
        assert out == value and grads[0] == grad


def test_case_exclusive_raises_eagerly():
    x = tf.constant(0.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="exclusive"):
        case([(x < 1, lambda: x), (x < 2, lambda: x * 2.0)], exclusive=True)


def test_mismatched_branches_name_both():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [3])
        with pytest.raises(ValueError, match="true_fn .* false_fn"):
            cond(x[0] > 0, lambda: (x, x), lambda: x)
        with pytest.raises(TypeError, match="float32 in true_fn but int32 in false_fn"):
            cond(x[0] > 0, lambda: x, lambda: tf.constant([1, 2, 3]))
        with pytest.raises(ValueError, match=r"shape \(3,\) in true_fn but \(2,\)"):
            cond(x[0] > 0, lambda: x, lambda: tf.constant([1.0, 2.0]))


def test_bad_predicates():
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="bool"):
        cond(x, lambda: x, lambda: x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="scalar"):
        cond(tf.constant([True, False]), lambda: x, lambda: x)
    with pytest.raises(TypeError, match="callables"):
        cond(x > 0, x, lambda: x)
    graph = tf.Graph()
    with graph.as_default():
        p = v1.placeholder(tf.float32, [])
        with pytest.raises(TypeError, match="bool"):
            cond(p, lambda: p, lambda: p)
        with pytest.raises(ValueError, match="scalar"):
            cond(v1.placeholder(tf.bool, [2]), lambda: p, lambda: p)


def test_python_bool_predicate_calls_branch_directly():
    graph = tf.Graph()
    with graph.as_default():
        p = v1.placeholder(tf.float32, [])
        cond(True, lambda: p * 2.0, lambda: p)
    assert "If" not in [op.type for op in graph.get_operations()]


def test_forward_mode_through_traced_cond():
    forward = pytest.importorskip("wengert.autodiff.forward")  # forward mode: issue 5
    ForwardAccumulator = forward.ForwardAccumulator
    f = tf.function(lambda x: cond(x > 1, lambda: x * x * x, lambda: x))
    x = tf.constant(2.0)
    with ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = f(x)
    assert acc.jvp(y).numpy() == 12.0
