"""Checkpoints of Keras models that wengert wrote before it keyed them as TensorFlow's Keras 3
does (model/layer-<i>/kernel, now model/_operations/<i>/_kernel) still restore, with
assert_consumed(), into the same models: the fixtures were written by that older wengert
(tests/fixtures/keras_checkpoints/wengert_before_keras3_keys/write_fixtures.py)."""
import os
import sys

import numpy as np
import pytest

import wengert as tf

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                        "keras_checkpoints", "wengert_before_keras3_keys")
sys.path.insert(0, FIXTURES)
import write_fixtures  # noqa: E402  the models, built the same way


@pytest.mark.parametrize("name", ["sequential", "functional", "subclassed"])
def test_a_checkpoint_with_the_earlier_keys_restores(name):
    model = write_fixtures.models()[name]
    with np.load(os.path.join(FIXTURES, "weights.npz")) as data:
        want = [data[f"{name}/{i}"] for i in range(len(model.get_weights()))]
    assert not any(np.array_equal(a, b) for a, b in zip(model.get_weights(), want) if a.size > 1)
    status = tf.train.Checkpoint(model=model).read(os.path.join(FIXTURES, name, "ckpt"))
    status.assert_consumed()
    for got, expected in zip(model.get_weights(), want):
        np.testing.assert_array_equal(got, expected)


def test_new_checkpoints_keep_keras_3_keys(tmp_path):
    model = write_fixtures.models()["sequential"]
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "ckpt"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert "model/_functional/_operations/1/_kernel/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert not [k for k in keys if "layer-" in k]
