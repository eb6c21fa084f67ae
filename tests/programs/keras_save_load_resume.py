"""Saving and resuming as Keras 3's guide describes it: fit, save to a .keras file, load it
back, check predictions agree, continue training both copies, and compare; save_weights and
load_weights into a fresh model; get_config and from_config."""
import os
import tempfile

import numpy as np
import keras

rng = np.random.default_rng(43)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x[:, :2].sum(axis=1, keepdims=True) ** 2).astype("float32")


def build():
    model = keras.Sequential([keras.Input(shape=(5,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    return model


model = build()
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.3 for w in model.get_weights()])
model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
directory = tempfile.mkdtemp()
path = os.path.join(directory, "model.keras")
model.save(path)
loaded = keras.models.load_model(path)
print("same predictions:", bool(np.allclose(model.predict(x, verbose=0),
                                            loaded.predict(x, verbose=0))))
print("optimizer iterations:", int(model.optimizer.iterations), int(loaded.optimizer.iterations))
h1 = model.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)
h2 = loaded.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)
print("resumed loss:", round(h1.history["loss"][0], 5), round(h2.history["loss"][0], 5))

weights_path = os.path.join(directory, "ckpt.weights.h5")
model.save_weights(weights_path)
fresh = build()
fresh.load_weights(weights_path)
print("weights loaded:", all(np.array_equal(a, b) for a, b in
                             zip(model.get_weights(), fresh.get_weights())))
clone = keras.Sequential.from_config(model.get_config())
print("config layers:", [layer.__class__.__name__ for layer in clone.layers])
print("units:", [layer.get_config().get("units") for layer in clone.layers])
