"""The audio layers: STFTSpectrogram (a short-time Fourier transform as a strided convolution
with trainable Fourier kernels) and MelSpectrogram (a mel-scaled power spectrogram in decibels).

STFTSpectrogram: an input [batch, time, channels] (channels_last) is cut into frames of
`frame_length` samples every `frame_step` by a 1-D convolution of each channel with two kernels
[frame_length, 1, F], F = fft_length // 2 + 1:

    real[t, k] = cos(-2 pi t k / (2 (F - 1))) w[t] / s,   imag[t, k] = sin(...) w[t] / s

with w the window ("hann" or "hamming", symmetric unless `periodic`, an array, or None) and s
its L2 norm (scaling="density"), L1 norm ("spectrum") or 1 (None). The kernels are weights
(`real_kernel`, `imag_kernel`; trainable with the layer, as in Keras). mode picks the output:
"real", "imag", "angle" = atan2(imag, real), "stft" = both stacked on the frequency axis,
"psd" = re^2 + im^2 with the interior bins doubled, "magnitude" = sqrt(max(power, 1e-7)),
"log" = log(max(magnitude, 1e-7)). Outputs are [batch, frames, channels * F] (or, with
expand_dims, [batch, frames, F, channels]); channels_first swaps the two axes around.

MelSpectrogram: for signals [batch, time] (or [time]), keras.ops.stft (periodic hann window of
`sequence_length`, centred by reflection padding, `fft_length`, `sequence_stride`) gives the
magnitude |X|, raised to `mag_exp`; the triangular mel filters of tf.signal's
linear_to_mel_weight_matrix (computed in float32, as Keras does) map it to `num_mel_bins`
between min_freq and max_freq; with power_to_db it becomes
10 log10(max(x, min_power)) - 10 log10(max(|ref_power|, min_power)), floored at the largest
value of the whole batch minus top_db. The output is [batch, num_mel_bins, frames].
Gradients of both come from the composed ops (conv1d, square, sqrt, log, atan2, rfft,
tensordot, maximum).
"""
import math
import warnings

import numpy as np

from ...framework.tensor_shape import TensorShape
from ...ops.nn.conv.conv2d import conv1d
from ...ops.signal.mel import linear_to_mel_weight_matrix
from ...ops.signal.windows import hamming_window, hann_window
from ...ops.trig_ops import atan2
from .. import backend_ops as K
from ..initializers import Initializer
from ..ops.spectral import stft
from .base import Layer
from .conv_arithmetic import output_length

__all__ = ["STFTSpectrogram", "MelSpectrogram"]

_EPSILON = 1e-7
_MODES = ("log", "magnitude", "psd", "real", "imag", "angle", "stft")
_WINDOWS = {"hann": hann_window, "hamming": hamming_window}


def _window_values(window, length, periodic, dtype):
    if isinstance(window, str):
        return _WINDOWS[window](length, periodic=periodic, dtype=dtype)
    values = K.convert_to_tensor(np.asarray(window), dtype=dtype)
    if values.shape.rank != 1 or values.shape[0] != length:
        raise ValueError("The shape of `window` must be equal to [frame_length]. Received: "
                         f"window shape={values.shape}")
    return values


class _FourierKernel(Initializer):
    """The real or imaginary STFT kernel [frame_length, 1, F], windowed and scaled."""

    def __init__(self, side, window, scaling, periodic):
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape, dtype=None):
        frame_length, _, bins = shape
        dtype = dtype or "float32"
        time = K.reshape(K.cast(K.range(frame_length), dtype), [frame_length, 1, 1])
        freq = K.reshape(K.cast(K.range(bins), dtype), [1, 1, bins]) / float((bins - 1) * 2)
        args = time * freq * K.constant(-2.0 * math.pi, dtype)
        kernel = K.cos(args) if self.side == "real" else K.sin(args)
        if self.window is None:
            return kernel
        win = K.reshape(_window_values(self.window, frame_length, self.periodic, dtype),
                        [frame_length, 1, 1])
        scale = 1.0
        if self.scaling == "density":
            scale = K.sqrt(K.reduce_sum(K.square(win)))
        elif self.scaling == "spectrum":
            scale = K.reduce_sum(K.abs(win))
        return kernel * win / scale

    def get_config(self):
        return {"side": self.side, "window": self.window, "scaling": self.scaling,
                "periodic": self.periodic}


def _check_stft_arguments(mode, frame_length, frame_step, fft_length, window, scaling,
                          padding, data_format):
    if frame_step is not None and (frame_step > frame_length or frame_step < 1):
        raise ValueError("`frame_step` should be a positive integer not greater than "
                         f"`frame_length`. Received frame_step={frame_step}, "
                         f"frame_length={frame_length}")
    if fft_length is not None and fft_length < frame_length:
        raise ValueError("`fft_length` should be not less than `frame_length`. Received "
                         f"fft_length={fft_length}, frame_length={frame_length}")
    if fft_length is not None and fft_length & -fft_length != fft_length:
        warnings.warn(f"`fft_length` is recommended to be a power of two. Received "
                      f"fft_length={fft_length}", stacklevel=3)
    if mode not in _MODES:
        raise ValueError(f"Output mode is invalid, it must be one of {', '.join(_MODES)}. "
                         f"Received: mode={mode}")
    if scaling is not None and scaling not in ("density", "spectrum"):
        raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                         f"Received scaling={scaling}")
    if padding not in ("valid", "same"):
        raise ValueError(f"Padding is invalid, it should be 'valid', 'same'. Received: "
                         f"padding={padding}")
    if isinstance(window, str) and window not in _WINDOWS:
        raise ValueError(f"STFTSpectrogram: the window {window!r} is not available here; use "
                         "'hann', 'hamming', an array of frame_length values, or None.")
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of 'channels_first', "
                         f"'channels_last'. Received: data_format={data_format}")


class STFTSpectrogram(Layer):
    """Short-time Fourier transform of multichannel signals by convolution."""

    def __init__(self, mode="log", frame_length=256, frame_step=None, fft_length=None,
                 window="hann", periodic=False, scaling="density", padding="valid",
                 expand_dims=False, data_format=None, **kwargs):
        data_format = data_format or "channels_last"
        _check_stft_arguments(mode, frame_length, frame_step, fft_length, window, scaling,
                              padding, data_format)
        super().__init__(**kwargs)
        self.mode, self.frame_length, self.frame_step = mode, frame_length, frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))
        self.window, self.periodic, self.scaling = window, periodic, scaling
        self.padding, self.expand_dims, self.data_format = padding, expand_dims, data_format

    def build(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        if len(shape) != 3:
            raise ValueError(f"Input 0 of layer {self.name!r} is incompatible with the layer: "
                             f"expected ndim=3, found ndim={len(shape)}. Full shape received: "
                             f"{shape}")
        kernel_shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        args = (self.window, self.scaling, self.periodic)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(name="real_kernel", shape=kernel_shape,
                                               initializer=_FourierKernel("real", *args))
        if self.mode != "real":
            self.imag_kernel = self.add_weight(name="imag_kernel", shape=kernel_shape,
                                               initializer=_FourierKernel("imag", *args))
        self.built = True

    def _convolve(self, inputs, kernel):
        """[batch, time, channels] (or channels_first) -> [batch, channels, F, frames]."""
        x = K.transpose(inputs, [0, 2, 1]) if self.data_format == "channels_last" else inputs
        dims = K.shape(x)
        frames = conv1d(K.reshape(x, [-1, dims[2], 1]), K.cast(kernel, inputs.dtype),
                        self._frame_step, self.padding.upper())
        out = K.transpose(frames, [0, 2, 1])
        return K.reshape(out, K.concat([dims[:2], K.shape(out)[1:]], 0))

    def _arrange(self, x):
        """[batch, channels, F, frames] -> the layer's output layout."""
        if self.expand_dims:
            order = [0, 3, 2, 1] if self.data_format == "channels_last" else [0, 1, 3, 2]
            return K.transpose(x, order)
        dims = K.shape(x)
        flat = K.reshape(x, K.stack([dims[0], dims[1] * dims[2], dims[3]]))
        return K.transpose(flat, [0, 2, 1]) if self.data_format == "channels_last" else flat

    def call(self, inputs):
        if inputs.dtype.name not in ("float16", "float32", "float64"):
            raise TypeError("Invalid input type. Expected `float16`, `float32` or `float64`. "
                            f"Received: input type={inputs.dtype.name}")
        re = self._convolve(inputs, self.real_kernel) if self.mode != "imag" else None
        im = self._convolve(inputs, self.imag_kernel) if self.mode != "real" else None
        if self.mode in ("real", "imag"):
            return self._arrange(re if self.mode == "real" else im)
        if self.mode == "angle":
            return self._arrange(atan2(im, re))
        if self.mode == "stft":
            return self._arrange(K.concat([re, im], 2))
        power = K.square(re) + K.square(im)
        if self.mode == "psd":
            return self._arrange(power + K.pad(power[:, :, 1:-1, :],
                                               [[0, 0], [0, 0], [1, 1], [0, 0]]))
        eps = K.constant(_EPSILON, power.dtype)
        magnitude = self._arrange(K.sqrt(K.maximum(power, eps)))
        if self.mode == "magnitude":
            return magnitude
        return K.log(K.maximum(magnitude, eps))

    def compute_output_shape(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        last = self.data_format == "channels_last"
        channels, time = (shape[2], shape[1]) if last else (shape[1], shape[2])
        bins = (self._fft_length // 2 + 1) * (2 if self.mode == "stft" else 1)
        frames = output_length(time, self.frame_length, self.padding, self._frame_step)
        if self.expand_dims:
            return TensorShape((shape[0], frames, bins, channels) if last else
                               (shape[0], channels, frames, bins))
        flat = None if channels is None else channels * bins
        return TensorShape((shape[0], frames, flat) if last else (shape[0], flat, frames))

    def get_config(self):
        config = super().get_config()
        config.update(mode=self.mode, frame_length=self.frame_length,
                      frame_step=self.frame_step, fft_length=self.fft_length,
                      window=self.window, periodic=self.periodic, scaling=self.scaling,
                      padding=self.padding, data_format=self.data_format,
                      expand_dims=self.expand_dims)
        return config


class MelSpectrogram(Layer):
    """Mel-scaled power spectrogram of audio signals, in decibels by default."""

    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None,
                 window="hann", sampling_rate=16000, num_mel_bins=128, min_freq=20.0,
                 max_freq=None, power_to_db=True, top_db=80.0, mag_exp=2.0, min_power=1e-10,
                 ref_power=1.0, **kwargs):
        self.fft_length, self.sequence_stride = fft_length, sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError("`fft_length` must be greater than or equal to `sequence_length`. "
                             f"Received: `sequence_length`={self.sequence_length}, "
                             f"`fft_length`={self.fft_length}.")
        if isinstance(window, str) and window not in _WINDOWS:
            raise ValueError(f"MelSpectrogram: the window {window!r} is not available; use "
                             "'hann', 'hamming', an array of sequence_length values, or None.")
        self.window, self.sampling_rate, self.num_mel_bins = window, sampling_rate, num_mel_bins
        self.min_freq, self.max_freq = min_freq, max_freq or int(sampling_rate / 2)
        self.power_to_db, self.top_db, self.mag_exp = power_to_db, top_db, mag_exp
        self.min_power, self.ref_power = min_power, ref_power
        super().__init__(**kwargs)

    def _mel_matrix(self, bins, dtype):
        matrix = linear_to_mel_weight_matrix(self.num_mel_bins, bins, self.sampling_rate,
                                             float(self.min_freq), float(self.max_freq))
        return K.cast(matrix, dtype)

    def call(self, inputs):
        dtype = self.dtype if self.dtype in ("float32", "float64") else "float32"
        x = K.cast(inputs, dtype) if inputs.dtype.name != dtype else inputs
        re, im = stft(x, self.sequence_length, self.sequence_stride, self.fft_length,
                      window=self.window, center=True)
        spectrum = K.pow(K.sqrt(K.square(re) + K.square(im)), K.constant(self.mag_exp, dtype))
        mel = K.tensordot(spectrum, self._mel_matrix(spectrum.shape[-1], dtype), 1)
        if self.power_to_db:
            mel = self._decibels(mel)
        rank = mel.shape.rank
        out = K.transpose(mel, list(range(rank - 2)) + [rank - 1, rank - 2])
        return K.cast(out, self.dtype) if out.dtype.name != self.dtype else out

    def _decibels(self, x):
        floor = K.constant(self.min_power, x.dtype)
        ten_over_ln10 = K.constant(10.0 / math.log(10.0), x.dtype)
        db = ten_over_ln10 * K.log(K.maximum(x, floor))
        ref = max(abs(float(self.ref_power)), float(self.min_power))
        db = db - K.constant(10.0 * math.log10(ref), x.dtype)
        return K.maximum(db, K.reduce_max(db) - K.constant(self.top_db, x.dtype))

    def compute_output_shape(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        time = shape[-1]
        frames = None if time is None else 1 + time // self.sequence_stride
        return TensorShape(shape[:-1][:1] + (self.num_mel_bins, frames))

    def get_config(self):
        config = super().get_config()
        config.update(fft_length=self.fft_length, sequence_stride=self.sequence_stride,
                      sequence_length=self.sequence_length, window=self.window,
                      sampling_rate=self.sampling_rate, num_mel_bins=self.num_mel_bins,
                      min_freq=self.min_freq, max_freq=self.max_freq,
                      power_to_db=self.power_to_db, top_db=self.top_db, mag_exp=self.mag_exp,
                      min_power=self.min_power, ref_power=self.ref_power)
        return config
