"""TensorFlow 1's image functions whose argument order differs from TensorFlow 2's, as
`tf.compat.v1.image` has them (`name` before the newer optional arguments):

    draw_bounding_boxes(images, boxes, name, colors)
    resize_bilinear / resize_bicubic / resize_nearest_neighbor(images, size, align_corners,
                                                               name, half_pixel_centers)

The values are those of ops/image/boxes.py and ops/image/legacy_resize.py."""
from ..ops.image import boxes as _boxes, legacy_resize

__all__ = ["draw_bounding_boxes", "resize_bicubic", "resize_bilinear", "resize_nearest_neighbor"]


def draw_bounding_boxes(images, boxes, name=None, colors=None):
    """`images` with the outlines of `boxes` ([y_min, x_min, y_max, x_max], relative) drawn."""
    return _boxes.draw_bounding_boxes(images, boxes, colors, name)


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """`images` resized to `size` by bilinear interpolation (TF 1's ResizeBilinear)."""
    return legacy_resize.resize_bilinear(images, size, align_corners, half_pixel_centers, name)


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """`images` resized to `size` by bicubic interpolation (TF 1's ResizeBicubic)."""
    return legacy_resize.resize_bicubic(images, size, align_corners, half_pixel_centers, name)


def resize_nearest_neighbor(images, size, align_corners=False, name=None,
                            half_pixel_centers=False):
    """`images` resized to `size` by nearest neighbours (TF 1's ResizeNearestNeighbor)."""
    return legacy_resize.resize_nearest_neighbor(images, size, align_corners,
                                                 half_pixel_centers, name)
