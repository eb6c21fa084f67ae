"""Structural similarity (SSIM), as TensorFlow's tf.image.ssim computes it: local statistics
under an 11 x 11 Gaussian window (sigma 1.5) applied per channel without padding,
    luminance = (2 mu_x mu_y + c1) / (mu_x^2 + mu_y^2 + c1)
    contrast-structure = (2 s_xy + c2) / (s_x^2 + s_y^2 + c2),  c_i = (k_i max_val)^2,
averaged over the window positions and then the channels: one value per image. A composition of
wengert's ops (a depthwise convolution), so differentiable in both images.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ..nn.conv.conv2d import depthwise_conv2d
from ..reduce_ops import reduce_mean
from .color import _as_float

__all__ = ["ssim"]


def _window(size, sigma, channels, dtype):
    coords = np.arange(size) - (size - 1) / 2.0
    g = -0.5 * coords ** 2 / sigma ** 2
    g = np.exp(g[:, None] + g[None, :])
    g /= g.sum()
    return np.tile(g[:, :, None, None], (1, 1, channels, 1)).astype(dtype)


def ssim_maps(x, y, max_val, filter_size, filter_sigma, k1, k2):
    """The luminance and contrast-structure maps of [batch, h, w, c] images, one value per
    window position and channel (ssim and ssim_multiscale average them)."""
    kernel = _window(filter_size, filter_sigma, int(x.shape[-1]), x.dtype.as_numpy_dtype)

    def local(t):
        return depthwise_conv2d(t, kernel, [1, 1, 1, 1], "VALID")

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mu_x, mu_y = local(x), local(y)
    num0, den0 = mu_x * mu_y * 2.0, mu_x * mu_x + mu_y * mu_y
    luminance = (num0 + c1) / (den0 + c1)
    cs = (local(x * y) * 2.0 - num0 + c2) / (local(x * x + y * y) - den0 + c2)
    return luminance, cs


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    x, y = _as_float(img1), _as_float(img2)
    if x.shape.rank != 4 and x.shape.rank != 3:
        raise InvalidArgumentError(f"ssim: images must have rank 3 or 4, got shape {x.shape}.")
    h, w = x.shape[-3], x.shape[-2]
    if h is not None and (h < filter_size or w < filter_size):
        raise InvalidArgumentError(f"ssim: images of size ({h}, {w}) are smaller than the "
                                   f"{filter_size} x {filter_size} window.")
    single = x.shape.rank == 3
    if single:
        x, y = x[None], y[None]
    luminance, cs = ssim_maps(x, y, max_val, filter_size, filter_sigma, k1, k2)
    index = luminance * cs
    if return_index_map:
        out = reduce_mean(index, axis=-1)
    else:
        out = reduce_mean(index, axis=[-3, -2, -1])
    return out[0] if single else out
