"""Philox-4x32-10, TensorFlow's counter-based random bit generator, vectorized over counters.

A Philox generator is a pair (key, counter): a 64-bit key, two 32-bit words k0 k1, and a 128-bit
counter, four 32-bit words c0 c1 c2 c3 (c0 the least significant). One call turns the counter
into a block of four uint32 outputs by ten rounds, each

    (c0, c1, c2, c3) -> (hi(M1 * c2) ^ c1 ^ k0,  lo(M1 * c2),  hi(M0 * c0) ^ c3 ^ k1,  lo(M0 * c0))

with M0 = 0xD2511F53 and M1 = 0xCD9E8D57 (hi/lo: the two halves of the 64-bit product), the key
raised by the Weyl constants (0x9E3779B9, 0xBB67AE85) between rounds; then the counter steps by
one. Block i of a generator is therefore a pure function of (key, counter + i), so n blocks are
computed at once over an array of counters: the products of two 32-bit words are exact in
uint64, and no Python loop runs per number.

States here are Python ints: `key` < 2^64 and `counter` < 2^128. TensorFlow keys its ops three
ways, all reproduced:
- stateless ops (a seed pair s0, s1): the counter s0 + 2^64 s1 is hashed by one Philox call under
  the fixed key 0x02461E293EC8F720; the block's first two words become the key, its last two the
  high half of a counter whose low half is zero (`stateless_key_counter`);
- seeded ops (seed, seed2: TensorFlow's GuardedPhiloxRandom): key = seed, counter = seed2 * 2^64;
- `tf.random.Generator`: its int64 [3] state is (counter low, counter high, key).
A kernel that may write n outputs reserves 256 * n blocks (`skip`), as TensorFlow's kernels do,
so the next call of a stateful op continues past every block this one could have used.
"""
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = ["philox_blocks", "philox_blocks_at", "philox_words", "stateless_key_counter",
           "seeded_key_counter", "skip", "MASK64"]

MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF
MASK128 = (1 << 128) - 1
_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_SCRAMBLE_KEY = 0x02461E293EC8F720
_THREADS = min(4, os.cpu_count() or 1)
_CHUNK = 1 << 15  # blocks per thread at least
_LO, _HI = (0, 1) if np.little_endian else (1, 0)  # the halves of a uint64 seen as uint32s


def _counter_words(counter, offsets):
    """The four uint32 words of counter + offset, for a uint64 array of offsets."""
    lo, hi = np.uint64(counter & MASK64), np.uint64(counter >> 64)
    with np.errstate(over="ignore"):
        low = lo + offsets
        high = hi + (low < lo).astype(np.uint64)
    low, high = low.view(np.uint32).reshape(-1, 2), high.view(np.uint32).reshape(-1, 2)
    return [low[:, _LO], low[:, _HI], high[:, _LO], high[:, _HI]]


def philox_blocks_at(key, counter, offsets, work=None):
    """The blocks at `offsets` (a uint64 array) past the counter: uint32 [len(offsets), 4], or
    `work(blocks)` of them, a function of each block's row alone. Large requests run in chunks
    on threads (NumPy's loops release the GIL), with the same results."""
    def run(part):
        blocks = _blocks_at(key, counter, part)
        return blocks if work is None else work(blocks)
    workers = min(_THREADS, len(offsets) // _CHUNK)
    if workers < 2:
        return run(offsets)
    with ThreadPoolExecutor(workers) as pool:
        return np.concatenate(list(pool.map(run, np.array_split(offsets, workers))))


def _blocks_at(key, counter, offsets):
    """philox_blocks_at on one thread.

    Each round multiplies into 64-bit products and reads their halves as uint32 views (two
    product buffers alternate, so the low halves kept as c1 and c3 survive the next products)."""
    c0, c1, c2, c3 = _counter_words(counter, offsets)
    n = len(offsets)
    products = [(np.empty(n, np.uint64), np.empty(n, np.uint64)) for _ in range(2)]
    words = [(np.empty(n, np.uint32), np.empty(n, np.uint32)) for _ in range(2)]
    k0, k1 = key & MASK32, (key >> 32) & MASK32
    for rnd in range(10):
        (p0, p1), (new0, new2) = products[rnd % 2], words[rnd % 2]
        np.multiply(c0, _M0, out=p0)
        np.multiply(c2, _M1, out=p1)
        h0, h1 = p0.view(np.uint32).reshape(-1, 2), p1.view(np.uint32).reshape(-1, 2)
        np.bitwise_xor(np.bitwise_xor(h1[:, _HI], c1, out=new0), np.uint32(k0), out=new0)
        np.bitwise_xor(np.bitwise_xor(h0[:, _HI], c3, out=new2), np.uint32(k1), out=new2)
        c0, c1, c2, c3 = new0, h1[:, _LO], new2, h0[:, _LO]
        k0, k1 = (k0 + _W0) & MASK32, (k1 + _W1) & MASK32
    out = np.empty((n, 4), np.uint32)
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = c0, c1, c2, c3
    return out


def philox_blocks(key, counter, count, start=0, work=None):
    """Blocks start .. start + count - 1 of the generator (key, counter): uint32 [count, 4]
    (or `work` of them, see philox_blocks_at)."""
    return philox_blocks_at(key, counter, np.arange(start, start + count, dtype=np.uint64), work)


def philox_words(key, counter, count, start_block=0):
    """The first `count` uint32 words of the stream from block `start_block`, in order."""
    blocks = philox_blocks(key, counter, -(-count // 4), start_block)
    return blocks.reshape(-1)[:count]


def skip(counter, blocks):
    """The counter `blocks` steps later (128-bit, wrapping)."""
    return (counter + int(blocks)) & MASK128


def _as_uint64(value):
    return int(value) & MASK64  # an int32/int64 seed, sign-extended as C++ converts it


def stateless_key_counter(seed0, seed1):
    """(key, counter) of TensorFlow's stateless ops for the seed pair (StatelessRandomGetKeyCounter)."""
    counter = _as_uint64(seed0) | (_as_uint64(seed1) << 64)
    w = philox_blocks(_SCRAMBLE_KEY, counter, 1)[0].astype(np.uint64)
    key = int(w[0]) | (int(w[1]) << 32)
    return key, (int(w[2]) | (int(w[3]) << 32)) << 64


def seeded_key_counter(seed, seed2):
    """(key, counter) of TensorFlow's seeded ops for the op's pair (seed, seed2)."""
    return _as_uint64(seed), _as_uint64(seed2) << 64
