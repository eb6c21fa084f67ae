"""Keras backend helpers: the default float type, the fuzz factor, layer names and seeds.

`floatx()` is the dtype layers and their weights use unless told otherwise ("float32").
`epsilon()` (1e-7) is the fuzz factor losses clip probabilities with. Layer names are made
unique per process the way Keras does ("dense", "dense_1", ...); `clear_session()` resets the
counters. Initializers and Dropout layers created without a seed draw one from a process-wide
NumPy Generator, which `keras.utils.set_random_seed(seed)` reseeds for reproducible runs.
"""
import re

import numpy as np

__all__ = ["floatx", "set_floatx", "epsilon", "set_epsilon", "clear_session", "unique_name"]

_FLOATX = "float32"
_EPSILON = 1e-7
_NAME_COUNTS = {}
_SEED_SOURCE = [np.random.default_rng()]


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


def to_snake_case(name):
    """'Dense' -> 'dense', 'SparseCategoricalAccuracy' -> 'sparse_categorical_accuracy'."""
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)  # Keras's rule: 'Conv2D' -> 'conv2d'
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(base, zero_based=True):
    """`base` the first time, then `base_1`, `base_2`, ... (per process, until clear_session);
    with zero_based=False: `base_1`, `base_2`, ... (Keras names inputs "input_1")."""
    count = _NAME_COUNTS.get(base, 0)
    _NAME_COUNTS[base] = count + 1
    if not zero_based:
        return f"{base}_{count + 1}"
    return base if count == 0 else f"{base}_{count}"


def clear_session():
    """Reset the layer name counters (the next Dense is named 'dense' again)."""
    _NAME_COUNTS.clear()


def next_seed():
    """A fresh seed from the process-wide generator (see utils.set_random_seed)."""
    return int(_SEED_SOURCE[0].integers(0, 2**31 - 1))


def reseed(seed):
    _SEED_SOURCE[0] = np.random.default_rng(seed)


def rng():
    """The process-wide generator (shuffling in fit)."""
    return _SEED_SOURCE[0]
