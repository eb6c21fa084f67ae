"""Keras model saving as Keras 3 documents it: model.save to a .keras file and load_model,
save_weights/load_weights with .weights.h5, get_config/from_config cloning, and predictions
that agree before and after every round trip."""
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(12)
inputs = keras.Input(shape=(4,))
x = keras.layers.Dense(6, activation="relu", name="hidden")(inputs)
x = keras.layers.BatchNormalization(name="norm")(x)
outputs = keras.layers.Dense(2, activation="softmax", name="out")(x)
model = keras.Model(inputs, outputs, name="classifier")
model.set_weights([rng.normal(size=w.shape).astype("float32") if w.ndim > 1 or "variance" not in n
                   else np.abs(rng.normal(size=w.shape)).astype("float32") + 0.5
                   for w, n in zip(model.get_weights(), [w.path for w in model.weights])])
data = rng.normal(size=(5, 4)).astype("float32")
before = model.predict(data, verbose=0)
print("weights:", [w.path for w in model.weights])

folder = tempfile.mkdtemp()
path = os.path.join(folder, "model.keras")
model.save(path)
restored = keras.models.load_model(path)
print("name:", restored.name, "layers:", [layer.name for layer in restored.layers])
print(".keras round trip:", bool(np.allclose(before, restored.predict(data, verbose=0),
                                             atol=1e-6)))

weights_path = os.path.join(folder, "model.weights.h5")
model.save_weights(weights_path)
clone = keras.Model.from_config(model.get_config())
clone.load_weights(weights_path)
print("weights round trip:", bool(np.allclose(before, clone.predict(data, verbose=0),
                                              atol=1e-6)))
print("predictions:", np.round(before[:2], 4).tolist())
print("trainable/non-trainable:", len(model.trainable_weights), len(model.non_trainable_weights))
