"""TensorFlow 1's random-number names: `multinomial` (TensorFlow 2's `random.categorical`) and
`stateless_multinomial` (`random.stateless_categorical`),
`random_poisson` (`random.poisson` with lam first), `set_random_seed` (the seed of the graph
being built, else the global seed) and `get_seed` (the (graph-level, op-level) seed pair an op
created now uses, by TensorFlow's rules: see ops/random/seeded.py)."""
from ..framework import dtypes
from ..ops.random.distributions import categorical, poisson
from ..ops.random.seeded import get_seed, set_seed
from ..ops.random.stateless import stateless_categorical

__all__ = ["get_seed", "multinomial", "random_poisson", "set_random_seed",
           "stateless_multinomial"]


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """`num_samples` class indices per row of `logits` (unnormalised log-probabilities)."""
    return categorical(logits, num_samples, dtype=output_dtype, seed=seed, name=name)


def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
    """`num_samples` class indices per row of `logits`, a pure function of `seed`."""
    return stateless_categorical(logits, num_samples, seed, dtype=output_dtype, name=name)


def random_poisson(lam, shape, dtype=dtypes.float32, seed=None, name=None):
    """Poisson draws of rate `lam`, `shape + lam.shape`."""
    return poisson(shape, lam, dtype=dtype, seed=seed, name=name)


def set_random_seed(seed):
    """The graph-level seed (TensorFlow 1's name for `tf.random.set_seed`)."""
    set_seed(seed)
