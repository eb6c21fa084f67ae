"""tf.image's random augmentations, stateful and stateless, as TensorFlow 2 defines them:

    random_flip_left_right / up_down: each image (each of a batch independently) reversed along
        its width / height with probability 1/2
    random_brightness:  adjust_brightness by delta ~ U[-max_delta, max_delta)
    random_contrast:    adjust_contrast by a factor ~ U[lower, upper)
    random_hue:         hue shifted by delta ~ U[-max_delta, max_delta), max_delta <= 0.5
    random_saturation:  adjust_saturation by a factor ~ U[lower, upper)
    random_crop:        a `size` block of `value` at an offset uniform over the valid ones
One draw per call (per image for the flips), as TensorFlow's. The stateful forms draw with
wengert's random ops (`seed` is the op seed, tf.random.set_seed the global one); the
`stateless_` forms take `seed`, a shape [2] integer tensor, and are pure functions of it: the same
seed gives the same result. The streams are wengert's, so the values drawn are not bit-equal to
TensorFlow's for the same seeds. Each result is a composition of wengert's ops (a `where`, a slice
or the colour adjustments), differentiable in the image where those are.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..reshape_ops import reshape
from ..array_ops import stack, unstack, where
from ..indexing_ops import reverse
from ..math_ops import floormod, maximum
from ..random.seeded import uniform
from ..random.stateless import stateless_uniform
from ..shape_ops import shape_n
from ..slice_ops import slice as slice_
from .color import _as_float, _back, adjust_brightness, adjust_contrast
from .color_spaces import adjust_saturation, hsv_to_rgb, rgb_to_hsv

__all__ = ["random_flip_left_right", "random_flip_up_down", "random_brightness",
           "random_contrast", "random_hue", "random_saturation", "random_crop",
           "stateless_random_flip_left_right", "stateless_random_flip_up_down",
           "stateless_random_brightness", "stateless_random_contrast", "stateless_random_hue",
           "stateless_random_saturation", "stateless_random_crop"]


def _stateful(seed):
    return lambda shape, lo, hi, dtype=dtypes.float32: uniform(shape, lo, hi, dtype, seed=seed)


def _stateless(seed):
    return lambda shape, lo, hi, dtype=dtypes.float32: stateless_uniform(shape, seed, lo, hi,
                                                                         dtype)


def _image(image, what):
    image = convert_to_tensor(image)
    rank = image.shape.rank
    if rank is None or rank < 3:
        raise ValueError(f"{what}: 'image' (shape {image.shape}) must be at least "
                         f"three-dimensional: [height, width, channels] or [batch, height, "
                         f"width, channels].")
    if rank > 4:
        raise ValueError(f"{what}: 'image' must have rank 3 or 4, got shape {image.shape}.")
    if any(d == 0 for d in image.shape if d is not None):
        raise ValueError(f"{what}: all dims of 'image.shape' must be > 0, got {image.shape}.")
    return image


def _float_dtype(image):
    return image.dtype if image.dtype.is_floating else dtypes.float32


def _flip(image, axis, draw, what):
    image = _image(image, what)
    if image.shape.rank == 3:
        flip = draw([], 0.0, 1.0) < 0.5
        return where(flip, reverse(image, [axis]), image)
    batch = image.shape[0]  # unknown in a graph: read when it runs
    batch = shape_n([image])[0][:1] if batch is None else [int(batch)]
    flip = reshape(draw(batch, 0.0, 1.0) < 0.5, [-1, 1, 1, 1])
    return where(flip, reverse(image, [axis + 1]), image)


def _check_delta(max_delta, what, top=None):
    if max_delta < 0:
        raise ValueError(f"{what}: max_delta must be non-negative, got {max_delta}.")
    if top is not None and max_delta > top:
        raise ValueError(f"{what}: max_delta must be <= {top}, got {max_delta}.")


def _check_range(lower, upper, what):
    if upper <= lower:
        raise ValueError(f"{what}: upper must be > lower, got lower={lower}, upper={upper}.")
    if lower < 0:
        raise ValueError(f"{what}: lower must be non-negative, got {lower}.")


def _brightness(image, max_delta, draw, what):
    _check_delta(max_delta, what)
    image = convert_to_tensor(image)
    return adjust_brightness(image, draw([], -max_delta, max_delta, _float_dtype(image)))


def _contrast(image, lower, upper, draw, what):
    _check_range(lower, upper, what)
    image = convert_to_tensor(image)
    return adjust_contrast(image, draw([], lower, upper, _float_dtype(image)))


def _hue(image, max_delta, draw, what):
    _check_delta(max_delta, what, top=0.5)
    image = convert_to_tensor(image)
    if image.shape.rank is None or image.shape[-1] != 3:
        raise ValueError(f"{what}: 'image' must have 3 (RGB) channels last, got shape "
                         f"{image.shape}.")
    h, s, v = unstack(rgb_to_hsv(image), 3, axis=-1)
    h = floormod(h + draw([], -max_delta, max_delta, _as_float(image).dtype), 1.0)
    return _back(hsv_to_rgb(stack([h, s, v], axis=-1)), image.dtype)


def _saturation(image, lower, upper, draw, what):
    _check_range(lower, upper, what)
    image = convert_to_tensor(image)
    return adjust_saturation(image, draw([], lower, upper, _as_float(image).dtype))


def _crop(value, size, draw, what):
    value = convert_to_tensor(value)
    if hasattr(size, "numpy"):  # an eager tensor; in a graph the size must be a Python list
        size = size.numpy()
    size = [int(s) for s in np.asarray(size).reshape(-1)]
    shape = value.shape
    if shape.rank is None:
        raise InvalidArgumentError(f"{what}: the rank of 'value' must be known, got {shape}.")
    if len(size) != shape.rank:
        raise InvalidArgumentError(f"{what}: size must have one entry per dimension of 'value'"
                                   f" ({shape.rank}), got {size}.")
    if any(s < 0 or (d is not None and s > int(d)) for s, d in zip(size, shape)):
        raise InvalidArgumentError(f"{what}: Need value.shape >= size, got {list(shape)} and "
                                   f"{size}.")
    if None in tuple(shape):  # known when the graph runs (a decoded image in tf.data, say)
        limit = maximum(shape_n([value])[0] - np.asarray(size, np.int32) + 1, 1)
    else:
        limit = [int(d) - s + 1 for s, d in zip(size, shape)]
    offset = floormod(draw([len(size)], 0, dtypes.int32.max, dtypes.int32), limit)
    return slice_(value, offset, size)


def random_flip_left_right(image, seed=None):
    return _flip(image, 1, _stateful(seed), "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    return _flip(image, 0, _stateful(seed), "random_flip_up_down")


def random_brightness(image, max_delta, seed=None):
    return _brightness(image, max_delta, _stateful(seed), "random_brightness")


def random_contrast(image, lower, upper, seed=None):
    return _contrast(image, lower, upper, _stateful(seed), "random_contrast")


def random_hue(image, max_delta, seed=None):
    return _hue(image, max_delta, _stateful(seed), "random_hue")


def random_saturation(image, lower, upper, seed=None):
    return _saturation(image, lower, upper, _stateful(seed), "random_saturation")


def random_crop(value, size, seed=None, name=None):
    with op_scope(name, "random_crop"):
        return _crop(value, size, _stateful(seed), "random_crop")


def stateless_random_flip_left_right(image, seed):
    return _flip(image, 1, _stateless(seed), "stateless_random_flip_left_right")


def stateless_random_flip_up_down(image, seed):
    return _flip(image, 0, _stateless(seed), "stateless_random_flip_up_down")


def stateless_random_brightness(image, max_delta, seed):
    return _brightness(image, max_delta, _stateless(seed), "stateless_random_brightness")


def stateless_random_contrast(image, lower, upper, seed):
    return _contrast(image, lower, upper, _stateless(seed), "stateless_random_contrast")


def stateless_random_hue(image, max_delta, seed):
    return _hue(image, max_delta, _stateless(seed), "stateless_random_hue")


def stateless_random_saturation(image, lower, upper, seed):
    return _saturation(image, lower, upper, _stateless(seed), "stateless_random_saturation")


def stateless_random_crop(value, size, seed, name=None):
    with op_scope(name, "stateless_random_crop"):
        return _crop(value, size, _stateless(seed), "stateless_random_crop")

