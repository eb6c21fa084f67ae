"""Keras's categorical preprocessing layers (layers/lookup.py): the values and dtypes TensorFlow
2.21's Keras gives on the same inputs (written down here), eagerly and in traced functions."""
import numpy as np
import pytest

import wengert as tf

L = tf.keras.layers


def _list(t):
    return np.asarray(t).tolist()


def test_string_lookup_adapt_orders_by_frequency_then_token():
    layer = L.StringLookup()
    layer.adapt(np.array(["b", "a", "c", "a", "b", "a", "d", "c"]))
    assert layer.get_vocabulary() == ["[UNK]", "a", "c", "b", "d"]
    out = layer(np.array([["a", "z"], ["d", "b"]]))
    assert out.dtype == tf.int64 and _list(out) == [[1, 0], [4, 3]]
    traced = tf.function(lambda s: layer(s))
    assert _list(traced(tf.constant([["a", "z"], ["d", "b"]]))) == [[1, 0], [4, 3]]


@pytest.mark.parametrize("mode,inputs,expected", [
    ("one_hot", ["y", "q"], [[0, 0, 1], [1, 0, 0]]),
    ("multi_hot", [["y", "q", "y"]], [[1, 0, 1]]),
    ("count", [["y", "q", "y"]], [[1, 0, 2]]),
])
def test_string_lookup_output_modes(mode, inputs, expected):
    out = L.StringLookup(vocabulary=["x", "y"], output_mode=mode)(np.array(inputs))
    assert out.dtype == tf.int64 and _list(out) == expected


def test_mask_token_invert_and_integer_lookup():
    assert _list(L.StringLookup(vocabulary=["x", "y"], mask_token="")(
        np.array(["", "y", "k"]))) == [0, 3, 1]
    assert _list(L.StringLookup(vocabulary=["x", "y"], invert=True)(
        np.array([0, 1, 2]))) == [b"[UNK]", b"x", b"y"]
    ints = L.IntegerLookup()
    ints.adapt(np.array([7, 3, 3, 9, 7, 3]))
    assert ints.get_vocabulary() == [-1, 3, 7, 9]
    assert _list(ints(np.array([3, 9, 100]))) == [1, 3, 0]
    assert L.StringLookup(vocabulary=["x", "y"]).vocabulary_size() == 3
    with pytest.raises(ValueError, match="repeated"):
        L.StringLookup(vocabulary=["x", "x"])


def test_category_encoding_and_discretization():
    assert _list(L.CategoryEncoding(4, "one_hot")(np.array([3, 1]))) == [
        [0, 0, 0, 1], [0, 1, 0, 0]]
    assert _list(L.CategoryEncoding(4, "multi_hot")(np.array([[0, 1], [1, 3]]))) == [
        [1, 1, 0, 0], [0, 1, 0, 1]]
    assert _list(L.CategoryEncoding(4, "count")(np.array([[1, 1, 3]]))) == [[0, 2, 0, 1]]
    with pytest.raises(ValueError, match=r"\[0, 4\)"):
        L.CategoryEncoding(4, "count")(np.array([[5]]))
    bins = L.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    assert _list(bins(np.array([-1.0, 0.0, 0.5, 1.5, 2.0, 3.0]))) == [0, 1, 1, 2, 3, 3]
    learned = L.Discretization(num_bins=3)
    learned.adapt(np.arange(12, dtype=np.float32))
    assert learned.bin_boundaries == [3.0, 7.0]


def test_functional_outputs_carry_the_lookup_dtype():
    """A lookup layer's KerasTensor has what call returns (int64 indices, strings when a
    StringLookup inverts), not the layer's float dtype."""
    import wengert as tf
    layers = tf.keras.layers
    words = tf.keras.Input(shape=(2,), dtype="string")
    ids = tf.keras.Input(shape=(2,), dtype="int64")
    assert layers.StringLookup(vocabulary=["a", "b"])(words).dtype == tf.int64
    assert layers.StringLookup(vocabulary=["a"], output_mode="count")(words).dtype == tf.int64
    assert layers.StringLookup(vocabulary=["a", "b"], invert=True)(ids).dtype == tf.string
    assert layers.IntegerLookup(vocabulary=[3, 4])(ids).dtype == tf.int64
