"""DType objects: names, NumPy types, predicates, equality with names and NumPy dtypes,
as_dtype, and how casting moves values (and gradients) between dtypes."""
import pickle

import numpy as np
import pytest

import wengert as tf
from wengert.framework import dtypes


ALL = [("float16", np.float16), ("float32", np.float32), ("float64", np.float64),
       ("int8", np.int8), ("int16", np.int16), ("int32", np.int32), ("int64", np.int64),
       ("uint8", np.uint8), ("bool", np.bool_)]


@pytest.mark.parametrize("name, np_type", ALL)
def test_dtype_identity_and_equality(name, np_type):
    d = getattr(tf, name)
    assert d.name == name
    assert d.as_numpy_dtype is np_type
    assert tf.as_dtype(name) is d
    assert tf.as_dtype(np_type) is d
    assert tf.as_dtype(np.dtype(np_type)) is d
    assert tf.as_dtype(d) is d
    assert d == name and d == np_type and d == np.dtype(np_type)
    assert repr(d) == "tf." + name
    assert hash(d) == hash(tf.as_dtype(name))
    assert pickle.loads(pickle.dumps(d)) is d


def test_predicates():
    assert tf.float32.is_floating and not tf.float32.is_integer
    assert tf.int32.is_integer and not tf.int32.is_floating
    assert tf.uint8.is_integer
    assert tf.bool.is_bool and not tf.bool.is_numeric and not tf.bool.is_floating
    assert tf.float64.size == 8 and tf.int16.size == 2
    assert tf.int8.min == -128 and tf.int8.max == 127
    assert tf.float32.max == np.finfo(np.float32).max
    assert tf.float32.base_dtype is tf.float32


def test_aliases():
    assert tf.half is tf.float16 and tf.double is tf.float64
    assert tf.as_dtype("double") is tf.float64 and tf.as_dtype("float") is tf.float32


def test_inequality():
    assert tf.float32 != tf.float64
    assert tf.float32 != "int32"
    assert not (tf.float32 == "not a dtype")
    assert tf.float32 != object()


@pytest.mark.parametrize("bad", ["complex", np.complex256, "qint8", object()])
def test_as_dtype_rejects_unknown(bad):
    with pytest.raises(TypeError):
        tf.as_dtype(bad)


def test_unsupported_values_rejected():
    with pytest.raises(TypeError):
        tf.constant(np.array([1 + 2j], np.complex256))
    with pytest.raises(TypeError, match="strings.to_number"):
        tf.constant("text", tf.float32)
    with pytest.raises(TypeError, match="do not mix"):
        tf.constant(np.array(["a", 1], dtype=object))


def test_item_8_reprs_formats_and_enums():
    """What TensorFlow's guides print (issue 14 item 8)."""
    assert repr(tf.float32) == "tf.float32" and str(tf.float32) == "<dtype: 'float32'>"
    assert tf.as_dtype(1) is tf.float32 and tf.as_dtype(9) is tf.int64
    assert tf.float64.as_datatype_enum == 2 and tf.string.as_datatype_enum == 7
    assert tf.zeros(1, 1).dtype is tf.float32  # tf.zeros(shape, dtype enum)
    with pytest.raises(TypeError, match="enum"):
        tf.as_dtype(1000)
    assert repr(tf.constant([1.0, 2.0])) == (
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>")
    assert repr(tf.constant([[1, 2], [3, 4]])).endswith(
        "numpy=\narray([[1, 2],\n       [3, 4]], dtype=int32)>")
    assert repr(tf.constant(b"x")) == "<tf.Tensor: shape=(), dtype=string, numpy=b'x'>"
    assert str(tf.constant([1.0, 2.0])) == "tf.Tensor([1. 2.], shape=(2,), dtype=float32)"
    assert f"{tf.constant(3.14159):.3f}" == "3.142" and f"{tf.constant(7):d}" == "7"
    assert repr(tf.Variable([1.0, 2.0])).endswith("numpy=array([1., 2.], dtype=float32)>")


def test_tensor_dtype_is_dtype_object():
    for name, np_type in ALL:
        t = tf.constant(np.zeros(2, dtype=np_type))
        assert t.dtype is getattr(dtypes, name)


def test_cast_values():
    x = tf.constant([1.7, -1.7, 2.5])
    i = tf.cast(x, tf.int32)
    assert i.dtype == tf.int32
    np.testing.assert_array_equal(i.numpy(), [1, -1, 2])  # truncation toward zero
    assert tf.cast(x, "float64").dtype == tf.float64
    assert tf.cast(x, tf.float32) is x
    assert tf.cast(tf.constant([0, 2]), tf.bool).numpy().tolist() == [False, True]


def test_cast_gradients():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y64 = tf.cast(x, tf.float64) * 3.0
        yi = tf.cast(tf.cast(x, tf.int32), tf.float32) * x
    g = tape.gradient(y64, x)
    assert g.dtype == tf.float32
    np.testing.assert_allclose(g.numpy(), [3.0, 3.0])
    # the int path carries no gradient; only the direct use of x does
    np.testing.assert_allclose(tape.gradient(yi, x).numpy(), [1.0, 2.0])


def test_float16_and_float64_gradients_keep_dtype():
    for dtype in (tf.float16, tf.float64):
        x = tf.constant([1.0, 2.0], dtype=dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x * 0.5
        g = tape.gradient(y, x)
        assert g.dtype == dtype
        np.testing.assert_allclose(g.numpy().astype(np.float64), [1.0, 2.0])


def test_unsigned_dtypes_and_bytes_with_trailing_nul():
    """uint16/32/64 exist as in TensorFlow; bytes keep their trailing NUL bytes (binary data
    such as an image file's padding), which NumPy's fixed-width strings would drop."""
    for dtype in (tf.uint16, tf.uint32, tf.uint64):
        t = tf.constant(np.array([1, 2]), dtype)
        assert t.dtype == dtype and tf.as_dtype(dtype.name) is dtype
        np.testing.assert_array_equal((t + t).numpy(), [2, 4])
    assert tf.uint16.max == 65535 and not tf.uint16.is_differentiable
    assert tf.constant(b"ab\x00\x00").numpy() == b"ab\x00\x00"
    assert tf.constant([b"a\x00", b"b"]).numpy().tolist() == [b"a\x00", b"b"]
    assert tf.constant("x\x00").numpy() == b"x\x00"
