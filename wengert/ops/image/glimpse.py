"""`tf.image.extract_glimpse` with TensorFlow 2's semantics (ExtractGlimpseV2).

Each image b of [batch, h, w, c] yields a glimpse of `size` = [gh, gw] placed by
`offsets[b]` = (y, x), its top-left pixel at (trunc(y'), trunc(x')) with
    normalized and centered:  (y, x) in [-1, 1], (0, 0) the image centre, which is also the
                              glimpse's centre: y' = (y + 1) h / 2 - gh / 2
    normalized only:          (y, x) in [0, 1] of the height and width:    y' = y h
    centered only:            pixels from the image centre:                 y' = y + h / 2
    neither:                  pixels from the top-left corner:              y' = y
(TensorFlow 2.21's kernel, measured: only the normalized-and-centered form centres the window
on the point; computed in float32 and truncated toward zero, as the kernel does). TensorFlow 1's
extract_glimpse (extract_glimpse_v1 here) always centres the window on the point, and halves
centred offsets in pixels too: y' = y / 2 + h / 2 - gh / 2 when centred only, y h - gh / 2
normalized only, y - gh / 2 for neither. The part of the window inside the image is copied;
the rest is filled with `noise`: 'uniform' (uniform between the image's minimum and maximum),
'gaussian' (normal with each channel's mean and standard deviation) or 'zero'. The copied part
is a slice and a pad of the image, so its gradient flows back to the image (TensorFlow
registers none); the noise is drawn with wengert's stateful random ops (tf.random.set_seed
applies) and is not bit-equal to TensorFlow's.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.tensor import constant, convert_to_tensor
from ...framework.context import op_scope
from ..array_ops import stack
from ..pad_ops import pad
from ..random.seeded import normal, uniform

__all__ = ["extract_glimpse", "extract_glimpse_v1"]

_NOISES = ("uniform", "gaussian", "zero")


def _window_corner(y, x, h, w, gh, gw, centered, normalized, v1=False):
    f = np.float32
    y, x = f(y), f(x)
    if normalized:
        y, x = y * f(h), x * f(w)
    if centered and (normalized or v1):
        y, x = y / f(2.0) + f(h / 2.0), x / f(2.0) + f(w / 2.0)
    elif centered:
        y, x = y + f(h / 2.0), x + f(w / 2.0)
    if v1 or (normalized and centered):  # the point is the glimpse's centre
        y, x = y - f(gh / 2.0), x - f(gw / 2.0)
    return int(y), int(x)


def _span(start, extent, n):
    """The image rows [lo, hi) that a window of `extent` starting at `start` covers, and the
    window rows before and after them."""
    lo, hi = min(max(start, 0), n), max(min(start + extent, n), 0)
    hi = max(hi, lo)
    before = min(max(-start, 0), extent) if hi > lo else extent
    return lo, hi, before, extent - before - (hi - lo)


def _noise(image, gh, gw, kind):
    values = np.asarray(image.numpy(), np.float64)
    c = values.shape[-1]
    if kind == "uniform":
        lo, hi = values.min(), values.max()
        return lo + uniform([gh, gw, c]).numpy() * (hi - lo)
    mean = values.mean(axis=(0, 1))
    std = np.sqrt(((values - mean) ** 2).mean(axis=(0, 1)))
    return mean + normal([gh, gw, c]).numpy() * std


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    noise="uniform", name=None):
    """Glimpses [batch, size[0], size[1], c] of `input` [batch, h, w, c] at `offsets`
    [batch, 2] of (y, x) (see the module docstring for the four coordinate conventions)."""
    with op_scope(name, "extract_glimpse"):
        return _glimpses(input, size, offsets, centered, normalized, noise, "extract_glimpse")


def extract_glimpse_v1(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                       uniform_noise=True, name=None):
    """TensorFlow 1's extract_glimpse (tf.compat.v1.image): the offsets always name the
    glimpse's centre, and the fill is uniform noise, or Gaussian with uniform_noise=False."""
    with op_scope(name, "extract_glimpse"):
        return _glimpses(input, size, offsets, centered, normalized,
                         "uniform" if uniform_noise else "gaussian", "extract_glimpse", v1=True)


def _glimpses(input, size, offsets, centered, normalized, noise, what, v1=False):  # noqa: A002
    images = convert_to_tensor(input)
    if images.shape.rank != 4 or None in tuple(images.shape):
        raise InvalidArgumentError(f"{what}: input must be a fully known [batch, "
                                   f"height, width, channels] tensor, got shape {images.shape}.")
    gh, gw = (int(v) for v in np.asarray(convert_to_tensor(size).numpy()).reshape(-1))
    offs = np.asarray(convert_to_tensor(offsets).numpy(), np.float32)
    batch, h, w, _ = (int(d) for d in images.shape)
    if offs.shape != (batch, 2):
        raise InvalidArgumentError(f"{what}: offsets must be [batch, 2] = [{batch}, "
                                   f"2] (y, x) pairs, got shape {offs.shape}.")
    if gh <= 0 or gw <= 0:
        raise InvalidArgumentError(f"{what}: size must be two positive integers, got "
                                   f"{[gh, gw]}.")
    if noise not in _NOISES:
        raise InvalidArgumentError(f"{what}: noise must be one of {_NOISES}, got "
                                   f"{noise!r}.")
    dtype = images.dtype
    glimpses = []
    for b in range(batch):
        top, left = _window_corner(offs[b, 0], offs[b, 1], h, w, gh, gw, centered, normalized,
                                   v1)
        r0, r1, above, below = _span(top, gh, h)
        c0, c1, before, after = _span(left, gw, w)
        inside = images[b, r0:r1, c0:c1, :]
        glimpse = pad(inside, [[above, below], [before, after], [0, 0]])
        if (above or below or before or after) and noise != "zero":
            fill = _noise(images[b], gh, gw, noise)
            fill[above:gh - below, before:gw - after, :] = 0
            glimpse = glimpse + constant(fill.astype(dtype.as_numpy_dtype), dtype)
        glimpses.append(glimpse)
    return stack(glimpses)
