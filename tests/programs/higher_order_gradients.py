"""TensorFlow's "advanced automatic differentiation" guide: nested tapes for second
derivatives, a Jacobian, a batch Jacobian, a Hessian of a small model, and gradients of
intermediates with a persistent tape."""
import numpy as np
import tensorflow as tf

x = tf.Variable(1.0)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = x * x * x
    dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)
print("dy/dx:", dy_dx.numpy(), "d2y/dx2:", d2y_dx2.numpy())

x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z = y * y
print("dz/dx:", tape.gradient(z, x).numpy(), "dy/dx:", tape.gradient(y, x).numpy())
del tape

rng = np.random.default_rng(2)
w = tf.Variable(rng.normal(size=(3, 2)).astype(np.float32))
xs = tf.constant(rng.normal(size=(4, 3)).astype(np.float32))
with tf.GradientTape() as tape:
    out = tf.nn.tanh(xs @ w)
jac = tape.jacobian(out, w)
print("jacobian shape:", jac.shape, "sum:", round(float(tf.reduce_sum(jac)), 5))

with tf.GradientTape() as tape:
    tape.watch(xs)
    out = tf.nn.sigmoid(xs @ w)
bj = tape.batch_jacobian(out, xs)
print("batch jacobian shape:", bj.shape, "first:", np.round(bj[0].numpy(), 5).tolist())

b = tf.Variable(np.zeros(2, np.float32))
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        loss = tf.reduce_mean(tf.square(tf.nn.relu(xs @ w + b) - 1.0))
    g = t1.gradient(loss, w)
hessian = t2.jacobian(g, w)
print("hessian shape:", hessian.shape,
      "diag:", np.round(np.diag(tf.reshape(hessian, [6, 6]).numpy()), 5).tolist())
