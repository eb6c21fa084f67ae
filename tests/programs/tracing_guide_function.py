"""The tf.function guide as a user works through it: a CPU split into logical devices, Python
side effects traced once, retracing rules (Python values, reduce_retracing, nested and string,
ragged and sparse input signatures), what a concrete function says about itself, the types of
tf.types.experimental, py_function and numpy_function as decorators, AutoGraph's loops, and the
errors for a tensor of another graph and a recursion that never ends."""
import sys

import numpy as np
import tensorflow as tf

# -- logical devices: configured before the runtime starts ----------------------------------------
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(
    cpu, [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
print("logical CPUs:", [d.name for d in tf.config.list_logical_devices("CPU")])
print("configuration:", len(tf.config.get_logical_device_configuration(cpu)))
try:
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()])
except RuntimeError as err:
    print("RuntimeError:", err)
for call in (lambda: tf.config.experimental.set_memory_growth(cpu, True),
             lambda: tf.config.experimental.get_memory_info("CPU:0")):
    try:
        call()
    except ValueError as err:
        print("ValueError:", err)
with tf.device("/cpu:1"):
    print("on cpu:1:", float(tf.reduce_sum(tf.range(4.0))))

# -- Python side effects happen while tracing ------------------------------------------------------
traced = []


@tf.function
def double(x):
    traced.append(1)
    print("Tracing double")
    tf.print("Executing double with", x, output_stream=sys.stdout)
    return x * 2


double(tf.constant(1))
double(tf.constant(2))
double(tf.constant(3.0))
print("traces:", double.experimental_get_tracing_count(), "side effects:", len(traced))
tf.config.run_functions_eagerly(True)
double(tf.constant(4))
print("eagerly:", tf.config.functions_run_eagerly(), "traces:",
      double.experimental_get_tracing_count(), "side effects:", len(traced))
tf.config.run_functions_eagerly(False)


@tf.function
def scale(x, times):
    return x * times


for times in (2, 3, 2, 2.0, True):
    scale(tf.constant(1.0), times)
print("Python values retrace per value:", scale.experimental_get_tracing_count())


@tf.function(experimental_follow_type_hints=True)
def hinted(x: tf.Tensor):
    return x + 1


for i in range(3):
    hinted(i)
print("type hints (deprecated, no effect):", hinted.experimental_get_tracing_count())


@tf.function(reduce_retracing=True)
def total(x):
    return tf.reduce_sum(x)


counts = []
for shape in [(2,), (3,), (4,), (2, 3), (5, 6, 7)]:
    total(tf.ones(shape))
    counts.append(total.experimental_get_tracing_count())
print("reduce_retracing counts:", counts)
for concrete in total._list_all_concrete_functions():
    print("  traced for", concrete.structured_input_signature[0][0].shape)

# -- input signatures ------------------------------------------------------------------------------
@tf.function(input_signature=[
    (tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)),
    {"w": tf.TensorSpec([2], tf.float32)}, [tf.TensorSpec(None, tf.float32)]])
def nested(pair, weights, extra):
    return pair[0] * tf.cast(pair[1], tf.float32) + tf.reduce_sum(weights["w"]) + tf.reduce_sum(
        extra[0])


print("nested:", nested((tf.constant([1.0, 2.0]), tf.constant(3)), {"w": tf.constant([1.0, 1.0])},
                        [tf.ones((2, 2))]).numpy())
print("nested signature:", nested.get_concrete_function().structured_input_signature)


@tf.function(input_signature=[tf.TensorSpec([], tf.string)])
def length(s):
    return tf.strings.length(s)


print("string spec:", length("hello").numpy(), length(tf.constant("ab")).numpy())


@tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
def row_sums(r):
    return tf.reduce_sum(r, axis=1)


print("ragged spec:", row_sums(tf.ragged.constant([[1.0, 2.0], [3.0]])).numpy())


@tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
def sparse_rows(s):
    return tf.sparse.reduce_sum(s, axis=1)


print("sparse spec:", sparse_rows(tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0],
                                                         [2, 3])).numpy())


@tf.function
def pick(x, mode):
    return x * 2 if mode == "double" else x


print("strings:", pick(tf.constant(1.0), "double").numpy(), pick(tf.constant(1.0), "same").numpy(),
      pick(tf.constant(1.0), b"double").numpy(), pick.experimental_get_tracing_count())


@tf.function
def byte_length(b):
    return tf.strings.length(b)


print("bytes:", byte_length(b"abc").numpy(), byte_length("abcd").numpy())

# -- a concrete function describes itself ----------------------------------------------------------
v = tf.Variable(2.0, name="v")
frozen = tf.Variable(1.0, trainable=False, name="frozen")
offset = tf.constant([1.0, 2.0])


@tf.function
def affine(x, y=1):
    return {"a": x * v + frozen, "b": (x + offset, y)}


concrete = affine.get_concrete_function(tf.TensorSpec([2], tf.float32, name="x"))
print("function_type:", concrete.function_type)
print("signature:", concrete.structured_input_signature)
outputs = concrete.structured_outputs
print("outputs:", sorted(outputs), [t.dtype.name for t in tf.nest.flatten(outputs)])
print("variables:", [w.name for w in concrete.variables],
      [w.name for w in concrete.trainable_variables])
print("captured inputs:", len(concrete.captured_inputs))
print("short signature:", concrete.pretty_printed_signature(verbose=False))
print("graph ops include Mul:", any(op.type == "Mul" for op in concrete.graph.get_operations()))
print("call:", concrete(tf.constant([1.0, 1.0]))["a"].numpy())
kinds = tf.types.experimental
print("types:", isinstance(concrete, kinds.ConcreteFunction),
      isinstance(affine, kinds.GenericFunction), isinstance(affine, kinds.PolymorphicFunction),
      isinstance(concrete.function_type, kinds.FunctionType),
      isinstance(tf.TensorSpec([2]), kinds.TraceType),
      [isinstance(x, kinds.TensorLike) for x in (offset, np.ones(2), 3, "s")])

# -- Python inside graphs --------------------------------------------------------------------------
@tf.py_function(Tout=tf.float32)
def py_double(x):
    return x.numpy() * 2


@tf.numpy_function(Tout=tf.float64)
def np_triple(x):
    return x * 3


@tf.function
def uses_python(x):
    return py_double(x) + 1


print("py_function decorator:", py_double(tf.constant(3.0)).numpy(),
      uses_python(tf.constant(3.0)).numpy(), np_triple(np.float64(2.0)).numpy())
print("Tout TensorSpec:", tf.py_function(lambda x: x * 2, [tf.constant([1.0, 2.0])],
                                         Tout=tf.TensorSpec([None], tf.float32)).numpy())
try:
    tf.py_function(lambda x: x, [tf.constant(1.0)], Tout={"a": tf.float32})
except TypeError as err:
    print("TypeError:", err)


@tf.autograph.experimental.do_not_convert
def python_branch(x):
    if x > 0:
        return x
    return -x


@tf.function
def calls_unconverted(x):
    return python_branch(x)


try:
    calls_unconverted(tf.constant(1.0))
except TypeError as err:
    print("do_not_convert:", type(err).__name__)


@tf.function
def bounded(n):
    s = tf.constant(0)
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(parallel_iterations=1, maximum_iterations=3)
        s += i
    return s


@tf.function
def over_list(xs):
    s = 0.0
    for x in xs:
        s += x
    return s


@tf.function
def over_dict(d):
    s = 0.0
    for k in d:
        s += d[k]
    for _, value in d.items():
        s += value
    return s


print("loops:", bounded(tf.constant(10)).numpy(),
      over_list([tf.constant(1.0), tf.constant(2.0)]).numpy(),
      over_dict({"a": tf.constant(1.0), "b": tf.constant(2.0)}).numpy())

# -- bad input -------------------------------------------------------------------------------------
graph = tf.Graph()
with graph.as_default():
    foreign = tf.constant(1.0)


@tf.function
def uses_foreign(x):
    return x + foreign


try:
    uses_foreign(tf.constant(1.0))
except TypeError as err:
    print("TypeError:", str(err).splitlines()[0])


@tf.function
def endless(n):
    return endless(n - 1) + 1


try:
    endless(tf.constant(3))
except Exception as err:  # noqa: BLE001 - TensorFlow raises its StagingError
    text = str(err)
    print(type(err).__name__, "names the line:", "return endless(n - 1) + 1" in text,
          "RecursionError" in text)

# -- the guide's cells -------------------------------------------------------------------------------
@tf.function
def double_it(a):
    print("Tracing with", a)
    return a + a


print(double_it(tf.constant(1)))
print(double_it(tf.constant(1.1)))
print(double_it(tf.constant("a")))
double_strings = double_it.get_concrete_function(tf.constant("a"))
print(double_strings(tf.constant("b")))
print(double_strings.structured_input_signature)
print(double_strings)
print([n.name for n in double_strings.graph.as_graph_def().node][:2])


@tf.function
def power(a, b):
    return a ** b


square = power.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
print(square(tf.constant(10.0)), square(a=tf.constant(3.0)))
try:
    square(tf.constant(10.0), b=3)
except TypeError as err:
    print("TypeError:", str(err).split(". Received")[0])


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    print("Tracing with", x)
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])))
for bad in (tf.constant([[1, 2], [3, 4]]), tf.constant([1.0, 2.0])):
    try:
        next_collatz(bad)
    except TypeError as err:
        print("TypeError:", str(err).split("`")[1])


@tf.function(reduce_retracing=True)
def g(x):
    print("Tracing with", x)
    return x


print(g(tf.constant([1, 2, 3])))
print(g(tf.constant([1, 2, 3, 4, 5])))
print(g(tf.constant([[1, 2], [3, 4]])))


@tf.function
def f(x):
    print("Traced with", x)
    tf.print("Executed with", x, output_stream=sys.stdout)


f(1)
f(1)
f(2)


@tf.function
def buggy_consume_next(iterator):
    tf.print("Value:", next(iterator), output_stream=sys.stdout)


iterator = iter([1, 2, 3])
for _ in range(3):
    buggy_consume_next(iterator)


@tf.function
def buggy_add():
    return 1 + foo


foo = 1
print("Buggy:", buggy_add())
foo = 100
print("Buggy:", buggy_add())


@tf.function
def recursive_fn(n):
    if n > 0:
        print("tracing")
        return recursive_fn(n - 1)
    return 1


print(recursive_fn(3), recursive_fn.experimental_get_tracing_count())
