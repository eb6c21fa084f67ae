"""Control flow with gradients as TensorFlow programs write it: tf.cond, tf.while_loop
(Newton's method for a square root), AutoGraph loops inside tf.function, and tf.where."""
import tensorflow as tf


@tf.function
def newton_sqrt(a, steps=tf.constant(6)):
    x = a
    for _ in tf.range(steps):
        x = 0.5 * (x + a / x)
    return x


a = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(a)
    r = newton_sqrt(a)
print(f"sqrt(2) = {r.numpy():.6f}, d/da = {tape.gradient(r, a).numpy():.6f}")

x = tf.Variable(1.5)
with tf.GradientTape() as tape:
    y = tf.cond(x > 1.0, lambda: x * x, lambda: tf.sin(x))
print("cond:", round(float(y), 5), round(float(tape.gradient(y, x)), 5))

i0, s0 = tf.constant(0), tf.constant(1.0)
with tf.GradientTape() as tape:
    tape.watch(s0)
    _, s = tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s * 1.5), [i0, s0])
print("while:", round(float(s), 5), round(float(tape.gradient(s, s0)), 5))

v = tf.constant([-2.0, 0.5, 3.0])
with tf.GradientTape() as tape:
    tape.watch(v)
    w = tf.where(v > 0, tf.sqrt(tf.abs(v)), v * v)
print("where:", [round(t, 5) for t in w.numpy().tolist()],
      [round(t, 5) for t in tape.gradient(w, v).numpy().tolist()])


@tf.function
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


print("collatz(27):", int(collatz(tf.constant(27))))
