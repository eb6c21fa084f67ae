"""`keras.ops.image`: Keras 3's image ops (the code is in the modules named below)."""
from . import image_filters, image_resizing, image_sampling
from .image_filters import *  # noqa: F403  gaussian_blur, sobel_edges, ssim, extract_patches
from .image_resizing import *  # noqa: F403  colour conversions, resize, crop/pad, scaling
from .image_sampling import *  # noqa: F403  affine/perspective/elastic transforms, map_coordinates

__all__ = image_filters.__all__ + image_resizing.__all__ + image_sampling.__all__
