"""`random_index_shuffle` / `tf.random.experimental.index_shuffle`: where an index lands in a
seeded pseudorandom permutation of [0, ..., max_index], without building the permutation.

RandomIndexShuffle(index, seed [3] or [n, 3], max_index; rounds) encrypts the index with a
small Simon block cipher (a Feistel network on two W-bit words) and walks the cycle: while the
ciphertext exceeds max_index it is encrypted again. As in TensorFlow's kernel:
- the block has B = max(ceil(log2(max_index)) rounded up to even, 16) bits (64 at most), W = B/2;
- the round keys are the seed's three words (cast to uint32, cut to W bits) followed by
  k[i] = c ^ (z & 1) ^ k[i-3] ^ rotr(k[i-1], 3) ^ rotr(k[i-1], 4), with c = 0xfffffffc and z =
  0x7369f885192c0ef5 (both cut to W bits), z shifted right once per key; `rounds` keys in all;
- each pair of rounds applies, with f(x) = (rotl(x, 1) & rotl(x, 8)) ^ rotl(x, 2):
  left ^= f(right) ^ k[i]; right ^= f(left) ^ k[i+1];
- max_index 0 maps everything to 0.
Because the cipher is a bijection on B-bit blocks, cycle walking gives a bijection on
[0, max_index]. `index_shuffle` takes a stateless seed of shape [2] and puts TensorFlow's fixed
word 498247692 in front of it. Integers only; no gradient.
"""
import math

import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..pad_ops import pad

__all__ = ["index_shuffle", "random_index_shuffle"]

_C, _Z = 0xfffffffc, 0x7369f885192c0ef5
_SEED_PAD = 498247692


def _rotl(x, r, w, mask):
    return ((x << r) | (x >> (w - r))) & mask


def _key_schedule(key, rounds, w, mask):
    keys = [k & mask for k in key]
    z = _Z & mask
    for i in range(3, rounds):
        keys.append((_C & mask) ^ (z & 1) ^ keys[i - 3] ^ _rotl(keys[i - 1], w - 3, w, mask)
                    ^ _rotl(keys[i - 1], w - 4, w, mask))
        z >>= 1
    return keys


def _encrypt(value, keys, w, mask):
    left, right = (value >> w) & mask, value & mask
    for i in range(0, len(keys) - 1, 2):
        left ^= (_rotl(right, 1, w, mask) & _rotl(right, 8, w, mask)) ^ _rotl(right, 2, w, mask)
        left ^= keys[i]
        right ^= (_rotl(left, 1, w, mask) & _rotl(left, 8, w, mask)) ^ _rotl(left, 2, w, mask)
        right ^= keys[i + 1]
    return (left << w) | right


def shuffle_one(index, key, max_index, rounds):
    """The position of `index` in the permutation of [0, max_index] that `key` (three uint32
    words) picks."""
    if max_index == 0:
        return 0
    block = max(math.ceil(math.log2(float(max_index))), 1)
    block = min(max(block + block % 2, 16), 64)
    w = block // 2
    mask = (1 << w) - 1
    keys = _key_schedule(key, rounds, w, mask)
    value = index
    while True:
        value = _encrypt(value, keys, w, mask)
        if value <= max_index:
            return value


def _shuffle_kernel(index, seed, max_index, *, rounds):
    n = max(index.size, max_index.size, seed.size // 3)
    if index.ndim > 1 or (index.ndim == 1 and index.shape[0] != n):
        raise InvalidArgumentError("RandomIndexShuffle: index must be a scalar or a vector of "
                                   f"length {n}, got shape {list(index.shape)}.")
    if not (seed.shape == (3,) or seed.shape == (n, 3)):
        raise InvalidArgumentError(f"RandomIndexShuffle: seed must be a vector of size [3] or a "
                                   f"matrix of size [{n}, 3] but got {list(seed.shape)}.")
    if max_index.ndim > 1 or (max_index.ndim == 1 and max_index.shape[0] != n):
        raise InvalidArgumentError("RandomIndexShuffle: max_index must be a scalar or a vector "
                                   f"of the same size as index, got {list(max_index.shape)}.")
    words = (seed.astype(np.int64) if seed.dtype.kind == "i" else seed).astype(np.uint64)
    words = (words & np.uint64(0xffffffff)).reshape(-1, 3)
    idx = np.broadcast_to(index.astype(np.uint64), (n,))
    top = np.broadcast_to(max_index.astype(np.uint64), (n,))
    out = np.array([shuffle_one(int(idx[i]), [int(k) for k in words[min(i, len(words) - 1)]],
                                int(top[i]), rounds) for i in range(n)], np.uint64)
    out = out.astype(index.dtype)
    return out.reshape(()) if index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0 else out


def _shuffle_rule(index, seed, max_index, *, rounds):
    if index.shape.rank == 0 and seed.shape.rank == 1 and max_index.shape.rank == 0:
        return TensorShape([]), index.dtype
    n = [d for d in (index.shape[:1] if index.shape.rank else [])]
    return TensorShape([n[0] if n else None]), index.dtype


RANDOM_INDEX_SHUFFLE = defop(
    "RandomIndexShuffle", _shuffle_kernel, shape=_shuffle_rule, grad=None,
    raw=lambda index, seed, max_index, rounds=4, name=None: random_index_shuffle(
        index, seed, max_index, rounds, name))

_INTEGERS = ("int32", "int64", "uint32", "uint64")


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """The position of each `index` in the permutation of [0, max_index] chosen by `seed`
    (shape [3] or [n, 3]); `rounds` (even, at least 4) rounds of the cipher."""
    index = convert_to_tensor(index)
    max_index = convert_to_tensor(max_index, dtype=index.dtype)
    seed = convert_to_tensor(seed)
    for what, t in (("index", index), ("seed", seed)):
        if t.dtype.name not in _INTEGERS:
            raise TypeError(f"random_index_shuffle: {what} must be int32, int64, uint32 or "
                            f"uint64, got {t.dtype.name}.")
    if int(rounds) < 4 or int(rounds) % 2:
        raise InvalidArgumentError(f"random_index_shuffle: rounds must be an even number of at "
                                   f"least 4, got {rounds}.")
    return execute(RANDOM_INDEX_SHUFFLE, (index, seed, max_index), {"rounds": int(rounds)},
                   name)


def index_shuffle(index, seed, max_index):
    """tf.random.experimental.index_shuffle: `seed` of shape [2] (or [n, 2]) as the stateless
    ops take it, completed to the three words the cipher's key needs."""
    seed = convert_to_tensor(seed)
    if seed.dtype.name not in _INTEGERS:
        raise TypeError(f"index_shuffle: seed must be int32, int64, uint32 or uint64, got "
                        f"{seed.dtype.name}.")
    rank = seed.shape.rank if seed.shape.rank is not None else 1
    seed = pad(seed, [[1, 0]] + [[0, 0]] * (rank - 1), constant_values=_SEED_PAD)
    return random_index_shuffle(index, seed, max_index, rounds=4)
