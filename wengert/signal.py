"""`tf.signal`: Fourier transforms (ops/signal/fft.py), the short-time Fourier transform, framing,
overlap-add, windows, spectral shifts and mel weights, as TensorFlow 2 computes them.

`stft` frames the signal, multiplies each frame by the window and takes its rfft; `inverse_stft`
takes the irfft of each frame, crops or pads it to frame_length, windows it and overlap-adds:
with `inverse_stft_window_fn` as the synthesis window the pair reconstructs the signal.

Framing (`frame`) cuts a signal into windows of `frame_length` samples whose starts lie
`frame_step` apart: it is a gather with the index grid `start_i + j`, so its gradient is the
scatter-add of the frames' gradients back onto the samples. `overlap_and_add` is the transpose:
each frame is placed at `i * frame_step` and overlapping samples are summed, written here as a
product with the 0/1 placement matrix, so its gradient is the matching gather. `fftshift` rolls
each axis by half its length (`ifftshift` by minus half) so the zero frequency moves to the centre.
The windows are constants: raised cosines `a - b cos(2 pi n / N)` (Hann a = b = 1/2, Hamming
a = 0.54, b = 0.46; `periodic` uses N = L for even L, else N = L - 1), Kaiser's
`I0(beta sqrt(1 - (2n/(L-1) - 1)^2)) / I0(beta)` and Vorbis's `sin(pi/2 sin^2(pi (n + 1/2) / L))`.
`linear_to_mel_weight_matrix` holds triangular filters equally spaced on the mel scale
`1127 ln(1 + f / 700)`, as TensorFlow builds them (the DC bin gets no weight). The MDCT folds each
windowed frame of quarters [a, b, c, d] into [-rev(c) - d, a - rev(b)] and takes its type-4 DCT;
the inverse unfolds and overlap-adds, so with a power-complementary window (Vorbis, KBD) the
two invert each other. DCTs and MFCCs are in ops/signal/dct.py.
"""
import numpy as np

from .framework import dtypes as _dtypes
from .framework.tensor import constant as _constant, convert_to_tensor as _to_tensor
from .ops.reshape_ops import reshape as _reshape
from .ops.pad_ops import pad as _pad
from .ops.indexing_ops import gather as _gather
from .ops.manip_ops import roll as _roll
from .ops.matmul_ops import matmul as _matmul
from .ops.array_ops import concat as _concat
from .ops.creation_ops import tile as _tile
from .ops.reduce_ops import reduce_sum as _reduce_sum
from .ops.indexing_ops import reverse as _reverse
from .ops.signal.dct import dct, idct, mfccs_from_log_mel_spectrograms  # noqa: F401
from .ops.signal.fft import (fft, fft2d, fft3d, fft_n as fftnd, ifft, ifft2d, ifft3d,  # noqa: F401
                          ifft_n as ifftnd, irfft, irfft2d, irfft3d, irfft_n as irfftnd, rfft,
                          rfft2d, rfft3d, rfft_n as rfftnd)

__all__ = ["frame", "overlap_and_add", "hann_window", "hamming_window", "kaiser_window",
           "kaiser_bessel_derived_window", "vorbis_window", "fftshift", "ifftshift",
           "linear_to_mel_weight_matrix", "dct", "idct", "mfccs_from_log_mel_spectrograms",
           "mdct", "inverse_mdct", "inverse_stft_window_fn", "fft", "ifft", "fft2d", "ifft2d",
           "fft3d", "ifft3d", "fftnd", "ifftnd", "rfft", "irfft", "rfft2d", "irfft2d", "rfft3d",
           "irfft3d", "rfftnd", "irfftnd", "stft", "inverse_stft"]


# ---- framing, windows, shifts, mel weights (no complex numbers needed) -------------------------

def _static_int(value, what):
    if hasattr(value, "numpy"):
        value = value.numpy()
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"tf.signal: {what} must be a Python or constant integer, got {value!r}; "
                         "sizes known only when a graph runs are not supported here") from None


def _known_shape(x, what):
    shape = x.shape
    if shape.rank is None or any(d is None for d in shape.as_list()):
        raise ValueError(f"tf.signal.{what}: needs a fully known shape, got {shape}")
    return shape.as_list()


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Expands `signal`'s `axis` into frames of `frame_length` samples, `frame_step` apart:
    shape `[..., num_frames, frame_length, ...]`. With `pad_end`, the end is padded with
    `pad_value` to give ceil(samples / frame_step) frames."""
    signal = _to_tensor(signal)
    frame_length = _static_int(frame_length, "frame_length")
    frame_step = _static_int(frame_step, "frame_step")
    shape = _known_shape(signal, "frame")
    if not shape:
        raise ValueError(f"tf.signal.frame: signal must have rank >= 1, got shape {shape}")
    if frame_length < 0 or frame_step <= 0:
        raise ValueError(f"tf.signal.frame: need frame_length >= 0 and frame_step > 0, got "
                         f"{frame_length} and {frame_step}")
    axis = _static_int(axis, "axis")
    axis = axis + len(shape) if axis < 0 else axis
    length = shape[axis]
    if pad_end:
        num_frames = -(-length // frame_step)
        extra = max(0, frame_length + frame_step * (num_frames - 1) - length)
        if extra:
            paddings = [[0, 0]] * len(shape)
            paddings[axis] = [0, extra]
            signal = _pad(signal, paddings, constant_values=pad_value)
    else:
        num_frames = max(0, 1 + (length - frame_length) // frame_step)
    index = (np.arange(num_frames)[:, None] * frame_step
             + np.arange(frame_length)[None, :]).astype(np.int64)
    return _gather(signal, _constant(index), axis=axis)


def overlap_and_add(signal, frame_step, name=None):
    """Sums frames `[..., frames, frame_length]` placed `frame_step` apart:
    `[..., (frames - 1) * frame_step + frame_length]`."""
    signal = _to_tensor(signal)
    frame_step = _static_int(frame_step, "frame_step")
    shape = _known_shape(signal, "overlap_and_add")
    if len(shape) < 2:
        raise ValueError(f"tf.signal.overlap_and_add: signal must have rank >= 2, got {shape}")
    if frame_step <= 0:
        raise ValueError(f"tf.signal.overlap_and_add: frame_step must be > 0, got {frame_step}")
    frames, frame_length = shape[-2], shape[-1]
    out_length = max(0, (frames - 1) * frame_step + frame_length) if frames else 0
    placement = np.zeros((frames * frame_length, out_length),
                         dtype=signal.dtype.as_numpy_dtype)
    rows = np.arange(frames * frame_length)
    placement[rows, (rows // max(frame_length, 1)) * frame_step + rows % max(frame_length, 1)] = 1
    flat = _reshape(signal, [-1, frames * frame_length])
    return _reshape(_matmul(flat, _constant(placement)), shape[:-2] + [out_length])


def _window(values, dtype):
    dtype = _dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"tf.signal windows: dtype must be floating, got {dtype.name}")
    return _constant(np.asarray(values, dtype=np.float64).astype(dtype.as_numpy_dtype))


def _raised_cosine(window_length, periodic, dtype, a, b):
    length = _static_int(window_length, "window_length")
    if length == 1:
        return _window(np.ones(1), dtype)
    even = 1 - length % 2
    n = length + int(bool(periodic)) * even - 1
    count = np.arange(length, dtype=np.float64)
    return _window(a - b * np.cos(2 * np.pi * count / n), dtype)


def hann_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
    """Hann window `0.5 - 0.5 cos(2 pi n / N)`; `periodic` for spectral analysis."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
    """Hamming window `0.54 - 0.46 cos(2 pi n / N)`; `periodic` for spectral analysis."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def kaiser_window(window_length, beta=12., dtype=_dtypes.float32, name=None):
    """Kaiser window `I0(beta sqrt(1 - (2n/(L-1) - 1)^2)) / I0(beta)`."""
    length = _static_int(window_length, "window_length")
    beta = float(beta.numpy() if hasattr(beta, "numpy") else beta)
    if length == 1:
        return _window(np.ones(1), dtype)
    return _window(np.kaiser(length, beta), dtype)


def kaiser_bessel_derived_window(window_length, beta=12., dtype=_dtypes.float32, name=None):
    """Kaiser-Bessel-derived window (even `window_length`): the square root of the running sum
    of a Kaiser window of length L/2 + 1, mirrored."""
    length = _static_int(window_length, "window_length")
    beta = float(beta.numpy() if hasattr(beta, "numpy") else beta)
    half = length // 2
    kaiser = np.kaiser(half + 1, beta) if half + 1 > 1 else np.ones(1)
    kaiser_sum = np.cumsum(kaiser)
    half_window = np.sqrt(kaiser_sum[:-1] / kaiser_sum[-1])
    return _window(np.concatenate([half_window, half_window[::-1]]), dtype)


def vorbis_window(window_length, dtype=_dtypes.float32, name=None):
    """Vorbis power-complementary window `sin(pi/2 sin^2(pi (n + 1/2) / L))`."""
    length = _static_int(window_length, "window_length")
    n = np.arange(length, dtype=np.float64)
    return _window(np.sin(np.pi / 2 * np.sin(np.pi * (n + 0.5) / length) ** 2), dtype)


def _shift(x, axes, sign, what):
    x = _to_tensor(x)
    shape = _known_shape(x, what)
    if axes is None:
        axes = list(range(len(shape)))
    elif isinstance(axes, (int, np.integer)):
        axes = [int(axes)]
    axes = [int(a) for a in axes]
    if not axes:
        return x
    shifts = [sign * (shape[a] // 2) for a in axes]
    return _roll(x, shifts, axes)


def fftshift(x, axes=None, name=None):
    """Moves the zero-frequency term to the centre: rolls each of `axes` by `n // 2`."""
    return _shift(x, axes, 1, "fftshift")


def ifftshift(x, axes=None, name=None):
    """Inverse of `fftshift`: rolls each of `axes` by `-(n // 2)`."""
    return _shift(x, axes, -1, "ifftshift")


def _hertz_to_mel(frequencies):
    return 1127.0 * np.log(1.0 + frequencies / 700.0)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=_dtypes.float32, name=None):
    """`[num_spectrogram_bins, num_mel_bins]` triangular mel filters (rows: linear bins)."""
    num_mel_bins = _static_int(num_mel_bins, "num_mel_bins")
    num_spectrogram_bins = _static_int(num_spectrogram_bins, "num_spectrogram_bins")
    sample_rate = float(_static_int(sample_rate, "sample_rate")) if not isinstance(
        sample_rate, float) else sample_rate
    lower, upper = float(lower_edge_hertz), float(upper_edge_hertz)
    if num_mel_bins <= 0 or num_spectrogram_bins <= 0 or sample_rate <= 0:
        raise ValueError("tf.signal.linear_to_mel_weight_matrix: num_mel_bins, "
                         "num_spectrogram_bins and sample_rate must be positive")
    if not 0 <= lower < upper or upper > sample_rate / 2:
        raise ValueError("tf.signal.linear_to_mel_weight_matrix: need 0 <= lower_edge_hertz < "
                         f"upper_edge_hertz <= sample_rate / 2, got {lower}, {upper}, "
                         f"{sample_rate}")
    np_dtype = _dtypes.as_dtype(dtype).as_numpy_dtype
    nyquist = sample_rate / 2.0
    linear = np.linspace(0.0, nyquist, num_spectrogram_bins).astype(np_dtype)[1:]
    bins_mel = _hertz_to_mel(linear)[:, None]
    edges = np.linspace(_hertz_to_mel(np.asarray(lower, np_dtype)),
                        _hertz_to_mel(np.asarray(upper, np_dtype)),
                        num_mel_bins + 2).astype(np_dtype)
    low, centre, high = edges[:-2][None], edges[1:-1][None], edges[2:][None]
    lower_slopes = (bins_mel - low) / (centre - low)
    upper_slopes = (high - bins_mel) / (high - centre)
    weights = np.maximum(0, np.minimum(lower_slopes, upper_slopes))
    return _window(np.pad(weights, [[1, 0], [0, 0]]).astype(np_dtype), dtype)


_VORBIS = object()  # window_fn left out: the Vorbis window


def _quarters_or_halves(x, parts):
    size = x.shape.as_list()[-1] // parts
    return [x[..., i * size:(i + 1) * size] for i in range(parts)]


def mdct(signals, frame_length, window_fn=_VORBIS, pad_end=False, norm=None, name=None):
    """Modified DCT of frames `frame_length` long (a multiple of 4), half a frame apart: each
    windowed frame `[a, b, c, d]` (quarters) becomes `[-c' - d, a - b']` (' reversed) and goes
    through a type-4 DCT; `window_fn=None` scales by 1/sqrt(2) instead of windowing."""
    window_fn = vorbis_window if window_fn is _VORBIS else window_fn
    frame_length = int(frame_length)
    if frame_length % 4 != 0:
        raise ValueError(f"tf.signal.mdct: frame_length must be a multiple of 4, got "
                         f"{frame_length}")
    frames = frame(signals, frame_length, frame_length // 2, pad_end=pad_end)
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=frames.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2.0))
    a, b, c, d = _quarters_or_halves(frames, 4)
    rearranged = _concat([-_reverse(c, [-1]) - d, a - _reverse(b, [-1])], axis=-1)
    return dct(rearranged, type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=_VORBIS, norm=None, name=None):
    """Inverse of `mdct`: a type-4 inverse DCT, unfolded to full frames, windowed (or scaled by
    1/sqrt(2)) and overlap-added half a frame apart (scaled by 1/(2 half_len) when norm=None)."""
    window_fn = vorbis_window if window_fn is _VORBIS else window_fn
    mdcts = _to_tensor(mdcts)
    half_len = mdcts.shape.as_list()[-1]
    first, second = _quarters_or_halves(idct(mdcts, type=4, norm=norm), 2)
    frames = _concat([second, -_reverse(second, [-1]), -_reverse(first, [-1]), -first], axis=-1)
    if norm is None:
        frames = frames * (1.0 / (2.0 * half_len))
    if window_fn is not None:
        frames = frames * window_fn(2 * half_len, dtype=mdcts.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2.0))
    return overlap_and_add(frames, half_len)


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window function for `inverse_stft`: the forward window divided by the sum of the
    squared forward windows overlapping each sample (frames `frame_step` apart), so that
    analysis followed by synthesis reconstructs the signal."""
    frame_step = _static_int(frame_step, "frame_step")

    def inverse_window(frame_length, dtype):
        frame_length = _static_int(frame_length, "frame_length")
        forward = _to_tensor(forward_window_fn(frame_length, dtype=dtype))
        overlaps = -(-frame_length // frame_step)
        squares = _pad(forward * forward, [[0, overlaps * frame_step - frame_length]])
        summed = _reduce_sum(_reshape(squares, [overlaps, frame_step]), 0, keepdims=True)
        denominator = _reshape(_tile(summed, [overlaps, 1]), [overlaps * frame_step])
        return forward / denominator[:frame_length]
    return inverse_window


# ---- Fourier transforms (ops/signal/fft.py) and the short-time Fourier transform ---------------------
def _enclosing_power_of_two(n):
    return 1 << max(int(n) - 1, 0).bit_length()


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """The short-time Fourier transform: rfft of each windowed frame, [..., frames,
    fft_length // 2 + 1]; fft_length defaults to the smallest power of 2 >= frame_length."""
    signals = _to_tensor(signals)
    frame_length = _static_int(frame_length, "frame_length")
    fft_length = (_enclosing_power_of_two(frame_length) if fft_length is None
                  else _static_int(fft_length, "fft_length"))
    frames = frame(signals, frame_length, _static_int(frame_step, "frame_step"), pad_end=pad_end)
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=frames.dtype)
    return rfft(frames, [fft_length])


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """The signal whose stft is `stfts`: irfft of each frame, cropped or zero-padded to
    frame_length, windowed by window_fn, overlap-added (use inverse_stft_window_fn(frame_step)
    to invert stft exactly)."""
    stfts = _to_tensor(stfts)
    frame_length = _static_int(frame_length, "frame_length")
    fft_length = (_enclosing_power_of_two(frame_length) if fft_length is None
                  else _static_int(fft_length, "fft_length"))
    frames = irfft(stfts, [fft_length])
    if fft_length > frame_length:
        frames = frames[..., :frame_length]
    elif fft_length < frame_length:
        rank = len(frames.shape.as_list())
        frames = _pad(frames, [[0, 0]] * (rank - 1) + [[0, frame_length - fft_length]])
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=stfts.dtype.real_dtype)
    return overlap_and_add(frames, _static_int(frame_step, "frame_step"))

