"""TensorFlow's "Random number generation" guide: tf.random.Generator from a seed (Philox),
splitting generators, stateless ops with explicit seeds, a global seed with op seeds, and
stateless dropout; the numbers must be TensorFlow's own."""
import numpy as np
import tensorflow as tf

g = tf.random.Generator.from_seed(1234)
print("normal:", np.round(g.normal(shape=(2, 3)).numpy(), 5).tolist())
print("uniform:", np.round(g.uniform(shape=(3,), minval=0, maxval=10).numpy(), 5).tolist())
print("uniform ints:", g.uniform(shape=(4,), minval=0, maxval=100, dtype=tf.int32).numpy().tolist())
children = g.split(2)
print("split:", [np.round(c.normal([2]).numpy(), 5).tolist() for c in children])

print("stateless normal:", np.round(tf.random.stateless_normal([3], seed=[1, 2]).numpy(), 5).tolist())
print("stateless uniform:", np.round(tf.random.stateless_uniform([3], seed=[3, 4]).numpy(), 5).tolist())
print("stateless truncated:",
      np.round(tf.random.stateless_truncated_normal([3], seed=[5, 6]).numpy(), 5).tolist())
print("stateless categorical:",
      tf.random.stateless_categorical(tf.math.log([[0.5, 0.5]]), 6, seed=[7, 8]).numpy().tolist())
print("stateless dropout:",
      tf.nn.experimental.stateless_dropout(tf.ones([6]), rate=0.5, seed=[1, 0]).numpy().tolist())

tf.random.set_seed(42)
a = tf.random.uniform([2], seed=1)
b = tf.random.uniform([2], seed=1)
print("global+op seed:", np.round(a.numpy(), 5).tolist(), np.round(b.numpy(), 5).tolist())
tf.random.set_seed(42)
print("reset repeats:", np.round(tf.random.uniform([2], seed=1).numpy(), 5).tolist())
print("shuffle:", tf.random.experimental.stateless_shuffle(tf.range(6), seed=[2, 3]).numpy().tolist()
      if hasattr(tf.random.experimental, "stateless_shuffle") else "absent")
