"""AutoGraph as TensorFlow's guides use it: a Python for over tf.range that writes a
TensorArray, a while loop with break on a tensor condition, an if on a tensor, a loop over a
dataset inside tf.function, and tf.autograph.to_code's existence; gradients through the loop."""
import numpy as np
import tensorflow as tf


@tf.function
def cumulative_products(x):
    ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
    running = tf.constant(1.0)
    for i in tf.range(tf.shape(x)[0]):
        running = running * x[i]
        ta = ta.write(i, running)
    return ta.stack()


x = tf.constant([1.0, 2.0, 3.0, 0.5])
print("cumulative products:", cumulative_products(x).numpy().tolist())
with tf.GradientTape() as tape:
    tape.watch(x)
    total = tf.reduce_sum(cumulative_products(x))
print("gradient:", tape.gradient(total, x).numpy().tolist())


@tf.function
def first_power_over(limit):
    n = tf.constant(1)
    steps = tf.constant(0)
    while steps < 64:
        n = n * 2
        steps += 1
        if n > limit:
            break
    return n, steps


print("first power of 2 over 100:", [t.numpy() for t in first_power_over(tf.constant(100))])


@tf.function
def sign_label(v):
    if tf.reduce_sum(v) > 0:
        return tf.constant("positive")
    else:
        return tf.constant("not positive")


print(sign_label(tf.constant([1.0, -0.5])).numpy(), sign_label(tf.constant([-1.0])).numpy())


@tf.function
def dataset_sum(ds):
    total = tf.constant(0, tf.int64)
    for batch in ds:
        total += tf.reduce_sum(batch)
    return total


print("dataset sum:", dataset_sum(tf.data.Dataset.range(10).batch(3)).numpy())


@tf.function
def fizzbuzz(n):
    out = tf.TensorArray(tf.string, size=0, dynamic_size=True)
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            out = out.write(out.size(), "FizzBuzz")
        elif i % 3 == 0:
            out = out.write(out.size(), "Fizz")
        elif i % 5 == 0:
            out = out.write(out.size(), "Buzz")
        else:
            out = out.write(out.size(), tf.strings.as_string(i))
    return out.stack()


print("fizzbuzz:", [s.decode() for s in fizzbuzz(tf.constant(15)).numpy()])
print("to_code is text:", isinstance(tf.autograph.to_code(cumulative_products.python_function), str))
