"""The fast paths of the kernels a small convnet spends its time in give exactly what the plain
definitions give: convolutions with one input channel (im2col written transposed), BiasAdd
writing into its dying input inside a traced function (the bias tiled along a row), and the
max-pool gradient on windows that tile the input, ties to the first maximum as TensorFlow's CPU
kernel routes them; and compiled plans keep their large arrays in mapped memory. References are NumPy loops (op_table.conv_rows) or NumPy expressions."""
import os
import platform
import resource
import sys

import numpy as np
import pytest

import wengert as tf

from op_table.conv_rows import ref_conv2d, ref_conv2d_transpose

RNG = np.random.default_rng(33)


@pytest.mark.parametrize("stride,padding,dilation", [
    ((1, 1), "VALID", (1, 1)), ((2, 1), "SAME", (1, 1)), ((1, 1), "SAME", (2, 2)),
    ((1, 2), [[0, 0], [1, 2], [0, 1], [0, 0]], (1, 1))])
def test_one_channel_conv_and_gradients_match_the_loops(stride, padding, dilation):
    x, w = RNG.uniform(-1, 1, (3, 9, 8, 1)), RNG.uniform(-1, 1, (3, 2, 1, 4))
    xt, wt = tf.constant(x), tf.constant(w)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([xt, wt])
        y = tf.nn.conv2d(xt, wt, stride, padding, dilations=dilation)
    np.testing.assert_allclose(y.numpy(), ref_conv2d(x, w, stride, padding,
                                                     dilations=dilation), atol=1e-12)
    g = RNG.uniform(-1, 1, y.shape)
    dx, dw = tape.gradient(y, [xt, wt], output_gradients=tf.constant(g))
    np.testing.assert_allclose(dx.numpy(), ref_conv2d_transpose(
        g, w, x.shape, stride, padding, dilations=dilation), atol=1e-12)
    # <y, g> is linear in w: its gradient is sum over positions of patch * g
    eps = np.zeros_like(w)
    for index in np.ndindex(*w.shape):
        eps[index] = 1.0
        want = np.sum(ref_conv2d(x, eps, stride, padding, dilations=dilation) * g)
        np.testing.assert_allclose(dw.numpy()[index], want, atol=1e-12)
        eps[index] = 0.0


@pytest.mark.parametrize("data_format,shape", [("NHWC", (4, 30, 30, 16)),
                                               ("NCHW", (4, 16, 30, 30)),
                                               ("NHWC", (2048, 10))])
def test_bias_add_in_place_in_a_traced_function(data_format, shape):
    """Large enough (>= 16384 elements) for the plan to write BiasAdd into its input, which dies
    there; the fed array itself is never written."""
    x = RNG.standard_normal(shape).astype(np.float32)
    channels = shape[1] if data_format == "NCHW" else shape[-1]
    bias = RNG.standard_normal(channels).astype(np.float32)
    fed = x.copy()

    @tf.function
    def f(v):
        return tf.nn.relu(tf.nn.bias_add(v * 2.0, bias, data_format=data_format))

    got = f(tf.constant(fed)).numpy()
    b = bias.reshape((-1, 1, 1)) if data_format == "NCHW" else bias
    np.testing.assert_array_equal(got, np.maximum(x * np.float32(2) + b, 0))
    np.testing.assert_array_equal(fed, x)


def _first_max_grad(x, g, k):
    """Loop reference: each k x k tile's gradient goes to its first maximum (row-major);
    rows and columns past the last whole tile get zero."""
    n, h, w, c = x.shape
    dx = np.zeros_like(x)
    for b, p, q, ch in np.ndindex(n, h // k, w // k, c):
        tile = x[b, p * k:(p + 1) * k, q * k:(q + 1) * k, ch]
        i, j = np.unravel_index(np.argmax(tile), tile.shape)
        dx[b, p * k + i, q * k + j, ch] = g[b, p, q, ch]
    return dx


@pytest.mark.parametrize("shape,k", [((2, 8, 8, 3), 2), ((2, 7, 9, 2), 2), ((1, 9, 9, 2), 3)])
def test_tiled_max_pool_gradient_goes_to_the_first_maximum(shape, k):
    x = np.round(np.maximum(RNG.standard_normal(shape), 0) * 2) / 2  # many ties, zeros
    xt = tf.constant(x.astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.max_pool2d(xt, k, k, "VALID")
    g = RNG.standard_normal(y.shape).astype(np.float32)
    dx = tape.gradient(y, xt, output_gradients=tf.constant(g)).numpy()
    np.testing.assert_array_equal(dx, _first_max_grad(x.astype(np.float32), g, k))


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc"
                    or "MALLOC_TOP_PAD_" in os.environ, reason="glibc's heap top pad only")
def test_compiled_plans_reuse_mapped_memory_for_their_large_arrays():
    """Once a plan compiles, glibc keeps free memory above its heap (runtime/heap_padding.py):
    a traced step that makes and frees 2 MB arrays maps fresh pages (page faults) for almost
    none of them after its first runs."""
    @tf.function
    def step(x):
        return tf.reduce_sum(tf.nn.relu(x * 2.0 + 1.0) * x)

    x = tf.constant(RNG.standard_normal((512, 1024)).astype(np.float32))
    for _ in range(3):
        step(x)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(20):
        step(x)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    assert faults < 20 * 512 // 10, faults  # each run's temporaries span 512 pages
