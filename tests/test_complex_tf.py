"""Complex gradients against TensorFlow 2.21's, where TensorFlow is installed (skips without it).

Each case mixes the real and imaginary parts of a complex result into a real output, so that
TensorFlow's and wengert's gradients with respect to complex inputs (TensorFlow's convention,
dL/dx + i dL/dy) are compared in both parts.
"""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(7)


def _z(*shape, shift=0.0):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape) + shift


def _mixed(expr):
    return f"tf.math.real(({expr}) * (0.5 - 1.5j)) + 0.7 * tf.math.imag({expr})"


def _mix(t):
    return tf.math.real(t * (0.5 - 1.5j)) + 0.7 * tf.math.imag(t)


UNARY = {
    "exp": (tf.exp, "tf.exp(x0)", 0.0), "log": (tf.math.log, "tf.math.log(x0)", 2.0),
    "sqrt": (tf.sqrt, "tf.sqrt(x0)", 2.0), "rsqrt": (tf.math.rsqrt, "tf.math.rsqrt(x0)", 2.0),
    "reciprocal": (tf.math.reciprocal, "tf.math.reciprocal(x0)", 2.0),
    "square": (tf.square, "tf.square(x0)", 0.0), "sin": (tf.sin, "tf.sin(x0)", 0.0),
    "cos": (tf.cos, "tf.cos(x0)", 0.0), "tanh": (tf.tanh, "tf.tanh(x0)", 0.0),
    "sinh": (tf.sinh, "tf.sinh(x0)", 0.0), "conj": (tf.math.conj, "tf.math.conj(x0)", 0.0),
    "expm1": (tf.math.expm1, "tf.math.expm1(x0)", 0.0),
    "log1p": (tf.math.log1p, "tf.math.log1p(x0)", 2.0),
}
CASES = [TFCase(f"{name}", _mixed(expr), lambda x, f=f: _mix(f(x)), [_z(2, 3, shift=shift)],
                wrt=[0]) for name, (f, expr, shift) in UNARY.items()]
CASES += [
    TFCase("abs", "tf.abs(x0)", tf.abs, [_z(2, 3)], wrt=[0]),
    TFCase("angle", "tf.math.angle(x0)", tf.math.angle, [_z(2, 3)], wrt=[0]),
    TFCase("real_imag", "tf.math.real(x0) * 2.0 - tf.math.imag(x0)",
           lambda x: tf.math.real(x) * 2.0 - tf.math.imag(x), [_z(4)], wrt=[0]),
    TFCase("complex", _mixed("tf.complex(x0, x1) ** 2"), lambda a, b: _mix(tf.complex(a, b) ** 2),
           [RNG.standard_normal(3), RNG.standard_normal(3)], wrt=[0, 1]),
    TFCase("mul_div", _mixed("x0 * x1 / (x0 + 3.0)"), lambda a, b: _mix(a * b / (a + 3.0)),
           [_z(3, 2), _z(2)], wrt=[0, 1]),
    TFCase("pow", _mixed("tf.pow(x0, x1)"), lambda a, b: _mix(tf.pow(a, b)),
           [_z(3, shift=2.0), _z(3)], wrt=[0, 1]),
    TFCase("matmul", _mixed("tf.matmul(x0, x1, adjoint_b=True)"),
           lambda a, b: _mix(tf.matmul(a, b, adjoint_b=True)), [_z(2, 3), _z(4, 3)], wrt=[0, 1]),
    TFCase("batch_matmul", _mixed("tf.matmul(x0, x1, adjoint_a=True)"),
           lambda a, b: _mix(tf.matmul(a, b, adjoint_a=True)), [_z(2, 3, 2), _z(2, 3, 4)],
           wrt=[0, 1]),
    TFCase("einsum", _mixed("tf.einsum('ij,jk->ik', x0, x1)"),
           lambda a, b: _mix(tf.einsum("ij,jk->ik", a, b)), [_z(2, 3), _z(3, 2)], wrt=[0, 1]),
    TFCase("reduce_mean", _mixed("tf.reduce_mean(x0, axis=1)"),
           lambda a: _mix(tf.reduce_mean(a, axis=1)), [_z(2, 5)], wrt=[0]),
    TFCase("cast", "tf.cast(x0, tf.float64) + tf.math.imag(tf.cast(x1, tf.complex128) * 1j)",
           lambda a, b: tf.cast(a, tf.float64) + tf.math.imag(tf.cast(b, tf.complex128) * 1j),
           [_z(3), RNG.standard_normal(3)], wrt=[0, 1]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-9, atol=1e-10)


FFT_CASES = [
    TFCase("fft", _mixed("tf.signal.fft(x0)"), lambda z: _mix(tf.signal.fft(z)), [_z(2, 5)],
           wrt=[0]),
    TFCase("ifft2d", _mixed("tf.signal.ifft2d(x0)"), lambda z: _mix(tf.signal.ifft2d(z)),
           [_z(3, 4)], wrt=[0]),
    TFCase("fft3d", _mixed("tf.signal.fft3d(x0)"), lambda z: _mix(tf.signal.fft3d(z)),
           [_z(2, 2, 3)], wrt=[0]),
    TFCase("rfft", _mixed("tf.signal.rfft(x0, [8])"), lambda x: _mix(tf.signal.rfft(x, [8])),
           [RNG.standard_normal((2, 6))], wrt=[0]),
    # TensorFlow's own RFFT gradient fails when fft_length crops the input ("Incompatible
    # shapes: [5] vs. [7]"): the forward value only (test_fft.py checks the gradient)
    TFCase("rfft_crop", _mixed("tf.signal.rfft(x0, [5])"), lambda x: _mix(tf.signal.rfft(x, [5])),
           [RNG.standard_normal(7)]),
    TFCase("irfft", "tf.signal.irfft(x0, [6])", lambda z: tf.signal.irfft(z, [6]), [_z(2, 4)],
           wrt=[0]),
    TFCase("irfft_odd", "tf.signal.irfft(x0, [7])", lambda z: tf.signal.irfft(z, [7]), [_z(4)],
           wrt=[0]),
    TFCase("rfft2d", _mixed("tf.signal.rfft2d(x0)"), lambda x: _mix(tf.signal.rfft2d(x)),
           [RNG.standard_normal((3, 5))], wrt=[0]),
    TFCase("irfft2d", "tf.signal.irfft2d(x0, [4, 4])", lambda z: tf.signal.irfft2d(z, [4, 4]),
           [_z(4, 3)], wrt=[0]),
    # TensorFlow registers no gradient for IRFFT3D; its FFTND family has no CPU kernel
    # (test_fft.py checks both against NumPy and finite differences)
    TFCase("irfft3d", "tf.signal.irfft3d(x0)", lambda z: tf.signal.irfft3d(z), [_z(2, 2, 3)]),
    TFCase("stft", _mixed("tf.signal.stft(x0, 16, 8)"), lambda x: _mix(tf.signal.stft(x, 16, 8)),
           [RNG.standard_normal(64)], wrt=[0]),
    TFCase("inverse_stft", "tf.signal.inverse_stft(x0, 12, 4, 16)",
           lambda z: tf.signal.inverse_stft(z, 12, 4, 16), [_z(5, 9)], wrt=[0]),
]


@pytest.fixture(scope="module")
def tf_fft_results():
    return run_tf_or_skip(FFT_CASES)


@pytest.mark.parametrize("case", FFT_CASES, ids=repr)
def test_fft_matches_tensorflow(case, tf_fft_results):
    check(case, tf_fft_results[case.name], rtol=1e-8, atol=1e-9)
