"""tf.image.crop_and_resize: crops of `image` [batch, h, w, c] given by normalised `boxes`
[n, 4] (y1, x1, y2, x2; 0 and 1 are the first and last pixel centres), each from the image
`box_indices[k]`, resampled to `crop_size` [ch, cw], as TensorFlow's CropAndResize:
    row i of crop k samples y = y1 (h - 1) + i (y2 - y1) (h - 1) / (ch - 1)
    (the box's centre row when ch = 1), and likewise for columns; bilinear between the pixels
    floor(y), ceil(y) (or the nearest pixel, halves rounded up as C's roundf rounds these
    non-negative coordinates), `extrapolation_value` outside the image.
Written in wengert's ops, so the result is differentiable with respect to the image and the
boxes (the interpolation weights depend on the box coordinates), as TensorFlow's is.
"""
from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..cast_ops import cast
from ..reshape_ops import reshape
from ..broadcast_ops import zeros_like
from ..reshape_ops import expand_dims
from ..array_ops import stack, unstack, where
from ..math_ops import clip_by_value
from ..creation_ops import range as range_
from ..indexing_ops import gather_nd
from ..math_ops import logical_and
from ..rounding_ops import ceil, floor

__all__ = ["crop_and_resize"]


def _axis_points(low, high, size, extent):
    """[n, size] sample coordinates along one axis for boxes spanning [low, high] (normalised)."""
    if size > 1:
        steps = cast(range_(size), low.dtype) / float(size - 1)
        return expand_dims(low * (extent - 1), 1) + expand_dims((high - low) * (extent - 1), 1) \
            * expand_dims(steps, 0)
    return expand_dims(0.5 * (low + high) * (extent - 1), 1)


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None):
    with op_scope(name, "crop_and_resize"):
        image, boxes = convert_to_tensor(image), convert_to_tensor(boxes)
        if image.shape.rank != 4 or None in image.shape[1:3]:
            raise InvalidArgumentError(f"crop_and_resize: image must be [batch, h, w, c] with "
                                       f"known h and w, got shape {image.shape}.")
        if boxes.shape.rank != 2 or boxes.shape[1] != 4:
            raise InvalidArgumentError(f"crop_and_resize: boxes must be [n, 4], got shape "
                                       f"{boxes.shape}.")
        if method not in ("bilinear", "nearest"):
            raise ValueError(f"crop_and_resize: method must be 'bilinear' or 'nearest', got "
                             f"{method!r}.")
        crop_h, crop_w = (int(v) for v in crop_size)
        h, w = int(image.shape[1]), int(image.shape[2])
        floating = image.dtype in (dtypes.float32, dtypes.float64)
        x = image if floating else cast(image, dtypes.float32)
        boxes = cast(boxes, x.dtype)
        y1, x1, y2, x2 = unstack(boxes, 4, axis=1)
        rows = expand_dims(_axis_points(y1, y2, crop_h, h), 2)          # [n, ch, 1]
        cols = expand_dims(_axis_points(x1, x2, crop_w, w), 1)          # [n, 1, cw]
        rows, cols = rows + zeros_like(cols), cols + zeros_like(rows)   # [n, ch, cw]
        which = cast(convert_to_tensor(box_indices), dtypes.int32)
        which = reshape(which, [-1, 1, 1]) + cast(zeros_like(rows), dtypes.int32)
        inside = logical_and(logical_and(rows >= 0.0, rows <= h - 1.0),
                             logical_and(cols >= 0.0, cols <= w - 1.0))

        def pixel(r, c):
            index = stack([which, cast(_clip(r, h), dtypes.int32), cast(_clip(c, w), dtypes.int32)],
                          axis=-1)
            return gather_nd(x, index)

        if method == "nearest":
            out = pixel(floor(rows + 0.5), floor(cols + 0.5))  # C's roundf: halves away from 0
        else:
            top, left = floor(rows), floor(cols)
            bottom, right = ceil(rows), ceil(cols)
            dy, dx = expand_dims(rows - top, -1), expand_dims(cols - left, -1)
            upper = pixel(top, left) + (pixel(top, right) - pixel(top, left)) * dx
            lower = pixel(bottom, left) + (pixel(bottom, right) - pixel(bottom, left)) * dx
            out = upper + (lower - upper) * dy
        fill = zeros_like(out) + extrapolation_value
        return where(expand_dims(inside, -1), out, fill)


def _clip(t, size):
    return clip_by_value(t, 0.0, size - 1.0)


def crop_and_resize_v1(image, boxes, box_ind=None, crop_size=None, method="bilinear",
                    extrapolation_value=0, name=None, box_indices=None):
    """TensorFlow 1's spelling of crop_and_resize: the box indices as `box_ind` (or
    `box_indices`)."""
    if (box_ind is None) == (box_indices is None):
        raise ValueError("crop_and_resize: give the box indices once, as box_ind or "
                         "box_indices.")
    if crop_size is None:
        raise ValueError("crop_and_resize: crop_size is required.")
    return crop_and_resize(image, boxes, box_ind if box_indices is None else box_indices,
                            crop_size, method=method, extrapolation_value=extrapolation_value,
                            name=name)
