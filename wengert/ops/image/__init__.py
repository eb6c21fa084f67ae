"""`tf.image`: resizing, flips, crops and pads, colour adjustments, image metrics, glimpses and
boxes, as TensorFlow 2 computes them; each is a composition of wengert's ops, so the gradients
with respect to the images are those ops' (see resize.py, geometry.py, color.py,
color_spaces.py, metrics.py, multiscale.py, glimpse.py, boxes.py, random_image.py);
the codecs (codecs.py, png.py) read and write bytes and are not differentiable."""
from .color import (adjust_brightness, adjust_contrast, convert_image_dtype,  # noqa: F401
                    grayscale_to_rgb, image_gradients, per_image_standardization, psnr,
                    rgb_to_grayscale, sobel_edges, total_variation)
from .geometry import (central_crop, crop_to_bounding_box, flip_left_right,  # noqa: F401
                       flip_up_down, pad_to_bounding_box, resize_with_crop_or_pad, rot90,
                       transpose)
from .color_spaces import (adjust_gamma, adjust_hue, adjust_saturation, hsv_to_rgb,  # noqa
                           rgb_to_hsv, rgb_to_yiq, rgb_to_yuv, yiq_to_rgb, yuv_to_rgb)
from .geometry import resize_with_pad  # noqa: F401
from .crop_and_resize import crop_and_resize  # noqa: F401
from .metrics import ssim  # noqa: F401
from .patches import (extract_patches, non_max_suppression,  # noqa: F401
                      non_max_suppression_overlaps, non_max_suppression_padded)
from .boxes import (combined_non_max_suppression, draw_bounding_boxes,  # noqa: F401
                    non_max_suppression_with_scores)
from .glimpse import extract_glimpse  # noqa: F401
from .multiscale import ssim_multiscale  # noqa: F401
from .resize import ResizeMethod, resize  # noqa: F401
from .random_image import (random_brightness, random_contrast, random_crop,  # noqa: F401
                           random_flip_left_right, random_flip_up_down, random_hue,
                           random_saturation, stateless_random_brightness,
                           stateless_random_contrast, stateless_random_crop,
                           stateless_random_flip_left_right, stateless_random_flip_up_down,
                           stateless_random_hue, stateless_random_saturation)
from .codecs import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image,  # noqa: F401
                     decode_jpeg, decode_png, decode_webp, encode_jpeg, encode_png,
                     extract_jpeg_shape, is_jpeg)
from .jpeg_quality import (adjust_jpeg_quality, random_jpeg_quality,  # noqa: F401
                           stateless_random_jpeg_quality)
from .distort import (sample_distorted_bounding_box,  # noqa: F401
                      stateless_sample_distorted_bounding_box)
