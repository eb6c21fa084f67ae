"""keras.io's "Making new layers and models via subclassing", Keras 3 style: layers written
with keras.ops and add_weight, a layer that adds an activity-regularisation loss, a block of
layers tracked as attributes, and a model trained with fit; weights drawn from a seeded
NumPy generator so that both frameworks start from the same point."""
import numpy as np
import keras
from keras import ops


class Linear(keras.layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                 initializer="random_normal", trainable=True, name="w")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True,
                                 name="b")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b


class ActivityRegularization(keras.layers.Layer):
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * ops.mean(ops.square(inputs)))
        return inputs


class MLPBlock(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.linear_1 = Linear(16)
        self.regularize = ActivityRegularization(0.05)
        self.linear_2 = Linear(1)

    def call(self, inputs):
        x = ops.relu(self.linear_1(inputs))
        return self.linear_2(self.regularize(x))


block = MLPBlock()
y = block(ops.ones((2, 4)))
print("weights:", len(block.weights), "trainable:", len(block.trainable_weights))
print("losses after a call:", len(block.losses))

rng = np.random.default_rng(7)
for w in block.weights:
    w.assign(rng.normal(size=w.shape).astype("float32") * 0.3)

inputs = keras.Input(shape=(4,))
model = keras.Model(inputs, block(inputs))
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
x = rng.normal(size=(64, 4)).astype("float32")
y = (x.sum(axis=1, keepdims=True) * 0.5).astype("float32")
history = model.fit(x, y, batch_size=16, epochs=4, shuffle=False, verbose=0)
print("loss:", [round(float(v), 5) for v in history.history["loss"]])
print("prediction:", np.round(np.asarray(model.predict(x[:3], verbose=0)).ravel(), 5).tolist())
print("mean square activity:", round(float(ops.mean(ops.square(x))), 5))
