"""Image resampling the Keras image layers need, composed of gathers (TensorFlow 2's
`tf.image.resize` rules; to be switched to wengert's tf.image ops once they exist).

Resizing a side of n pixels to m uses half-pixel centres: output pixel j samples the input at
s = (j + 1/2) n / m - 1/2.
    bilinear: the two nearest input pixels floor(s), floor(s) + 1 (clamped to the image),
              weighted by 1 - (s - floor s) and s - floor s, rows then columns;
    nearest:  input pixel min(floor((j + 1/2) n / m), n - 1).
The weights depend only on the sizes, so they are computed in NumPy; the gathers and products
carry the gradient to the input. `transform_bilinear` samples an image at arbitrary points
(for rotations, zooms and translations) with the same bilinear rule, the points outside the
image filled with zeros (fill_mode="constant"), or reflected/wrapped/clamped.
"""
import numpy as np

from .. import backend_ops as K

__all__ = ["resize_bilinear", "resize_nearest", "resize", "sample_bilinear"]


def _bilinear_weights(n, m):
    s = (np.arange(m) + 0.5) * (n / m) - 0.5
    lower = np.floor(s)
    frac = s - lower
    i0 = np.clip(lower, 0, n - 1).astype(np.int32)
    i1 = np.clip(lower + 1, 0, n - 1).astype(np.int32)
    return i0, i1, frac


def _lerp_axis(x, axis, n, m):
    i0, i1, frac = _bilinear_weights(n, m)
    shape = [1] * x.shape.rank
    shape[axis] = m
    w = K.constant(frac.reshape(shape).astype(x.dtype.as_numpy_dtype))
    a, b = K.gather(x, i0, axis=axis), K.gather(x, i1, axis=axis)
    return a + (b - a) * w


def resize_bilinear(images, height, width):
    """[batch, h, w, c] -> [batch, height, width, c] (TF 2's bilinear, half-pixel centres)."""
    x = images
    h, w = int(x.shape[1]), int(x.shape[2])
    if height != h:
        x = _lerp_axis(x, 1, h, int(height))
    if width != w:
        x = _lerp_axis(x, 2, w, int(width))
    return x


def resize_nearest(images, height, width):
    x = images
    h, w = int(x.shape[1]), int(x.shape[2])
    rows = np.minimum(np.floor((np.arange(height) + 0.5) * (h / height)), h - 1).astype(np.int32)
    cols = np.minimum(np.floor((np.arange(width) + 0.5) * (w / width)), w - 1).astype(np.int32)
    return K.gather(K.gather(x, rows, axis=1), cols, axis=2)


def resize(images, height, width, interpolation="bilinear"):
    if interpolation == "bilinear":
        return resize_bilinear(images, height, width)
    if interpolation == "nearest":
        return resize_nearest(images, height, width)
    raise NotImplementedError(f"resize: interpolation {interpolation!r} is not available "
                              "(bilinear and nearest are).")


def _fold(coord, size, fill_mode):
    """Coordinates outside [0, size - 1] mapped back as fill_mode says (NumPy)."""
    if fill_mode == "reflect":
        period = 2 * size
        c = np.mod(coord + 0.5, period) - 0.5
        return np.where(c > size - 0.5, period - 1 - c, c)
    if fill_mode == "wrap":
        return np.mod(coord + 0.5, size) - 0.5
    if fill_mode == "nearest":
        return np.clip(coord, 0, size - 1)
    return coord


def sample_bilinear(images, rows, cols, fill_mode="constant", fill_value=0.0):
    """images [b, h, w, c] sampled at points (rows, cols) of shape [b, H, W] (NumPy arrays):
    bilinear interpolation; points outside the image take fill_value (constant) or are folded
    back (reflect, wrap, nearest)."""
    b, h, w = int(images.shape[0]), int(images.shape[1]), int(images.shape[2])
    rows, cols = _fold(rows, h, fill_mode), _fold(cols, w, fill_mode)
    r0, c0 = np.floor(rows), np.floor(cols)
    flat = K.reshape(images, [b * h * w, -1])
    total, weight_sum = None, np.zeros(rows.shape)
    dtype = images.dtype.as_numpy_dtype
    for dr in (0, 1):
        for dc in (0, 1):
            rr, cc = r0 + dr, c0 + dc
            weight = (1 - np.abs(rows - rr)) * (1 - np.abs(cols - cc))
            inside = (rr >= 0) & (rr <= h - 1) & (cc >= 0) & (cc <= w - 1)
            weight = np.where(inside, weight, 0.0)
            weight_sum += weight
            index = (np.arange(b)[:, None, None] * h * w
                     + np.clip(rr, 0, h - 1) * w + np.clip(cc, 0, w - 1)).astype(np.int64)
            term = K.gather(flat, index.reshape(-1)) * K.constant(
                weight.reshape(-1, 1).astype(dtype))
            total = term if total is None else total + term
    out = K.reshape(total, [b, rows.shape[1], rows.shape[2], -1])
    if fill_mode == "constant" and fill_value:
        out = out + K.constant((fill_value * (1 - weight_sum))[..., None].astype(dtype))
    return out
