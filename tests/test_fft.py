"""tf.signal's Fourier transforms: values against NumPy's, gradients (TensorFlow's convention for
complex numbers) against central differences to second order, forward mode, graph mode, fft_length
cropping and padding, the N-D variants' axes and norms, and stft / inverse_stft."""
import numpy as np
import pytest

import wengert as tf
from complex_checks import check_gradient, check_jvp, check_second_order

RNG = np.random.default_rng(99)
S = tf.signal


def cplx(*shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def real(*shape):
    return RNG.standard_normal(shape)


# name, wengert function, NumPy reference, input
CASES = [
    ("fft", S.fft, np.fft.fft, cplx(2, 5)),
    ("ifft", S.ifft, np.fft.ifft, cplx(2, 6)),
    ("fft2d", S.fft2d, np.fft.fft2, cplx(2, 3, 4)),
    ("ifft2d", S.ifft2d, np.fft.ifft2, cplx(3, 4)),
    ("fft3d", S.fft3d, lambda z: np.fft.fftn(z, axes=(-3, -2, -1)), cplx(2, 2, 3, 2)),
    ("ifft3d", S.ifft3d, lambda z: np.fft.ifftn(z, axes=(-3, -2, -1)), cplx(2, 3, 2)),
    ("rfft_even", S.rfft, np.fft.rfft, real(2, 6)),
    ("rfft_odd", S.rfft, np.fft.rfft, real(7)),
    ("rfft_pad", lambda x: S.rfft(x, [8]), lambda x: np.fft.rfft(x, 8), real(2, 5)),
    ("rfft_crop", lambda x: S.rfft(x, [4]), lambda x: np.fft.rfft(x, 4), real(2, 7)),
    ("irfft_even", S.irfft, np.fft.irfft, cplx(2, 4)),
    ("irfft_odd", lambda x: S.irfft(x, [7]), lambda x: np.fft.irfft(x, 7), cplx(4)),
    ("irfft_crop", lambda x: S.irfft(x, [4]), lambda x: np.fft.irfft(x, 4), cplx(2, 5)),
    ("rfft2d", S.rfft2d, np.fft.rfft2, real(2, 4, 5)),
    ("irfft2d", lambda x: S.irfft2d(x, [3, 6]), lambda x: np.fft.irfft2(x, (3, 6)), cplx(3, 4)),
    ("rfft3d", S.rfft3d, lambda x: np.fft.rfftn(x, axes=(-3, -2, -1)), real(2, 3, 4)),
    ("irfft3d", lambda x: S.irfft3d(x, [2, 2, 5]),
     lambda x: np.fft.irfftn(x, (2, 2, 5), axes=(-3, -2, -1)), cplx(2, 2, 3)),
    ("fftnd_axes", lambda z: S.fftnd(z, axes=[0, 2]), lambda z: np.fft.fftn(z, axes=(0, 2)),
     cplx(3, 2, 4)),
    ("ifftnd_length", lambda z: S.ifftnd(z, fft_length=[4], axes=[0]),
     lambda z: np.fft.ifftn(z, s=(4,), axes=(0,)), cplx(3, 2)),
    ("rfftnd", lambda x: S.rfftnd(x, axes=[-2, -1]), lambda x: np.fft.rfftn(x, axes=(-2, -1)),
     real(2, 3, 4)),
    ("irfftnd", lambda x: S.irfftnd(x, fft_length=[3, 4], axes=[0, 1]),
     lambda x: np.fft.irfftn(x, (3, 4), axes=(0, 1)), cplx(3, 3)),
    ("fftnd_ortho", lambda z: S.fftnd(z, norm="ortho"), lambda z: np.fft.fftn(z, norm="ortho"),
     cplx(3, 4)),
]


@pytest.mark.parametrize("name,fn,ref,x", CASES, ids=[c[0] for c in CASES])
def test_transform(name, fn, ref, x):
    out = fn(tf.constant(x))
    np.testing.assert_allclose(out.numpy(), ref(x), rtol=1e-10, atol=1e-12)
    check_gradient(fn, [x], RNG)
    check_second_order(fn, [x], RNG)
    check_jvp(fn, [x], RNG)


def test_dtypes_follow_tensorflow():
    x32 = tf.constant(real(8).astype(np.float32))
    assert S.rfft(x32).dtype == tf.complex64
    assert S.irfft(S.rfft(x32)).dtype == tf.float32
    assert S.fft(tf.cast(x32, tf.complex64)).dtype == tf.complex64
    assert S.rfft(tf.constant(real(8))).dtype == tf.complex128


def test_bad_input_is_refused_clearly():
    with pytest.raises(tf.errors.InvalidArgumentError, match="FFT.*complex64 or complex128"):
        S.fft(tf.constant([1.0, 2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="RFFT.*float32 or float64"):
        S.rfft(tf.constant([1 + 1j]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="fft_length must hold 2"):
        S.rfft2d(tf.constant(real(4, 4)), [4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 2"):
        S.fft2d(tf.constant(cplx(4)))
    with pytest.raises(ValueError, match="norm"):
        S.fftnd(tf.constant(cplx(4)), norm="twice")


def test_graph_mode_and_function():
    x = real(3, 8)

    @tf.function
    def power_gradient(signal):
        with tf.GradientTape() as tape:
            tape.watch(signal)
            power = tf.reduce_sum(tf.abs(S.rfft(signal)) ** 2)
        return tape.gradient(power, signal)
    # Parseval for rfft: sum |X_k|^2 weighs the bins also present as conjugates once, so the
    # gradient is checked against eager mode rather than a closed form.
    with tf.GradientTape() as tape:
        signal = tf.constant(x)
        tape.watch(signal)
        power = tf.reduce_sum(tf.abs(S.rfft(signal)) ** 2)
    np.testing.assert_allclose(power_gradient(tf.constant(x)).numpy(),
                               tape.gradient(power, signal).numpy(), rtol=1e-12)
    with tf.Graph().as_default():
        z = tf.compat.v1.placeholder(tf.complex128, [None, 4])
        y = S.ifft(S.fft(z))
        with tf.compat.v1.Session() as sess:
            value = cplx(2, 4)
            np.testing.assert_allclose(sess.run(y, {z: value}), value, atol=1e-12)


def test_stft_matches_numpy_and_inverts():
    x = real(2, 300)
    frames = np.stack([x[:, i:i + 64] for i in range(0, 300 - 64 + 1, 16)], axis=1)
    window = S.hann_window(64, dtype=tf.float64).numpy()
    want = np.fft.rfft(frames * window, 64)
    got = S.stft(tf.constant(x), 64, 16)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)
    back = S.inverse_stft(got, 64, 16, window_fn=S.inverse_stft_window_fn(16))
    np.testing.assert_allclose(back.numpy()[:, 64:200], x[:, 64:200], atol=1e-10)
    assert S.stft(tf.constant(real(100)), 50, 25).shape == (3, 33)  # fft_length 64
    check_gradient(lambda s: tf.abs(S.stft(s, 16, 8)), [real(40)], RNG)
    check_gradient(lambda z: S.inverse_stft(z, 12, 4, fft_length=16), [cplx(3, 9)], RNG)
