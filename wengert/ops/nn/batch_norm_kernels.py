"""The NumPy kernels of FusedBatchNormV3 and FusedBatchNormGradV3 (the ops are in batch_norm.py),
in as few passes over x as NumPy allows.

With C channels, n values per channel, mu and s2 the batch mean and biased variance, r =
1 / sqrt(s2 + eps) and xc = x - mu:
- forward (training): mu = sum(x) / n; xc; s2 = sum(xc^2) / n; y = x a + b with a = scale r
  and b = offset - mu a (TensorFlow's batch_normalization arithmetic, so that Keras's layer
  gives its values to the last bits), written over xc. Passes: one sum, one subtraction, one
  sum of squares, one multiply and one add in place (the general form, x.mean, x.var and the
  normalization, takes about twice as many, each with a temporary array);
- forward (inference): y = x a + b with the given mean and variance;
- gradient: d offset = sum g, d scale = r sum(g xc), and
  dx = scale r / n (n g - d offset - xhat d scale) = g (scale r) - xc (k r d scale) - k d offset
  with k = scale r / n, written over the product g (scale r).
The per-channel sums are `einsum` contractions over a [n, C] view (each channel's values added
in order, as NumPy's sum over the leading axes adds them, but without its strided loop), and
the per-channel products run over a wider [n / k, k C] view with the [C] vectors tiled k times,
so NumPy's inner loops are about 256 elements long rather than C (16 for a ResNet's first
stage). This fast form takes contiguous float32 / float64 arrays x with the channels last and
at least one value per channel (a strided g, as a convolution's gradient sliced out of its
padded result is, is copied once to contiguous memory first); anything else (channels first,
float16, empty or non-contiguous x) takes the general form, which computes the same values.
"""
import numpy as np

__all__ = ["forward", "backward"]

_WIDTH = 256  # elements per row of the wide view (4 KiB rows alias in cache; 1 KiB do not)


def _per_channel(v, ndim, c):
    return v.reshape((1,) * c + (-1,) + (1,) * (ndim - c - 1))


def _fast(x, c):
    return (c == x.ndim - 1 and x.dtype in (np.float32, np.float64) and x.size > 0
            and x.flags.c_contiguous)


def _fold(count, channels):
    """k: how many channel vectors fill one row of the wide view ([count / k, k C])."""
    k = max(1, _WIDTH // max(channels, 1))
    while count % k:
        k -= 1
    return k


class _Views:
    """x as [n, C] (for the sums) and as [n / k, k C] (for the products), and `tile`, which
    repeats a [C] vector k times to broadcast along the wide view's rows."""

    def __init__(self, x):
        channels = x.shape[-1]
        self.n = x.size // channels
        self.k = _fold(self.n, channels)
        self.narrow = (self.n, channels)
        self.wide = (self.n // self.k, self.k * channels)

    def tile(self, v):
        return np.tile(v, self.k)


def forward(x, scale, offset, mean, variance, epsilon, c, is_training):
    """(y, mean, variance) of batch normalization along channel axis `c` (the batch's biased
    statistics when training, else the given ones)."""
    eps = x.dtype.type(epsilon)
    if not _fast(x, c):
        return _general_forward(x, scale, offset, mean, variance, eps, c, is_training)
    v = _Views(x)
    if not is_training:
        a = (1 / np.sqrt(variance + eps)) * scale
        y = np.multiply(x.reshape(v.wide), v.tile(a))
        y += v.tile(offset - mean * a)
        return y.reshape(x.shape), mean, variance
    inv_n = x.dtype.type(1.0 / v.n)
    wide = x.reshape(v.wide)
    mean = np.einsum("ij->j", x.reshape(v.narrow)) * inv_n
    y = np.subtract(wide, v.tile(mean))
    centered = y.reshape(v.narrow)
    variance = np.einsum("ij,ij->j", centered, centered) * inv_n
    a = (1 / np.sqrt(variance + eps)) * scale
    np.multiply(wide, v.tile(a), out=y)
    y += v.tile(offset - mean * a)
    return y.reshape(x.shape), mean, variance


def _general_forward(x, scale, offset, mean, variance, eps, c, is_training):
    axes = tuple(a for a in range(x.ndim) if a != c)
    if is_training:
        mean = x.mean(axis=axes)
        variance = x.var(axis=axes)
    inv = 1 / np.sqrt(variance + eps)
    y = (x - _per_channel(mean, x.ndim, c)) * _per_channel(scale * inv, x.ndim, c) + \
        _per_channel(offset, x.ndim, c)
    return y, mean, variance


def backward(g, x, scale, mean, variance, epsilon, c):
    """(dx, d scale, d offset) of training-mode batch normalization along channel axis `c`,
    from the saved batch mean and biased variance."""
    inv = 1 / np.sqrt(variance + x.dtype.type(epsilon))
    if not (_fast(x, c) and g.dtype == x.dtype):
        return _general_backward(g, x, scale, mean, inv, c)
    g = np.ascontiguousarray(g)  # (a gradient sliced out of a padded array: one copy pass)
    v = _Views(x)
    centered = np.subtract(x.reshape(v.wide), v.tile(mean))
    g_narrow = g.reshape(v.narrow)
    doffset = np.einsum("ij->j", g_narrow)
    dscale = np.einsum("ij,ij->j", g_narrow, centered.reshape(v.narrow)) * inv
    a = scale * inv
    k = a * x.dtype.type(1.0 / v.n)
    dx = np.multiply(g.reshape(v.wide), v.tile(a))
    centered *= v.tile(k * inv * dscale)
    dx -= centered
    dx -= v.tile(k * doffset)
    return dx.reshape(x.shape), dscale, doffset


def _general_backward(g, x, scale, mean, inv, c):
    axes = tuple(a for a in range(x.ndim) if a != c)
    n = x.size // max(x.shape[c], 1)
    xhat = (x - _per_channel(mean, x.ndim, c)) * _per_channel(inv, x.ndim, c)
    doffset = g.sum(axis=axes)
    dscale = (g * xhat).sum(axis=axes)
    dx = (g * x.dtype.type(n) - _per_channel(doffset, x.ndim, c) -
          xhat * _per_channel(dscale, x.ndim, c)) * _per_channel(scale * inv / n, x.ndim, c)
    return dx, dscale, doffset
