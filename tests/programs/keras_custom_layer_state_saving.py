"""A custom layer keeping state beyond its variables (a lookup table filled by `adapt`) in
`.keras` and `.weights.h5` files through save_own_variables / load_own_variables, from the
Keras 3 guide on customizing saving."""
import os
import tempfile

import numpy as np
import keras


@keras.saving.register_keras_serializable(package="demo")
class Lookup(keras.layers.Layer):
    def __init__(self, size=4, **kwargs):
        super().__init__(**kwargs)
        self.size = size
        self.table = np.zeros(size, "float32")
        self.scale = self.add_weight(shape=(), initializer="ones", name="scale")

    def adapt(self, values):
        self.table = np.asarray(values, "float32")

    def call(self, ids):
        return keras.ops.take(keras.ops.convert_to_tensor(self.table), ids) * self.scale

    def save_own_variables(self, store):
        super().save_own_variables(store)
        store["table"] = self.table

    def load_own_variables(self, store):
        self.table = np.array(store["table"])
        store = {k: store[k] for k in ("0",)}
        super().load_own_variables(store)

    def get_config(self):
        return {**super().get_config(), "size": self.size}


ids = keras.Input((2,), dtype="int32")
model = keras.Model(ids, Lookup(name="lookup")(ids))
model.get_layer("lookup").adapt([10.0, 20.0, 30.0, 40.0])
model.get_layer("lookup").scale.assign(0.5)
x = np.array([[0, 3], [2, 1]], "int32")
print("before:", model.predict(x, verbose=0).tolist())
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "m.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    print("loaded .keras:", loaded.predict(x, verbose=0).tolist())
    weights = os.path.join(tmp, "m.weights.h5")
    model.save_weights(weights)
    fresh = keras.Model(ids, Lookup(name="lookup")(ids))
    print("fresh:", keras.ops.convert_to_numpy(fresh(x)).tolist())
    fresh.load_weights(weights)
    print("loaded weights:", fresh.predict(x, verbose=0).tolist())
    print("table:", fresh.get_layer("lookup").table.tolist())
