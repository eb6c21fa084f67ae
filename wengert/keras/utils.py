"""`keras.utils`: set_random_seed and to_categorical."""
import random

import numpy as np

from . import backend

__all__ = ["set_random_seed", "to_categorical"]


def set_random_seed(seed):
    """Seed Python's `random`, NumPy's global generator and Keras's own (initializers, Dropout
    and fit's shuffling draw from it), so a run can be repeated exactly."""
    random.seed(seed)
    np.random.seed(seed)
    backend.reseed(seed)


def to_categorical(y, num_classes=None, dtype="float32"):
    """One-hot rows for integer class labels."""
    y = np.asarray(y, dtype="int64")
    shape = y.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    y = y.reshape(-1)
    num_classes = num_classes or int(y.max()) + 1
    out = np.zeros((y.size, num_classes), dtype=dtype)
    out[np.arange(y.size), y] = 1
    return out.reshape(shape + (num_classes,))
