"""TensorFlow's "Advanced automatic differentiation" guide: jacobians of vectors and of layers,
batch jacobians, a Hessian by nested tapes, forward-mode JVPs with ForwardAccumulator and
tf.autodiff, and gradients of non-scalar targets."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(5)
x = tf.constant(rng.normal(size=(3,)).astype("float32"))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.sigmoid(x) * x
print("elementwise jacobian diag:", np.round(np.diag(tape.jacobian(y, x).numpy()), 5).tolist())

layer = tf.keras.layers.Dense(2, activation=tf.nn.relu)
layer.build((None, 3))
layer.set_weights([rng.normal(size=(3, 2)).astype("float32"), np.array([0.1, -0.1], "float32")])
xb = tf.constant(rng.normal(size=(4, 3)).astype("float32"))
with tf.GradientTape(persistent=True) as tape:
    out = layer(xb)
j = tape.jacobian(out, layer.kernel)
print("layer jacobian shape:", j.shape.as_list(), "sum:", round(float(tf.reduce_sum(j)), 5))
bj = tape.batch_jacobian(out, xb)
print("batch jacobian shape:", bj.shape.as_list(), "sum:", round(float(tf.reduce_sum(bj)), 5))
del tape

w = tf.Variable(rng.normal(size=(3, 1)).astype("float32"))
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        loss = tf.reduce_sum(tf.tanh(xb @ w) ** 2)
    g = t1.gradient(loss, w)
h = t2.jacobian(g, w)
print("hessian shape:", h.shape.as_list())
print("hessian:", np.round(tf.reshape(h, (3, 3)).numpy(), 4).tolist())

primal = tf.constant([1.0, 2.0, 3.0])
tangent = tf.constant([1.0, 0.0, -1.0])
with tf.autodiff.ForwardAccumulator(primal, tangent) as acc:
    value = tf.reduce_sum(primal ** 3 + tf.sin(primal))
print("jvp:", round(float(acc.jvp(value)), 5))

with tf.GradientTape() as tape:
    tape.watch(primal)
    targets = [primal ** 2, tf.exp(primal)]
print("gradient of a list of targets:", np.round(tape.gradient(targets, primal).numpy(), 4).tolist())

with tf.GradientTape() as tape:
    tape.watch(primal)
    y = tf.stack([primal * 2.0, primal ** 2])
print("gradient of a matrix target:", tape.gradient(y, primal).numpy().tolist())
