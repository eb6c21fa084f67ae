"""TensorFlow's "basic training loops" guide: a linear model y = W x + b fitted to noisy data
with a hand-written loop over a GradientTape, then the same model with Keras's fit."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
TRUE_W, TRUE_B, NUM_EXAMPLES = 3.0, 2.0, 201
x = tf.constant(np.linspace(-2, 2, NUM_EXAMPLES), tf.float32)
noise = tf.constant(rng.normal(size=NUM_EXAMPLES), tf.float32)
y = x * TRUE_W + TRUE_B + noise


class MyModel(tf.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b


def loss(target_y, predicted_y):
    return tf.reduce_mean(tf.square(target_y - predicted_y))


def train(model, x, y, learning_rate):
    with tf.GradientTape() as t:
        current_loss = loss(y, model(x))
    dw, db = t.gradient(current_loss, [model.w, model.b])
    model.w.assign_sub(learning_rate * dw)
    model.b.assign_sub(learning_rate * db)


model = MyModel()
print("variables:", [v.name for v in model.variables])
for epoch in range(10):
    train(model, x, y, learning_rate=0.1)
    print(f"epoch {epoch:2d}: W={model.w.numpy():.5f} b={model.b.numpy():.5f} "
          f"loss={loss(y, model(x)).numpy():.5f}")


class MyKerasModel(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def call(self, x):
        return self.w * x + self.b


keras_model = MyKerasModel()
keras_model.compile(run_eagerly=False, optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                    loss=tf.keras.losses.MeanSquaredError())
history = keras_model.fit(x, y, epochs=10, batch_size=1000, verbose=0)
print("keras losses:", [round(v, 5) for v in history.history["loss"]])
print(f"keras W={keras_model.w.numpy():.5f} b={keras_model.b.numpy():.5f}")
