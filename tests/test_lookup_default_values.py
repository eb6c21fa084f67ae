"""MutableHashTable.lookup's `dynamic_default_values` against TensorFlow 2.21 (answers stored in
tests/references/test_lookup_default_values.npz): a default per key (keys.shape + the value
shape) or one for all, scalar and vector values, eagerly and in tf.function; TensorFlow's
InvalidArgumentError for a default of another shape or dtype; DenseHashTable.lookup takes no
dynamic defaults, as in TensorFlow 2.21."""
import numpy as np
import pytest
from tf_ops_reference import TFCase, check, run_tf_or_skip

import wengert as tf
from wengert.framework.errors import InvalidArgumentError

KEYS = np.array([b"a", b"x", b"b", b"y"], dtype="S2")
MUTABLE = ("(lambda t: (t.insert(tf.constant(['a', 'b']), tf.constant([1, 2], tf.int64)), t)[-1])"
           "(tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1))")
VECTORS = ("(lambda t: (t.insert(tf.constant([1], tf.int64), tf.constant([[1.0, 2.0]])), t)[-1])"
           "(tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0]))")


def _mutable():
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))
    return table


def _vectors():
    table = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0])
    table.insert(tf.constant([1], tf.int64), tf.constant([[1.0, 2.0]]))
    return table


def _in_function(keys, defaults):
    table = _mutable()
    return tf.function(lambda k, d: table.lookup(k, dynamic_default_values=d))(keys, defaults)


CASES = [
    TFCase("per_key", f"{MUTABLE}.lookup(x0, dynamic_default_values=x1)",
           lambda k, d: _mutable().lookup(k, dynamic_default_values=d),
           [KEYS, np.array([10, 20, 30, 40], np.int64)]),
    TFCase("one_for_all", f"{MUTABLE}.lookup(x0, dynamic_default_values=x1)",
           lambda k, d: _mutable().lookup(k, dynamic_default_values=d),
           [KEYS, np.array(7, np.int64)]),
    TFCase("vector_values_per_key", f"{VECTORS}.lookup(x0, dynamic_default_values=x1)",
           lambda k, d: _vectors().lookup(k, dynamic_default_values=d),
           [np.array([[1, 3]], np.int64),
            np.array([[[5.0, 6.0], [7.0, 8.0]]], np.float32)]),
    TFCase("vector_values_one_for_all", f"{VECTORS}.lookup(x0, dynamic_default_values=x1)",
           lambda k, d: _vectors().lookup(k, dynamic_default_values=d),
           [np.array([[1, 3]], np.int64), np.array([5.0, 6.0], np.float32)]),
    TFCase("in_function", "tf.function(lambda k, d: (" + MUTABLE + ").lookup(k, "
           "dynamic_default_values=d))(x0, x1)", _in_function,
           [KEYS, np.array([10, 20, 30, 40], np.int64)]),
    TFCase("wrong_shape", f"{MUTABLE}.lookup(x0, dynamic_default_values=x1)", None,
           [KEYS, np.array([10, 20], np.int64)]),
    TFCase("wrong_dtype", f"{MUTABLE}.lookup(x0, dynamic_default_values=x1)", None,
           [KEYS, np.array([10, 20, 30, 40], np.int32)]),
    TFCase("dense_takes_none", "tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, "
           "empty_key=0, deleted_key=-1).lookup(x0, dynamic_default_values=x0)", None,
           [np.array([1, 2], np.int64)]),
]
VALUE_CASES = [c for c in CASES if c.fn is not None]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", VALUE_CASES, ids=[c.name for c in VALUE_CASES])
def test_dynamic_defaults_match_tensorflow(case, tf_results):
    check(case, tf_results[case.name])


@pytest.mark.parametrize("name, defaults, message", [
    ("wrong_shape", np.array([10, 20], np.int64), r"Expected shape \[\] or \[4\] for default "
                                                   r"value, got \[2\]"),
    ("wrong_dtype", np.array([10, 20, 30, 40], np.int32), "Signature mismatch, have: resource, "
                                                           "string, int32->int32 expected"),
])
def test_bad_defaults_are_tensorflows_errors(name, defaults, message, tf_results):
    assert "InvalidArgumentError" in tf_results[name]["error"]
    with pytest.raises(InvalidArgumentError, match=message):
        _mutable().lookup(tf.constant(KEYS), dynamic_default_values=tf.constant(defaults))


def test_a_bad_default_shape_is_refused_while_tracing():
    table = _mutable()
    f = tf.function(lambda k, d: table.lookup(k, dynamic_default_values=d))
    with pytest.raises(InvalidArgumentError, match="for default value"):
        f(tf.constant(KEYS), tf.constant([1, 2, 3], tf.int64))


def test_dense_hash_table_takes_no_dynamic_defaults(tf_results):
    assert "TypeError" in tf_results["dense_takes_none"]["error"]
    table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0,
                                                  deleted_key=-1)
    with pytest.raises(TypeError, match="dynamic_default_values"):
        table.lookup(tf.constant([1, 2], tf.int64), dynamic_default_values=tf.constant([1, 2]))
