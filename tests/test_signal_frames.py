"""tf.signal framing, overlap-add, windows, shifts and mel weights against NumPy/SciPy formulas
(checked equal to TensorFlow 2.21's on these cases), gradients by finite differences."""
import numpy as np
import pytest

import wengert as tf


def _numeric_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@pytest.mark.parametrize("length,step", [(4, 2), (3, 3), (5, 1)])
def test_frame_last_axis(length, step):
    x = np.random.RandomState(0).randn(2, 11)
    got = tf.signal.frame(x, length, step).numpy()
    n = 1 + (11 - length) // step
    want = np.stack([x[:, i * step:i * step + length] for i in range(n)], axis=1)
    np.testing.assert_allclose(got, want)


def test_frame_pad_end_and_axis():
    x = np.arange(10.)
    got = tf.signal.frame(x, 4, 3, pad_end=True, pad_value=-1.).numpy()
    want = [[0, 1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9], [9, -1, -1, -1]]
    np.testing.assert_array_equal(got, want)
    y = np.random.RandomState(1).randn(7, 3)
    got = tf.signal.frame(y, 3, 2, axis=0).numpy()
    assert got.shape == (3, 3, 3)
    np.testing.assert_array_equal(got[1], y[2:5])


def test_frame_gradient():
    x0 = np.random.RandomState(2).randn(9)
    w = np.random.RandomState(3).randn(3, 4)
    def f(x):
        return float(np.sum(tf.signal.frame(x, 4, 2, pad_end=False).numpy() * w))
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.signal.frame(x, 4, 2) * w)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), _numeric_grad(f, x0), atol=1e-7)


def test_overlap_and_add_values_and_gradient():
    x0 = np.random.RandomState(4).randn(2, 3, 4)
    want = np.zeros((2, 8))
    for i in range(3):
        want[:, 2 * i:2 * i + 4] += x0[:, i]
    np.testing.assert_allclose(tf.signal.overlap_and_add(x0, 2).numpy(), want)
    w = np.random.RandomState(5).randn(2, 8)
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.signal.overlap_and_add(x, 2) ** 2 * w)
    f = lambda v: float(np.sum(tf.signal.overlap_and_add(v, 2).numpy() ** 2 * w))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), _numeric_grad(f, x0), atol=1e-6)


def test_frame_then_overlap_add_round_trip():
    x = np.random.RandomState(6).randn(12)
    frames = tf.signal.frame(x, 4, 4)
    np.testing.assert_allclose(tf.signal.overlap_and_add(frames, 4).numpy(), x)


@pytest.mark.parametrize("length", [1, 6, 7])
@pytest.mark.parametrize("periodic", [True, False])
def test_raised_cosine_windows(length, periodic):
    from scipy.signal import get_window
    for fn, name in [(tf.signal.hann_window, "hann"), (tf.signal.hamming_window, "hamming")]:
        got = fn(length, periodic=periodic, dtype=tf.float64).numpy()
        want = np.ones(1) if length == 1 else get_window(name, length, fftbins=periodic and
                                                        length % 2 == 0)
        np.testing.assert_allclose(got, want, atol=1e-12)
    assert tf.signal.hann_window(8).dtype == tf.float32


def test_kaiser_vorbis_windows():
    np.testing.assert_allclose(tf.signal.kaiser_window(9, beta=5., dtype=tf.float64).numpy(),
                               np.kaiser(9, 5.), rtol=1e-12)
    n = np.arange(8)
    np.testing.assert_allclose(tf.signal.vorbis_window(8, dtype=tf.float64).numpy(),
                               np.sin(np.pi / 2 * np.sin(np.pi * (n + .5) / 8) ** 2))
    kbd = tf.signal.kaiser_bessel_derived_window(8, dtype=tf.float64).numpy()
    np.testing.assert_allclose(kbd[:4] ** 2 + kbd[4:] ** 2, np.ones(4), rtol=1e-12)
    with pytest.raises(ValueError, match="floating"):
        tf.signal.hann_window(4, dtype=tf.int32)


def test_fftshift_ifftshift():
    x = np.arange(30.).reshape(5, 6)
    np.testing.assert_array_equal(tf.signal.fftshift(x).numpy(), np.fft.fftshift(x))
    np.testing.assert_array_equal(tf.signal.ifftshift(x, axes=1).numpy(),
                                  np.fft.ifftshift(x, axes=1))
    np.testing.assert_array_equal(tf.signal.ifftshift(tf.signal.fftshift(x)).numpy(), x)


def test_linear_to_mel_weight_matrix():
    m = tf.signal.linear_to_mel_weight_matrix(dtype=tf.float64).numpy()
    assert m.shape == (129, 20)
    assert np.all(m[0] == 0) and np.all(m >= 0) and np.all(m <= 1)
    # Each filter is a triangle on the mel scale peaking below 1 between bins.
    assert np.all(m.max(axis=0) > 0.5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="frame_step"):
        tf.signal.frame(np.zeros(5), 2, 0)
    with pytest.raises(ValueError, match="rank >= 2"):
        tf.signal.overlap_and_add(np.zeros(5), 1)
