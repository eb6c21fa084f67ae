"""Keras 3's top-level idioms from keras.io examples: subclassing keras.Layer, keras.Loss and
keras.Metric, the bare and scoped names of weights, keras.name_scope, keras.tree,
keras.config and keras.preprocessing, then a short fit with the custom pieces."""
import numpy as np
import keras
from keras import ops


class Affine(keras.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones",
                                 name="w")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, x):
        return ops.tanh(ops.matmul(x, self.w) * 0.1 + self.b)


class HalfSquared(keras.Loss):
    def call(self, y_true, y_pred):
        return 0.5 * ops.mean(ops.square(y_true - y_pred), axis=-1)


class MeanAbs(keras.Metric):
    def __init__(self, name="mean_abs", **kwargs):
        super().__init__(name=name, **kwargs)
        self.total = self.add_weight(name="total", initializer="zeros")
        self.count = self.add_weight(name="count", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.total.assign_add(ops.sum(ops.abs(y_true - y_pred)))
        self.count.assign_add(ops.cast(ops.size(y_true), "float32"))

    def result(self):
        return self.total / self.count


inputs = keras.Input((3,), name="x")
hidden = Affine(4, name="affine")(inputs)
outputs = keras.layers.Dense(2, name="head", kernel_initializer="ones")(hidden)
model = keras.Model(inputs, outputs, name="net")

print("isinstance keras.Variable:", isinstance(model.get_layer("affine").w, keras.Variable))
print("names:", [w.name for w in model.weights])
print("paths:", [w.path for w in model.weights])
with keras.name_scope("block"):
    v = keras.Variable(np.zeros(2, np.float32), name="v")
print("scoped variable:", v.name, v.path)

print("tree.flatten:", keras.tree.flatten({"b": [1, 2], "a": (3, {"c": 4})}))
print("tree.map_structure:", keras.tree.map_structure(lambda t: t * 10, [1, (2, 3)]))
print("tree.flatten_with_path:", keras.tree.flatten_with_path({"k": [5, 6]}))
print("config:", keras.config.backend(), keras.config.floatx(), keras.config.epsilon(),
      keras.config.image_data_format())
print("pad_sequences:", keras.preprocessing.sequence.pad_sequences([[1, 2, 3], [4]],
                                                                   maxlen=3).tolist())

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 3)).astype("float32")
y = np.stack([x.sum(axis=1), x[:, 0] - x[:, 1]], axis=1).astype("float32") * 0.1
model.compile(optimizer=keras.optimizers.SGD(0.05), loss=HalfSquared(), metrics=[MeanAbs()])
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
for key in sorted(history.history):
    print(key, [round(float(v), 5) for v in history.history[key]])
print("metrics:", [m.name for m in model.metrics])
print("kernel after fit:", np.round(model.get_layer("head").kernel.numpy(), 5).tolist())
