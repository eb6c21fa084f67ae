"""`keras.layers.serialize`/`deserialize` and the class aliases Keras exports
(Convolution1DTranspose ... SeparableConvolution2D): the aliases are the same classes, a layer's
config written by `serialize` rebuilds an equal layer (custom layers through custom_objects), and
a config that is not a layer is refused as Keras refuses it. Keras's own output for the same
layers is compared in test_keras_conv_layers/test_keras_common_layers (the runner rebuilds every
layer there with TensorFlow's `keras.layers.deserialize` from what `serialize` writes)."""
import numpy as np
import pytest

import wengert as tf

L = tf.keras.layers


def test_aliases_are_the_keras_classes():
    assert L.Convolution1DTranspose is L.Conv1DTranspose
    assert L.Convolution2DTranspose is L.Conv2DTranspose
    assert L.Convolution3DTranspose is L.Conv3DTranspose
    assert L.SeparableConvolution1D is L.SeparableConv1D
    assert L.SeparableConvolution2D is L.SeparableConv2D
    assert L.serialize(L.Convolution2DTranspose(2, 3))["class_name"] == "Conv2DTranspose"


def test_serialize_round_trips_built_layers():
    dense = L.Dense(3, activation="relu", name="d")
    x = np.ones((2, 4), "float32")
    dense(x)
    config = L.serialize(dense)
    assert config["module"] == "keras.layers" and config["class_name"] == "Dense"
    assert config["build_config"] == {"input_shape": [2, 4]}
    again = L.deserialize(config)
    assert again.built and again.get_config() == dense.get_config()
    again.set_weights(dense.get_weights())
    np.testing.assert_array_equal(np.asarray(again(x)), np.asarray(dense(x)))


def test_custom_layers_through_custom_objects():
    class Twice(L.Layer):
        def call(self, inputs):
            return inputs * 2

    config = L.serialize(Twice(name="twice"))
    with pytest.raises(TypeError, match="Could not locate class"):
        L.deserialize(config)
    layer = L.deserialize(config, custom_objects={"Twice": Twice})
    assert isinstance(layer, Twice) and layer.name == "twice"


def test_configs_that_are_not_layers_are_refused():
    with pytest.raises(ValueError, match="not a `keras.layers.Layer`"):
        L.deserialize(tf.keras.initializers.serialize(tf.keras.initializers.Ones()))
    with pytest.raises(ValueError, match="not a `keras.layers.Layer`"):
        L.deserialize(42)
