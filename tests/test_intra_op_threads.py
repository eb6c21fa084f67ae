"""The intra-op split (framework/intra_op_threads.py) gives the unsplit kernels' values: batched
products of every broadcasting layout against np.matmul, elementwise special functions against
SciPy, and both through the public ops (matmul of stacks, erfc, gelu) against NumPy."""
import warnings

import numpy as np
import pytest
import scipy.special

import wengert as tf
from wengert.framework import intra_op_threads as intra


@pytest.mark.parametrize("a_shape, b_shape", [
    ((8, 4, 128, 64), (8, 4, 64, 128)),     # attention's scores
    ((3, 128, 64), (1, 64, 96)),            # broadcast batch, uneven split
    ((5, 2, 64, 64), (2, 64, 64)),          # fewer batch axes on one side
    ((2, 70, 33), (2, 33, 90)),
    ((1024, 256), (256, 1000)),             # matrices: split by rows
    ((256, 1024), (1024, 768)),             # split by columns
    ((600, 700), (700, 9)),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_stacked_matmul_equals_numpy(a_shape, b_shape, dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(a_shape).astype(dtype)
    b = rng.standard_normal(b_shape).astype(dtype)
    want = np.matmul(a, b)
    got = intra.matmul(a, b)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-5 if dtype != np.float64 else 1e-12,
                               atol=1e-4 if dtype != np.float64 else 1e-10)


def test_stacked_matmul_of_transposed_views():
    rng = np.random.default_rng(1)
    q = rng.standard_normal((4, 128, 4, 32)).astype(np.float32).transpose(0, 2, 1, 3)
    k = rng.standard_normal((4, 128, 4, 32)).astype(np.float32).transpose(0, 2, 3, 1)
    np.testing.assert_allclose(intra.matmul(q, k), np.matmul(q, k), rtol=1e-5,
                               atol=1e-4)


def test_split_map_equals_unsplit_and_keeps_errstate():
    x = np.linspace(-12, 12, 600_000).astype(np.float32).reshape(3, -1)
    np.testing.assert_array_equal(intra.split_map(scipy.special.erfc, x),
                                  scipy.special.erfc(x))
    big = np.full(400_000, 100.0, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(over="ignore"):
            assert np.isinf(intra.split_map(np.exp, big)).all()


def test_transposed_matrix_operands():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((1024, 256)).astype(np.float32)
    g = rng.standard_normal((1024, 768)).astype(np.float32)
    np.testing.assert_allclose(intra.matmul(a.T, g), a.T @ g, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(intra.matmul(g, g[:256].T), g @ g[:256].T, rtol=1e-4, atol=1e-3)


def test_public_ops_through_the_split():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((8, 4, 128, 64)).astype(np.float32)
    b = rng.standard_normal((8, 4, 128, 64)).astype(np.float32)
    got = tf.matmul(a, b, transpose_b=True).numpy()
    np.testing.assert_allclose(got, np.matmul(a, np.swapaxes(b, -1, -2)), rtol=1e-5, atol=1e-4)
    x = rng.standard_normal((8, 128, 512)).astype(np.float32)
    np.testing.assert_array_equal(tf.math.erfc(x).numpy(), scipy.special.erfc(x))
    want = 0.5 * x * scipy.special.erfc(-x / np.sqrt(2.0))
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(), want, rtol=1e-6, atol=1e-6)


def test_one_intra_op_thread_runs_unsplit():
    a = np.ones((4, 64, 64), np.float32)
    tf.config.threading.set_intra_op_parallelism_threads(1)
    try:
        assert intra.workers() == 1
        np.testing.assert_array_equal(intra.matmul(a, a), np.matmul(a, a))
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
