"""`keras.utils.image_dataset_from_directory`: a labelled image Dataset from a folder tree.

The files (.bmp, .gif, .jpeg, .jpg, .png) are listed, labelled and shuffled as Keras 3 does it
(directory_index.py), cut to the `subset` of validation_split ("both" gives the training and
the validation datasets), and read when reached: decoded with color_mode's channels (rgb 3,
rgba 4, grayscale 1) and resized to image_size = (height, width) with tf.image.resize's
interpolation (float32; "nearest" keeps uint8), after a centred crop to the target's aspect
ratio (crop_to_aspect_ratio) or with zero padding to it (pad_to_aspect_ratio); channels go first
with data_format="channels_first". The training side is shuffled again by a buffer of
8 * batch_size elements under `seed`, as Keras's is; the datasets come in batches of
batch_size and carry `class_names` and `file_paths`.
"""
import numpy as np

from ...framework.tensor import constant
from ...ops.reshape_ops import transpose
from ...ops.image.codecs import decode_image
from ...ops.image.geometry import resize_with_pad
from ...ops.image.resize import resize
from ...tracing.signatures import TensorSpec
from .. import backend
from ..ops.image_resizing import resize as keras_resize
from .directory_index import (check_labels_arg, check_validation_split_arg, file_dataset,
                              index_directory, split_for_subset)

__all__ = ["image_dataset_from_directory", "ALLOWLIST_FORMATS"]

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
                  "mitchellcubic")
CHANNELS = {"rgb": 3, "rgba": 4, "grayscale": 1}


def _check(label_mode, color_mode, image_size, interpolation, crop, pad):
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", '
                         f"or None. Received: label_mode={label_mode}")
    if color_mode not in CHANNELS:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. Received: '
                         f"color_mode={color_mode}")
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    if not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError("Invalid `image_size` value. Expected a tuple of 2 integers. "
                         f"Received: image_size={image_size}")
    if interpolation.lower() not in INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if crop and pad:
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set "
                         "to `True`.")
    return tuple(int(s) for s in image_size)


def _loader(image_size, channels, interpolation, data_format, crop, pad):
    def load(path):
        with open(path, "rb") as f:
            image = decode_image(constant(f.read()), channels=channels, expand_animations=False)
        if crop:
            image = keras_resize(image, image_size, interpolation=interpolation,
                                 crop_to_aspect_ratio=True, data_format="channels_last")
        elif pad:
            image = resize_with_pad(image, image_size[0], image_size[1], method=interpolation)
        else:
            image = resize(image, image_size, method=interpolation)
        return transpose(image, (2, 0, 1)) if data_format == "channels_first" else image
    return load


def _spec(image_size, channels, interpolation, data_format):
    shape = ((channels,) + image_size if data_format == "channels_first"
             else image_size + (channels,))
    return TensorSpec(shape, "uint8" if interpolation == "nearest" else "float32")


def _dataset(paths, labels, class_names, label_mode, build, shuffle, seed, batch_size):
    dataset = file_dataset(paths, labels, build["load"], build["spec"], label_mode,
                           len(class_names) if class_names else 0, shuffle,
                           8 * batch_size if batch_size is not None else 1024, seed, batch_size)
    dataset.class_names, dataset.file_paths = class_names, paths
    return dataset


def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, format="tf",
                                 verbose=True):
    """A Dataset of (images, labels) batches from `directory` (see the module docstring)."""
    check_labels_arg(labels, class_names)
    image_size = _check(label_mode, color_mode, image_size, interpolation,
                        crop_to_aspect_ratio, pad_to_aspect_ratio)
    if format != "tf":
        raise ValueError(f'`format` should be "tf" (grain is not available). Received: '
                         f"format={format}")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    check_validation_split_arg(validation_split, subset, shuffle, seed)
    seed = np.random.randint(1e6) if seed is None else seed
    paths, labels, class_names = index_directory(directory, labels, ALLOWLIST_FORMATS,
                                                 class_names, shuffle, seed, follow_links,
                                                 verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    data_format = backend.standardize_data_format(data_format)
    interpolation = interpolation.lower()
    channels = CHANNELS[color_mode]
    build = {"load": _loader(image_size, channels, interpolation, data_format,
                             crop_to_aspect_ratio, pad_to_aspect_ratio),
             "spec": _spec(image_size, channels, interpolation, data_format)}
    subsets = ("training", "validation") if subset == "both" else (subset,)
    out = []
    for part in subsets:
        part_paths, part_labels = split_for_subset(paths, labels, validation_split, part)
        if not part_paths:
            raise ValueError(f"No {part + ' ' if part else ''}images found in directory "
                             f"{directory}. Allowed formats: {ALLOWLIST_FORMATS}")
        out.append(_dataset(part_paths, part_labels, class_names, label_mode, build,
                            shuffle and (subset, part) != ("both", "validation"), seed,
                            batch_size))
    return out if subset == "both" else out[0]
