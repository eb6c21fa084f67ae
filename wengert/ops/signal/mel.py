"""`tf.signal.linear_to_mel_weight_matrix`: triangular filters equally spaced on the mel scale
`1127 ln(1 + f / 700)`, as TensorFlow builds them (the DC bin gets no weight). A spectrogram's
product with the matrix is its mel spectrogram; MFCCs are in dct.py.
"""
import numpy as np

from ...framework import dtypes
from ...framework.context import op_scope
from .frames import static_int
from .windows import window_tensor

__all__ = ["linear_to_mel_weight_matrix"]


def _hertz_to_mel(frequencies):
    return 1127.0 * np.log(1.0 + frequencies / 700.0)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None):
    """`[num_spectrogram_bins, num_mel_bins]` triangular mel filters (rows: linear bins)."""
    with op_scope(name, "linear_to_mel_weight_matrix"):
        num_mel_bins = static_int(num_mel_bins, "num_mel_bins")
        num_spectrogram_bins = static_int(num_spectrogram_bins, "num_spectrogram_bins")
        sample_rate = float(static_int(sample_rate, "sample_rate")) if not isinstance(
            sample_rate, float) else sample_rate
        lower, upper = float(lower_edge_hertz), float(upper_edge_hertz)
        if num_mel_bins <= 0 or num_spectrogram_bins <= 0 or sample_rate <= 0:
            raise ValueError("tf.signal.linear_to_mel_weight_matrix: num_mel_bins, "
                             "num_spectrogram_bins and sample_rate must be positive")
        if not 0 <= lower < upper or upper > sample_rate / 2:
            raise ValueError("tf.signal.linear_to_mel_weight_matrix: need 0 <= lower_edge_hertz < "
                             f"upper_edge_hertz <= sample_rate / 2, got {lower}, {upper}, "
                             f"{sample_rate}")
        np_dtype = dtypes.as_dtype(dtype).as_numpy_dtype
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
        return window_tensor(np.pad(weights, [[1, 0], [0, 0]]).astype(np_dtype), dtype)
