"""The reverse pass: long chains, memory, summing per tensor, None for unconnected, seeds,
registry errors (missing gradient, wrong arity, duplicates, no_gradient) and op records."""
import tracemalloc

import numpy as np
import pytest

import wengert as tf
from wengert.framework.execute import execute
from wengert.framework.registry import defop
from wengert.framework.tensor import convert_to_tensor


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


# Test-only op types (declared once, at import).
NO_RULE = defop("TestOnlyNoGradientRule", lambda x: x * 2)
NOT_DIFF = defop("TestOnlyNotDifferentiable", lambda x: x * 2, grad=None)
WRONG_ARITY = defop("TestOnlyWrongArity", np.multiply,
                    grad=lambda op, grad: (grad * op.inputs[1],))
CUSTOM = defop("TestOnlyCustomGradient", lambda x: x * 1)
tf.RegisterGradient("TestOnlyCustomGradient")(lambda op, grad: grad * 100.0)
STOP = defop("TestOnlyStopGradient", lambda x: x.copy())
tf.no_gradient("TestOnlyStopGradient")
LATE = defop("TestOnlyNotDifferentiableLate", lambda x: x.copy())
tf.NotDifferentiable("TestOnlyNotDifferentiableLate")
ATTRS = defop("TestOnlyScale", lambda x, factor: x * x.dtype.type(factor),
              grad=lambda op, grad: grad * op.get_attr("factor"))


def run(op_def, *inputs, name=None, **attrs):
    return execute(op_def, tuple(convert_to_tensor(t) for t in inputs), attrs, name)


# -- long chains and memory -----------------------------------------------------------------------
def test_chain_of_100k_multiplies():
    x = tf.constant(1.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(100_000):
            y = y * 1.0000001
    close(tape.gradient(y, x), 1.0000001 ** 100_000, tol=1e-9)


def test_chain_of_100k_adds():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(100_000):
            y = y + x
    close(tape.gradient(y, x), 100_001.0)


def _peak_memory(n):
    x = tf.constant(np.ones(8))
    tracemalloc.start()
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(n):
                y = y + x
        tape.gradient(y, x)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_is_linear_in_chain_length():
    small, large = _peak_memory(5_000), _peak_memory(20_000)
    ratio = large / small
    assert 2.0 < ratio < 6.0, f"peak memory 5k: {small}, 20k: {large} (ratio {ratio:.1f})"


# -- how gradients combine -----------------------------------------------------------------------
def test_diamond_sums_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a = x * 2.0
        b = x * x
        y = a * b          # 2x * x^2 = 2x^3
    close(tape.gradient(y, x), 6 * 9.0)


def test_tensor_used_many_times():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x + x + x + x * x
    close(tape.gradient(y, x), 3.0 + 4.0)


def test_broadcast_gradient_summed_to_input_shape():
    x = tf.constant(np.ones((3, 4)))
    b = tf.constant(np.arange(4.0))
    s = tf.constant(2.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, b, s])
        y = (x + b) * s
    gx, gb, gs = tape.gradient(y, [x, b, s])
    assert gx.shape == (3, 4) and gb.shape == (4,) and gs.shape == ()
    close(gx, 2.0 * np.ones((3, 4)))
    close(gb, [6.0] * 4)
    close(gs, np.sum(np.ones((3, 4)) + np.arange(4.0)))


def test_unconnected_is_none_not_zeros():
    x, z = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 3.0
        _unused = z * 5.0
    gx, gz = tape.gradient(y, [x, z])
    close(gx, 3.0)
    assert gz is None


def test_output_gradients_weighting():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    close(tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.0, -2.0])),
          [2.0, 0.0, -12.0])


def test_where_routes_gradient():
    x = tf.constant([-1.0, 2.0, -3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.where(x > 0, x * x, x * 10.0)
    close(tape.gradient(y, x), [10.0, 4.0, 10.0])


def test_maximum_ties_go_to_x():
    x, y = tf.constant([1.0, 2.0]), tf.constant([1.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.maximum(x, y)
    gx, gy = tape.gradient(z, [x, y])
    close(gx, [1.0, 1.0]), close(gy, [0.0, 0.0])


# -- registry: no gradient, missing gradient, wrong arity -------------------------------------------
def test_no_gradient_op_stops_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = run(STOP, x * x) * x + x
    close(tape.gradient(y, x), 4.0 + 1.0)  # the STOP branch is a constant


@pytest.mark.parametrize("op_def", [NOT_DIFF, LATE])
def test_not_differentiable_gives_none(op_def):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = run(op_def, x)
    assert tape.gradient(y, x) is None


def test_missing_gradient_raises_lookup_error_naming_op():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = run(NO_RULE, x * 3.0, name="my_op") * 2.0
    with pytest.raises(LookupError) as info:
        tape.gradient(y, x)
    assert "TestOnlyNoGradientRule" in str(info.value)
    assert "my_op" in str(info.value)


def test_missing_gradient_off_the_path_is_fine():
    x, z = tf.constant(2.0), tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        _off_path = run(NO_RULE, z)
        y = x * x
    close(tape.gradient(y, x), 4.0)


def test_wrong_number_of_gradients_names_op():
    x, w = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = run(WRONG_ARITY, x, w, name="arity_op")
    with pytest.raises(ValueError) as info:
        tape.gradient(y, x)
    assert "arity_op" in str(info.value) and "TestOnlyWrongArity" in str(info.value)


def test_registered_gradient_is_used():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = run(CUSTOM, x)
    close(tape.gradient(y, x), 100.0)


def test_register_gradient_twice_raises():
    with pytest.raises(KeyError, match="TestOnlyCustomGradient"):
        tf.RegisterGradient("TestOnlyCustomGradient")(lambda op, grad: grad)
    with pytest.raises(KeyError):
        tf.RegisterGradient("Mul")(lambda op, grad: (grad, grad))
    with pytest.raises(KeyError):
        tf.no_gradient("Mul")
    with pytest.raises(TypeError):
        tf.RegisterGradient(42)


def test_defop_twice_raises():
    with pytest.raises(KeyError, match="TestOnlyScale"):
        defop("TestOnlyScale", lambda x: x)


# -- op records -------------------------------------------------------------------------------------
def test_op_record_fields():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.multiply(x, 3.0, name="times_three")
        z = run(ATTRS, y, factor=0.5, name="scaled")
    op = y.op
    assert op.type == "Mul" and op.name == "times_three"
    assert op.inputs[0] is x and len(op.inputs) == 2
    assert op.outputs[0] is y
    assert z.op.type == "TestOnlyScale"
    assert z.op.get_attr("factor") == 0.5
    with pytest.raises(ValueError, match="no attribute"):
        z.op.get_attr("missing")
    close(tape.gradient(z, x), [1.5, 1.5])


def test_unrecorded_tensor_has_no_op():
    assert tf.constant(1.0).op is None
    assert (tf.constant(1.0) * 2.0).op is None


def test_variable_read_record():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        r = v.read_value()
    assert r.op.type == "ReadVariableOp" and r.op.inputs[0] is v
    close(tape.gradient(r, v), [1.0, 1.0])


def test_scalar_factor_gradient_is_one_mulsum_and_checks_shapes():
    """y * s for a scalar s: ds = sum(g * y) is one MulSum op (seen by an outer tape); the op
    refuses mismatched shapes with an error naming both (graph mode runs its shape rule)."""
    from wengert.ops.math_ops import MUL_SUM
    y, s = tf.constant(np.arange(3.0)), tf.constant(2.0, dtype=tf.float64)
    g = tf.constant([1.0, 2.0, 3.0], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as tape:
            tape.watch(s)
            out = y * s
        ds = tape.gradient(out, s, output_gradients=g)
    assert ds.op.type == "MulSum"
    np.testing.assert_allclose(ds.numpy(), 0 * 1 + 1 * 2 + 2 * 3)
    with tf.Graph().as_default():
        a = tf.compat.v1.placeholder(tf.float64, [3])
        b = tf.compat.v1.placeholder(tf.float64, [4])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"MulSum.*\(3,\).*\(4,\)"):
            execute(MUL_SUM, (a, b))
