"""keras.io's "Customizing what happens in fit()" with the TensorFlow backend: a subclassed
Model whose train_step computes its own loss with Mean trackers, a test_step, and fit and
evaluate driving them; weights set from a seeded generator."""
import numpy as np
import tensorflow as tf
import keras

loss_tracker = keras.metrics.Mean(name="loss")
mae_metric = keras.metrics.MeanAbsoluteError(name="mae")


class CustomModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = tf.reduce_mean(tf.square(y - y_pred))
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        loss_tracker.update_state(loss)
        mae_metric.update_state(y, y_pred)
        return {"loss": loss_tracker.result(), "mae": mae_metric.result()}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        loss_tracker.update_state(tf.reduce_mean(tf.square(y - y_pred)))
        mae_metric.update_state(y, y_pred)
        return {"loss": loss_tracker.result(), "mae": mae_metric.result()}

    @property
    def metrics(self):
        return [loss_tracker, mae_metric]


rng = np.random.default_rng(20)
inputs = keras.Input(shape=(8,))
outputs = keras.layers.Dense(1)(keras.layers.Dense(4, activation="tanh")(inputs))
model = CustomModel(inputs, outputs)
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.4 for w in model.get_weights()])
model.compile(optimizer=keras.optimizers.SGD(0.05))
x = rng.normal(size=(96, 8)).astype("float32")
y = (x[:, :1] * 0.5 - x[:, 1:2]).astype("float32")
history = model.fit(x, y, epochs=3, batch_size=32, shuffle=False, verbose=0)
print("loss:", [round(v, 5) for v in history.history["loss"]])
print("mae:", [round(v, 5) for v in history.history["mae"]])
print("evaluate:", [round(v, 5) for v in model.evaluate(x, y, batch_size=48, verbose=0)])
