"""A physics-informed network's residual, as research code writes it: a collocation grid
captured by a tf.function, a tape inside the function watching the captured grid for du/dx and
d2u/dx2, and an Adam step on the residual of u'' + u = 0."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(15)
grid = tf.constant(np.linspace(0.0, np.pi, 16).reshape(-1, 1), tf.float32)
w1 = tf.Variable(rng.normal(size=(1, 8)).astype(np.float32) * 0.5)
b1 = tf.Variable(np.zeros(8, np.float32))
w2 = tf.Variable(rng.normal(size=(8, 1)).astype(np.float32) * 0.5)
optimizer = tf.keras.optimizers.Adam(0.01)


def u(x):
    return tf.tanh(x @ w1 + b1) @ w2


@tf.function
def step():
    with tf.GradientTape() as outer:
        with tf.GradientTape() as t2:
            t2.watch(grid)
            with tf.GradientTape() as t1:
                t1.watch(grid)
                value = u(grid)
            du = t1.gradient(value, grid)
        d2u = t2.gradient(du, grid)
        residual = tf.reduce_mean(tf.square(d2u + value))
        boundary = tf.square(u(tf.zeros([1, 1])) - 0.0) + tf.square(
            u(tf.constant([[np.pi / 2]], tf.float32)) - 1.0)
        loss = residual + tf.reduce_sum(boundary)
    grads = outer.gradient(loss, [w1, b1, w2])
    optimizer.apply_gradients(zip(grads, [w1, b1, w2]))
    return loss


for i in range(5):
    print(f"step {i}: loss {float(step()):.5f}")
