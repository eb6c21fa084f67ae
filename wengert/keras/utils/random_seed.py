"""`keras.utils.set_random_seed`: one seed for every random source a Keras program draws from.

Python's `random`, NumPy's global generator, `tf.random`'s global seed, Keras's own generator
(initializers, Dropout and fit's shuffling) and keras.random's global SeedGenerator are all
reset from the one integer, so a seeded run repeats exactly.
"""
import random

import numpy as np

from ...ops.random import seeded as random_ops
from .. import backend, seed_generator

__all__ = ["set_random_seed"]


def set_random_seed(seed):
    """Seed Python's `random`, NumPy's global generator, `tf.random`'s global seed (random ops
    and `Dataset.shuffle` without a seed of their own), Keras's own generator (initializers,
    Dropout and fit's shuffling draw from it), and forget keras.random's global SeedGenerator,
    so a run can be repeated exactly."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("keras.utils.set_random_seed: expected `seed` argument to be an "
                         f"integer. Received: seed={seed!r} (of type {type(seed).__name__}); "
                         "pass int(seed).")
    random.seed(seed)
    np.random.seed(seed)
    random_ops.set_seed(seed)
    backend.reseed(seed)
    seed_generator.reset_global_seed_generator()

