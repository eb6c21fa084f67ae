"""Shared checks of a Keras layer's life outside a single call: get_config/from_config give the
same config back, the layer trains inside a model under `fit` (the loss falls), and the model
saved as a `.keras` file loads with the same weights and the same predictions."""
import numpy as np

import wengert as tf


def check_config_round_trip(layer):
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    serialized = tf.keras.layers.serialize(layer)
    again = tf.keras.layers.deserialize(serialized)
    assert type(again) is type(layer)
    assert again.get_config() == config
    return clone


def check_fit_and_saved_model(make_layer, x, tmp_path, outputs=1, epochs=4, head=None):
    """A model Input -> layer -> Flatten -> Dense(outputs) fits (x, y) with the loss falling, and
    its `.keras` file loads back predicting the same numbers."""
    rng = np.random.default_rng(3)
    y = rng.normal(size=(x.shape[0], outputs)).astype(x.dtype)
    inputs = tf.keras.Input(shape=x.shape[1:], dtype=x.dtype.name)
    hidden = make_layer()(inputs)
    if head is not None:
        hidden = head(hidden)
    out = tf.keras.layers.Dense(outputs)(tf.keras.layers.Flatten()(hidden))
    model = tf.keras.Model(inputs, out)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    history = model.fit(x, y, epochs=epochs, batch_size=len(x), verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < losses[0], losses
    path = tmp_path / "layer.keras"
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    for a, b in zip(model.get_weights(), loaded.get_weights()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(np.asarray(loaded.predict(x, verbose=0)),
                               np.asarray(model.predict(x, verbose=0)), rtol=1e-6, atol=1e-7)
    return model, loaded
