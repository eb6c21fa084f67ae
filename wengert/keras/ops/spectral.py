"""Keras 3's Fourier transforms (`keras.ops.fft`, `fft2`, `ifft2`, `rfft`, `irfft`, `stft`,
`istft`) over wengert's tf.signal ops. Complex values travel as (real, imag) pairs of float
tensors, in and out, as Keras passes them.

fft(x)_k = sum_n x_n e^{-2 pi i k n / N} over the last axis (fft2 over the last two);
ifft2(x) = conj(fft2(conj(x))) / (H W). stft frames the signal (reflect-padded by fft_length // 2
on both sides when center=True) every `sequence_stride` samples, multiplies each frame of
`sequence_length` samples by the window (periodic "hann" or "hamming", a given array, or none)
zero-padded to fft_length in the middle, and takes its rfft; istft inverts it by overlap-add
with TensorFlow's inverse window and trims the padding (or to `length`).
"""
from ...ops.cast_ops import cast
from ...ops.complex_ops import imag, real
from ...ops.complex_parts import complex as _complex
from ...ops.creation_ops import shape as dynamic_shape
from ...ops.pad_ops import pad
from ...ops.signal.fft import fft2d, irfft as _irfft, rfft as _rfft, fft as _fft
from ...ops.signal.short_time import inverse_stft, inverse_stft_window_fn, stft as _stft
from ...ops.signal.windows import hamming_window, hann_window
from .core import convert_to_tensor

__all__ = ["fft", "fft2", "ifft2", "rfft", "irfft", "stft", "istft"]


def _complex_input(x, what):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"{what}: x must be a tuple of two tensors, the real and imaginary "
                         f"parts; got {type(x).__name__}.")
    re, im = convert_to_tensor(x[0]), convert_to_tensor(x[1])
    if re.shape != im.shape:
        raise ValueError(f"{what}: the real and imaginary parts must have the same shape; got "
                         f"{re.shape} and {im.shape}.")
    if not re.dtype.is_floating or not im.dtype.is_floating:
        raise ValueError(f"{what}: the real and imaginary parts must be float tensors; got "
                         f"{re.dtype.name} and {im.dtype.name}.")
    return _complex(re, im)


def _parts(z):
    return real(z), imag(z)


def fft(x):
    """The FFT over the last axis of (real, imag); returns (real, imag)."""
    return _parts(_fft(_complex_input(x, "fft")))


def fft2(x):
    """The 2-D FFT over the last two axes of (real, imag); returns (real, imag)."""
    return _parts(fft2d(_complex_input(x, "fft2")))


def ifft2(x):
    """The inverse 2-D FFT over the last two axes of (real, imag); returns (real, imag)."""
    re, im = convert_to_tensor(x[0]), convert_to_tensor(x[1])
    size = dynamic_shape(re)
    scale = cast(size[-2], re.dtype) * cast(size[-1], re.dtype)
    out_re, out_im = fft2((re, -im))
    return out_re / scale, -out_im / scale


def rfft(x, fft_length=None):
    """The FFT of a real signal over its last axis, non-negative frequencies; (real, imag)."""
    lengths = None if fft_length is None else [fft_length]
    return _parts(_rfft(convert_to_tensor(x), fft_length=lengths))


def irfft(x, fft_length=None):
    """The real signal whose rfft is (real, imag)."""
    lengths = None if fft_length is None else [fft_length]
    return _irfft(_complex_input(x, "irfft"), fft_length=lengths)


def _window(window, sequence_length, fft_length, dtype, what):
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(f"{what}: a window given by name must be 'hann' or 'hamming'; got "
                             f"{window!r}.")
        make = hann_window if window == "hann" else hamming_window
        values = make(sequence_length, periodic=True, dtype=dtype)
    else:
        values = convert_to_tensor(window, dtype=dtype)
    if values.shape.rank != 1 or values.shape[0] != sequence_length:
        raise ValueError(f"{what}: the window must have shape [sequence_length] = "
                         f"[{sequence_length}]; got {values.shape}.")
    left = (fft_length - sequence_length) // 2
    return pad(values, [[left, fft_length - sequence_length - left]])


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform over the last axis, as (real, imag) of shape
    [..., frames, fft_length // 2 + 1]."""
    x = convert_to_tensor(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"stft: the input must be float32 or float64; got {x.dtype.name}.")
    if fft_length < sequence_length:
        raise ValueError(f"stft: fft_length ({fft_length}) must be at least sequence_length "
                         f"({sequence_length}).")
    win = _window(window, sequence_length, fft_length, x.dtype, "stft")
    if center:
        half = fft_length // 2
        x = pad(x, [[0, 0]] * (x.shape.rank - 1) + [[half, half]], mode="REFLECT")
    window_fn = None if win is None else (lambda length, dtype: win)
    return _parts(_stft(x, fft_length, sequence_stride, fft_length=fft_length,
                        window_fn=window_fn))


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann",
          center=True):
    """The signal whose stft is x = (real, imag), trimmed of stft's centre padding (or to
    `length` samples)."""
    z = _complex_input(x, "istft")
    win = _window(window, sequence_length, fft_length, real(z).dtype, "istft")
    window_fn = (None if win is None else
                 inverse_stft_window_fn(sequence_stride, lambda length, dtype: win))
    signal = inverse_stft(z, fft_length, sequence_stride, fft_length=fft_length,
                          window_fn=window_fn)
    start = fft_length // 2 if center else 0
    if length is not None:
        return signal[..., start:start + length]
    if center:
        return signal[..., start:-(fft_length // 2)]
    frames = dynamic_shape(z)[-2]
    return signal[..., :fft_length + sequence_stride * (frames - 1)]
