"""Subclassed Keras layers and models from the Keras guide "Making new layers and models via
subclassing": a Linear layer with add_weight, a layer with a nested layer, add_loss inside
call, get_config/from_config, and a model trained by a custom loop over a tf.data pipeline."""
import numpy as np
import tensorflow as tf
from tensorflow import keras


class Linear(keras.layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                 initializer=keras.initializers.Constant(0.1), trainable=True)
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        return {**super().get_config(), "units": self.units}


class ActivityRegularized(keras.layers.Layer):
    def __init__(self, rate=1e-2, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * tf.reduce_sum(tf.square(inputs)))
        return inputs


class MLP(keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = Linear(8)
        self.reg = ActivityRegularized()
        self.l2 = Linear(1)

    def call(self, x):
        return self.l2(tf.nn.relu(self.reg(self.l1(x))))


layer = Linear(4)
print("weights before build:", len(layer.weights))
y = layer(tf.ones((2, 3)))
print("after call:", [tuple(w.shape) for w in layer.weights], y.numpy()[0].tolist())
clone = Linear.from_config(layer.get_config())
print("config units:", clone.units)

rng = np.random.default_rng(11)
x = rng.normal(size=(64, 3)).astype("float32")
target = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
data = tf.data.Dataset.from_tensor_slices((x, target)).batch(16)
model = MLP()
optimizer = keras.optimizers.SGD(learning_rate=0.1)
loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
for epoch in range(3):
    total = 0.0
    for xb, yb in data:
        with tf.GradientTape() as tape:
            logits = model(xb)
            loss = loss_fn(yb, logits) + sum(model.losses)
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        total += float(loss)
    print(f"epoch {epoch}: loss {total / 4:.5f}, regularization terms {len(model.losses)}")
print("trainable weights:", len(model.trainable_weights))
