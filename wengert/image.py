"""`wengert.image`: TensorFlow's `tf.image` namespace: resizing, flips, crops and pads, colour
adjustments, image metrics, glimpses and boxes, random augmentations and the codecs, as
TensorFlow 2 computes them (the code is in ops/image/)."""
from .ops.image.boxes import (combined_non_max_suppression, draw_bounding_boxes,
                              non_max_suppression_with_scores)
from .ops.image.codecs import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image,
                               decode_jpeg, decode_png, decode_webp, encode_jpeg, encode_png,
                               extract_jpeg_shape, is_jpeg)
from .ops.image.color import (adjust_brightness, adjust_contrast, convert_image_dtype,
                              grayscale_to_rgb, image_gradients, per_image_standardization, psnr,
                              rgb_to_grayscale, sobel_edges, total_variation)
from .ops.image.color_spaces import (adjust_gamma, adjust_hue, adjust_saturation, hsv_to_rgb,
                                     rgb_to_hsv, rgb_to_yiq, rgb_to_yuv, yiq_to_rgb, yuv_to_rgb)
from .ops.image.crop_and_resize import crop_and_resize
from .ops.image.distort import (sample_distorted_bounding_box,
                                stateless_sample_distorted_bounding_box)
from .ops.image.geometry import (central_crop, crop_to_bounding_box, flip_left_right, flip_up_down,
                                 pad_to_bounding_box, resize_with_crop_or_pad, resize_with_pad,
                                 rot90, transpose)
from .ops.image.glimpse import extract_glimpse
from .ops.image.jpeg_quality import (adjust_jpeg_quality, random_jpeg_quality,
                                     stateless_random_jpeg_quality)
from .ops.image.metrics import ssim
from .ops.image.multiscale import ssim_multiscale
from .ops.image.patches import (extract_patches, non_max_suppression, non_max_suppression_overlaps,
                                non_max_suppression_padded)
from .ops.image.random_image import (random_brightness, random_contrast, random_crop,
                                     random_flip_left_right, random_flip_up_down, random_hue,
                                     random_saturation, stateless_random_brightness,
                                     stateless_random_contrast, stateless_random_crop,
                                     stateless_random_flip_left_right,
                                     stateless_random_flip_up_down, stateless_random_hue,
                                     stateless_random_saturation)
from .ops.image.resize import ResizeMethod, resize
