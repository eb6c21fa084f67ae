"""`keras.preprocessing.image`: converting images between arrays, PIL images and files, the
functions `keras.utils` also names (utils/image_arrays.py holds them)."""
from ..utils.image_arrays import array_to_img, img_to_array, load_img, save_img

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img"]
