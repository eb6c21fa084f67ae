"""tf.image.sample_distorted_bounding_box and its stateless form: a random crop of an image of
`image_size` [h, w, c] that keeps enough of an object, with TensorFlow's algorithm
(SampleDistortedBoundingBoxV2). Boxes [y_min, x_min, y_max, x_max] in [0, 1] become pixel
rectangles (truncated); up to max_attempts times, an aspect ratio r ~ U[r_min, r_max) is drawn,
then a height between round(sqrt(area_min h w / r)) and round(sqrt(area_max h w / r)) (capped so
the width round(height r) fits), the top-left corner uniformly where the crop fits, and the crop
is kept if it covers at least min_object_covered of some box. With no success, the whole image.
Returns (begin [y, x, 0], size [height, width, -1], bboxes [1, 1, 4] the crop in [0, 1]); feed
begin and size to tf.slice. The draws come from a NumPy generator seeded by wengert's random
ops (stateful) or by the [2] seed itself (stateless, a pure function of it), so the crops are
not TensorFlow's for the same seeds. Not differentiable (TensorFlow's is not either).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ...framework.device import settings
from ..cast_ops import cast
from ..random.seeded import uniform
from ..random.stateless import _seed as _stateless_seed
from ..io.script import numpy_function
from .codecs import _shaped

__all__ = ["sample_distorted_bounding_box", "stateless_sample_distorted_bounding_box",
           "sample_distorted_bounding_box_v1"]


def _rects(boxes, h, w):
    """Pixel rectangles (x0, y0, x1, y1) of normalized boxes, truncated as int32 casts do."""
    f = np.float32
    out = []
    for y0, x0, y1, x1 in boxes.reshape(-1, 4).astype(np.float32):
        out.append((int(x0 * f(w)), int(y0 * f(h)), int(x1 * f(w)), int(y1 * f(h))))
    return out


def _area(rect):
    return max(rect[2] - rect[0], 0) * max(rect[3] - rect[1], 0)


def _covers(crop, rects, min_covered):
    if _area(crop) < 1:
        return False
    for rect in rects:
        if _area(rect) < 1:
            continue
        inter = (max(crop[0], rect[0]), max(crop[1], rect[1]), min(crop[2], rect[2]),
                 min(crop[3], rect[3]))
        if np.float32(_area(inter)) / np.float32(_area(rect)) >= np.float32(min_covered):
            return True
    return False


def _random_crop(rng, w, h, rects, min_covered, area_range, ratio):
    f = np.float32
    min_area, max_area = f(area_range[0]) * f(w) * f(h), f(area_range[1]) * f(w) * f(h)
    height = int(np.rint(np.sqrt(min_area / ratio)))
    max_height = int(np.rint(np.sqrt(max_area / ratio)))
    if np.rint(f(max_height) * ratio) > w:
        max_height = int((w + 0.5 - 1e-7) / ratio)
        if np.rint(f(max_height) * ratio) > w:
            max_height -= 1
    max_height = min(max_height, h)
    height = min(height, max_height)
    if height < max_height:
        height += int(rng.integers(0, max_height - height + 1))
    width = int(np.rint(f(height) * ratio))
    area = f(width * height)
    if area < min_area:
        height += 1
        width = int(np.rint(f(height) * ratio))
        area = f(width * height)
    if area > max_area:
        height -= 1
        width = int(np.rint(f(height) * ratio))
        area = f(width * height)
    if area < min_area or area > max_area or width > w or height > h or width <= 0 \
            or height <= 0:
        return None
    y = int(rng.integers(0, h - height)) if height < h else 0
    x = int(rng.integers(0, w - width)) if width < w else 0
    crop = (x, y, x + width, y + height)
    return crop if _covers(crop, rects, min_covered) else None


def _sample(image_size, boxes, seed, min_covered, ratio_range, area_range, attempts,
            use_image, what):
    size = np.asarray(image_size).reshape(-1)
    if size.shape != (3,):
        raise InvalidArgumentError(f"{what}: image_size must contain 3 elements [height, width, "
                                   f"channels], got {size.tolist()}.")
    boxes = np.asarray(boxes, np.float32)
    if boxes.ndim != 3 or boxes.shape[-1] != 4:
        raise InvalidArgumentError(f"{what}: bounding_boxes must be 3-dimensional [batch, "
                                   f"num_boxes, 4], got shape {boxes.shape}.")
    h, w = int(size[0]), int(size[1])
    rects = _rects(boxes, h, w)
    if not rects:
        if not use_image:
            raise InvalidArgumentError(f"{what}: no bounding boxes provided as input; enable "
                                       f"use_image_if_no_bounding_boxes to crop the whole image.")
        rects = [(0, 0, w, h)]
    rng = np.random.default_rng([int(s) & 0xFFFFFFFF for s in np.asarray(seed).reshape(-1)])
    crop = None
    for _ in range(attempts):
        ratio = np.float32(rng.random() * (ratio_range[1] - ratio_range[0]) + ratio_range[0])
        crop = _random_crop(rng, w, h, rects, min_covered, area_range, ratio)
        if crop is not None:
            break
    x0, y0, x1, y1 = crop if crop is not None else (0, 0, w, h)
    f = np.float32
    bboxes = np.array([[[f(y0) / f(h), f(x0) / f(w), f(y1) / f(h), f(x1) / f(w)]]], np.float32)
    return (np.array([y0, x0, 0], size.dtype), np.array([y1 - y0, x1 - x0, -1], size.dtype),
            bboxes)


def _run(image_size, bounding_boxes, seed, min_object_covered, aspect_ratio_range,
         area_range, max_attempts, use_image_if_no_bounding_boxes, what):
    ratio_range = [float(r) for r in (aspect_ratio_range or (0.75, 1.33))]
    area_range = [float(a) for a in (area_range or (0.05, 1.0))]
    attempts = 100 if max_attempts is None else int(max_attempts)
    if len(ratio_range) != 2 or min(ratio_range) <= 0:
        raise InvalidArgumentError(f"{what}: aspect_ratio_range must be two positive numbers, "
                                   f"got {ratio_range}.")
    if len(area_range) != 2 or not 0 < area_range[0] <= area_range[1] <= 1:
        raise InvalidArgumentError(f"{what}: area_range must be two numbers in (0, 1], the "
                                   f"first not above the second, got {area_range}.")
    if attempts <= 0:
        raise InvalidArgumentError(f"{what}: max_attempts must be positive, got {attempts}.")
    covered = float(min_object_covered)
    if covered < 0:
        raise InvalidArgumentError(f"{what}: min_object_covered must be non-negative, got "
                                   f"{covered}.")
    image_size = convert_to_tensor(image_size)
    if not image_size.dtype.is_integer:
        raise InvalidArgumentError(f"{what}: image_size must be integers, got "
                                   f"{image_size.dtype.name}.")
    use = bool(use_image_if_no_bounding_boxes)
    outs = numpy_function(
        lambda s, b, k: _sample(s, b, k, covered, ratio_range, area_range, attempts, use, what),
        [image_size, convert_to_tensor(bounding_boxes, dtype=dtypes.float32), seed],
        [image_size.dtype, image_size.dtype, dtypes.float32])
    return tuple(_shaped(t, shape) for t, shape in zip(outs, ([3], [3], [1, 1, 4])))


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bboxes) of a random crop (see the module docstring); `seed` is the op
    seed (0: none), tf.random.set_seed the global one."""
    with op_scope(name, "sample_distorted_bounding_box"):
        draw = uniform([2], 0, 2 ** 31 - 1, dtypes.int32, seed=seed or None)
        return _run(image_size, bounding_boxes, draw, min_object_covered, aspect_ratio_range,
                    area_range, max_attempts, use_image_if_no_bounding_boxes,
                    "sample_distorted_bounding_box")


def sample_distorted_bounding_box_v1(image_size, bounding_boxes, seed=None, seed2=None,
                                     min_object_covered=0.1, aspect_ratio_range=None,
                                     area_range=None, max_attempts=None,
                                     use_image_if_no_bounding_boxes=None, name=None):
    """TensorFlow 1's signature (seed, seed2) of sample_distorted_bounding_box: when either
    seed is non-zero the op is seeded by the pair (seed2 alone seeds it too), else by the
    global seed; with op determinism enabled one of them must be non-zero (TensorFlow's
    ValueError)."""
    if not seed and not seed2 and settings.op_determinism:
        raise ValueError(
            'tf.compat.v1.image.sample_distorted_bounding_box requires "seed" or "seed2" to be '
            'non-zero when determinism is enabled. Please pass in a non-zero seed, e.g. by '
            f'passing "seed=1". Got seed={seed} and seed2={seed2}')
    op_seed = seed or 0
    if seed2:  # one op seed for the pair, never 0 (which would mean "none")
        op_seed = (op_seed * 1000003 + int(seed2)) % (2 ** 31 - 1) or 1
    return sample_distorted_bounding_box(image_size, bounding_boxes, op_seed,
                                         min_object_covered, aspect_ratio_range, area_range,
                                         max_attempts, use_image_if_no_bounding_boxes, name=name)


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bboxes) of a random crop, a pure function of `seed` (shape [2])."""
    with op_scope(name, "stateless_sample_distorted_bounding_box"):
        what = "stateless_sample_distorted_bounding_box"
        seed = cast(_stateless_seed(seed, what), dtypes.int64)
        return _run(image_size, bounding_boxes, seed, min_object_covered, aspect_ratio_range,
                    area_range, max_attempts, use_image_if_no_bounding_boxes, what)
