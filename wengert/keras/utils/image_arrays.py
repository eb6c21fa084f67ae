"""Images as arrays and back: `array_to_img`, `img_to_array`, `load_img`, `save_img`.

Pillow (`pip install wengert[image]`) holds the images. array_to_img turns a rank-3 array
(height, width, channels) (channels first with data_format="channels_first") into a PIL image:
with scale=True the values are shifted to a minimum of 0 and stretched to a maximum of 255,
then 4 channels give RGBA, 3 RGB, 1 grayscale ("L", or 32-bit "I" above 255). img_to_array is
the inverse without scaling, in floatx by default; a 2-d image gets a channel axis. load_img
reads a file (path or BytesIO) as rgb, rgba or grayscale, resized to target_size (height,
width) with the named interpolation, cropped to the target's aspect ratio first (centred) when
keep_aspect_ratio. save_img writes array_to_img(x) in the format of the file's extension.
"""
import io
import os
import pathlib
import warnings

import numpy as np

from .. import backend

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "pil_image"]

INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def pil_image(what):
    """PIL.Image, or an ImportError naming the extra that installs it."""
    try:
        from PIL import Image  # optional dependency: wengert[image]
    except ImportError as error:
        raise ImportError(f"{what} needs Pillow: pip install 'wengert[image]' (or pillow)."
                          ) from error
    return Image


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A PIL image of the rank-3 array `x`."""
    image = pil_image("array_to_img")
    data_format = backend.standardize_data_format(data_format)
    x = np.array(x, dtype=dtype or backend.floatx())
    if x.ndim != 3:
        raise ValueError(f"array_to_img: expected an image array of rank 3 (a single image), "
                         f"got shape {x.shape}.")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        if np.max(x) != 0:
            x = x / np.max(x)
        x = x * 255
    channels = x.shape[2]
    if channels in (3, 4):
        return image.fromarray(x.astype("uint8"), "RGBA" if channels == 4 else "RGB")
    if channels == 1:
        if np.max(x) > 255:
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"array_to_img: unsupported number of channels {channels} (shape "
                     f"{x.shape}); use 1, 3 or 4.")


def img_to_array(img, data_format=None, dtype=None):
    """The array (height, width, channels) of a PIL image."""
    data_format = backend.standardize_data_format(data_format)
    x = np.asarray(img, dtype=dtype or backend.floatx())
    if x.ndim == 2:
        x = x[None] if data_format == "channels_first" else x[:, :, None]
    elif x.ndim == 3:
        if data_format == "channels_first":
            x = x.transpose(2, 0, 1)
    else:
        raise ValueError(f"img_to_array: unsupported image shape {x.shape}; expected 2 or 3 "
                         "dimensions.")
    return x


def _open(image, path):
    if isinstance(path, io.BytesIO):
        return image.open(path)
    if isinstance(path, (str, bytes, pathlib.Path, os.PathLike)):
        with open(path, "rb") as f:
            return image.open(io.BytesIO(f.read()))
    raise TypeError(f"load_img: `path` should be path-like or io.BytesIO, not "
                    f"{type(path).__name__}.")


def _crop_box(size, target):
    width, height = size
    target_width, target_height = target
    crop_height = min(height, (width * target_height) // target_width)
    crop_width = min(width, (height * target_width) // target_height)
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return [left, top, left + crop_width, top + crop_height]


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest",
             keep_aspect_ratio=False):
    """A PIL image read from `path`, converted to color_mode and resized to target_size."""
    image = pil_image("load_img")
    modes = {"grayscale": ("L", ("L", "I;16", "I")), "rgba": ("RGBA", ("RGBA",)),
             "rgb": ("RGB", ("RGB",))}
    if color_mode not in modes:
        raise ValueError(f'load_img: color_mode must be "grayscale", "rgb", or "rgba"; got '
                         f"{color_mode!r}.")
    if target_size is not None and interpolation not in INTERPOLATIONS:
        raise ValueError(f"load_img: invalid interpolation {interpolation!r}; supported are "
                         f"{', '.join(INTERPOLATIONS)}.")
    img = _open(image, path)
    mode, accepted = modes[color_mode]
    if img.mode not in accepted:
        img = img.convert(mode)
    if target_size is None:
        return img
    target = (int(target_size[1]), int(target_size[0]))
    if img.size == target:
        return img
    resample = getattr(image.Resampling, interpolation.upper())
    box = _crop_box(img.size, target) if keep_aspect_ratio else None
    return img.resize(target, resample, box=box)


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Write the array `x` as an image file (format from the extension unless file_format)."""
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("save_img: the JPEG format does not support RGBA images; converting to "
                      "RGB.", stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)
