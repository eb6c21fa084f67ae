"""`wengert.compat.v1.spectral`: TensorFlow 1's name for the transforms of `tf.signal` (the
discrete Fourier transforms, real and complex, in one to three dimensions, and the DCT)."""
from ...ops.signal.fft import (fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d,
                               rfft, rfft2d, rfft3d)
from ...tf1.scoped_functions import dct, idct

__all__ = ["dct", "fft", "fft2d", "fft3d", "idct", "ifft", "ifft2d", "ifft3d", "irfft",
           "irfft2d", "irfft3d", "rfft", "rfft2d", "rfft3d"]
