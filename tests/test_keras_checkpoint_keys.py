"""Keras models checkpoint under TensorFlow 2.21's keys (Keras 3's object graph): a
Sequential's layers as "model/_functional/_operations/<i>/..." (the input at 0), a functional
model's as "model/_operations/<i>/..." (its InputLayers and weightless layers counted), Dense's
kernel as "_kernel". So wengert restores a checkpoint TensorFlow's Keras wrote
(tests/fixtures/keras_checkpoints, write_fixtures.py) into the same model with
assert_consumed(), and TensorFlow restores wengert's (checked live where TensorFlow is
installed; the keys and values TensorFlow read are stored in tests/references/)."""
import os

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval

keras = tf.keras
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "keras_checkpoints")
DIR_VARIABLE = "WENGERT_TEST_CHECKPOINT"


def sequential():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                             keras.layers.BatchNormalization(), keras.layers.Dense(2)])


def functional():
    inputs = keras.Input((3,))
    hidden = keras.layers.Dense(4, name="hidden")(inputs)
    joined = keras.layers.Concatenate()([hidden, inputs])
    return keras.Model(inputs, keras.layers.Dense(2, name="out")(joined))


def weights(model):
    """write_fixtures.py's values."""
    return [np.linspace(-1.0, 1.0, int(np.prod(w.shape)), dtype=np.float32).reshape(w.shape) +
            np.float32(i) for i, w in enumerate(model.weights)]


MAKERS = {"sequential": sequential, "functional": functional}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_wengert_restores_tensorflows_keras_checkpoint(name):
    keras.backend.clear_session()
    model = MAKERS[name]()
    status = tf.train.Checkpoint(model=model).restore(os.path.join(HERE, name, "ckpt-1"))
    status.assert_consumed()
    for got, want in zip(model.get_weights(), weights(model)):
        np.testing.assert_array_equal(got, want)


def test_the_keys_are_tensorflows(tmp_path):
    keras.backend.clear_session()
    for name, make in MAKERS.items():
        theirs = {n for n, _ in tf.train.list_variables(os.path.join(HERE, name, "ckpt-1"))}
        path = tf.train.Checkpoint(model=make()).save(str(tmp_path / name / "ckpt"))
        assert {n for n, _ in tf.train.list_variables(path)} == theirs, name
    assert "model/_functional/_operations/1/_kernel/.ATTRIBUTES/VARIABLE_VALUE" in {
        n for n, _ in tf.train.list_variables(os.path.join(HERE, "sequential", "ckpt-1"))}


TF_RESTORE = """
import importlib.util
spec = importlib.util.spec_from_file_location("fixtures", os.environ["WENGERT_TEST_WRITER"])
fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixtures)
for name in ("sequential", "functional"):
    model = getattr(fixtures, name)()
    status = tf.train.Checkpoint(model=model).restore(
        os.path.join(os.environ["WENGERT_TEST_CHECKPOINT"], name, "ckpt-1"))
    status.assert_consumed()
    status.assert_existing_objects_matched()
    for i, w in enumerate(model.weights):
        out[f"{name}_{i}"] = w.numpy()
"""


def test_tensorflow_restores_wengerts_keras_checkpoint(tmp_path, monkeypatch):
    keras.backend.clear_session()
    mine = {}
    for name, make in MAKERS.items():
        model = make()
        rng = np.random.default_rng(len(name))
        model.set_weights([rng.normal(size=w.shape).astype(np.float32) for w in model.weights])
        tf.train.Checkpoint(model=model).save(str(tmp_path / name / "ckpt"))
        mine.update({f"{name}_{i}": w for i, w in enumerate(model.get_weights())})
    monkeypatch.setenv(DIR_VARIABLE, str(tmp_path))
    monkeypatch.setenv("WENGERT_TEST_WRITER", os.path.join(HERE, "write_fixtures.py"))
    theirs = tf_eval(TF_RESTORE, {})
    assert sorted(theirs) == sorted(mine)
    for key in sorted(mine):
        np.testing.assert_array_equal(theirs[key], mine[key], err_msg=key)
