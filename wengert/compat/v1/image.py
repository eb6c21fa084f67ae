"""`wengert.compat.v1.image`: every name of tf.image, with TensorFlow 1's resizing in place of
TensorFlow 2's (ops/image/legacy_resize.py): resize / resize_images take `align_corners` and the
integer ResizeMethod constants, and resize_bilinear, resize_nearest_neighbor, resize_bicubic and
resize_area take `align_corners` and `half_pixel_centers`; resize_image_with_pad takes
`align_corners`, crop_and_resize names its box indices `box_ind`, and extract_glimpse and
sample_distorted_bounding_box (seed, seed2) are TensorFlow 1's, as is the order of
draw_bounding_boxes' and the resize_* functions' arguments (tf1/image_v1.py)."""
from ...image import *  # noqa: F403
from ...ops.image.crop_and_resize import crop_and_resize_v1 as crop_and_resize
from ...ops.image.distort import sample_distorted_bounding_box_v1 as sample_distorted_bounding_box
from ...ops.image.geometry import resize_with_crop_or_pad as resize_image_with_crop_or_pad
from ...ops.image.geometry import transpose as transpose_image
from ...ops.image.glimpse import extract_glimpse_v1 as extract_glimpse
from ...ops.image.legacy_resize import (ResizeMethod, resize, resize_area,
                                        resize_image_with_pad, resize_images)
from ...tf1.image_v1 import (draw_bounding_boxes, resize_bicubic, resize_bilinear,
                             resize_nearest_neighbor)
from ...ops.image.patches import extract_image_patches
