"""`tf.signal.dct`, `idct` and `mfccs_from_log_mel_spectrograms`: discrete cosine transforms of
types 1-4 along the last axis, as TensorFlow (and SciPy) define them.

A DCT of length N is linear: `y = x @ C` with `C[n, k]` the transform of the n-th unit vector,
e.g. type 2 `C[n, k] = 2 cos(pi k (2n + 1) / (2N))`, type 3 its transpose with the first row
halved, and `norm='ortho'` scaling the columns so C is orthogonal. TensorFlow computes the same
numbers through RFFT; here the cosine matrix is built once per call (exact to rounding) and the
product is wengert's matmul, so gradients (the product with C transposed) hold to any order.
`idct` of type 2 is the DCT of type 3 with the same norm and vice versa (types 1 and 4 are their
own inverses up to the scale 2(N-1) or 2N when unnormalized). MFCCs are the type-2 DCT of log-mel
spectrograms scaled by 1 / sqrt(2 * num_mel_bins).
"""
import numpy as np

from ...framework.tensor import constant as _constant, convert_to_tensor as _to_tensor
from ...framework.context import op_scope
from ..matmul_ops import matmul as _matmul
from ..pad_ops import pad as _pad
from ..reshape_ops import reshape as _reshape

__all__ = ["dct", "idct", "mfccs_from_log_mel_spectrograms"]


def _check(input, type, n, axis, norm, what):  # noqa: A002 (TensorFlow's argument names)
    if type not in (1, 2, 3, 4):
        raise ValueError(f"tf.signal.{what}: type must be 1, 2, 3 or 4, got {type!r}")
    if axis != -1:
        raise NotImplementedError(f"tf.signal.{what}: axis must be -1, got {axis!r}")
    if n is not None and n < 1:
        raise ValueError(f"tf.signal.{what}: n should be a positive integer or None, got {n!r}")
    if norm not in (None, "ortho"):
        raise ValueError(f"tf.signal.{what}: norm must be None or 'ortho', got {norm!r}")
    if type == 1 and norm == "ortho":
        raise ValueError(f"tf.signal.{what}: normalization not supported for type-I DCT")
    x = _to_tensor(input)
    if not x.dtype.is_floating:
        raise ValueError(f"tf.signal.{what}: input must be floating, got {x.dtype.name}")
    shape = x.shape
    if shape.rank is None or shape.rank == 0 or shape.as_list()[-1] is None:
        raise ValueError(f"tf.signal.{what}: the last dimension must be known, got {shape}")
    return x


def _fit_length(x, n):
    length = x.shape.as_list()[-1]
    if n is None or n == length:
        return x
    if n < length:
        return x[..., :n]
    paddings = [[0, 0]] * (x.shape.rank - 1) + [[0, n - length]]
    return _pad(x, paddings)


def _cosine_matrix(length, type, norm, np_dtype):  # noqa: A002
    import scipy.fft  # imported when first needed
    return scipy.fft.dct(np.eye(length), type=type, norm=norm, axis=-1).astype(np_dtype)


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """Discrete cosine transform of `input`'s last axis (types 1-4, norm None or 'ortho');
    `n` truncates or zero-pads that axis first."""
    with op_scope(name, "dct"):
        x = _fit_length(_check(input, type, n, axis, norm, "dct"), n)
        length = x.shape.as_list()[-1]
        if type == 1 and length < 2:
            raise ValueError(f"tf.signal.dct: type-I DCT needs a length > 1, got {length}")
        matrix = _constant(_cosine_matrix(length, type, norm, x.dtype.as_numpy_dtype))
        shape = x.shape.as_list()
        if len(shape) == 1:
            return _reshape(_matmul(_reshape(x, [1, length]), matrix), [length])
        if len(shape) == 2:
            return _matmul(x, matrix)
        flat = _reshape(x, [-1, length])
        return _reshape(_matmul(flat, matrix), [d if d is not None else -1 for d in shape])


_INVERSE_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """Inverse DCT: `idct(type=2)` is `dct(type=3)` and vice versa (unnormalized, the round
    trip scales by 2N)."""
    with op_scope(name, "idct"):
        _check(input, type, n, axis, norm, "idct")
        return dct(input, type=_INVERSE_TYPE[type], n=n, axis=axis, norm=norm)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """Mel-frequency cepstral coefficients: `dct(x, type=2) / sqrt(2 * num_mel_bins)` over the
    last axis of `[..., num_mel_bins]` log-mel spectrograms."""
    with op_scope(name, "mfccs_from_log_mel_spectrograms"):
        x = _check(log_mel_spectrograms, 2, None, -1, None, "mfccs_from_log_mel_spectrograms")
        num_mel_bins = x.shape.as_list()[-1]
        return dct(x, type=2) * (1.0 / np.sqrt(2.0 * num_mel_bins))

