"""Op-table rows for the runtime ops of issue 14: py_function / numpy_function
(ops/io/script.py), ensure_shape (ops/io/checks.py) and the string ops (ops/io/strings.py).

py_function is differentiable (its VJP re-runs the function under a tape), to second order; the
string ops and numpy_function have no gradient."""
import numpy as np

import wengert as tf
from wengert.framework.tensor import string_array
from op_table import OpInfo, Sample, rand


def _strs(*items):
    return string_array(np.array(items, dtype=object))


def _py_cube(x, y):
    return tf.py_function(lambda a, b: a ** 3 * b, [x, y], x.dtype)


ROWS = [
    OpInfo("py_function", _py_cube, lambda x, y: x ** 3 * y,
           [Sample((rand(3), rand(3)), name="cube")], rtol=1e-5),
    OpInfo("numpy_function", lambda x: tf.numpy_function(lambda a: np.sin(a), [x], x.dtype),
           np.sin, [Sample((rand(4),))], grad=False),
    OpInfo("ensure_shape", lambda x: tf.ensure_shape(x, [None, 3]), lambda x: x,
           [Sample((rand(2, 3),))]),
    OpInfo("strings.as_string", lambda x: tf.strings.as_string(x, precision=2),
           lambda x: _strs(*[f"{v:.2f}".encode() for v in x]), [Sample((rand(3),))],
           grad=False, float32=False),
    OpInfo("strings.join", lambda a, b: tf.strings.join([a, b], separator="-"),
           lambda a, b: _strs(*[x + b"-" + y for x, y in zip(a, b)]),
           [Sample((_strs(b"a", b"b"), _strs(b"x", b"y")))], grad=False, float32=False),
    OpInfo("strings.length", lambda s: tf.strings.length(s),
           lambda s: np.array([len(v) for v in s], np.int32), [Sample((_strs(b"ab", b""),))],
           grad=False, float32=False),
    OpInfo("strings.lower_upper", lambda s: (tf.strings.lower(s), tf.strings.upper(s)),
           lambda s: (_strs(b"ab"), _strs(b"AB")), [Sample((_strs(b"aB"),))], grad=False,
           float32=False),
    OpInfo("strings.strip", tf.strings.strip, lambda s: _strs(b"a b"),
           [Sample((_strs(b" a b\n"),))], grad=False, float32=False),
    OpInfo("strings.to_number", tf.strings.to_number,
           lambda s: np.array([1.5, -2.0], np.float32), [Sample((_strs(b"1.5", b"-2"),))],
           grad=False, float32=False),
    OpInfo("strings.regex_full_match", lambda s: tf.strings.regex_full_match(s, "[a-z]+"),
           lambda s: np.array([True, False]), [Sample((_strs(b"ab", b"a1"),))], grad=False,
           float32=False),
    OpInfo("strings.regex_replace", lambda s: tf.strings.regex_replace(s, "[0-9]", "#"),
           lambda s: _strs(b"a#b#"), [Sample((_strs(b"a1b2"),))], grad=False, float32=False),
    OpInfo("strings.reduce_join", lambda s: tf.strings.reduce_join(s, axis=1, separator=","),
           lambda s: _strs(b"a,b", b"c,d"),
           [Sample((string_array(np.array([[b"a", b"b"], [b"c", b"d"]], dtype=object)),))],
           grad=False, float32=False),
    OpInfo("strings.format", lambda x: tf.strings.format("x={}", [x]),
           lambda x: string_array(np.array(b"x=[1 2]", dtype=object)),
           [Sample((np.array([1, 2], np.int32),))], grad=False, float32=False),
    OpInfo("strings.split", lambda s: tf.strings.split(s), lambda s: _strs(b"a", b"b"),
           [Sample((string_array(np.array(b"a  b", dtype=object)),))], grad=False,
           float32=False),
    OpInfo("strings.split.rows", lambda s: tf.strings.split(s, sep=",").flat_values,
           lambda s: _strs(b"a", b"b", b"c"), [Sample((_strs(b"a,b", b"c"),))], grad=False,
           float32=False),
    OpInfo("strings.bytes_split", tf.strings.bytes_split, lambda s: _strs(b"a", b"b"),
           [Sample((string_array(np.array(b"ab", dtype=object)),))], grad=False,
           float32=False),
]


# -- TensorArray (ops/io/tensor_arrays.py) ----------------------------------------------------------
def _ta_write_read(rows, value):
    ta = tf.TensorArray(rows.dtype, size=3, element_shape=[2]).unstack(rows)
    ta = ta.write(1, value)
    return ta.stack(), ta.read(2), ta.gather([0, 1])


def _ta_write_read_ref(rows, value):
    out = rows.copy()
    out[1] = value
    return out, out[2], out[[0, 1]]


def _ta_grow(value):
    ta = tf.TensorArray(value.dtype, size=0, dynamic_size=True)
    return ta.write(2, value).stack()


def _ta_grow_ref(value):
    """Two unwritten rows (zeros; empty strings in a string array), then `value`."""
    value = np.asarray(value)
    if value.dtype.kind in "OSU":
        value = np.array([v.encode() if isinstance(v, str) else v for v in value.reshape(-1)],
                         dtype=object).reshape(value.shape)
        return np.concatenate([np.full((2,) + value.shape, b"", dtype=object), value[None]])
    return np.concatenate([np.zeros((2,) + value.shape, value.dtype), value[None]])


ROWS += [
    OpInfo("TensorArray.write_read", _ta_write_read, _ta_write_read_ref,
           [Sample((rand(3, 2), rand(2)))]),
    OpInfo("TensorArray.grow", _ta_grow, _ta_grow_ref, [Sample((rand(2),))]),
    OpInfo("TensorArray.element_shape",
           lambda: __import__("wengert.ops.io.tensor_arrays", fromlist=["x"]).with_element_shape(
               tf.TensorArray(tf.float64, size=2), [3]).stack(),
           lambda: np.zeros((2, 3)), [Sample(())], grad=False, float32=False),
]
