"""`wengert.compat.v1.random`: `tf.random` as TensorFlow 1 has it: the graph seed
(`set_random_seed`, `get_seed`), `multinomial` and `stateless_multinomial` (TensorFlow 1's names
of the categorical draws), and `poisson` with the rate first (wengert/tf1/sampling.py)."""
from ...random import *  # noqa: F403
from ...random import __all__ as _random_names
from ...tf1.sampling import (get_seed, multinomial, random_poisson as poisson, set_random_seed,
                             stateless_multinomial)

__all__ = sorted({*_random_names, "get_seed", "multinomial", "poisson", "set_random_seed",
                  "stateless_multinomial"})
