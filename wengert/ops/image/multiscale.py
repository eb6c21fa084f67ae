"""Multi-scale structural similarity (MS-SSIM), as TensorFlow's tf.image.ssim_multiscale
computes it (Wang, Simoncelli and Bovik 2003). At scale k = 0 .. K-1 the images are the
originals averaged over 2 x 2 blocks k times (an odd height or width first padded by one
mirrored row/column, TensorFlow's SYMMETRIC pad); at each scale the per-channel SSIM terms of
metrics.py are taken under the filter_size x filter_size Gaussian window,
    cs_k = mean over window positions of (2 s_xy + c2) / (s_x^2 + s_y^2 + c2)
    ssim_K = mean of luminance * cs at the last scale,
and the result is
    mean over channels of  prod_{k < K-1} relu(cs_k)^{p_k} * relu(ssim_{K-1})^{p_{K-1}},
p = power_factors (default Wang et al.'s (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)). Every step is a
wengert op, so the value is differentiable in both images.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ..reshape_ops import reshape
from ..array_ops import stack
from ..math_ops import pow as pow_
from ..nn.activations import relu
from ..pad_ops import pad
from ..nn.pool import avg_pool
from ..reduce_ops import reduce_mean, reduce_prod
from .color import _as_float
from .metrics import ssim_maps

__all__ = ["ssim_multiscale"]

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _ssim_and_cs(x, y, max_val, filter_size, filter_sigma, k1, k2):
    """Per-channel SSIM and contrast-structure of [batch, h, w, c] images: two [batch, c]."""
    h, w = int(x.shape[1]), int(x.shape[2])
    if h < filter_size or w < filter_size:
        raise InvalidArgumentError(
            f"ssim_multiscale: at some scale the images are {h} x {w}, smaller than the "
            f"{filter_size} x {filter_size} window; use images of at least filter_size * "
            f"2**(len(power_factors) - 1) pixels per side, fewer power_factors or a smaller "
            f"filter_size.")
    luminance, cs = ssim_maps(x, y, max_val, filter_size, filter_sigma, k1, k2)
    return reduce_mean(luminance * cs, [1, 2]), reduce_mean(cs, [1, 2])


def _downscale(t):
    """2 x 2 average pooling, an odd side first padded by one mirrored row or column."""
    rh, rw = int(t.shape[1]) % 2, int(t.shape[2]) % 2
    if rh or rw:
        t = pad(t, [[0, 0], [0, rh], [0, rw], [0, 0]], mode="SYMMETRIC")
    return avg_pool(t, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """MS-SSIM of two batches of images [..., h, w, c] (see the module docstring): one value per
    image, shape [...]. Integer images are read as [0, 1] floats and max_val scaled alike, as
    TensorFlow's convert_image_dtype does."""
    x, y = convert_to_tensor(img1), convert_to_tensor(img2)
    if x.shape.rank is None or x.shape.rank < 3 or x.shape != y.shape:
        raise InvalidArgumentError(f"ssim_multiscale: images must be [..., height, width, "
                                   f"channels] of one shape, got {x.shape} and {y.shape}.")
    if None in tuple(x.shape):
        raise InvalidArgumentError(f"ssim_multiscale: the image shape must be fully known, got "
                                   f"{x.shape}.")
    power_factors = [float(p) for p in np.asarray(power_factors).reshape(-1)]
    if not power_factors:
        raise ValueError("ssim_multiscale: power_factors must name at least one scale.")
    if not x.dtype.is_floating:
        max_val = float(max_val) / float(np.iinfo(x.dtype.as_numpy_dtype).max)
    x, y = _as_float(x), _as_float(y)
    heads, tail = list(x.shape[:-3]), list(x.shape[-3:])
    x, y = reshape(x, [-1] + tail), reshape(y, [-1] + tail)
    mcs = []
    for k in range(len(power_factors)):
        if k > 0:
            x, y = _downscale(x), _downscale(y)
        ssim_per_channel, cs = _ssim_and_cs(x, y, max_val, filter_size, filter_sigma, k1, k2)
        mcs.append(relu(cs))
    scores = stack(mcs[:-1] + [relu(ssim_per_channel)], axis=-1)
    weights = np.asarray(power_factors, x.dtype.as_numpy_dtype)
    ms_ssim = reduce_mean(reduce_prod(pow_(scores, weights), [-1]), [-1])
    return reshape(ms_ssim, heads)
