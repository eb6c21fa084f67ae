"""Tensor: values, shape/dtype, Python operators (incl. reflected), conversions, printing, and
TensorFlow's dtype rules for constants and mixed operands."""
import numpy as np
import pytest

import wengert as tf


def close(a, b, tol=1e-6):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


# -- what a tensor is -------------------------------------------------------------------------
def test_numpy_shape_dtype_ndim():
    t = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    value = t.numpy()
    assert isinstance(value, np.ndarray) and value.dtype == np.float32
    assert t.shape == (2, 3) and t.shape.as_list() == [2, 3] and t.shape[0] == 2
    assert t.shape.rank == 2 and t.ndim == 2
    assert t.dtype == tf.float32
    assert t.op is None
    value[0, 0] = 100.0  # a copy: the tensor is immutable
    assert t.numpy()[0, 0] == 1.0


def test_op_results_have_every_field_set():
    """`execute` builds an op's result without Tensor.__init__; every field must be set, as the
    constructor would set it (a field added to Tensor and forgotten there fails here)."""
    x = tf.constant([1.0, 2.0])
    fields = [f for f in tf.Tensor.__slots__ if f != "__weakref__"]
    built, by_init = tf.tanh(x), tf.Tensor(np.tanh(x.numpy()))
    assert [getattr(built, f) for f in fields][1:] == [getattr(by_init, f) for f in fields][1:]
    close(built, by_init)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x)
    assert y.op is not None and y.op.type == "Tanh" and y.value_index == 0


def test_scalar_numpy_is_numpy_scalar():
    s = tf.constant(2.5)
    assert s.shape == () and s.ndim == 0
    assert s.numpy() == np.float32(2.5)


def test_np_asarray():
    t = tf.constant([1, 2, 3])
    array = np.asarray(t)
    assert array.dtype == np.int32
    np.testing.assert_array_equal(array, [1, 2, 3])
    assert np.array(t, dtype=np.float64).dtype == np.float64


def test_len_and_iteration():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    assert len(t) == 3
    with pytest.raises(TypeError):
        len(tf.constant(1.0))


def test_iteration_yields_rows():
    rows = list(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert len(rows) == 2
    close(rows[1], [3.0, 4.0])


def test_scalar_conversions():
    assert float(tf.constant(2.5)) == 2.5
    assert int(tf.constant(7)) == 7
    assert bool(tf.constant(True)) is True
    assert bool(tf.constant(0.0)) is False
    assert [10, 20, 30][tf.constant(1)] == 20


@pytest.mark.parametrize("convert", [bool, float, int])
def test_conversions_of_non_scalars_raise(convert):
    with pytest.raises((ValueError, TypeError)):
        convert(tf.constant([1.0, 2.0]))


def test_tensor_is_unhashable_but_has_ref():
    t = tf.constant(1.0)
    with pytest.raises(TypeError):
        hash(t)
    table = {t.ref(): "value"}
    assert table[t.ref()] == "value"
    assert t.ref().deref() is t


# -- operators ------------------------------------------------------------------------------------
X = np.array([1.0, 2.0, 4.0], dtype=np.float32)


@pytest.mark.parametrize("expr, expected", [
    (lambda t: t + 2, X + 2), (lambda t: 2 + t, 2 + X),
    (lambda t: t - 2, X - 2), (lambda t: 2 - t, 2 - X),
    (lambda t: t * 3, X * 3), (lambda t: 3 * t, 3 * X),
    (lambda t: t / 2, X / 2), (lambda t: 2 / t, 2 / X),
    (lambda t: t ** 2, X ** 2), (lambda t: 2 ** t, 2 ** X),
    (lambda t: t // 3, X // 3), (lambda t: 7 // t, 7 // X),
    (lambda t: t % 3, X % 3), (lambda t: 7 % t, 7 % X),
    (lambda t: -t, -X), (lambda t: +t, X), (lambda t: abs(-t), X),
    (lambda t: t + t, X + X), (lambda t: t * t, X * X),
    (lambda t: np.float64(2.0) * t, 2 * X), (lambda t: t * np.float64(2.0), 2 * X),
    (lambda t: np.float64(2.0) - t, 2 - X), (lambda t: np.float32(8.0) / t, 8 / X),
    (lambda t: np.array([1.0, 1.0, 1.0]) + t, X + 1),
    (lambda t: t - np.array([1.0, 1.0, 1.0]), X - 1),
    (lambda t: [1.0, 2.0, 3.0] * t, X * [1.0, 2.0, 3.0]),
])
def test_arithmetic_operators(expr, expected):
    out = expr(tf.constant(X))
    assert isinstance(out, tf.Tensor)
    assert out.dtype == tf.float32
    close(out, expected)


@pytest.mark.parametrize("expr, expected", [
    (lambda t: t == 2.0, X == 2), (lambda t: t != 2.0, X != 2),
    (lambda t: t < 2.0, X < 2), (lambda t: t <= 2.0, X <= 2),
    (lambda t: t > 2.0, X > 2), (lambda t: t >= 2.0, X >= 2),
    (lambda t: 2.0 < t, 2 < X), (lambda t: t == tf.constant(X), X == X),
])
def test_comparisons_are_elementwise(expr, expected):
    out = expr(tf.constant(X))
    assert out.dtype == tf.bool
    np.testing.assert_array_equal(out.numpy(), expected)


def test_logical_operators():
    a, b = tf.constant([True, False]), tf.constant([True, True])
    np.testing.assert_array_equal((a & b).numpy(), [True, False])
    np.testing.assert_array_equal((a | b).numpy(), [True, True])
    np.testing.assert_array_equal((a ^ b).numpy(), [False, True])
    np.testing.assert_array_equal((~a).numpy(), [False, True])


def test_matmul_operator():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    close(a @ a, np.array([[7.0, 10.0], [15.0, 22.0]]))


def test_indexing():
    t = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    close(t[1], [4.0, 5.0, 6.0])
    close(t[:, 1:], [[2.0, 3.0], [5.0, 6.0]])
    close(t[-1, -1], 6.0)


def test_reflected_gradients():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a, b, c, d = 5 - x, 8 / x, 3 ** x, 1 + x
    close(tape.gradient(a, x), -1.0)
    close(tape.gradient(b, x), -8.0 / 4.0)
    close(tape.gradient(c, x), 9.0 * np.log(3.0))
    close(tape.gradient(d, x), 1.0)


# -- dtype rules ------------------------------------------------------------------------------------
def test_constant_dtype_defaults():
    assert tf.constant(1.5).dtype == tf.float32
    assert tf.constant([1.5, 2.0]).dtype == tf.float32
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant([1, 2]).dtype == tf.int32
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant(np.array([1.0, 2.0])).dtype == tf.float64
    assert tf.constant(np.arange(3, dtype=np.int64)).dtype == tf.int64
    assert tf.constant(np.float16(1.0)).dtype == tf.float16
    assert tf.constant(1, dtype=tf.float64).dtype == tf.float64
    assert tf.convert_to_tensor(2.0).dtype == tf.float32
    assert tf.convert_to_tensor(np.array(2.0)).dtype == tf.float64


def test_constant_shape_argument():
    close(tf.constant(7.0, shape=(2, 2)), np.full((2, 2), 7.0))
    assert tf.constant([1, 2, 3, 4], shape=(2, 2)).shape == (2, 2)
    with pytest.raises(TypeError):
        tf.constant([1, 2, 3], shape=(2, 2))


def test_float_to_int_constant_raises():
    with pytest.raises(TypeError, match="cast"):
        tf.constant(1.5, dtype=tf.int32)


def test_convert_to_tensor_dtype_mismatch():
    with pytest.raises((TypeError, ValueError), match="float64"):
        tf.convert_to_tensor(tf.constant(1.0), dtype=tf.float64)


def test_python_scalar_takes_other_operand_dtype():
    t64 = tf.constant([1.0, 2.0], dtype=tf.float64)
    assert (t64 * 2).dtype == tf.float64
    assert (2.5 * t64).dtype == tf.float64
    t16 = tf.constant(1.0, dtype=tf.float16)
    assert (t16 + 1.0).dtype == tf.float16
    ti = tf.constant([1, 2])
    assert (ti * 2).dtype == tf.int32
    assert (ti + np.int64(1)).dtype == tf.int32


def test_int_tensor_times_float_scalar_raises():
    with pytest.raises(TypeError):
        tf.constant(3) * 2.5
    with pytest.raises(TypeError):
        2.5 * tf.constant(3)


def test_mixed_tensor_dtypes_raise_naming_both():
    a, b = tf.constant(1.0), tf.constant(1.0, dtype=tf.float64)
    with pytest.raises((TypeError, ValueError)) as info:
        a + b
    text = str(info.value)
    assert "float32" in text and "float64" in text and "cast" in text
    with pytest.raises((TypeError, ValueError), match="int32"):
        tf.constant(1) * tf.constant(1.0)


def test_integer_division_gives_float64():
    out = tf.constant([1, 2]) / tf.constant([2, 2])
    assert out.dtype == tf.float64
    close(out, [0.5, 1.0])


# -- printing ---------------------------------------------------------------------------------------
def test_str_like_tensorflow():
    assert str(tf.constant(9.0)) == "tf.Tensor(9.0, shape=(), dtype=float32)"
    assert str(tf.constant([1, 2])) == "tf.Tensor([1 2], shape=(2,), dtype=int32)"
    assert str(tf.constant(True)) == "tf.Tensor(True, shape=(), dtype=bool)"


def test_repr_readable():
    text = repr(tf.constant([1.0, 2.0]))
    assert text.startswith("<tf.Tensor: shape=(2,), dtype=float32, numpy=")
    assert "1." in text and "2." in text
    assert repr(tf.constant(9.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=9.0>"
    big = repr(tf.constant(np.zeros((100, 100))))
    assert len(big) < 2000


def test_tensor_not_picklable():
    import pickle
    with pytest.raises(TypeError):
        pickle.dumps(tf.constant(1.0))


def test_a_scalar_string_result_reads_back_as_bytes():
    """Adding two 0-d string tensors leaves Python bytes as the value (NumPy's object
    arithmetic); numpy() gives them as TensorFlow does, eagerly and from a tf.function."""
    assert (tf.constant("a") + tf.constant("b")).numpy() == b"ab"
    assert tf.function(lambda a: a + a)(tf.constant("a")).numpy() == b"aa"
