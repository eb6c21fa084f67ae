"""Flips, rotations, crops and pads of images [batch, h, w, c] or [h, w, c], as TensorFlow's
tf.image: slices, reversals, transposes and pads, so their gradients are those ops' (a crop's
gradient is zero outside the crop, a pad's is the interior)."""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..reshape_ops import transpose as _transpose
from ..indexing_ops import reverse
from ..pad_ops import pad
from .resize import resize

__all__ = ["flip_left_right", "flip_up_down", "rot90", "transpose", "crop_to_bounding_box",
           "pad_to_bounding_box", "central_crop", "resize_with_crop_or_pad", "resize_with_pad"]


def _image(image, what):
    image = convert_to_tensor(image)
    if image.shape.rank not in (3, 4):
        raise InvalidArgumentError(f"{what}: 'image' must have rank 3 or 4, got shape "
                                   f"{image.shape}.")
    return image, image.shape.rank - 3  # (tensor, offset of the height axis)


def flip_left_right(image):
    image, o = _image(image, "flip_left_right")
    return reverse(image, [o + 1])


def flip_up_down(image):
    image, o = _image(image, "flip_up_down")
    return reverse(image, [o])


def transpose(image, name=None):
    with op_scope(name, "transpose"):
        image, o = _image(image, "transpose")
        return _transpose(image, [0, 2, 1, 3] if o else [1, 0, 2])


def rot90(image, k=1, name=None):
    """Rotated counter-clockwise by k quarter turns."""
    with op_scope(name, "rot90"):
        image, _ = _image(image, "rot90")
        k = int(k) % 4
        for _ in range(k):
            image = flip_up_down(transpose(image))
        return image


def _size(image, o):
    h, w = image.shape[o], image.shape[o + 1]
    if h is None or w is None:
        raise InvalidArgumentError("the image height and width must be known.")
    return h, w


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    image, o = _image(image, "crop_to_bounding_box")
    h, w = _size(image, o)
    if offset_height < 0 or offset_width < 0 or offset_height + target_height > h or \
            offset_width + target_width > w or target_height <= 0 or target_width <= 0:
        raise InvalidArgumentError(
            f"crop_to_bounding_box: the box at ({offset_height}, {offset_width}) of size "
            f"({target_height}, {target_width}) must lie inside the image of size ({h}, {w}).")
    rows = slice(offset_height, offset_height + target_height)
    cols = slice(offset_width, offset_width + target_width)
    return image[:, rows, cols] if o else image[rows, cols]


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    image, o = _image(image, "pad_to_bounding_box")
    h, w = _size(image, o)
    after_h, after_w = target_height - offset_height - h, target_width - offset_width - w
    if min(offset_height, offset_width, after_h, after_w) < 0:
        raise InvalidArgumentError(
            f"pad_to_bounding_box: an image of size ({h}, {w}) at ({offset_height}, "
            f"{offset_width}) does not fit in ({target_height}, {target_width}).")
    pads = [[offset_height, after_h], [offset_width, after_w], [0, 0]]
    return pad(image, [[0, 0]] * o + pads)


def central_crop(image, central_fraction):
    if not 0.0 < central_fraction <= 1.0:
        raise ValueError(f"central_crop: central_fraction must be in (0, 1], got "
                         f"{central_fraction}.")
    image, o = _image(image, "central_crop")
    if central_fraction == 1.0:
        return image
    h, w = _size(image, o)
    top = int((h - h * central_fraction) / 2)
    left = int((w - w * central_fraction) / 2)
    return crop_to_bounding_box(image, top, left, h - 2 * top, w - 2 * left)


def resize_with_crop_or_pad(image, target_height, target_width):
    """Centred crop where the image is larger, centred zero pad where it is smaller."""
    image, o = _image(image, "resize_with_crop_or_pad")
    h, w = _size(image, o)
    crop_h, crop_w = max(h - target_height, 0), max(w - target_width, 0)
    image = crop_to_bounding_box(image, crop_h // 2, crop_w // 2, min(h, target_height),
                                 min(w, target_width))
    h, w = min(h, target_height), min(w, target_width)
    return pad_to_bounding_box(image, (target_height - h) // 2, (target_width - w) // 2,
                               target_height, target_width)


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """Resized to fit inside the target keeping its aspect ratio, then zero padded to it
    (centred), as TensorFlow's resize_image_with_pad."""
    image, o = _image(image, "resize_with_pad")
    size, top, left = pad_geometry(*_size(image, o), target_height, target_width)
    resized = resize(image, size, method=method, antialias=antialias)
    return pad_to_bounding_box(resized, top, left, target_height, target_width)


def pad_geometry(h, w, target_height, target_width):
    """([height, width] to resize to, top pad, left pad) of resize_with_pad, in float32 as
    TensorFlow computes them (8 / (8 / 7) is 6.9999995 there, so the width is 6); the offsets
    use the unrounded sizes."""
    f = np.float32
    ratio = max(f(w) / f(target_width), f(h) / f(target_height))
    exact_h, exact_w = f(h) / ratio, f(w) / ratio
    return ([int(np.floor(exact_h)), int(np.floor(exact_w))],
            max(0, int(np.floor((f(target_height) - exact_h) / f(2)))),
            max(0, int(np.floor((f(target_width) - exact_w) / f(2)))))
