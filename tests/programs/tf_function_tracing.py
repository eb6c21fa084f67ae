"""tf.function as TensorFlow's guide shows it: retracing on new Python values and dtypes but not
on new tensor values, input_signature, concrete functions, Python side effects at trace time
only, tf.print-free state through a tf.Variable, and experimental_relax_shapes' successor."""
import tensorflow as tf

traces = []


@tf.function
def double(a):
    traces.append(a.dtype.name if hasattr(a, "dtype") else type(a).__name__)
    return a + a


print(double(tf.constant(1)).numpy(), double(tf.constant(1.1)).numpy(),
      double(tf.constant("a")).numpy())
double(tf.constant(2))
print("traces:", traces)

concrete = double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.float32))
print("concrete:", concrete(tf.constant(2.5)).numpy())
print("structured outputs:", concrete.structured_outputs.dtype.name)


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32)])
def next_collatz(x):
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print("signature:", next_collatz(tf.constant([1, 2, 3])).numpy().tolist())
try:
    next_collatz(tf.constant([[1, 2], [3, 4]]))
except (TypeError, ValueError) as err:
    print("refused:", type(err).__name__)

counter = tf.Variable(0)


@tf.function
def count(n):
    for _ in tf.range(n):
        counter.assign_add(1)
    return counter.read_value()


print("counter:", count(tf.constant(3)).numpy(), count(tf.constant(4)).numpy())

calls = []


@tf.function
def side_effect(x):
    calls.append(1)
    return x * 2


for i in range(3):
    side_effect(tf.constant(i))
print("python side effects:", len(calls))
