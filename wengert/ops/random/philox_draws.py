"""TensorFlow's distributions over Philox blocks (random_distributions.h), for n outputs of a
generator (key, counter) at once.

Bits to numbers:
- float32 from one uint32 x: the float with exponent 0 (value 1.x) and x's low 23 bits as
  mantissa, minus 1, so a multiple of 2^-23 in [0, 1); float16 likewise from x's low 10 bits;
  float64 from two words x0, x1: 20 bits of x0 and all of x1 as the 52-bit mantissa, minus 1.
- normal: Box-Muller on pairs, u1 = max(U(x0), 1e-7), v = 2 pi U(x1), r = sqrt(-2 log u1), the
  pair (r sin v, r cos v); float32 from two words (float16 is float32's rounded), float64 from
  two doubles, four words.
- truncated normal: Box-Muller pairs drawn one word at a time, keeping the values with |z| < 2
  until a group of outputs is full (4 for float32, 2 for float64); group g starts at block
  256 g (64 for float64: 128 words per output reserved), so groups never overlap.
- integers in [lo, hi): lo + x mod (hi - lo), x one word (int32) or two (int64, low word
  first); the full range: the words themselves.
Outputs are filled group by group from block 0: a group of k outputs uses one block (k = 4 for
32-bit values, 2 for 64-bit ones), the last group only its first outputs.

Arithmetic follows the C++ types: float32 steps are rounded to float32 as the kernels' float
operations are (log, sin and cos are computed in float64 and rounded, as glibc's float functions
round them correctly in nearly every case).
"""
import numpy as np

from .philox import philox_blocks, philox_blocks_at, philox_words

__all__ = ["uniform_floats", "normals", "truncated_normals", "uniform_ints", "full_ints",
           "random_doubles"]

_TWO_PI = 2 * np.pi
_ONE_F32 = np.uint32(0x3F800000)


def _blocks_for(key, counter, count, per_block, work=None):
    return philox_blocks(key, counter, -(-count // per_block), work=work)


def _u32_to_float(words):
    """Uint32ToFloat: floats in [0, 1) from the low 23 bits of each word."""
    return ((words & np.uint32(0x7FFFFF)) | _ONE_F32).view(np.float32) - np.float32(1)


def _u64_to_double(hi_words, lo_words):
    """Uint64ToDouble: doubles in [0, 1) from 20 bits of the first word and all of the second."""
    mantissa = ((hi_words.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) \
        | lo_words.astype(np.uint64)
    return (mantissa | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _u16_to_half(words):
    """Uint16ToHalf: float16 in [0, 1) from the low 10 bits of each word."""
    bits = (words & np.uint32(0x3FF)).astype(np.uint16) | np.uint16(15 << 10)
    return bits.view(np.float16) - np.float16(1)


def uniform_floats(key, counter, count, dtype):
    """`count` uniform floats in [0, 1) of float16, float32 or float64."""
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        w = _blocks_for(key, counter, count, 2).reshape(-1, 2)
        return _u64_to_double(w[:, 0], w[:, 1])[:count]
    words = _blocks_for(key, counter, count, 4).reshape(-1)[:count]
    if dtype == np.float16:
        return _u16_to_half(words)
    return _u32_to_float(words).astype(dtype, copy=False)


def _box_muller_float(x0, x1):
    """BoxMullerFloat over arrays of word pairs: two float32 arrays."""
    u1 = np.maximum(_u32_to_float(x0), np.float32(1e-7))
    v = (_TWO_PI * _u32_to_float(x1).astype(np.float64)).astype(np.float32)
    log_u1 = np.log(u1.astype(np.float64)).astype(np.float32)
    r = np.sqrt(np.float32(-2) * log_u1)
    v = v.astype(np.float64)
    return np.sin(v).astype(np.float32) * r, np.cos(v).astype(np.float32) * r


def _box_muller_double(x0, x1, x2, x3):
    """BoxMullerDouble over arrays of four words: two float64 arrays."""
    u1 = np.maximum(_u64_to_double(x0, x1), 1e-7)
    v = _TWO_PI * _u64_to_double(x2, x3)
    r = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v) * r, np.cos(v) * r


def _interleave(a, b):
    out = np.empty(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
    out[..., 0::2], out[..., 1::2] = a, b
    return out


def normals(key, counter, count, dtype):
    """`count` standard normals of float16, float32 or float64."""
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        return _blocks_for(key, counter, count, 2, _double_pairs).reshape(-1)[:count]
    return _blocks_for(key, counter, count, 4, _float_pairs).reshape(-1)[:count].astype(
        dtype, copy=False)


def _float_pairs(w):
    """Four float32 normals per block, in order."""
    return _interleave(*_box_muller_float(w[:, 0::2], w[:, 1::2]))


def _double_pairs(w):
    """Two float64 normals per block."""
    d0, d1 = _box_muller_double(w[:, 0], w[:, 1], w[:, 2], w[:, 3])
    return _interleave(d0[:, None], d1[:, None])


def _group_candidates(key, counter, groups, block, wide):
    """The Box-Muller values of block `block` of each group's generator (group g starts at block
    256 g, 128 g for float64), in draw order: [len(groups), 4] float32 or [len(groups), 2]."""
    reserve = np.uint64(128 if wide else 256)
    return philox_blocks_at(key, counter, groups.astype(np.uint64) * reserve + np.uint64(block),
                            _double_pairs if wide else _float_pairs)


def truncated_normals(key, counter, count, dtype):
    """`count` standard normals within (-2, 2), each group of outputs by rejection: groups whose
    first block is all kept (most) at once, the others block by block."""
    dtype = np.dtype(dtype)
    wide = dtype == np.float64
    per_group = 2 if wide else 4
    groups = -(-count // per_group)
    out = _group_candidates(key, counter, np.arange(groups), 0, wide)
    active = np.flatnonzero((np.abs(out) >= 2).any(axis=1))
    filled = np.zeros(groups, np.int64)
    block = 0
    while active.size:
        values = _group_candidates(key, counter, active, block, wide)
        keep = np.abs(values) < 2
        slot = filled[active, None] + np.cumsum(keep, axis=1) - 1
        take = keep & (slot < per_group)
        rows = np.broadcast_to(active[:, None], take.shape)
        out[rows[take], slot[take]] = values[take]
        filled[active] = np.minimum(filled[active] + keep.sum(axis=1), per_group)
        active = active[filled[active] < per_group]
        block += 1
    return out.reshape(-1)[:count].astype(dtype, copy=False)


def uniform_ints(key, counter, count, dtype, lo, hi):
    """`count` integers in [lo, hi): lo + bits mod (hi - lo), TensorFlow's modulo method."""
    dtype = np.dtype(dtype)
    bits = _int_bits(key, counter, count, dtype.itemsize == 8)
    span = np.uint64((int(hi) - int(lo)) & (0xFFFFFFFFFFFFFFFF if dtype.itemsize == 8
                                            else 0xFFFFFFFF))
    offsets = bits % span
    with np.errstate(over="ignore"):
        return (np.int64(lo) + offsets.astype(np.int64)).astype(dtype)


def full_ints(key, counter, count, dtype):
    """`count` integers over the whole range of `dtype` (32- or 64-bit)."""
    dtype = np.dtype(dtype)
    return _int_bits(key, counter, count, dtype.itemsize == 8).astype(dtype)


def _int_bits(key, counter, count, wide):
    if wide:
        w = _blocks_for(key, counter, count, 2).reshape(-1, 2).astype(np.uint64)
        return (w[:, 0] | (w[:, 1] << np.uint64(32)))[:count]
    return _blocks_for(key, counter, count, 4).reshape(-1)[:count].astype(np.uint64)


def random_doubles(key, counter, count):
    """`count` doubles in [0, 1) from consecutive word pairs (SimplePhilox::RandDouble)."""
    words = philox_words(key, counter, 2 * count).reshape(-1, 2)
    return _u64_to_double(words[:, 0], words[:, 1])
