"""A tf.function that calls itself (recursion on Python values, each call a trace of its own)
runs as in TensorFlow 2.21, which the same program text checks (tests/traced_snippets.py); the
converted function keeps its own name in tracebacks."""
import traceback

import pytest

import wengert as tf
from traced_snippets import assert_same, run_here, tensorflow_answers

CASES = {
    "factorial_on_python_ints": """
@tf.function
def fact(n):
    if n <= 1:
        return tf.constant(1)
    return n * fact(n - 1)
out["fact"] = fact(5)
out["traces"] = tf.constant(fact.experimental_get_tracing_count())
""",
    "recursion_with_tensor_work": """
@tf.function
def power_sum(x, k):
    if k == 0:
        return tf.zeros_like(x)
    return x ** k + power_sum(x, k - 1)
x = tf.constant([0.5, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(power_sum(x, 3))
out["y"], out["dy"] = y, tape.gradient(y, x)
""",
}


@pytest.fixture(scope="module")
def answers():
    return tensorflow_answers(CASES, {})


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, answers):
    assert_same(name, run_here(name, CASES[name], {}), answers[name])


def test_tracebacks_name_the_users_function():
    @tf.function
    def broken(x):
        return tf.reshape(x, [5])

    with pytest.raises(Exception) as info:
        broken(tf.constant([1.0, 2.0]))
    names = [frame.name for frame in traceback.extract_tb(info.value.__traceback__)]
    assert "broken" in names or "broken" in str(info.value)
