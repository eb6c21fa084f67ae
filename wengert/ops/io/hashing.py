"""The string hashes of TensorFlow's string ops, in pure Python over 64-bit arithmetic (mod 2^64),
equal to TensorFlow's bit for bit:

- fingerprint64(data): FarmHash's Fingerprint64 (farmhashna::Hash64) of bytes, the hash of
  `tf.fingerprint` and of `tf.strings.to_hash_bucket_fast` (bucket = Fingerprint64(s) mod n);
- siphash24(key, data): SipHash-2-4 under a 128-bit key (k0, k1), the keyed hash of
  `tf.strings.to_hash_bucket_strong` (bucket = SipHash(key)(s) mod n);
- hash64(data): TensorFlow's own Hash64 (MurmurHash64A with seed 0xDECAFCAFFE), the hash of
  the legacy `tf.strings.to_hash_bucket`.

Keras's Hashing layer (keras/layers/hashing.py) hashes with them.
"""
import struct

__all__ = ["fingerprint64", "hash64", "siphash24"]

_M = 0xFFFFFFFFFFFFFFFF
_K0, _K1, _K2 = 0xc3a5c85c97cb3127, 0xb492b66fbe98f273, 0x9ae16a3b2f90404f


# -- FarmHash Fingerprint64 (farmhashna::Hash64) ----------------------------------------------
def _fetch64(s, i):
    return struct.unpack_from("<Q", s, i)[0]


def _fetch32(s, i):
    return struct.unpack_from("<I", s, i)[0]


def _rot(v, shift):
    return ((v >> shift) | (v << (64 - shift))) & _M if shift else v


def _shift_mix(v):
    return v ^ (v >> 47)


def _hash_len16(u, v, mul):
    a = ((u ^ v) * mul) & _M
    a ^= a >> 47
    b = ((v ^ a) * mul) & _M
    b ^= b >> 47
    return (b * mul) & _M


def _hash_len0to16(s, n):
    if n >= 8:
        mul = _K2 + n * 2
        a = (_fetch64(s, 0) + _K2) & _M
        b = _fetch64(s, n - 8)
        c = (_rot(b, 37) * mul + a) & _M
        d = ((_rot(a, 25) + b) * mul) & _M
        return _hash_len16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        a = _fetch32(s, 0)
        return _hash_len16((n + (a << 3)) & _M, _fetch32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _M) * _K2) & _M
    return _K2


def _hash_len17to32(s, n):
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K1) & _M
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _M
    d = (_fetch64(s, n - 16) * _K2) & _M
    return _hash_len16((_rot((a + b) & _M, 43) + _rot(c, 30) + d) & _M,
                       (a + _rot((b + _K2) & _M, 18) + c) & _M, mul)


def _hash_len33to64(s, n):
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K2) & _M
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _M
    d = (_fetch64(s, n - 16) * _K2) & _M
    y = (_rot((a + b) & _M, 43) + _rot(c, 30) + d) & _M
    z = _hash_len16(y, (a + _rot((b + _K2) & _M, 18) + c) & _M, mul)
    e = (_fetch64(s, 16) * mul) & _M
    f = _fetch64(s, 24)
    g = ((y + _fetch64(s, n - 32)) * mul) & _M
    h = ((z + _fetch64(s, n - 24)) * mul) & _M
    return _hash_len16((_rot((e + f) & _M, 43) + _rot(g, 30) + h) & _M,
                       (e + _rot((f + a) & _M, 18) + g) & _M, mul)


def _weak_hash_len32_with_seeds(s, i, a, b):
    w, x, y, z = (_fetch64(s, i + k) for k in (0, 8, 16, 24))
    a = (a + w) & _M
    b = _rot((b + a + z) & _M, 21)
    c = a
    a = (a + x + y) & _M
    b = (b + _rot(a, 44)) & _M
    return (a + z) & _M, (b + c) & _M


def fingerprint64(data):
    """FarmHash Fingerprint64 of bytes (TensorFlow's tf.fingerprint / to_hash_bucket_fast)."""
    s, n = bytes(data), len(data)
    if n <= 16:
        return _hash_len0to16(s, n)
    if n <= 32:
        return _hash_len17to32(s, n)
    if n <= 64:
        return _hash_len33to64(s, n)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _M
    z = (_shift_mix((y * _K2 + 113) & _M) * _K2) & _M
    v, w = (0, 0), (0, 0)
    x = (x * _K2 + _fetch64(s, 0)) & _M
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_rot((x + y + v[0] + _fetch64(s, i + 8)) & _M, 37) * _K1) & _M
        y = (_rot((y + v[1] + _fetch64(s, i + 48)) & _M, 42) * _K1) & _M
        x ^= w[1]
        y = (y + v[0] + _fetch64(s, i + 40)) & _M
        z = (_rot((z + w[0]) & _M, 33) * _K1) & _M
        v = _weak_hash_len32_with_seeds(s, i, (v[1] * _K1) & _M, (x + w[0]) & _M)
        w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _M,
                                        (y + _fetch64(s, i + 16)) & _M)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = _K1 + ((z & 0xff) << 1)
    i = last64
    w0 = (w[0] + ((n - 1) & 63)) & _M
    v0 = (v[0] + w0) & _M
    w0 = (w0 + v0) & _M
    v, w = (v0, v[1]), (w0, w[1])
    x = (_rot((x + y + v[0] + _fetch64(s, i + 8)) & _M, 37) * mul) & _M
    y = (_rot((y + v[1] + _fetch64(s, i + 48)) & _M, 42) * mul) & _M
    x ^= (w[1] * 9) & _M
    y = (y + v[0] * 9 + _fetch64(s, i + 40)) & _M
    z = (_rot((z + w[0]) & _M, 33) * mul) & _M
    v = _weak_hash_len32_with_seeds(s, i, (v[1] * mul) & _M, (x + w[0]) & _M)
    w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _M, (y + _fetch64(s, i + 16)) & _M)
    z, x = x, z
    return _hash_len16((_hash_len16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _M,
                       (_hash_len16(v[1], w[1], mul) + x) & _M, mul)


# -- SipHash-2-4 (to_hash_bucket_strong's keyed hash) -----------------------------------------
def _rotl(v, shift):
    return ((v << shift) | (v >> (64 - shift))) & _M


def _sip_rounds(v, rounds):
    v0, v1, v2, v3 = v
    for _ in range(rounds):
        v0 = (v0 + v1) & _M
        v1 = _rotl(v1, 13) ^ v0
        v0 = _rotl(v0, 32)
        v2 = (v2 + v3) & _M
        v3 = _rotl(v3, 16) ^ v2
        v0 = (v0 + v3) & _M
        v3 = _rotl(v3, 21) ^ v0
        v2 = (v2 + v1) & _M
        v1 = _rotl(v1, 17) ^ v2
        v2 = _rotl(v2, 32)
    return [v0, v1, v2, v3]


def siphash24(key, data):
    """SipHash-2-4 of bytes under the key (k0, k1), two unsigned 64-bit integers."""
    k0, k1 = (int(k) & _M for k in key)
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d, k0 ^ 0x6c7967656e657261,
         k1 ^ 0x7465646279746573]
    s, n = bytes(data), len(data)
    full = n - n % 8
    for i in range(0, full, 8):
        m = _fetch64(s, i)
        v[3] ^= m
        v = _sip_rounds(v, 2)
        v[0] ^= m
    last = ((n & 0xff) << 56) | int.from_bytes(s[full:], "little")
    v[3] ^= last
    v = _sip_rounds(v, 2)
    v[0] ^= last
    v[2] ^= 0xff
    v = _sip_rounds(v, 4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


# -- TensorFlow's Hash64 (MurmurHash64A) --------------------------------------------------------
def hash64(data, seed=0xDECAFCAFFE):
    """MurmurHash64A of bytes under `seed`: 8-byte little-endian words mixed in, the 0-7 bytes
    left over folded in last, then a final avalanche."""
    data = bytes(data)
    m, r, n = 0xc6a4a7935bd1e995, 47, len(data)
    h = (seed ^ (n * m)) & _M
    whole = n - n % 8
    for i in range(0, whole, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * m) & _M
        k = ((k ^ (k >> r)) * m) & _M
        h = ((h ^ k) * m) & _M
    if n % 8:
        h = ((h ^ int.from_bytes(data[whole:], "little")) * m) & _M
    h = ((h ^ (h >> r)) * m) & _M
    return h ^ (h >> r)
