"""Random permutations of a tensor's first dimension as TensorFlow's shuffle kernels make them:
`tf.random.experimental.stateless_shuffle` (StatelessShuffle) and the seeded `tf.random.shuffle`.

A tensor of n rows is shuffled by the forward Fisher-Yates walk: for i = 0 .. n - 2, row i swaps
with row i + (w_i mod (n - i)), w_i the i-th 32-bit word of a Philox stream (exactly n - 1
words). The stateless op's stream is the generator its seed names (ops/random/philox.py); the
words are computed at once and only the swaps walk in Python.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ..array_ops import concat
from ..math_ops import cast
from .philox import philox_words
from .stateless import _check_alg, _seed, key_counter

__all__ = ["shuffle_rows", "stateless_shuffle"]


def shuffle_rows(value, key, counter):
    """`value` with its rows permuted by the Philox generator (key, counter)."""
    n = value.shape[0] if value.ndim else 0
    if value.size <= 1 or n <= 1:
        return value.copy()
    steps = np.arange(n - 1, dtype=np.uint64)
    words = philox_words(key, counter, n - 1).astype(np.uint64)
    targets = (steps + words % (np.uint64(n) - steps)).tolist()
    order = list(range(n))
    for i, j in enumerate(targets):
        order[i], order[j] = order[j], order[i]
    return value[np.asarray(order)]


def _stateless_kernel(value, seed, *, state=False):
    return shuffle_rows(value, *key_counter(seed, state))


def _stateless_rule(value, seed, *, state=False):
    if not seed.dtype.is_integer:
        raise InvalidArgumentError(f"stateless_shuffle: seed must be an integer tensor of shape "
                                   f"[2], got dtype {seed.dtype.name}.")
    if value.shape.rank == 0:
        raise InvalidArgumentError("stateless_shuffle: value must have at least one dimension, "
                                   "got a scalar.")
    return value.shape, value.dtype


def _raw_stateless_shuffle(value, key, counter, alg, name=None):
    """tf.raw_ops.StatelessShuffle: the generator given as key [1] and counter [2] (uint64)."""
    state = concat([cast(convert_to_tensor(counter), dtypes.int64),
                    cast(convert_to_tensor(key), dtypes.int64)], 0)
    return execute(STATELESS_SHUFFLE, (convert_to_tensor(value), state), {"state": True}, name)


STATELESS_SHUFFLE = defop("StatelessShuffle", _stateless_kernel, shape=_stateless_rule,
                          grad=None, raw=_raw_stateless_shuffle)


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """`value` with its first dimension permuted, a pure function of `seed` (shape [2])."""
    _check_alg(alg, "stateless_shuffle")
    return execute(STATELESS_SHUFFLE, (convert_to_tensor(value), _seed(seed, "stateless_shuffle")),
                   {}, name)
