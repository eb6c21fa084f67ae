"""Per-example gradients (as differential privacy and influence functions need them): a
gradient with respect to a model's variables for each example, by tf.vectorized_map over a
function that takes a tape gradient, checked against a Python loop."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(16)
x = tf.constant(rng.normal(size=(6, 3)).astype(np.float32))
y = tf.constant(rng.normal(size=(6, 1)).astype(np.float32))
w = tf.Variable(rng.normal(size=(3, 1)).astype(np.float32))
b = tf.Variable(np.zeros(1, np.float32))


def example_gradient(example):
    xi, yi = example
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.matmul(xi[None], w) + b - yi))
    return tape.gradient(loss, [w, b])


vectorized = tf.vectorized_map(example_gradient, (x, y))
looped = [example_gradient((x[i], y[i])) for i in range(6)]
print("shapes:", [tuple(g.shape) for g in vectorized])
print("agree:", all(np.allclose(vectorized[0][i], looped[i][0], atol=1e-5) for i in range(6)))
print("norms:", np.round(np.linalg.norm(vectorized[0].numpy().reshape(6, -1), axis=1), 4).tolist())
