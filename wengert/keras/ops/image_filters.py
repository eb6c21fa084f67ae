"""Keras 3's image filters and patch extraction (`keras.ops.image`'s `gaussian_blur`,
`sobel_edges`, `ssim`, `extract_patches`, `extract_patches_3d`) over wengert's ops.

gaussian_blur convolves each channel ("same" padding) with the outer product of two normalised
1-D Gaussians g_i(t) = exp(-t^2 / (2 sigma_i^2)), t = k - (size_i - 1) / 2, laid out as Keras's
TensorFlow backend lays them (the second size and sigma along the rows of the product).
ssim is Keras's: per channel, with a filter_size Gaussian window ("valid" convolution) giving
local means mu, variances sigma^2 and covariance sigma_12,
    ssim = mean of (2 mu1 mu2 + c1)(2 sigma_12 + c2) / ((mu1^2 + mu2^2 + c1)(s1^2 + s2^2 + c2))
with c1 = (k1 max_val)^2, c2 = (k2 max_val)^2, averaged over pixels then channels.
extract_patches returns every size window (strided, dilated, "valid" or "same") flattened into
the channel axis (row, column, channel order), as a convolution with an identity kernel.
"""
import numpy as np

from ...ops.cast_ops import cast
from ...ops.image.color import sobel_edges as _sobel_edges
from ...ops.nn.conv.conv2d import conv2d, depthwise_conv2d
from ...ops.reduce_ops import reduce_mean, reduce_sum
from ...ops.reshape_ops import expand_dims, reshape, squeeze, transpose
from ...ops.unary_ops import exp
from .convolution import conv, data_format_of
from .core import convert_to_tensor
from .dtypes import result_type

__all__ = ["gaussian_blur", "sobel_edges", "ssim", "extract_patches", "extract_patches_3d"]


def _gaussian(size, sigma, dtype):
    t = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    t = cast(t, dtype)
    g = exp(-0.5 * (t / cast(sigma, dtype)) ** 2)
    return g / reduce_sum(g)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Each channel blurred by a kernel_size Gaussian of standard deviations sigma."""
    data_format = data_format_of(data_format)
    images = convert_to_tensor(images)
    if images.shape.rank not in (3, 4):
        raise ValueError(f"gaussian_blur: invalid images rank: expected 3 or 4; got "
                         f"images.shape={images.shape}.")
    single = images.shape.rank == 3
    x = expand_dims(images, 0) if single else images
    if data_format == "channels_first":
        x = transpose(x, (0, 2, 3, 1))
    sizes = [int(s) for s in kernel_size]
    kernel = (_gaussian(sizes[1], sigma[1], x.dtype)[:, None]
              * _gaussian(sizes[0], sigma[0], x.dtype)[None, :])
    kernel = reshape(kernel, [sizes[0], sizes[1], 1, 1])
    kernel = kernel * np.ones([1, 1, x.shape[-1], 1], x.dtype.as_numpy_dtype)
    out = depthwise_conv2d(x, kernel, [1, 1, 1, 1], "SAME")
    if data_format == "channels_first":
        out = transpose(out, (0, 3, 1, 2))
    return squeeze(out, [0]) if single else out


def sobel_edges(images, data_format=None):
    """[batch, h, w, c, 2]: the vertical (dy) and horizontal (dx) Sobel responses."""
    data_format = data_format_of(data_format)
    x = convert_to_tensor(images)
    if data_format == "channels_first":
        x = transpose(x, (0, 2, 3, 1))
    edges = _sobel_edges(x)
    return transpose(edges, (0, 3, 1, 2, 4)) if data_format == "channels_first" else edges


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         data_format=None):
    """The structural similarity of two (batches of) images, one value per image."""
    data_format = data_format_of(data_format)
    a, b = convert_to_tensor(image1), convert_to_tensor(image2)
    original = a.dtype
    compute = result_type(a.dtype.name, float)
    a, b = cast(a, compute), cast(b, compute)
    for name, t in (("image1", a), ("image2", b)):
        if t.shape.rank not in (3, 4):
            raise ValueError(f"ssim: invalid {name} rank: expected 3 or 4; got {t.shape}.")
    single = a.shape.rank == 3
    if single:
        a, b = expand_dims(a, 0), expand_dims(b, 0)
    if data_format == "channels_first":
        a, b = transpose(a, (0, 2, 3, 1)), transpose(b, (0, 2, 3, 1))
    _, height, width, channels = a.shape.as_list()
    g = _gaussian(filter_size, filter_sigma, compute)
    kernel = reshape(g[:, None] * g[None, :], [filter_size, filter_size, 1, 1])

    def per_channel(t):
        return reshape(transpose(t, (0, 3, 1, 2)), [-1, height, width, 1])

    def window_mean(t):
        return conv2d(t, kernel, 1, "VALID")
    a, b = per_channel(a), per_channel(b)
    mu1, mu2 = window_mean(a), window_mean(b)
    var1 = window_mean(a * a) - mu1 * mu1
    var2 = window_mean(b * b) - mu2 * mu2
    cov = window_mean(a * b) - mu1 * mu2
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    ratio = ((2.0 * mu1 * mu2 + c1) * (2.0 * cov + c2)
             / ((mu1 * mu1 + mu2 * mu2 + c1) * (var1 + var2 + c2)))
    value = reduce_mean(reshape(reduce_mean(ratio, axis=[1, 2, 3]), [-1, channels]), axis=-1)
    return cast(squeeze(value, [0]) if single else value, original)


def _patches(images, size, strides, dilation_rate, padding, data_format, n):
    data_format = data_format_of(data_format)
    x = convert_to_tensor(images)
    size = (size,) * n if isinstance(size, int) else tuple(size)
    strides = size if not strides else strides
    depth = x.shape[-1] if data_format == "channels_last" else x.shape[-1 - n]
    out_dim = int(np.prod(size)) * depth
    kernel = cast(np.eye(out_dim).reshape(size + (depth, out_dim)), x.dtype)
    single = x.shape.rank == n + 1
    x = expand_dims(x, 0) if single else x
    out = conv(x, kernel, strides=strides, padding=padding, data_format=data_format,
               dilation_rate=dilation_rate)
    return squeeze(out, [0]) if single else out


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid",
                    data_format=None):
    """Every size (2-D, or 3-D for a length-3 size) window of images flattened into channels."""
    if not isinstance(size, int):
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"extract_patches: size must be an int or a tuple; got {size!r}.")
        if len(size) not in (2, 3):
            raise ValueError(f"extract_patches: size must be a tuple of length 2 or 3; got "
                             f"{size!r}.")
        if len(size) == 3:
            return extract_patches_3d(images, size, strides, dilation_rate, padding,
                                      data_format)
    return _patches(images, size, strides, dilation_rate, padding, data_format, 2)


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid",
                       data_format=None):
    """Every size window of volumes [(batch,) d, h, w, c] flattened into channels."""
    if strides is None:
        strides = size
    if isinstance(strides, int):
        strides = (strides,) * 3
    if len(strides) != 3:
        raise ValueError(f"extract_patches_3d: invalid strides {strides!r}.")
    return _patches(volumes, size, strides, dilation_rate, padding, data_format, 3)
