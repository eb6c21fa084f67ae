"""Op-table rows for complex numbers (ops/complex_parts.py, complex_ops.py) and Fourier transforms
(ops/signal/fft.py).

The table's samples are real arrays, so each row builds its complex input from a real and an
imaginary part with `complex` and reads a complex result back as a real mix of its parts: the
finite-difference checks then differentiate along every real and imaginary direction, which is
what TensorFlow's convention for complex gradients (dL/dx + i dL/dy) promises. Complex inputs
proper are checked in tests/test_complex.py and tests/test_fft.py.
"""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand, rand_away

S = tf.signal


def _mix(t):
    """A real tensor from a complex one: 0.5 real + 0.7 imag (a real tensor passes through)."""
    return tf.math.real(t) * 0.5 + tf.math.imag(t) * 0.7 if t.dtype.is_complex else t


def _np_mix(z):
    return np.real(z) * 0.5 + np.imag(z) * 0.7 if np.iscomplexobj(z) else z


def _on_complex(fn):
    return lambda re, im: _mix(fn(tf.complex(re, im)))


def _np_on_complex(fn):
    return lambda re, im: _np_mix(fn(re + 1j * im))


def _pair(*shape, away=False):
    make = (lambda *s: rand_away(*s, gap=0.3)) if away else rand
    return Sample((make(*shape), make(*shape)), name="x".join(map(str, shape)) or "scalar")


def _complex_row(name, fn, ref, shapes, away=False, **fields):
    return OpInfo(name, _on_complex(fn), _np_on_complex(ref),
                  [_pair(*s, away=away) for s in shapes], **fields)


def _real_row(name, fn, ref, shapes, **fields):
    return OpInfo(name, lambda x: _mix(fn(x)), lambda x: _np_mix(ref(x)),
                  [Sample((rand(*s),), name="x".join(map(str, s))) for s in shapes], **fields)


ROWS = [
    _complex_row("complex_real_imag", lambda z: z, lambda z: z, [(), (2, 3)]),
    _complex_row("conj", tf.math.conj, np.conj, [(3,)]),
    _complex_row("complex_abs", tf.abs, np.abs, [(), (2, 3)], away=True),
    _complex_row("angle", tf.math.angle, np.angle, [(2, 3)], away=True),
    _complex_row("fft", S.fft, np.fft.fft, [(5,), (2, 4)]),
    _complex_row("ifft", S.ifft, np.fft.ifft, [(2, 5)]),
    _complex_row("fft2d", S.fft2d, np.fft.fft2, [(3, 4)]),
    _complex_row("ifft2d", S.ifft2d, np.fft.ifft2, [(2, 3, 2)]),
    _complex_row("fft3d", S.fft3d, lambda z: np.fft.fftn(z, axes=(-3, -2, -1)), [(2, 3, 2)]),
    _complex_row("ifft3d", S.ifft3d, lambda z: np.fft.ifftn(z, axes=(-3, -2, -1)), [(2, 2, 3)]),
    _complex_row("fftnd", lambda z: S.fftnd(z, axes=[0]), lambda z: np.fft.fft(z, axis=0),
                 [(3, 2)]),
    _complex_row("ifftnd", lambda z: S.ifftnd(z, fft_length=[2, 4]),
                 lambda z: np.fft.ifftn(z, s=(2, 4), axes=(0, 1)), [(3, 3)]),
    _real_row("rfft", S.rfft, np.fft.rfft, [(6,), (2, 7)]),
    _real_row("rfft_padded", lambda x: S.rfft(x, [8]), lambda x: np.fft.rfft(x, 8), [(2, 5)]),
    _real_row("rfft2d", S.rfft2d, np.fft.rfft2, [(3, 4)]),
    _real_row("rfft3d", S.rfft3d, lambda x: np.fft.rfftn(x, axes=(-3, -2, -1)), [(2, 2, 3)]),
    _real_row("rfftnd", lambda x: S.rfftnd(x, axes=[0]), lambda x: np.fft.rfft(x, axis=0),
              [(4, 2)]),
    _complex_row("irfft", S.irfft, np.fft.irfft, [(4,), (2, 3)]),
    _complex_row("irfft_odd", lambda z: S.irfft(z, [5]), lambda z: np.fft.irfft(z, 5), [(3,)]),
    _complex_row("irfft2d", lambda z: S.irfft2d(z, [3, 4]), lambda z: np.fft.irfft2(z, (3, 4)),
                 [(3, 3)]),
    _complex_row("irfft3d", lambda z: S.irfft3d(z, [2, 2, 4]),
                 lambda z: np.fft.irfftn(z, (2, 2, 4), axes=(-3, -2, -1)), [(2, 2, 3)]),
    _complex_row("irfftnd", lambda z: S.irfftnd(z, fft_length=[4], axes=[0]),
                 lambda z: np.fft.irfft(z, 4, axis=0), [(3, 2)]),
]


def _eigvals_sorted(e):
    """Eigenvalues in a fixed order (by real part) for comparing with NumPy."""
    return tf.gather(e, tf.argsort(tf.math.real(e)))


ROWS.append(OpInfo("eigvals", lambda a: _mix(_eigvals_sorted(tf.linalg.eigvals(a))),
                   lambda a: _np_mix(np.sort_complex(np.linalg.eigvals(a))),
                   [Sample((np.diag([1.0, 2.0, 4.0]) + 0.3 * rand(3, 3),), name="3x3")],
                   rtol=1e-4, atol=1e-5, notes="distinct real eigenvalues: a smooth order"))


def _np_logm(a):
    from scipy.linalg import logm
    return logm(a)


# MatrixLogarithm: complex input only and no gradient (TensorFlow registers none)
ROWS.append(OpInfo("logm", lambda re, im: _mix(tf.linalg.logm(tf.complex(re, im))),
                   lambda re, im: _np_mix(_np_logm(re + 1j * im)),
                   [Sample((np.eye(3) * 2 + 0.3 * rand(3, 3), 0.3 * rand(3, 3)), name="3x3")],
                   grad=False, grad2=False, fwd_rtol=1e-6,
                   notes="TensorFlow has no gradient for MatrixLogarithm"))
