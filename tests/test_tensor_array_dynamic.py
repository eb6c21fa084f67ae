"""TensorArrays whose size is known only when the graph runs (`size=tf.shape(x)[0]` while
tracing, `dynamic_size=True` arrays that grow inside a loop), and gradients through the loops
that write them, first and second order, compared with TensorFlow 2.21 running the same program
text (tests/traced_snippets.py); finite differences in float64 check the loop gradients without
TensorFlow."""
import numpy as np
import pytest

import wengert as tf
from traced_snippets import assert_same, run_here, tensorflow_answers

ARRAYS = {"x": np.array([1.0, 2.0, 3.0, 0.5], np.float32),
          "m": np.random.default_rng(31).normal(size=(5, 3)).astype(np.float32)}

_RUNNING = """
x = tf.constant(A["x"])
@tf.function
def running_products(x, dynamic):
    if dynamic:
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    else:
        ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
    running = tf.constant(1.0)
    for i in tf.range(tf.shape(x)[0]):
        running = running * x[i] + tf.sin(running)
        ta = ta.write(i, running)
    return ta.stack()
"""

CASES = {
    "run_time_size": _RUNNING + """
out["values"] = running_products(x, False)
with tf.GradientTape() as tape:
    tape.watch(x)
    total = tf.reduce_sum(running_products(x, False) ** 2)
out["grad"] = tape.gradient(total, x)
""",
    "dynamic_size_gradient": _RUNNING + """
out["values"] = running_products(x, True)
with tf.GradientTape() as t2:
    t2.watch(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(running_products(x, True) ** 2)
    grad = tape.gradient(total, x)
out["grad"] = grad
out["grad2"] = t2.gradient(grad, x)
""",
    "tape_inside_function": """
@tf.function
def grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(tf.shape(x)[0]):
            ta = ta.write(i, tf.tanh(x[i] * tf.cast(i + 1, tf.float32)))
        total = tf.reduce_sum(ta.stack() ** 2)
    return tape.gradient(total, x)
out["grad"] = grad(tf.constant(A["x"]))
""",
    "eager_while_loop_grows": """
x = tf.constant(A["x"])
with tf.GradientTape() as tape:
    tape.watch(x)
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    _, ta = tf.while_loop(lambda i, ta: i < 4,
                          lambda i, ta: (i + 1, ta.write(i, x[i] * tf.cast(i + 1, tf.float32) ** 2)),
                          (0, ta))
    total = tf.reduce_sum(ta.stack() ** 2)
out["total"], out["grad"] = total, tape.gradient(total, x)
""",
    "unknown_element_shape_rows": """
m = tf.constant(A["m"])
@tf.function
def rows(m):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=None)
    for i in tf.range(tf.shape(m)[0]):
        ta = ta.write(i, m[i] * 2.0)
    return ta.stack(), ta.size(), ta.gather([0, 2]), ta.concat(), ta.read(1)
with tf.GradientTape() as tape:
    tape.watch(m)
    out["stack"], out["size"], out["gather"], out["concat"], out["read"] = rows(m)
    total = tf.reduce_sum(out["gather"] * out["read"])
out["grad"] = tape.gradient(total, m)
""",
    "unstack_then_read_in_loop": """
x = tf.constant(A["x"])
@tf.function
def weighted(x):
    ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0], element_shape=[])
    ta = ta.unstack(x * 2.0)
    s = tf.constant(0.0)
    for i in tf.range(ta.size()):
        s += ta.read(i) * x[i]
    return s
with tf.GradientTape() as tape:
    tape.watch(x)
    s = weighted(x)
out["s"], out["grad"] = s, tape.gradient(s, x)
""",
    "string_array_grows": """
@tf.function
def labels(n):
    out = tf.TensorArray(tf.string, size=0, dynamic_size=True)
    for i in tf.range(1, n + 1):
        if i % 3 == 0:
            out = out.write(out.size(), "Fizz")
        else:
            out = out.write(out.size(), tf.strings.as_string(i))
    return out.stack()
out["labels"] = labels(tf.constant(7)).numpy().astype("S")
out["empty"] = tf.zeros([2], tf.string).numpy().astype("S")
""",
}


@pytest.fixture(scope="module")
def answers():
    return tensorflow_answers(CASES, ARRAYS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, answers):
    assert_same(name, run_here(name, CASES[name], ARRAYS), answers[name], rtol=2e-5, atol=1e-5)


def _running_total(x):
    running, total = 1.0, 0.0
    for v in x:
        running = running * v + np.sin(running)
        total += running ** 2
    return total


def test_dynamic_array_loop_gradient_matches_finite_differences():
    @tf.function
    def total(x):
        ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True)
        running = tf.constant(1.0, tf.float64)
        for i in tf.range(tf.shape(x)[0]):
            running = running * x[i] + tf.sin(running)
            ta = ta.write(i, running)
        return tf.reduce_sum(ta.stack() ** 2)

    x0 = np.array([0.3, -0.7, 1.1, 0.4])
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = total(x)
    grad = tape.gradient(value, x).numpy()
    np.testing.assert_allclose(float(value), _running_total(x0), rtol=1e-12)
    eps = 1e-6
    numeric = [(_running_total(x0 + eps * e) - _running_total(x0 - eps * e)) / (2 * eps)
               for e in np.eye(4)]
    np.testing.assert_allclose(grad, numeric, rtol=1e-6)


def test_run_time_size_follows_the_argument():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def doubled(x):
        ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
        for i in tf.range(tf.shape(x)[0]):
            ta = ta.write(i, x[i] * 2.0)
        return ta.stack()

    np.testing.assert_allclose(doubled(tf.constant([1.0, 2.0])), [2.0, 4.0])
    np.testing.assert_allclose(doubled(tf.constant([1.0, 2.0, 3.0])), [2.0, 4.0, 6.0])
    assert doubled.experimental_get_tracing_count() == 1
