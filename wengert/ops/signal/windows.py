"""Window functions of `tf.signal`, as constants: raised cosines `a - b cos(2 pi n / N)` (Hann
a = b = 1/2, Hamming a = 0.54, b = 0.46; `periodic` uses N = L for even L, else N = L - 1),
Kaiser's `I0(beta sqrt(1 - (2n/(L-1) - 1)^2)) / I0(beta)`, the Kaiser-Bessel-derived window
(cumulative sums of a Kaiser window, power complementary) and Vorbis's
`sin(pi/2 sin^2(pi (n + 1/2) / L))`.
"""
import numpy as np

from ...framework import dtypes
from ...framework.tensor import constant
from ...framework.context import op_scope
from .frames import static_int

__all__ = ["hann_window", "hamming_window", "kaiser_window", "kaiser_bessel_derived_window",
           "vorbis_window"]


def window_tensor(values, dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"tf.signal windows: dtype must be floating, got {dtype.name}")
    return constant(np.asarray(values, dtype=np.float64).astype(dtype.as_numpy_dtype))


def _raised_cosine(window_length, periodic, dtype, a, b):
    length = static_int(window_length, "window_length")
    if length == 1:
        return window_tensor(np.ones(1), dtype)
    even = 1 - length % 2
    n = length + int(bool(periodic)) * even - 1
    count = np.arange(length, dtype=np.float64)
    return window_tensor(a - b * np.cos(2 * np.pi * count / n), dtype)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """Hann window `0.5 - 0.5 cos(2 pi n / N)`; `periodic` for spectral analysis."""
    with op_scope(name, "hann_window"):
        return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """Hamming window `0.54 - 0.46 cos(2 pi n / N)`; `periodic` for spectral analysis."""
    with op_scope(name, "hamming_window"):
        return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def kaiser_window(window_length, beta=12., dtype=dtypes.float32, name=None):
    """Kaiser window `I0(beta sqrt(1 - (2n/(L-1) - 1)^2)) / I0(beta)`."""
    with op_scope(name, "kaiser_window"):
        length = static_int(window_length, "window_length")
        beta = float(beta.numpy() if hasattr(beta, "numpy") else beta)
        if length == 1:
            return window_tensor(np.ones(1), dtype)
        return window_tensor(np.kaiser(length, beta), dtype)


def kaiser_bessel_derived_window(window_length, beta=12., dtype=dtypes.float32, name=None):
    """Kaiser-Bessel-derived window (even `window_length`): the square root of the running sum
    of a Kaiser window of length L/2 + 1, mirrored."""
    with op_scope(name, "kaiser_bessel_derived_window"):
        length = static_int(window_length, "window_length")
        beta = float(beta.numpy() if hasattr(beta, "numpy") else beta)
        half = length // 2
        kaiser = np.kaiser(half + 1, beta) if half + 1 > 1 else np.ones(1)
        kaiser_sum = np.cumsum(kaiser)
        half_window = np.sqrt(kaiser_sum[:-1] / kaiser_sum[-1])
        return window_tensor(np.concatenate([half_window, half_window[::-1]]), dtype)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """Vorbis power-complementary window `sin(pi/2 sin^2(pi (n + 1/2) / L))`."""
    with op_scope(name, "vorbis_window"):
        length = static_int(window_length, "window_length")
        n = np.arange(length, dtype=np.float64)
        return window_tensor(np.sin(np.pi / 2 * np.sin(np.pi * (n + 0.5) / length) ** 2), dtype)
