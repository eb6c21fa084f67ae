"""`tf.random.Generator`: random numbers from a Philox state held in a Variable.

A Generator's state is an int64 Variable of shape [3], TensorFlow's Philox layout: the 128-bit
counter (low word, high word) and the 64-bit key. `from_seed(s)` stores an integer seed as its
64-bit chunks, lowest first ([s, 0, 0] for a small seed: counter s, key 0), and a vector seed
padded with zeros on the left, as TensorFlow's create_rng_state does. A draw of n numbers reads
the state and advances the counter by 256 n (TensorFlow's RngReadAndSkip: every draw reserves
256 blocks per output), then runs the stateless kernel on the (key, counter) it read, so a
generator's numbers are TensorFlow's, call after call. The read and the update are variable ops:
the same code runs eagerly and inside `tf.function` (where each call advances the state), and
checkpointing or assigning the state saves or rewinds the stream.

`make_seeds(n)` draws n full-range int64 keys and pairs each with a zero (an int64 [2, n]
tensor, one seed per column); `split(n)` makes n generators whose states are [0, 0, key] for n
such keys. `get_global_generator()` is created on first use from nondeterministic state, as
TensorFlow's; `set_global_generator` replaces it.
"""
import os

import numpy as np

from ...framework import dtypes
from ...framework.context import executing_eagerly
from ...framework.tensor import convert_to_tensor
from ...framework.variables import Variable
from ..array_ops import stack, zeros_like
from ..bitwise_ops import bitwise_xor
from ..indexing_ops import gather
from ..math_ops import add, cast, less, multiply
from ..reduce_ops import reduce_prod
from .philox import MASK64, skip as skip_counter
from .stateless import generator_draw, scaled_draw, stateless_binomial, uniform_span

__all__ = ["Generator", "get_global_generator", "set_global_generator", "create_rng_state",
           "Algorithm"]

class Algorithm:
    """The bit-generator algorithms TensorFlow names (a CPU draws Philox for all but ThreeFry)."""
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
    """The int64 [3] state a Generator seeded with `seed` starts from: an int's 64-bit chunks,
    lowest first; a vector's first three entries, padded with zeros on the left."""
    _alg(alg)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed = int(seed)
        words = [(seed >> (64 * i)) & MASK64 for i in range(3)]
    else:
        words = [int(w) & MASK64 for w in np.asarray(
            getattr(seed, "numpy", lambda: seed)()).reshape(-1)[:3]]
        words = [0] * (3 - len(words)) + words
    return np.array(words, np.uint64).astype(np.int64)


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
        return cls(state=create_rng_state(int.from_bytes(os.urandom(24), "little"), alg),
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
        """Advance the counter as a draw of `delta` numbers would; returns the state before."""
        return self._read_and_skip(delta)

    def _read_and_skip(self, delta):
        """The state now; the counter advances by 256 * delta (TensorFlow's RngReadAndSkip)."""
        if executing_eagerly() and isinstance(delta, (int, np.integer)):
            old = self._state_var.numpy()
            words = old.astype(np.uint64)
            counter = skip_counter(int(words[0]) | (int(words[1]) << 64), 256 * int(delta))
            new = np.array([counter & MASK64, counter >> 64, int(words[2])], np.uint64)
            self._state_var.assign(new.astype(np.int64))
            return convert_to_tensor(old)
        old = self._state_var.read_value()
        low, high, key = (gather(old, i) for i in range(3))
        step = multiply(cast(delta, dtypes.int64), convert_to_tensor(np.int64(256)))
        new_low = add(low, step)
        sign = convert_to_tensor(np.int64(-2 ** 63))
        carry = less(bitwise_xor(new_low, sign), bitwise_xor(low, sign))  # unsigned new < old
        self._state_var.assign(stack([new_low, add(high, cast(carry, dtypes.int64)), key]))
        return old

    def _state_for(self, shape, per_output=1, extra=0):
        """The state a draw of `shape` uses (see _read_and_skip); the counter advances as for
        per_output * (n + extra) numbers, n the number of elements (binomial reserves more)."""
        if isinstance(shape, (list, tuple)) and all(isinstance(d, (int, np.integer))
                                                    for d in shape):
            return self._read_and_skip(per_output * (int(np.prod(shape, dtype=np.int64)) + extra))
        count = reduce_prod(cast(convert_to_tensor(shape), dtypes.int64))
        if per_output != 1 or extra:
            count = multiply(add(count, np.int64(extra)), np.int64(per_output))
        return self._read_and_skip(count)

    # -- draws -------------------------------------------------------------------------------------
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal draws: standard normals * stddev + mean."""
        rnd = generator_draw("normal", shape, self._state_for(shape), dtype, name=name)
        return scaled_draw(rnd, stddev, mean, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal draws within two standard deviations of the mean."""
        rnd = generator_draw("truncated", shape, self._state_for(shape), dtype, name=name)
        return scaled_draw(rnd, stddev, mean, dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform draws in [minval, maxval); integer dtypes need both bounds, or neither (the
        full range of the dtype, `uniform_full_int`)."""
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and (minval is None) != (maxval is None):
            raise ValueError(f"Generator.uniform: for integer dtype {dtype.name}, minval and "
                             f"maxval must be both None or both given; got minval={minval} "
                             f"and maxval={maxval}.")
        if dtype.is_integer:
            return generator_draw("int", shape, self._state_for(shape), dtype, minval, maxval,
                                  name)
        rnd = generator_draw("uniform", shape, self._state_for(shape), dtype, name=name)
        return uniform_span(rnd, minval, 1 if maxval is None else maxval, dtype)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        """Integers over the whole range of `dtype`."""
        return generator_draw("int", shape, self._state_for(shape), dtypes.as_dtype(dtype),
                              name=name)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        """Binomial(counts, probs) draws of `shape` (counts and probs broadcast to its trailing
        dimensions), from NumPy's sampler. The state advances as TensorFlow's binomial kernel
        advances it: for b batches (the trailing dimensions counts and probs span) of s samples
        (the leading ones), as for 50 b (s + 3) numbers, so later draws continue its stream."""
        counts, probs = convert_to_tensor(counts), convert_to_tensor(probs)
        state = self._binomial_state(shape, counts.shape, probs.shape)
        return stateless_binomial(shape, gather(state, [2, 0]), counts, probs, dtype, name)

    def _binomial_state(self, shape, counts_shape, probs_shape):
        static = isinstance(shape, (list, tuple)) and all(
            isinstance(d, (int, np.integer)) for d in shape)
        if not (static and counts_shape.is_fully_defined() and probs_shape.is_fully_defined()):
            return self._state_for(shape, 50, 3)
        rank = len(np.broadcast_shapes(tuple(counts_shape.as_list()),
                                       tuple(probs_shape.as_list())))
        batches = int(np.prod(shape[len(shape) - rank:], dtype=np.int64))
        samples = int(np.prod(shape[:len(shape) - rank], dtype=np.int64))
        return self._read_and_skip(batches * 200 * (samples + 3) // 4)

    def make_seeds(self, count=1):
        """`count` seeds for stateless ops: an int64 tensor [2, count], one seed per column."""
        keys = self.uniform_full_int([count], dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new, independent generators (this one advances)."""
        keys = self.uniform_full_int([count], dtypes.int64).numpy()
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

