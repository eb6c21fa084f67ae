"""GradientTape details from TensorFlow's autodiff guide: watched constants, variables that are
not trainable, stop_gradient, unconnected gradients, gradients of a dict of sources,
watch_accessed_variables=False, and a non-scalar target's summed gradient."""
import tensorflow as tf

x = tf.Variable(2.0)
y = tf.Variable(3.0, trainable=False)
c = tf.constant(4.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(c)
    z = x * y * c + tf.stop_gradient(x * x)
print("watched:", [v.name for v in tape.watched_variables()])
print("dz/dx:", tape.gradient(z, x).numpy(), "dz/dy:", tape.gradient(z, y))
print("dz/dc:", tape.gradient(z, c).numpy())
print("zeros:", tape.gradient(z, tf.Variable(1.0),
                              unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy())
grads = tape.gradient(z, {"x": x, "c": c})
print("dict:", {k: float(v) for k, v in sorted(grads.items())})
del tape

w = tf.Variable([1.0, 2.0])
v = tf.Variable(5.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(w)
    out = w * v
print("only watched:", tape.gradient(out, [w, v])[0].numpy().tolist(),
      tape.gradient(out, [w, v])[1] if False else "v not watched")

x = tf.linspace(-2.0, 2.0, 5)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.sigmoid(x)
print("sigmoid grad:", [round(g, 5) for g in tape.gradient(y, x).numpy().tolist()])

x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    ys = [x * 2.0, x ** 2]
print("list target:", tape.gradient(ys, x).numpy().tolist())
