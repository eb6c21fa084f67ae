"""JPEG re-compression as an image augmentation, as TensorFlow's tf.image defines it:
adjust_jpeg_quality converts the image to uint8 (saturating), encodes it as JPEG at
`jpeg_quality` (0-100), decodes it with the same number of channels (1 or 3) and converts back
to the image's dtype; random_jpeg_quality draws the quality uniformly from the integers
[min_jpeg_quality, max_jpeg_quality) with wengert's random ops (stateless_: a pure function of
the [2] seed; the draws are not TensorFlow's). The codec is Pillow's (codecs.py), so these need
`pip install "wengert[image]"`; like TensorFlow's, they are not differentiable.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..array_ops import stack
from ..random.seeded import uniform
from ..random.stateless import stateless_uniform
from ..io.script import numpy_function
from .codecs import _decode_jpeg_np, _encode_jpeg_np, _shaped, check_jpeg_decoding
from .color import convert_image_dtype

__all__ = ["adjust_jpeg_quality", "random_jpeg_quality", "stateless_random_jpeg_quality"]


def _recompress(array, quality):
    data = _encode_jpeg_np(array, "", int(np.asarray(quality)), False, False, True, "in", 300,
                           300, "")
    return _decode_jpeg_np(data, array.shape[-1], 1, "adjust_jpeg_quality")


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """`image` [h, w, 1 or 3] or [batch, h, w, 1 or 3] after a JPEG round trip at
    `jpeg_quality`, in its own dtype; dct_method as decode_jpeg reads it."""
    check_jpeg_decoding("adjust_jpeg_quality", dct_method)
    with op_scope(name, "adjust_jpeg_quality"):
        image = convert_to_tensor(image)
        if image.shape.rank not in (3, 4) or image.shape[-1] not in (1, 3):
            raise InvalidArgumentError(f"adjust_jpeg_quality: image must be [height, width, 1 or 3]"
                                       f" or batched, got shape {image.shape}.")
        quality = convert_to_tensor(jpeg_quality, dtype=dtypes.int32)
        as_uint8 = convert_image_dtype(image, dtypes.uint8, saturate=True)
        if image.shape.rank == 3:
            out = numpy_function(_recompress, [as_uint8, quality], dtypes.uint8)
        else:
            out = stack([numpy_function(_recompress, [as_uint8[b], quality], dtypes.uint8)
                         for b in range(int(image.shape[0]))])
        return convert_image_dtype(_shaped(out, image.shape), image.dtype, saturate=True)


def _check_range(lo, hi, what):
    if not (0 <= lo <= 100 and 0 <= hi <= 100):
        raise ValueError(f"{what}: jpeg encoding range must be between 0 and 100, got "
                         f"[{lo}, {hi}].")
    if lo >= hi:
        raise ValueError(f"{what}: `min_jpeg_quality` must be less than `max_jpeg_quality`, "
                         f"got {lo} and {hi}.")


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    _check_range(min_jpeg_quality, max_jpeg_quality, "random_jpeg_quality")
    quality = uniform([], min_jpeg_quality, max_jpeg_quality, dtypes.int32, seed=seed)
    return adjust_jpeg_quality(image, quality)


def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    _check_range(min_jpeg_quality, max_jpeg_quality, "stateless_random_jpeg_quality")
    quality = stateless_uniform([], seed, min_jpeg_quality, max_jpeg_quality, dtypes.int32)
    return adjust_jpeg_quality(image, quality)
