"""keras.utils and keras.backend helpers against TensorFlow 2.21's Keras 3 and by hand:
to_categorical, normalize, Progbar's averaging, Config, the interactive logging switch,
get_source_inputs / is_keras_tensor, the serialization names keras.utils re-exports, and the
backend basics (get_uid, image_data_format, dtype helpers, clear_session)."""
import io
import logging
import sys

import numpy as np
import pytest

import wengert as tf
from wengert import keras

from keras_tf_eval import tf_eval

_TF_SCRIPT = '''
u = keras.utils
out["cat_1"] = u.to_categorical(A["labels"])
out["cat_2"] = u.to_categorical(A["labels"].reshape(3, 2, 1), num_classes=6)
out["norm_np"] = u.normalize(A["x"], axis=1, order=1)
out["norm_t"] = np.asarray(u.normalize(tf.constant(A["x"]), axis=-1, order=2))
bar = u.Progbar(10, verbose=0, stateful_metrics=["acc"])
bar.update(2, [("loss", 1.0), ("acc", 0.5)])
bar.update(5, [("loss", 4.0), ("acc", 0.7)])
bar.add(2, [("loss", 2.0), ("acc", 0.9)])
out["bar_loss"] = np.array(bar._values["loss"])
out["bar_acc"] = np.array(bar._values["acc"])
bar.update(10, [("loss", 3.0)])
out["bar_final"] = np.array(bar._values["loss"])
b = keras.backend
b.clear_session()
out["uid"] = np.array([b.get_uid("foo"), b.get_uid("foo"), b.get_uid("bar")])
out["dtypes"] = np.array([b.standardize_dtype("float64"), b.standardize_dtype(np.int32),
                          b.result_type("int32", "float16"), b.result_type("uint8", "int8")])
out["kinds"] = np.array([b.is_float_dtype("float16"), b.is_int_dtype("uint8"),
                         b.is_float_dtype("int32")])
out["formats"] = np.array([b.image_data_format(), b.backend(), b.floatx()])
'''


@pytest.fixture(scope="module")
def theirs():
    rng = np.random.default_rng(5)
    return tf_eval(_TF_SCRIPT, {"labels": np.array([0, 3, 1, 2, 5, 0]),
                                "x": rng.normal(size=(4, 3)).astype("float32")})


def _ours():
    rng = np.random.default_rng(5)
    labels, x = np.array([0, 3, 1, 2, 5, 0]), rng.normal(size=(4, 3)).astype("float32")
    u, b = keras.utils, keras.backend
    out = {"cat_1": u.to_categorical(labels),
           "cat_2": u.to_categorical(labels.reshape(3, 2, 1), num_classes=6),
           "norm_np": u.normalize(x, axis=1, order=1),
           "norm_t": u.normalize(tf.constant(x), axis=-1, order=2).numpy()}
    bar = u.Progbar(10, verbose=0, stateful_metrics=["acc"])
    bar.update(2, [("loss", 1.0), ("acc", 0.5)])
    bar.update(5, [("loss", 4.0), ("acc", 0.7)])
    bar.add(2, [("loss", 2.0), ("acc", 0.9)])
    out["bar_loss"], out["bar_acc"] = np.array(bar._values["loss"]), np.array(bar._values["acc"])
    bar.update(10, [("loss", 3.0)])
    out["bar_final"] = np.array(bar._values["loss"])
    b.clear_session()
    out["uid"] = np.array([b.get_uid("foo"), b.get_uid("foo"), b.get_uid("bar")])
    out["dtypes"] = np.array([b.standardize_dtype("float64"), b.standardize_dtype(np.int32),
                              b.result_type("int32", "float16"), b.result_type("uint8", "int8")])
    out["kinds"] = np.array([b.is_float_dtype("float16"), b.is_int_dtype("uint8"),
                             b.is_float_dtype("int32")])
    out["formats"] = np.array([b.image_data_format(), b.backend(), b.floatx()])
    return out


@pytest.mark.parametrize("key", ["cat_1", "cat_2", "norm_np", "norm_t", "bar_loss", "bar_acc",
                                 "bar_final", "uid", "dtypes", "kinds", "formats"])
def test_matches_keras(theirs, key):
    ours = _ours()[key]
    assert ours.shape == theirs[key].shape
    if ours.dtype.kind == "f":
        assert ours.dtype == theirs[key].dtype
        np.testing.assert_allclose(ours, theirs[key], rtol=1e-6, atol=1e-7)
    else:
        assert ours.tolist() == theirs[key].tolist()


def test_to_categorical_of_a_tensor_and_bad_labels():
    out = keras.utils.to_categorical(tf.constant([[1], [0], [2]]))
    np.testing.assert_array_equal(out.numpy(), np.eye(3, dtype="float32")[[1, 0, 2]])
    with pytest.raises(ValueError, match="num_classes"):
        keras.utils.to_categorical([0, 4], num_classes=3)


def test_progbar_prints_a_bar_and_a_summary(capsys):
    bar = keras.utils.Progbar(3, interval=0.0)
    for step in range(1, 4):
        bar.update(step, [("loss", float(step))])
    text = capsys.readouterr().out
    assert "2/3" in text and "loss: 1.5000" in text and text.endswith("\n")
    # a line shorter than the one before is padded with spaces (as Keras pads it), and the
    # lines' lengths depend on the timings shown: only the text before the padding is fixed
    assert text.rstrip(" \n").endswith("loss: 3.0000")
    bar = keras.utils.Progbar(2, verbose=2)
    bar.add(1, [("loss", 1.0)])
    bar.add(1, [("loss", 3.0)])
    assert capsys.readouterr().out.startswith("2/2 - ")
    with pytest.raises(ValueError, match="stateful_metrics"):
        keras.utils.Progbar(2, stateful_metrics=["a"], stateless_metrics=["b"])


def test_interactive_logging_switch(capsys, caplog):
    utils = keras.utils
    assert utils.is_interactive_logging_enabled()
    utils.disable_interactive_logging()
    try:
        assert not utils.is_interactive_logging_enabled()
        with caplog.at_level(logging.INFO, logger="keras"):
            utils.Progbar(1, verbose=2).update(1, [("loss", 1.0)])
        assert "loss: 1.0000" in caplog.text
        assert capsys.readouterr().out == ""
    finally:
        utils.enable_interactive_logging()


def test_config_behaves_like_a_frozen_dict():
    config = keras.utils.Config(learning_rate=0.1)
    config.seed = 3
    config["momentum"] = 0.9
    assert config.as_dict() == {"learning_rate": 0.1, "seed": 3, "momentum": 0.9}
    assert config.to_json() == '{"learning_rate": 0.1, "seed": 3, "momentum": 0.9}'
    assert len(config) == 3 and "seed" in config and config.get("none", 7) == 7
    config.freeze()
    assert config.frozen
    with pytest.raises(ValueError, match="frozen"):
        config.seed = 4
    with pytest.raises(AttributeError, match="Did you mean 'momentum'"):
        config.momentun
    config.unfreeze()
    config.pop("seed")
    assert list(config) == ["learning_rate", "momentum"]


def test_source_inputs_and_keras_tensors():
    a, b = keras.Input((3,)), keras.Input((3,))
    hidden = keras.layers.Dense(2)(a)
    out = keras.layers.Add()([hidden, keras.layers.Dense(2)(b)])
    assert keras.utils.get_source_inputs(out) == [a, b]
    assert keras.utils.get_source_inputs(a) == [a]
    assert keras.utils.is_keras_tensor(out) and keras.backend.is_keras_tensor(a)
    assert not keras.utils.is_keras_tensor(tf.constant(1.0))
    with pytest.raises(ValueError, match="KerasTensor"):
        keras.utils.get_source_inputs(np.zeros(3))


def test_serialization_names_are_reexported():
    utils = keras.utils

    @utils.register_keras_serializable(package="kutil")
    class Scale(keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    assert utils.get_registered_name(Scale) == "kutil>Scale"
    assert utils.get_registered_object("kutil>Scale") is Scale
    config = utils.serialize_keras_object(Scale(3.0))
    assert utils.deserialize_keras_object(config).factor == 3.0
    assert utils.get_custom_objects()["kutil>Scale"] is Scale
    renamed = {**config, "class_name": "Other", "registered_name": "Other"}
    with utils.custom_object_scope({"Other": Scale}):
        assert isinstance(utils.deserialize_keras_object(renamed), Scale)
    assert utils.CustomObjectScope is keras.utils.CustomObjectScope


def test_backend_settings_round_trip():
    b = keras.backend
    b.set_image_data_format("channels_first")
    try:
        assert b.image_data_format() == "channels_first"
        x = keras.utils.img_to_array(np.zeros((2, 3, 1)).squeeze(-1))
        assert x.shape == (1, 2, 3)
    finally:
        b.set_image_data_format("channels_last")
    with pytest.raises(ValueError, match="data_format"):
        b.set_image_data_format("nhwc")
    b.clear_session(free_memory=False)
    assert keras.layers.Dense(1).name == "dense"
    assert keras.utils.clear_session is b.clear_session
    assert keras.utils.standardize_dtype("float16") == "float16"


def test_split_dataset_preferred_backend():
    left, right = keras.utils.split_dataset(np.arange(10), left_size=0.6,
                                            preferred_backend="tensorflow")
    assert [int(v) for v in left] == list(range(6)) and len(list(right)) == 4
    with pytest.raises(ValueError, match="preferred_backend"):
        keras.utils.split_dataset(np.arange(10), left_size=0.5, preferred_backend="torch")
