"""`keras.preprocessing`: Keras 3's older home of its data utilities, kept for the programs that
still import them from here: the dataset builders (`image_dataset_from_directory`,
`text_dataset_from_directory`, `timeseries_dataset_from_array`), `image` (array and file
conversions) and `sequence` (`pad_sequences`). Each name is the one in `keras.utils`.
"""
from ..utils import (image_dataset_from_directory, text_dataset_from_directory,
                     timeseries_dataset_from_array)
from . import image, sequence

__all__ = ["image", "sequence", "image_dataset_from_directory", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]
