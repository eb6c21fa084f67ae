"""String tensors (issue 14 item 7): tf.string constants, equality, tf.strings basics, and
tapes that refuse them. Outputs were checked against TensorFlow 2.21."""
import warnings

import numpy as np
import pytest

import wengert as tf


def test_string_constants_and_equality():
    s = tf.constant(["a", b"bc", "héllo"])
    assert s.dtype is tf.string and s.shape == (3,)
    assert s.numpy().tolist() == [b"a", b"bc", "héllo".encode()]
    assert tf.constant("x").numpy() == b"x"
    assert (s == tf.constant(["a", "x", "héllo"])).numpy().tolist() == [True, False, True]
    assert (tf.constant(["a"]) + "b").numpy().tolist() == [b"ab"]
    assert repr(tf.constant(["a"])) == ("<tf.Tensor: shape=(1,), dtype=string, "
                                        "numpy=array([b'a'], dtype=object)>")
    with pytest.raises(TypeError, match="strings.to_number"):
        tf.constant("1", tf.float32)


def test_strings_basics():
    s = tf.constant(["a b", "c"])
    assert tf.strings.split(s).to_list() == [[b"a", b"b"], [b"c"]]
    assert tf.strings.split(tf.constant("a b  c")).numpy().tolist() == [b"a", b"b", b"c"]
    assert tf.strings.split(tf.constant("a,,b"), sep=",").numpy().tolist() == [b"a", b"", b"b"]
    assert tf.strings.as_string([1.5, 2.0]).numpy().tolist() == [b"1.500000", b"2.000000"]
    assert tf.strings.as_string(True).numpy() == b"true"
    assert tf.strings.join(["a", tf.constant(["x", "y"])], separator="-").numpy().tolist() == [
        b"a-x", b"a-y"]
    assert tf.strings.reduce_join(tf.constant([["a", "b"], ["c", "d"]]), axis=1,
                                  separator=",").numpy().tolist() == [b"a,b", b"c,d"]
    assert tf.strings.reduce_join(tf.constant(["a", "b"])).numpy() == b"ab"
    assert tf.strings.format("x={} y={}", (tf.constant(1), tf.constant([1.5, 2.0]))).numpy() \
        == b"x=1 y=[1.5 2]"
    np.testing.assert_allclose(tf.strings.to_number(["1.5", "2"]).numpy(), [1.5, 2.0])
    assert tf.strings.to_number("7", tf.int32).dtype is tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError, match="convert string: x"):
        tf.strings.to_number("x")
    assert tf.strings.bytes_split("abc").numpy().tolist() == [b"a", b"b", b"c"]
    assert tf.strings.bytes_split(["ab", "c"]).to_list() == [[b"a", b"b"], [b"c"]]
    assert tf.strings.length(["héllo"], unit="UTF8_CHAR").numpy().tolist() == [5]
    assert tf.strings.length(["héllo"]).numpy().tolist() == [6]
    assert tf.strings.lower("AbC").numpy() == b"abc" and tf.strings.upper("a").numpy() == b"A"
    assert tf.strings.regex_full_match(["ab1", "x"], "[a-z]+[0-9]").numpy().tolist() == [
        True, False]
    ragged = tf.strings.split(s)
    assert ragged.to_tensor().numpy().tolist() == [[b"a", b"b"], [b"c", b""]]
    assert ragged.row_lengths().numpy().tolist() == [2, 1]


def test_string_ops_in_graphs_and_functions():
    @tf.function
    def shout(x):
        return tf.strings.upper(tf.strings.join([x, "!"]))
    assert shout(tf.constant("hi")).numpy() == b"HI!"
    assert shout.get_concrete_function(tf.constant("a")).outputs[0].dtype is tf.string


def test_tapes_refuse_strings():
    s = tf.constant(["1.5"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with tf.GradientTape() as tape:
            tape.watch(s)
            y = tf.strings.to_number(s)
    assert any("string" in str(w.message) for w in caught)
    assert tape.gradient(y, s) is None
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        text = tf.strings.as_string(x)
    assert tape.gradient(text, x) is None
