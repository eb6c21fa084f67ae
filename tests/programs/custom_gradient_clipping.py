"""Gradient tricks from TensorFlow's guides: tf.custom_gradient to clip a gradient in the
backward pass, a numerically stable log1pexp with its own gradient, tf.stop_gradient, gradient
clipping by global norm in a training loop, and gradients that are None for unconnected
variables (with unconnected_gradients=ZERO)."""
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


v = tf.Variable([2.0, -3.0, 4.0])
with tf.GradientTape() as tape:
    output = clip_gradients(v * v)
print("clipped:", np.round(tape.gradient(output, v).numpy(), 5).tolist())

x = tf.constant(100.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
print("log1pexp grad at 100:", tape.gradient(y, x).numpy())

a = tf.Variable(2.0)
b = tf.Variable(3.0)
unused = tf.Variable(1.0)
with tf.GradientTape() as tape:
    loss = a * tf.stop_gradient(a * b) + b
grads = tape.gradient(loss, [a, b, unused])
print("with stop_gradient:", [None if g is None else float(g) for g in grads])
with tf.GradientTape() as tape:
    loss = a * b
print("zeros for unconnected:",
      [float(g) for g in tape.gradient(loss, [a, unused],
                                       unconnected_gradients=tf.UnconnectedGradients.ZERO)])

rng = np.random.default_rng(29)
w = tf.Variable(rng.normal(size=(5, 1)).astype("float32"))
data = rng.normal(size=(40, 5)).astype("float32") * 10
target = data @ np.arange(1, 6, dtype="float32").reshape(5, 1)
optimizer = tf.keras.optimizers.SGD(0.01)
for step in range(5):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((data @ w - target) ** 2)
    grads = tape.gradient(loss, [w])
    clipped, norm = tf.clip_by_global_norm(grads, 5.0)
    optimizer.apply_gradients(zip(clipped, [w]))
    print(f"step {step}: loss {float(loss):.3f} global norm {float(norm):.3f}")
print("w:", np.round(w.numpy().ravel(), 4).tolist())
