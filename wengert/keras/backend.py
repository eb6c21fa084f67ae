"""`keras.backend`: the default float type, the fuzz factor, the image layout, layer names and
seeds.

`backend()` names the backend: "tensorflow", since wengert answers TensorFlow's Keras.
`floatx()` is the dtype layers and their weights use unless told otherwise ("float32").
`epsilon()` (1e-7) is the fuzz factor losses clip probabilities with. `image_data_format()` is
"channels_last" (height, width, channels) or "channels_first". Layer names are made unique per
process the way Keras does ("dense", "dense_1", ...): `get_uid(prefix)` counts the names handed
out under a prefix (1 for the first); `clear_session()` resets the counters. The public
`keras.backend` also offers standardize_dtype, result_type, is_float_dtype, is_int_dtype
(keras.ops.dtypes's) and is_keras_tensor (keras.utils's), attached by keras/__init__.py since
those modules sit above this one. Initializers and Dropout layers created without a seed draw one from a process-wide
NumPy Generator, which `keras.utils.set_random_seed(seed)` reseeds for reproducible runs.
"""
import gc
import re

import numpy as np

__all__ = ["backend", "floatx", "set_floatx", "epsilon", "set_epsilon", "clear_session",
           "unique_name", "get_uid", "image_data_format", "set_image_data_format",
           "standardize_data_format"]

_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = ["channels_last"]
_DATA_FORMATS = ("channels_last", "channels_first")
_NAME_COUNTS = {}
_SEED_SOURCE = [np.random.default_rng()]


def backend():
    """The name of the backend Keras runs on: "tensorflow" (wengert answers TensorFlow's)."""
    return "tensorflow"


def floatx():
    """The default float dtype name of layers and weights."""
    return _FLOATX


def set_floatx(value):
    global _FLOATX
    if value not in ("float16", "float32", "float64"):
        raise ValueError(f"Unknown floatx type: {value!r}; expected 'float16', 'float32' or "
                         "'float64'.")
    _FLOATX = value


def epsilon():
    """The fuzz factor used to clip probabilities away from 0 and 1."""
    return _EPSILON


def set_epsilon(value):
    global _EPSILON
    _EPSILON = float(value)


def image_data_format():
    """"channels_last" or "channels_first": where image layers expect the channel axis."""
    return _IMAGE_DATA_FORMAT[0]


def set_image_data_format(data_format):
    _IMAGE_DATA_FORMAT[0] = standardize_data_format(data_format)


def standardize_data_format(data_format):
    """`data_format` checked, or the global image_data_format() when None."""
    if data_format is None:
        return image_data_format()
    value = str(data_format).lower()
    if value not in _DATA_FORMATS:
        raise ValueError(f"The `data_format` argument must be one of {_DATA_FORMATS}. "
                         f"Received: data_format={data_format!r}")
    return value


def get_uid(prefix=""):
    """1 the first time for `prefix`, then 2, 3, ... (shared with layer naming)."""
    _NAME_COUNTS[prefix] = _NAME_COUNTS.get(prefix, 0) + 1
    return _NAME_COUNTS[prefix]


def to_snake_case(name):
    """'Dense' -> 'dense', 'SparseCategoricalAccuracy' -> 'sparse_categorical_accuracy'."""
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)  # Keras's rule: 'Conv2D' -> 'conv2d'
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(base):
    """`base` the first time, then `base_1`, `base_2`, ... (per process, until clear_session),
    as Keras 3 names layers (`dense`, `dense_1`; inputs `input_layer`, `input_layer_1`)."""
    count = _NAME_COUNTS.get(base, 0)
    _NAME_COUNTS[base] = count + 1
    return base if count == 0 else f"{base}_{count}"


def clear_session(free_memory=True):
    """Reset the layer name counters (the next Dense is named 'dense' again); with free_memory
    run Python's garbage collector as well."""
    _NAME_COUNTS.clear()
    if free_memory:
        gc.collect()


def next_seed():
    """A fresh seed from the process-wide generator (see utils.set_random_seed)."""
    return int(_SEED_SOURCE[0].integers(0, 2**31 - 1))


def reseed(seed):
    _SEED_SOURCE[0] = np.random.default_rng(seed)


def rng():
    """The process-wide generator (shuffling in fit)."""
    return _SEED_SOURCE[0]
