"""A lookup layer's vocabulary as Keras 3 takes it: one that starts with the mask and OOV tokens
(what `get_vocabulary()` returns) has them taken off, so an inverting layer built from a forward
layer's vocabulary maps ids back to the same tokens. Expectations are TensorFlow 2.21's
Keras 3.15.1 on the same calls."""
import numpy as np
import pytest

import wengert as tf

L = tf.keras.layers


def _strings(t):
    return [v.decode() if isinstance(v, bytes) else v for v in np.asarray(t).tolist()]


def test_inverting_a_forward_layers_vocabulary_round_trips():
    forward = L.StringLookup(vocabulary=["a", "b", "c"])
    inverse = L.StringLookup(vocabulary=forward.get_vocabulary(), invert=True)
    assert forward.get_vocabulary() == ["[UNK]", "a", "b", "c"]
    assert np.asarray(forward(np.array(["a", "c", "z"]))).tolist() == [1, 3, 0]
    assert _strings(inverse(np.array([0, 1, 2, 3]))) == ["[UNK]", "a", "b", "c"]
    assert inverse.get_vocabulary() == ["[UNK]", "a", "b", "c"]


def test_leading_mask_and_oov_tokens_are_taken_off():
    layer = L.StringLookup(vocabulary=["", "[UNK]", "x", "y"], mask_token="")
    assert layer.get_vocabulary() == ["", "[UNK]", "x", "y"]
    assert np.asarray(layer(np.array(["", "y", "q"]))).tolist() == [0, 3, 1]
    ints = L.IntegerLookup(vocabulary=[-1, 7, 9])
    assert ints.get_vocabulary() == [-1, 7, 9]
    assert np.asarray(ints(np.array([7, 9, 3]))).tolist() == [1, 2, 0]


@pytest.mark.parametrize("kwargs, match", [
    (dict(vocabulary=["a", "[UNK]"], invert=True), "OOV token"),
    (dict(vocabulary=["a", ""], mask_token=""), "mask token"),
    (dict(vocabulary=[]), "empty vocabulary"),
    (dict(vocabulary=["a", "b", "c"], max_tokens=3), "max_tokens=3"),
])
def test_misplaced_special_tokens_and_oversized_vocabularies_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        L.StringLookup(**kwargs)
