"""Keras 3's dtype promotion in wengert.keras.ops (dtypes.py), against the table TensorFlow 2.21's
Keras gives: `keras.backend.result_type(a, b)` for every pair of its dtypes and the weak Python
types, stored here as literal data (row a, column b), so the test needs no TensorFlow."""
import numpy as np
import pytest

import wengert as tf
from wengert.keras import backend, ops
from wengert.keras.ops import dtypes

NAMES = {"b1": "bool", "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
         "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "bf": "bfloat16",
         "f2": "float16", "f4": "float32", "f8": "float64", "c8": "complex64",
         "c16": "complex128", "i*": int, "f*": float}

# keras.backend.result_type(row, column) from TensorFlow 2.21's Keras (floatx float32).
KERAS_TABLE = [
    " b1: b1 u1 u2 u4 u4 i1 i2 i4 i8 bf f2 f4 f8 c8 c8 i4 f4",
    " u1: u1 u1 u2 u4 u4 i2 i2 i4 i8 bf f2 f4 f8 c8 c8 u1 f4",
    " u2: u2 u2 u2 u4 u4 i4 i4 i4 i8 bf f2 f4 f8 c8 c8 u2 f4",
    " u4: u4 u4 u4 u4 u4 i8 i8 i8 i8 bf f2 f4 f8 c8 c8 u4 f4",
    " u8: u4 u4 u4 u4 u4 f4 f4 f4 f4 bf f2 f4 f8 c8 c8 u4 f4",
    " i1: i1 i2 i4 i8 f4 i1 i2 i4 i8 bf f2 f4 f8 c8 c8 i1 f4",
    " i2: i2 i2 i4 i8 f4 i2 i2 i4 i8 bf f2 f4 f8 c8 c8 i2 f4",
    " i4: i4 i4 i4 i8 f4 i4 i4 i4 i8 bf f2 f4 f8 c8 c8 i4 f4",
    " i8: i8 i8 i8 i8 f4 i8 i8 i8 i8 bf f2 f4 f8 c8 c8 i8 f4",
    " bf: bf bf bf bf bf bf bf bf bf bf f4 f4 f8 c8 c8 bf bf",
    " f2: f2 f2 f2 f2 f2 f2 f2 f2 f2 f4 f2 f4 f8 c8 c8 f2 f2",
    " f4: f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f8 c8 c8 f4 f4",
    " f8: f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 f8 f8",
    " c8: c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8",
    "c16: c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8",
    " i*: i4 u1 u2 u4 u4 i1 i2 i4 i8 bf f2 f4 f8 c8 c8 i4 f4",
    " f*: f4 f4 f4 f4 f4 f4 f4 f4 f4 bf f2 f4 f8 c8 c8 f4 f4",
]


def _table():
    columns = [row.split(":")[0].strip() for row in KERAS_TABLE]
    for row in KERAS_TABLE:
        head, cells = row.split(":")
        for column, cell in zip(columns, cells.split()):
            yield head.strip(), column, cell


@pytest.mark.parametrize("row,column,expected", list(_table()))
def test_result_type_matches_keras_table(row, column, expected):
    got = dtypes.result_type(NAMES[row], NAMES[column])
    assert got == NAMES[expected], (row, column)


def test_result_type_of_one_none_or_no_dtype():
    assert dtypes.result_type(int) == "int32"
    assert dtypes.result_type(float) == "float32"
    assert dtypes.result_type() == "float32"
    assert dtypes.result_type(None) == "float32"
    assert dtypes.result_type("int8", "uint8", "float16") == "float16"


def test_result_type_follows_floatx_for_weak_types():
    old = backend.floatx()
    backend.set_floatx("float64")
    try:
        assert dtypes.result_type("int32", float) == "float64"
        assert dtypes.result_type(int, float) == "float64"
        assert dtypes.result_type("float16", float) == "float16"
    finally:
        backend.set_floatx(old)


def test_result_type_refuses_float8_and_unknown_dtypes():
    with pytest.raises(ValueError, match="float8"):
        dtypes.result_type("float8_e4m3fn", "float32")
    with pytest.raises(ValueError, match="invalid dtype"):
        dtypes.result_type("float13")


def test_standardize_dtype_accepts_wengert_numpy_and_python_types():
    assert dtypes.standardize_dtype(tf.float16) == "float16"
    assert dtypes.standardize_dtype(np.dtype("int8")) == "int8"
    assert dtypes.standardize_dtype(np.float64) == "float64"
    assert dtypes.standardize_dtype(int) == "int64"
    assert dtypes.standardize_dtype(bool) == "bool"
    assert dtypes.standardize_dtype(None) == "float32"


def test_python_scalars_are_weak_and_numpy_scalars_are_not():
    assert dtypes.dtype_of(3) is int
    assert dtypes.dtype_of(2.5) is float
    assert dtypes.dtype_of(True) == "bool"
    assert dtypes.dtype_of(np.float64(2.5)) == "float64"
    assert dtypes.dtype_of([1, 2]) == "int32"
    assert dtypes.dtype_of(tf.constant([1.0], dtype=tf.float16)) == "float16"


def test_keras_ops_is_reachable_as_tf_keras_ops():
    assert tf.keras.ops is ops
    assert ops.numpy.sin is ops.sin
