"""`tf.random.Generator`: random numbers from a state held in a Variable.

A Generator's state is an int64 Variable of shape [3] (TensorFlow's Philox layout: a 128-bit
counter in the first two words, the key in the third). Each draw reads the state, uses the pair
(key, counter) as the seed of a stateless op (stateless.py) and adds one to the counter,
so successive draws differ, a generator re-created from the same seed replays the same numbers,
and checkpointing or assigning the state variable saves or rewinds the stream. The read and the
update are ordinary variable ops, so the same code runs eagerly and inside `tf.function` (where
each call of the traced function advances the state).

`split(n)` derives n independent generators (their keys drawn from this one); `make_seeds(n)`
gives seeds for the stateless ops (an int64 [2, n] tensor, one seed per column).
`get_global_generator()` is created on first use from nondeterministic state, as TensorFlow's;
`set_global_generator` replaces it.
"""
import os

import numpy as np

from ...framework import dtypes
from ...framework.tensor import convert_to_tensor
from ...framework.variables import Variable
from ..array_ops import stack
from ..indexing_ops import gather
from .stateless import (stateless_binomial, stateless_normal,
                                   stateless_truncated_normal, stateless_uniform)

__all__ = ["Generator", "get_global_generator", "set_global_generator", "create_rng_state",
           "Algorithm"]

_STEP = np.array([1, 0, 0], np.int64)


class Algorithm:
    """The bit-generator algorithms TensorFlow names (all draw from NumPy's Philox here)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _alg(alg):
    if alg is None or alg in ("philox", "auto_select", Algorithm.PHILOX, Algorithm.AUTO_SELECT):
        return Algorithm.PHILOX
    if alg in ("threefry", Algorithm.THREEFRY):
        return Algorithm.THREEFRY
    raise ValueError(f"Generator: unknown algorithm {alg!r}; use 'philox', 'threefry' or "
                     "'auto_select'.")


def create_rng_state(seed, alg):
    """The int64 [3] state a Generator seeded with `seed` starts from."""
    seed = int(np.asarray(seed).reshape(-1)[0]) if np.ndim(seed) else int(seed)
    return np.array([0, 0, np.int64(seed & 0x7FFFFFFFFFFFFFFF)], np.int64)


class Generator:
    """A random number generator whose state is a Variable (see the module docstring)."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        if state is None:
            raise ValueError("Generator: give `state` (or copy_from); or use "
                             "Generator.from_seed / from_non_deterministic_state.")
        state = np.asarray(getattr(state, "numpy", lambda: state)(), dtype=np.int64)
        if state.shape != (3,):
            raise ValueError(f"Generator: the state must have shape [3] (int64), got "
                             f"{state.shape}.")
        self._alg = _alg(alg)
        self._state_var = Variable(state, trainable=False, name="StateVar")

    # -- constructors ------------------------------------------------------------------------------
    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose stream is determined by the integer `seed`."""
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        return cls(state=create_rng_state(int.from_bytes(os.urandom(8), "little"), alg),
                   alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        key = np.asarray(key, np.int64).reshape(-1)
        counter = np.asarray(counter, np.int64).reshape(-1)
        if key.shape != (1,) or counter.shape != (2,):
            raise ValueError(f"Generator.from_key_counter: key must have shape [1] and counter "
                             f"[2], got {key.shape} and {counter.shape}.")
        return cls(state=np.concatenate([counter, key]), alg=alg)

    # -- state -------------------------------------------------------------------------------------
    @property
    def state(self):
        """The int64 [3] Variable holding the counter and key."""
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        return gather(self._state_var.read_value(), [2])

    def reset(self, state):
        self._state_var.assign(convert_to_tensor(state, dtype=dtypes.int64))

    def reset_from_seed(self, seed):
        self._state_var.assign(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter):
        self.reset(np.concatenate([np.asarray(counter, np.int64).reshape(-1),
                                   np.asarray(key, np.int64).reshape(-1)]))

    def skip(self, delta):
        """Advance the counter by `delta` draws."""
        self._state_var.assign_add(np.array([int(delta), 0, 0], np.int64))

    def _next_seed(self):
        """The seed (key, counter) for one draw; advances the counter."""
        state = self._state_var.read_value()
        self._state_var.assign_add(_STEP)
        return gather(state, [2, 0])

    # -- draws -------------------------------------------------------------------------------------
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return stateless_normal(shape, self._next_seed(), mean, stddev, dtype, name)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return stateless_truncated_normal(shape, self._next_seed(), mean, stddev, dtype, name)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform draws in [minval, maxval); integer dtypes need both bounds, or neither (the
        full range of the dtype, `uniform_full_int`)."""
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and (minval is None) != (maxval is None):
            raise ValueError(f"Generator.uniform: for integer dtype {dtype.name}, minval and "
                             f"maxval must be both None or both given; got minval={minval} "
                             f"and maxval={maxval}.")
        return stateless_uniform(shape, self._next_seed(), minval, maxval, dtype, name)

    def uniform_full_int(self, shape, dtype=dtypes.int64, name=None):
        """Integers over the whole range of `dtype`."""
        return stateless_uniform(shape, self._next_seed(), None, None, dtype, name)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        """Binomial(counts, probs) draws of `shape` (counts and probs broadcast to it)."""
        return stateless_binomial(shape, self._next_seed(), counts, probs, dtype, name)

    def make_seeds(self, count=1):
        """`count` seeds for stateless ops: an int64 tensor [2, count], one seed per column."""
        return stack([self.uniform_full_int([count]), self.uniform_full_int([count])])

    def split(self, count=1):
        """`count` new, independent generators (this one advances)."""
        keys = self.uniform_full_int([count]).numpy()
        return [Generator(state=np.array([0, 0, k], np.int64), alg=self._alg) for k in keys]

    def __repr__(self):
        return f"<tf.random.Generator state={self._state_var.numpy().tolist()}>"

    # A Generator is saved by train.Checkpoint through its state variable.
    def _checkpoint_children(self):
        return {"state": self._state_var}


_GLOBAL = [None]


def get_global_generator():
    """The global generator, created from nondeterministic state on first use."""
    if _GLOBAL[0] is None:
        _GLOBAL[0] = Generator.from_non_deterministic_state()
    return _GLOBAL[0]


def set_global_generator(generator):
    """Replace the global generator (for determinism: `Generator.from_seed(...)`)."""
    if not isinstance(generator, Generator):
        raise TypeError(f"set_global_generator expects a tf.random.Generator, got "
                        f"{type(generator).__name__}.")
    _GLOBAL[0] = generator

