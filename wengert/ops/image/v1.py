"""`tf.compat.v1.image`: every name of tf.image, with TensorFlow 1's resizing in place of
TensorFlow 2's (legacy_resize.py): resize / resize_images take `align_corners` and the integer
ResizeMethod constants, and resize_bilinear, resize_nearest_neighbor, resize_bicubic and
resize_area take `align_corners` and `half_pixel_centers`; resize_image_with_pad takes
`align_corners`, crop_and_resize names its box indices `box_ind`, and extract_glimpse and
sample_distorted_bounding_box (seed, seed2) are TensorFlow 1's. wengert/compat/v1.py
exposes this module as its `image` attribute."""
from . import *  # noqa: F401,F403
from .crop_and_resize import crop_and_resize as _crop_and_resize
from .distort import sample_distorted_bounding_box_v1 as sample_distorted_bounding_box  # noqa
from .glimpse import extract_glimpse_v1 as extract_glimpse  # noqa: F401
from .legacy_resize import (ResizeMethod, resize, resize_area, resize_bicubic,  # noqa: F401
                            resize_bilinear, resize_image_with_pad, resize_images,
                            resize_nearest_neighbor)
from .geometry import resize_with_crop_or_pad as resize_image_with_crop_or_pad  # noqa: F401
from .geometry import transpose as transpose_image  # noqa: F401
from .patches import extract_patches as _extract_patches


def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear",
                    extrapolation_value=0, name=None, box_indices=None):
    """TensorFlow 1's spelling of crop_and_resize: the box indices as `box_ind` (or
    `box_indices`)."""
    if (box_ind is None) == (box_indices is None):
        raise ValueError("crop_and_resize: give the box indices once, as box_ind or "
                         "box_indices.")
    if crop_size is None:
        raise ValueError("crop_and_resize: crop_size is required.")
    return _crop_and_resize(image, boxes, box_ind if box_indices is None else box_indices,
                            crop_size, method=method, extrapolation_value=extrapolation_value)


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None, name=None,
                          sizes=None):
    """TensorFlow 1's name of extract_patches, its window sizes as `ksizes` (or `sizes`)."""
    if (ksizes is None) == (sizes is None):
        raise ValueError("extract_image_patches: give the window sizes once, as ksizes or "
                         "sizes.")
    return _extract_patches(images, ksizes if sizes is None else sizes, strides, rates, padding)
