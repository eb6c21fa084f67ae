"""`keras.utils`: the helpers Keras 3 gathers there, each in the module named for it.

Arrays and labels (numerical, sequences), splitting and building datasets (dataset_split,
directory datasets, timeseries), batches served by Python indexing (py_dataset), a progress bar
(progbar), images as arrays (image_arrays, Pillow), the offline `get_file` (file_download),
object registration and configs (keras.serialization), symbolic tensors (keras_tensors), a
frozen-able dict (config), the interactive logging switch and model plots.
"""
from ..backend import clear_session
from ..ops.dtypes import standardize_dtype
from ..data_adapter import pack_x_y_sample_weight, unpack_x_y_sample_weight
from ..serialization import (CustomObjectScope, custom_object_scope, deserialize_keras_object,
                             get_custom_objects, get_registered_name, get_registered_object,
                             register_keras_serializable, serialize_keras_object)
from .config import Config
from .dataset_split import split_dataset
from .file_download import get_file
from .image_dataset import image_dataset_from_directory
from .image_arrays import array_to_img, img_to_array, load_img, save_img
from .interactive_logging import (disable_interactive_logging, enable_interactive_logging,
                                  is_interactive_logging_enabled)
from .keras_tensors import get_source_inputs, is_keras_tensor
from .model_visualization import model_to_dot, plot_model
from .numerical import normalize, to_categorical
from .progbar import Progbar
from .py_dataset import PyDataset, Sequence
from .random_seed import set_random_seed
from .sequences import pad_sequences
from .text_dataset import text_dataset_from_directory
from .timeseries_dataset import timeseries_dataset_from_array

__all__ = ["set_random_seed", "to_categorical", "normalize", "pad_sequences", "split_dataset",
           "model_to_dot", "plot_model", "pack_x_y_sample_weight", "unpack_x_y_sample_weight",
           "Config", "get_file", "array_to_img", "img_to_array", "load_img", "save_img",
           "disable_interactive_logging", "enable_interactive_logging",
           "is_interactive_logging_enabled", "get_source_inputs", "is_keras_tensor",
           "Progbar", "PyDataset", "Sequence", "clear_session", "standardize_dtype",
           "CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "get_registered_name", "get_registered_object",
           "register_keras_serializable", "serialize_keras_object",
           "image_dataset_from_directory", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]
