"""debugging.trace_backprop: one line per step of the reverse pass, in order."""
import io

import numpy as np

import wengert as tf
from wengert import debugging


def test_trace_lines_in_reverse_execution_order():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="W")
    x = tf.constant([[1.0, 1.0]])
    with tf.GradientTape() as tape:
        y = tf.nn.relu(tf.matmul(x, w))
        loss = tf.reduce_sum(y)
    out = io.StringIO()
    with debugging.trace_backprop(file=out) as trace:
        grad = tape.gradient(loss, w)
    np.testing.assert_allclose(grad.numpy(), [[1.0, 1.0], [1.0, 1.0]])
    lines = out.getvalue().splitlines()
    assert lines == trace.lines
    assert [s["op"].type for s in trace.steps] == ["Sum", "Relu", "MatMul", "ReadVariableOp"]
    sum_line, relu_line, matmul_line, read_line = lines
    assert sum_line.startswith("backprop step 1: Sum")
    assert "inputs float32[1,2]" in sum_line and "grad in float32[] |g|=1" in sum_line
    assert "grad in float32[1,2] |g|=1.414" in relu_line
    assert "inputs float32[1,2], float32[2,2]" in matmul_line
    assert matmul_line.endswith("-> None, float32[2,2]")  # x is a constant: no gradient asked
    assert "rule variables._read_grad -> float32[2,2]" in read_line
    assert "rule nn.activations." in relu_line


def test_trace_names_the_rule_function():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with debugging.trace_backprop(print_lines=False) as trace:
        tape.gradient(y, x)
    assert len(trace.steps) == 1
    assert trace.steps[0]["rule"].endswith("_mul_grad")
    assert "rule math_ops._mul_grad -> float32[], None" in trace.lines[0]


def test_nothing_traced_outside_the_block(capsys):
    x = tf.constant(3.0)
    with debugging.trace_backprop():
        pass
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    assert capsys.readouterr().out == ""


def test_trace_in_graph_mode_prints_symbolic_gradients():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        y = tf.reduce_sum(tf.exp(x))
        with debugging.trace_backprop(print_lines=False) as trace:
            tf.gradients(y, [x])
    assert [s["op"].type for s in trace.steps] == ["Sum", "Exp"]
    assert "|g|=?" in trace.lines[1] and "float32[?,3]" in trace.lines[1]
