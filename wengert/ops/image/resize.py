"""`tf.image.resize` and friends, as one interpolation matrix per spatial axis.

Resizing a side of n pixels to m is linear in the pixels: out = A x with A of shape [m, n]
built in NumPy from the sizes alone, so an image [batch, h, w, c] resizes as
    out[b, i, j, c] = sum_{p, q} A_h[i, p] A_w[j, q] x[b, p, q, c]
(two tensordots), and the gradient with respect to the image is the transposed product, carried
by the ops themselves. The rows of A follow TensorFlow 2 (half-pixel centres: output pixel j sits
at s = (j + 1/2) n / m - 1/2 in input coordinates):
    bilinear: weights 1 - f and f on floor(s) and floor(s) + 1 (clamped to the image);
    nearest:  weight 1 on min(floor((j + 1/2) n / m), n - 1);
    bicubic:  Keys' cubic (a = -0.5) on floor(s) - 1 .. floor(s) + 2 at s's fraction rounded
              to 1/1024 (TensorFlow's coefficient table), taps outside the image dropped and
              the rest renormalised (TensorFlow's half-pixel bicubic);
    area:     each output pixel averages the input interval [j n/m, (j + 1) n/m), partial
              pixels weighted by their overlap (ResizeArea; no half-pixel shift; differentiable
              here, though TensorFlow registers no gradient for ResizeArea).
`antialias=True` samples with ScaleAndTranslate's kernels (no table), widened by n / m when
shrinking, so every input pixel contributes. lanczos3/lanczos5 (sinc(t) sinc(t/a), |t| < a),
gaussian (sigma 0.5, |t| < 1.5) and mitchellcubic (B = C = 1/3) always sample that way, the
kernel widened only with antialias; every row of weights is normalised to sum 1.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..cast_ops import cast
from ..reshape_ops import expand_dims, squeeze
from ..indexing_ops import gather
from ..einsum_ops import einsum

__all__ = ["resize", "resample", "ResizeMethod", "resize_bilinear_matrix"]


class ResizeMethod:  # noqa: D101 - TensorFlow's constants
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _centres(n, m):
    return (np.arange(m) + 0.5) * (n / m) - 0.5


def resize_bilinear_matrix(n, m):
    s = _centres(n, m)
    lower = np.floor(s)
    frac = s - lower
    a = np.zeros((m, n))
    rows = np.arange(m)
    np.add.at(a, (rows, np.clip(lower, 0, n - 1).astype(int)), 1 - frac)
    np.add.at(a, (rows, np.clip(lower + 1, 0, n - 1).astype(int)), frac)
    return a


def _nearest_matrix(n, m):
    a = np.zeros((m, n))
    cols = np.minimum(np.floor((np.arange(m) + 0.5) * (n / m)), n - 1).astype(int)
    a[np.arange(m), cols] = 1
    return a


def _keys_cubic(t, a=-0.5):
    t = np.abs(t)
    return np.where(t <= 1, ((a + 2) * t - (a + 3)) * t * t + 1,
                    np.where(t < 2, ((t - 5) * t + 8) * t * a - 4 * a, 0.0))


def _bicubic_matrix(n, m):
    s = _centres(n, m)
    base = np.floor(s)
    s = base + np.rint((s - base) * 1024) / 1024  # TensorFlow reads a table of 1,024 offsets
    a = np.zeros((m, n))
    for k in range(-1, 3):
        taps = base + k
        weight = _keys_cubic(s - taps)
        inside = (taps >= 0) & (taps <= n - 1)
        np.add.at(a, (np.arange(m)[inside], taps[inside].astype(int)), weight[inside])
    return a / a.sum(axis=1, keepdims=True)


def _area_matrix(n, m):
    scale = n / m
    a = np.zeros((m, n))
    for j in range(m):
        start, stop = j * scale, (j + 1) * scale
        for p in range(int(np.floor(start)), min(int(np.ceil(stop)), n)):
            a[j, p] = min(stop, p + 1) - max(start, p)
    return a / scale


def _antialiased_matrix(n, m, kernel, radius, stretch=True):
    """ScaleAndTranslate's form: the kernel stretched by n / m when shrinking (if `stretch`)."""
    scale = m / n
    stretch = max(1.0 / scale, 1.0) if stretch else 1.0
    s = _centres(n, m)
    p = np.arange(n)
    a = kernel((p[None, :] - s[:, None]) / stretch)
    a[np.abs(p[None, :] - s[:, None]) >= radius * stretch] = 0
    total = a.sum(axis=1, keepdims=True)
    return np.divide(a, total, out=np.zeros_like(a), where=total != 0)


def _lanczos(radius):
    return lambda t: np.where(np.abs(t) < radius, np.sinc(t) * np.sinc(t / radius), 0.0)


def _mitchell(t, b=1 / 3, c=1 / 3):
    t = np.abs(t)
    near = ((12 - 9 * b - 6 * c) * t ** 3 + (-18 + 12 * b + 6 * c) * t ** 2 + (6 - 2 * b)) / 6
    far = ((-b - 6 * c) * t ** 3 + (6 * b + 30 * c) * t ** 2 + (-12 * b - 48 * c) * t
           + (8 * b + 24 * c)) / 6
    return np.where(t < 1, near, np.where(t < 2, far, 0.0))


def _gaussian(t, radius=1.5):
    sigma = radius / 3.0
    return np.where(np.abs(t) < radius, np.exp(-t * t / (2 * sigma * sigma)), 0.0)


_MATRICES = {"bilinear": resize_bilinear_matrix, "nearest": _nearest_matrix,
             "bicubic": _bicubic_matrix, "area": _area_matrix}
_KERNELS = {"bilinear": (lambda t: np.maximum(0.0, 1 - np.abs(t)), 1.0),
            "bicubic": (_keys_cubic, 2.0), "lanczos3": (_lanczos(3), 3.0),
            "lanczos5": (_lanczos(5), 5.0), "gaussian": (_gaussian, 1.5),
            "mitchellcubic": (_mitchell, 2.0)}
_SCALE_AND_TRANSLATE = ("lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def _matrix(method, n, m, antialias):
    if method in _SCALE_AND_TRANSLATE:  # always ScaleAndTranslate; stretched if antialias
        kernel, radius = _KERNELS[method]
        return _antialiased_matrix(n, m, kernel, radius, stretch=antialias)
    if antialias and method in _KERNELS:  # ScaleAndTranslate, as TensorFlow then uses
        return _antialiased_matrix(n, m, *_KERNELS[method])
    return _MATRICES[method](n, m)


def resample(images, height, width, method="bilinear", antialias=False):
    """Floating `images` [batch, h, w, c] resampled to (height, width) by `method`'s matrices, in
    the images' own dtype (resize returns float32, as TensorFlow; Keras's UpSampling2D keeps its
    dtype)."""
    h, w = int(images.shape[1]), int(images.shape[2])
    dtype = images.dtype.as_numpy_dtype
    a_h = _matrix(method, h, int(height), antialias).astype(dtype)
    a_w = _matrix(method, w, int(width), antialias).astype(dtype)
    return einsum("jq,biqc->bijc", a_w, einsum("ip,bpqc->biqc", a_h, images))


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """`images` [batch, h, w, c] or [h, w, c] resized to `size` = [new_height, new_width] with
    TensorFlow 2's rules (see the module docstring). The result is float32 (nearest keeps the
    dtype), differentiable with respect to the images."""
    with op_scope(name, "resize"):
        images = convert_to_tensor(images)
        rank = images.shape.rank
        if rank not in (3, 4):
            raise InvalidArgumentError(f"resize: 'images' must have rank 3 or 4, got shape "
                                       f"{images.shape}.")
        method = getattr(method, "value", method)
        if method not in _MATRICES and method not in _SCALE_AND_TRANSLATE:
            raise ValueError(f"resize: method {method!r} is not supported; use one of "
                             f"{sorted(_MATRICES) + list(_SCALE_AND_TRANSLATE)}.")
        x = expand_dims(images, 0) if rank == 3 else images
        h, w = x.shape[1], x.shape[2]
        if h is None or w is None:
            raise InvalidArgumentError("resize: the image height and width must be known.")
        height, width = (int(v) for v in np.asarray(size).reshape(-1)[:2])
        if height <= 0 or width <= 0:
            raise InvalidArgumentError(f"resize: size must be positive, got {[height, width]}.")
        if preserve_aspect_ratio:
            scale = min(height / h, width / w)
            height, width = max(int(round(h * scale)), 1), max(int(round(w * scale)), 1)
        if method == "nearest":  # exact, and in the images' dtype (TensorFlow's rule)
            rows = np.argmax(_nearest_matrix(h, height), axis=1).astype(np.int32)
            cols = np.argmax(_nearest_matrix(w, width), axis=1).astype(np.int32)
            out = gather(gather(x, rows, axis=1), cols, axis=2)
        else:  # float32, as TensorFlow returns for every other method
            x = x if x.dtype is dtypes.float32 else cast(x, dtypes.float32)
            out = resample(x, height, width, method, antialias)
        return squeeze(out, [0]) if rank == 3 else out
