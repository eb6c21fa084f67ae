"""TensorFlow's key/counter random ops as raw ops (tf.raw_ops.StatelessRandomNormalV2, ...,
StatelessRandomGetKeyCounter): the kernels `tf.random.Generator` and the stateless functions run
inside TensorFlow, composed from wengert's stateless ops.

A V2 op takes the Philox generator itself, a key (uint64 [1]) and a counter (uint64 [2]); it runs
the stateless kernel on the state [counter, key] (the layout of Generator's state, stateless.py's
`state=True`). StatelessRandomGetKeyCounter is the stateless ops' scrambling of a seed pair: one
Philox block of the counter (s0, s1) under the fixed key 0x02461E293EC8F720, whose first two words
become the key and last two the counter's high half (philox.py).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.registry import defraw
from ...framework.tensor import convert_to_tensor, array_of
from ..array_ops import concat, stack
from ..bitwise_ops import bitwise_or, left_shift
from ..indexing_ops import gather
from ..math_ops import cast
from ..reshape_ops import reshape
from .philox import _SCRAMBLE_KEY
from .stateless import generator_draw

__all__ = []

_ALGS = {1: "philox", 3: "auto_select"}


def _state(key, counter, alg, what):
    """The int64 [3] state (counter low, counter high, key), after checking `alg`."""
    value = array_of(convert_to_tensor(alg))
    if value is not None and int(value) not in _ALGS:
        raise InvalidArgumentError(f"{what}: alg={int(value)} is not supported on a CPU (1 is "
                                   "Philox, 3 auto-select; ThreeFry, 2, has no CPU kernel).")
    return concat([cast(convert_to_tensor(counter), dtypes.int64),
                   cast(convert_to_tensor(key), dtypes.int64)], 0)


def _floats(kind, op_type):
    def raw(shape, key, counter, alg, dtype=dtypes.float32, name=None):
        return generator_draw(kind, shape, _state(key, counter, alg, op_type), dtype, name=name)
    return raw


def _uniform_int(shape, key, counter, alg, minval, maxval, name=None):
    """Integers in [minval, maxval) of minval's dtype."""
    dtype = convert_to_tensor(minval).dtype
    return generator_draw("int", shape, _state(key, counter, alg, "StatelessRandomUniformIntV2"),
                          dtype, minval, maxval, name)


def _full_int(shape, key, counter, alg, dtype=dtypes.uint64, name=None):
    return generator_draw("int", shape, _state(key, counter, alg,
                                               "StatelessRandomUniformFullIntV2"), dtype,
                          name=name)


def _words64(low, high):
    return bitwise_or(cast(low, dtypes.uint64),
                      left_shift(cast(high, dtypes.uint64), convert_to_tensor(np.uint64(32))))


def _get_key_counter(seed, name=None):
    """(key uint64 [1], counter uint64 [2]) of a seed pair."""
    seed = cast(convert_to_tensor(seed), dtypes.int64)
    state = concat([seed, convert_to_tensor(np.array([_SCRAMBLE_KEY], np.int64))], 0)
    mix = generator_draw("int", [4], state, dtypes.uint32, name=name)
    words = [gather(mix, i) for i in range(4)]
    key = reshape(_words64(words[0], words[1]), [1])
    counter = stack([convert_to_tensor(np.uint64(0)), _words64(words[2], words[3])])
    return key, counter


defraw("StatelessRandomNormalV2", _floats("normal", "StatelessRandomNormalV2"))
defraw("StatelessRandomUniformV2", _floats("uniform", "StatelessRandomUniformV2"))
defraw("StatelessTruncatedNormalV2", _floats("truncated", "StatelessTruncatedNormalV2"))
defraw("StatelessRandomUniformIntV2", _uniform_int)
defraw("StatelessRandomUniformFullIntV2", _full_int)
defraw("StatelessRandomGetKeyCounter", _get_key_counter)
