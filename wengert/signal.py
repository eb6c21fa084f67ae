"""`tf.signal`: Fourier and cosine transforms, framing, windows, short-time transforms and mel
weights, as TensorFlow 2 computes them (the code is in ops/signal/)."""
from .ops.signal.dct import dct, idct, mfccs_from_log_mel_spectrograms
from .ops.signal.fft import (fft, fft2d, fft3d, fftshift, ifft, ifft2d, ifft3d, ifftshift, irfft,
                             irfft2d, irfft3d, rfft, rfft2d, rfft3d)
from .ops.signal.fft import fft_n as fftnd, ifft_n as ifftnd, irfft_n as irfftnd, rfft_n as rfftnd
from .ops.signal.frames import frame, overlap_and_add
from .ops.signal.mel import linear_to_mel_weight_matrix
from .ops.signal.short_time import inverse_mdct, inverse_stft, inverse_stft_window_fn, mdct, stft
from .ops.signal.windows import (hamming_window, hann_window, kaiser_bessel_derived_window,
                                 kaiser_window, vorbis_window)

__all__ = ["frame", "overlap_and_add", "hann_window", "hamming_window", "kaiser_window",
           "kaiser_bessel_derived_window", "vorbis_window", "fftshift", "ifftshift",
           "linear_to_mel_weight_matrix", "dct", "idct", "mfccs_from_log_mel_spectrograms",
           "mdct", "inverse_mdct", "inverse_stft_window_fn", "fft", "ifft", "fft2d", "ifft2d",
           "fft3d", "ifft3d", "fftnd", "ifftnd", "rfft", "irfft", "rfft2d", "irfft2d", "rfft3d",
           "irfft3d", "rfftnd", "irfftnd", "stft", "inverse_stft"]
