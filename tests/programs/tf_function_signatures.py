"""TensorFlow's guide "Better performance with tf.function": tracing counts, input signatures
with unknown dimensions, concrete functions and their structured signatures, Python values as
trace keys, and a function that updates a variable created outside it."""
import numpy as np
import tensorflow as tf

traces = []


@tf.function
def double(a):
    traces.append(a)
    return a + a


print(double(tf.constant(1)).numpy(), double(tf.constant(1.5)).numpy(),
      double(tf.constant("a")).numpy())
print("traces after three dtypes:", len(traces))
double(tf.constant(2))
print("traces after a repeated dtype:", len(traces))


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])).numpy().tolist(),
      next_collatz(tf.constant([3, 4, 5, 6])).numpy().tolist())
try:
    next_collatz(tf.constant([[1, 2], [3, 4]]))
except (TypeError, ValueError) as e:
    print("rank 2 refused:", type(e).__name__)

concrete = double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.float32))
print("concrete output:", concrete(tf.constant(2.0)).numpy())
print("structured outputs:", concrete.structured_outputs.dtype.name)


@tf.function
def power(x, n):
    result = tf.ones_like(x)
    for _ in range(n):
        result = result * x
    return result


print(power(tf.constant(3.0), 2).numpy(), power(tf.constant(3.0), 3).numpy())
print("power traces:", power.experimental_get_tracing_count())

v = tf.Variable(1.0)


@tf.function
def add_to_v(x):
    v.assign_add(x)
    return v.read_value()


for value in [1.0, 2.0, 3.0]:
    add_to_v(tf.constant(value))
print("v:", v.numpy(), "add_to_v traces:", add_to_v.experimental_get_tracing_count())


@tf.function
def sum_squares(n):
    total = tf.constant(0)
    for i in tf.range(n):
        if i % 3 == 0:
            continue
        total += i * i
    return total


print("sum of squares not divisible by 3 below 10:", sum_squares(tf.constant(10)).numpy())
print("graph has a while loop:",
      any(op.type == "While" or op.type == "StatelessWhile"
          for op in sum_squares.get_concrete_function(tf.constant(10)).graph.get_operations()))
