"""tf.custom_gradient as TensorFlow's docs use it: a numerically stable log(1 + e^x), gradient
clipping in the backward pass, and a straight-through estimator for rounding."""
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


@tf.custom_gradient
def round_straight_through(x):
    return tf.round(x), lambda dy: dy


x = tf.constant([0.0, 10.0, 100.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
print("log1pexp:", y.numpy().tolist(), "grad:", tape.gradient(y, x).numpy().tolist())

v = tf.Variable([3.0, 4.0])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(clip_gradients(v) * v)
print("clipped grad:", [round(g, 5) for g in tape.gradient(loss, v).numpy().tolist()])

w = tf.Variable([0.2, 1.7, -0.6])
with tf.GradientTape() as tape:
    q = round_straight_through(w * 2.0)
    loss = tf.reduce_sum(q * q)
print("rounded:", q.numpy().tolist(), "grad:", tape.gradient(loss, w).numpy().tolist())
