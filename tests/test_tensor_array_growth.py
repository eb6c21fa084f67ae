"""A growing TensorArray appends in amortized constant time (ops/io/tensor_array_growth.py):
each append's flow is a view of one buffer with spare rows, earlier flows keep exactly their
rows, a write to a flow that is not the newest copies, and the gradient of an append is a view
too. So a traced loop writing N elements keeps a history of O(N) memory, not O(N^2).
(bench/bench_tensor_array_growth.py measures the time and memory at N = 100, 1000, 10000.)"""
import tracemalloc

import numpy as np

import wengert as tf
from wengert.ops.io import tensor_arrays


def _append(flow, index, row):
    return tensor_arrays._scatter_kernel(flow, np.array([index]), row[None], grow=True)


def test_appends_share_one_buffer_and_earlier_flows_keep_their_rows():
    flow = np.zeros((0, 3), np.float32)
    flows = []
    for i in range(40):
        flow = _append(flow, i, np.full(3, i, np.float32))
        flows.append(flow)
    buffers = {id(f.base) for f in flows}  # capacity doubles: 16, 34, 70 rows
    assert len(buffers) == 3
    assert all(np.shares_memory(f, flows[-1]) for f in flows[34:])
    for i, f in enumerate(flows):
        np.testing.assert_array_equal(f, np.repeat(np.arange(i + 1, dtype=np.float32)[:, None],
                                                   3, axis=1))


def test_a_second_write_to_an_old_flow_copies():
    base = _append(_append(np.zeros((0, 2)), 0, np.ones(2)), 1, np.full(2, 2.0))
    first = _append(base, 2, np.full(2, 3.0))
    second = _append(base, 2, np.full(2, 7.0))  # base is no longer the buffer's newest flow
    assert not np.shares_memory(first, second)
    np.testing.assert_array_equal(first[2], [3.0, 3.0])
    np.testing.assert_array_equal(second[2], [7.0, 7.0])
    np.testing.assert_array_equal(base, [[1.0, 1.0], [2.0, 2.0]])
    gapped = _append(first, 5, np.full(2, 9.0))  # rows 3 and 4 are unwritten: zeros
    np.testing.assert_array_equal(gapped[3:], [[0.0, 0.0], [0.0, 0.0], [9.0, 9.0]])


def test_the_gradient_of_an_append_is_a_view():
    grad = np.arange(10.0).reshape(5, 2)
    cut = tensor_arrays._clear_rows_kernel(grad, np.array([4]), np.zeros((4, 2)))
    assert np.shares_memory(cut, grad) and cut.shape == (4, 2)
    overwrite = tensor_arrays._clear_rows_kernel(grad, np.array([1, 4]), np.zeros((4, 2)))
    np.testing.assert_array_equal(overwrite, [[0, 1], [0, 0], [4, 5], [6, 7]])
    assert not np.shares_memory(overwrite, grad)


def _loop_step():
    @tf.function
    def step(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            for i in tf.range(n):
                ta = ta.write(i, x * tf.cast(i, tf.float32))
            loss = tf.reduce_sum(ta.stack() ** 2)
        return loss, tape.gradient(loss, x)
    return step


def test_a_traced_loop_keeps_a_linear_history():
    step = _loop_step()
    x = tf.constant([0.5, 1.0, 1.5, 2.0])
    n = 3000
    step(x, tf.constant(n))
    tracemalloc.start()
    try:
        loss, grad = step(x, tf.constant(n))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    squares = sum(i * i for i in range(n))
    np.testing.assert_allclose(grad.numpy(), 2.0 * x.numpy() * squares, rtol=1e-5)
    row = 4 * 4  # bytes of one element
    assert peak < 100 * n * row, f"peak {peak} bytes for {n} rows of {row} bytes"
    # (a quadratic history would hold n * n / 2 rows: 72 MB here)


def test_second_order_gradient_through_a_growing_array():
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True)
        for i in tf.range(4):
            ta = ta.write(i, x * tf.cast(i + 1, tf.float64))
        return tf.reduce_sum(ta.stack() ** 3)

    x = tf.constant(0.7, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    cubes = sum((i + 1) ** 3 for i in range(4))  # y = cubes * x^3
    np.testing.assert_allclose(g.numpy(), 3 * cubes * 0.7 ** 2)
    np.testing.assert_allclose(h.numpy(), 6 * cubes * 0.7)
