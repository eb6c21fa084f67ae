"""Philox-4x32-10 and TensorFlow's conversions, without TensorFlow: the vectorized generator
(wengert/ops/random/philox.py, philox_draws.py) against Random123's known answers and against a
scalar pure-Python Philox written from the algorithm's definition, one block and one word at a
time, as TensorFlow's C++ kernels walk it (tests/test_random_tf.py compares with TensorFlow).
"""
import math
import struct

import numpy as np
import pytest

import wengert as tf
from wengert.ops.random import philox_draws as draws
from wengert.ops.random.categorical import categorical_kernel
from wengert.ops.random.philox import (philox_blocks, seeded_key_counter, skip,
                                       stateless_key_counter)
from wengert.ops.random.shuffle import shuffle_rows

M32 = 0xFFFFFFFF


def scalar_block(key, counter):
    """One Philox-4x32-10 block by the definition, with Python ints."""
    c = [(counter >> (32 * i)) & M32 for i in range(4)]
    k = [key & M32, key >> 32 & M32]
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & M32, (p0 >> 32) ^ c[3] ^ k[1], p0 & M32]
        k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
    return c


def scalar_words(key, counter, count, start_block=0):
    out, block = [], start_block
    while len(out) < count:
        out += scalar_block(key, (counter + block) % (1 << 128))
        block += 1
    return out[:count]


def u32_to_float(x):
    return struct.unpack("<f", struct.pack("<I", 0x3F800000 | (x & 0x7FFFFF)))[0] - 1.0


def u64_to_double(x0, x1):
    bits = (1023 << 52) | ((x0 & 0xFFFFF) << 32) | x1
    return struct.unpack("<d", struct.pack("<Q", bits))[0] - 1.0


@pytest.mark.parametrize("key,counter,expected", [
    (0, 0, [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    (2 ** 64 - 1, 2 ** 128 - 1, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    (0x299F31D0A4093822, 0x0370734413198A2E85A308D3243F6A88,
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
])
def test_random123_known_answers(key, counter, expected):
    assert philox_blocks(key, counter, 1)[0].tolist() == expected


@pytest.mark.parametrize("counter", [5, 2 ** 64 - 3, 2 ** 128 - 2, (7 << 64) + 2 ** 64 - 1])
def test_blocks_carry_across_counter_words(counter):
    key = 0x0123456789ABCDEF
    got = philox_blocks(key, counter, 6).reshape(-1).tolist()
    assert got == scalar_words(key, counter, 24)
    assert skip(2 ** 128 - 1, 2) == 1


def test_key_counter_derivations():
    key, counter = stateless_key_counter(-5, 2 ** 31 - 1)
    mix = scalar_block(0x02461E293EC8F720, (2 ** 64 - 5) | ((2 ** 31 - 1) << 64))
    assert key == mix[0] | (mix[1] << 32)
    assert counter == (mix[2] | (mix[3] << 32)) << 64
    assert seeded_key_counter(87654321, 3) == (87654321, 3 << 64)


def test_uniform_floats_are_mantissa_bits():
    key, counter = 99, 12345
    words = scalar_words(key, counter, 10)
    np.testing.assert_array_equal(draws.uniform_floats(key, counter, 10, np.float32),
                                  np.float32([u32_to_float(w) for w in words]))
    doubles = [u64_to_double(words[2 * i], words[2 * i + 1]) for i in range(5)]
    np.testing.assert_array_equal(draws.uniform_floats(key, counter, 5, np.float64), doubles)
    halves = [(w & 0x3FF) / 1024 for w in words]
    np.testing.assert_array_equal(draws.uniform_floats(key, counter, 10, np.float16), halves)


def _box_muller(u1, u2):
    u1 = max(u1, 1e-7)
    r = math.sqrt(-2 * math.log(u1))
    return r * math.sin(2 * math.pi * u2), r * math.cos(2 * math.pi * u2)


def test_normals_are_box_muller_on_pairs():
    key, counter = 7, 3 << 64
    words = scalar_words(key, counter, 12)
    pairs = [_box_muller(u32_to_float(words[i]), u32_to_float(words[i + 1]))
             for i in range(0, 12, 2)]
    np.testing.assert_allclose(draws.normals(key, counter, 12, np.float32),
                               np.ravel(pairs), rtol=1e-6, atol=1e-6)
    quad = [_box_muller(u64_to_double(*words[i:i + 2]), u64_to_double(*words[i + 2:i + 4]))
            for i in range(0, 12, 4)]
    np.testing.assert_allclose(draws.normals(key, counter, 6, np.float64), np.ravel(quad),
                               rtol=1e-13)


def _word_stream(key, counter, block):
    while True:
        yield from scalar_block(key, (counter + block) % (1 << 128))
        block += 1


def _scalar_truncated(key, counter, count):
    """Groups of four kept values; group g draws words from block 256 g on."""
    out = []
    for group in range(-(-count // 4)):
        words, kept = _word_stream(key, counter, 256 * group), []
        while len(kept) < 4:
            for z in _box_muller(u32_to_float(next(words)), u32_to_float(next(words))):
                if abs(z) < 2 and len(kept) < 4:
                    kept.append(z)
        out += kept
    return out[:count]


def test_truncated_normals_reject_by_group():
    key, counter = 11, 2 ** 64 - 100
    np.testing.assert_allclose(draws.truncated_normals(key, counter, 2000, np.float32),
                               _scalar_truncated(key, counter, 2000), rtol=1e-5, atol=1e-6)


def test_integers_by_modulo():
    key, counter = 5, 9
    words = scalar_words(key, counter, 16)
    np.testing.assert_array_equal(draws.uniform_ints(key, counter, 16, np.int32, -3, 10),
                                  [-3 + w % 13 for w in words])
    wide = [words[2 * i] | (words[2 * i + 1] << 32) for i in range(8)]
    lo, hi = -2 ** 62, 2 ** 62
    np.testing.assert_array_equal(draws.uniform_ints(key, counter, 8, np.int64, lo, hi),
                                  [lo + w % (hi - lo) for w in wide])
    np.testing.assert_array_equal(draws.full_ints(key, counter, 8, np.uint64), wide)


def test_categorical_and_shuffle_walk_the_word_stream():
    key, counter = 3, 4
    logits = np.log(np.array([[0.2, 0.3, 0.5], [0.7, 0.2, 0.1]]))
    words = scalar_words(key, counter, 2 * 2 * 5)
    cdf = np.cumsum(np.exp(logits - logits.max(1, keepdims=True)), axis=1)
    expected = [[int(np.searchsorted(cdf[r], u64_to_double(*words[2 * (5 * r + j):][:2])
                                     * cdf[r, -1], side="right")) for j in range(5)]
                for r in range(2)]
    np.testing.assert_array_equal(categorical_kernel(key, counter, logits, 5, np.int64), expected)
    order = list(range(9))
    for i, w in enumerate(scalar_words(key, counter, 8)):
        j = i + w % (9 - i)
        order[i], order[j] = order[j], order[i]
    np.testing.assert_array_equal(shuffle_rows(np.arange(9) * 10, key, counter),
                                  np.array(order) * 10)


def test_generator_state_advances_256_blocks_per_output_with_carry():
    g = tf.random.Generator.from_state([-3, 5, 9], "philox")  # counter low 2^64 - 3
    first = g.normal([3]).numpy()
    assert g.state.numpy().tolist() == [765, 6, 9]  # + 768, carried into the high word
    np.testing.assert_array_equal(first, draws.normals(9, (5 << 64) + 2 ** 64 - 3, 3,
                                                       np.float32))
    assert tf.random.create_rng_state(2 ** 70 + 5, "philox").tolist() == [5, 64, 0]
    assert tf.random.create_rng_state([7, 8], "philox").tolist() == [0, 7, 8]


def test_large_requests_run_in_chunks_with_the_same_numbers():
    from wengert.ops.random import philox
    offsets = np.arange(3 * philox._CHUNK + 7, dtype=np.uint64)
    whole = philox._blocks_at(12, 2 ** 64 - 5, offsets)
    np.testing.assert_array_equal(philox.philox_blocks_at(12, 2 ** 64 - 5, offsets), whole)
    np.testing.assert_array_equal(draws.normals(12, 2 ** 64 - 5, 4 * len(offsets), np.float64)[:8],
                                  draws.normals(12, 2 ** 64 - 5, 8, np.float64))
