"""TensorFlow 1's names and argument orders for moving data between space, depth and batch:
`batch_to_space_nd`, `depth_to_space`/`space_to_depth` (name before data_format), and
`extract_image_patches` (`ksizes` for TensorFlow 2's `sizes`)."""
from ..ops import space_ops
from ..ops.image.patches import extract_patches

__all__ = ["batch_to_space_nd", "depth_to_space", "extract_image_patches", "space_to_depth"]


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002 (TF's name)
    """Blocks of the batch moved back into the spatial dimensions, then cropped."""
    return space_ops.batch_to_space(input, block_shape, crops, name=name)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """Channel blocks moved into block_size x block_size spatial tiles."""
    return space_ops.depth_to_space(input, block_size, data_format=data_format, name=name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """block_size x block_size spatial tiles moved into channels."""
    return space_ops.space_to_depth(input, block_size, data_format=data_format, name=name)


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None,
                          name=None, sizes=None):
    """Patches of `images` as channels (`ksizes` or its TensorFlow 2 name `sizes`)."""
    if (ksizes is None) == (sizes is None):
        raise ValueError("extract_image_patches: give exactly one of `ksizes` and `sizes` "
                         f"(got ksizes={ksizes}, sizes={sizes}).")
    return extract_patches(images, ksizes if sizes is None else sizes, strides, rates, padding,
                           name=name)
