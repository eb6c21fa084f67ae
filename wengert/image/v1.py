"""`tf.compat.v1.image`: every name of tf.image, with TensorFlow 1's resizing in place of
TensorFlow 2's (legacy_resize.py): resize / resize_images take `align_corners` and the integer
ResizeMethod constants, and resize_bilinear, resize_nearest_neighbor, resize_bicubic and
resize_area take `align_corners` and `half_pixel_centers`. wengert/compat/v1.py exposes this
module as its `image` attribute."""
from . import *  # noqa: F401,F403
from .legacy_resize import (ResizeMethod, resize, resize_area, resize_bicubic,  # noqa: F401
                            resize_bilinear, resize_images, resize_nearest_neighbor)
from .geometry import resize_with_crop_or_pad as resize_image_with_crop_or_pad  # noqa: F401
