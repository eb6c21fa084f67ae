"""keras.layers.Hashing (Keras 3 semantics): values -> hash bins, computed on the host.

Each value becomes a string (integers in decimal; floats truncated to int64 first, as Keras
does) and is hashed as TensorFlow's string ops do:
    salt None:  tf.strings.to_hash_bucket_fast   = Fingerprint64(s) mod num_bins
    salt given: tf.strings.to_hash_bucket_strong = SipHash-2-4(key=salt)(s) mod num_bins
Fingerprint64 is FarmHash's farmhashna::Hash64, written here in pure Python over 64-bit
arithmetic (mod 2^64); the bins equal TensorFlow's bit for bit. With `mask_value`, values equal
to it go to bin 0 and the others to 1 + hash mod (num_bins - 1). output_mode one_hot /
multi_hot / count encodes the bins over num_bins (float32 by default, as Keras).
"""
import struct

import numpy as np

from ...framework import dtypes
from .base import Layer
from .lookup import _encode, _host

__all__ = ["Hashing", "fingerprint64", "siphash24"]

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


# -- the layer --------------------------------------------------------------------------------
def _as_bytes(value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (float, np.floating)):
        value = int(np.int64(value))  # Keras casts floats to int64 (truncating) first
    return str(int(value)).encode()


class Hashing(Layer):
    """Hash values into num_bins bins (FarmHash, or keyed SipHash with a salt), as Keras."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError("Hashing: `num_bins` cannot be None or non-positive. Received: "
                             f"num_bins={num_bins}.")
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError("Hashing: invalid `output_mode`; expected one of 'int', "
                             f"'one_hot', 'multi_hot', 'count'. Received: {output_mode!r}")
        if output_mode == "int" and kwargs["dtype"] not in ("int32", "int64"):
            raise ValueError("Hashing: with output_mode='int', dtype must be 'int32' or "
                             f"'int64'. Received: dtype={kwargs['dtype']!r}")
        if sparse:
            raise NotImplementedError("Hashing: sparse outputs are not available; use "
                                      "sparse=False (dense outputs).")
        self.num_bins, self.mask_value, self.output_mode, self.sparse = (
            num_bins, mask_value, output_mode, sparse)
        self.strong_hash = salt is not None
        if salt is None:
            self.salt = None
        elif isinstance(salt, (tuple, list)) and len(salt) == 2:
            self.salt = list(salt)
        elif isinstance(salt, int):
            self.salt = [salt, salt]
        else:
            raise ValueError("Hashing: `salt` must be a tuple of 2 integers or one integer. "
                             f"Received: salt={salt!r}.")
        self._out_dtype = dtypes.as_dtype(kwargs["dtype"])

    def _bin(self, value, bins):
        data = _as_bytes(value)
        h = siphash24(self.salt, data) if self.strong_hash else fingerprint64(data)
        return h % bins

    def hash_values(self, array):
        """The bins of a NumPy array of values (strings, bytes or numbers)."""
        array = np.asarray(array)
        bins, mask = self.num_bins, None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask_key = _as_bytes(self.mask_value) if array.dtype.kind in "OSU" else None
            mask = np.asarray([(_as_bytes(v) == mask_key) if mask_key is not None
                               else (v == self.mask_value) for v in array.reshape(-1).tolist()],
                              bool).reshape(array.shape)
        flat = [self._bin(v, bins) for v in array.reshape(-1).tolist()]
        out = np.asarray(flat, np.int64).reshape(array.shape)
        if mask is not None:
            out = np.where(mask, 0, out + 1)
        return out

    def _encode(self, array):
        array = np.asarray(array)
        if self.output_mode == "one_hot" and array.ndim and array.shape[-1] == 1:
            array = array[..., 0]
        indices = self.hash_values(array)
        if self.output_mode == "int":
            return indices.astype(self._out_dtype.as_numpy_dtype)
        if indices.ndim == 0:
            indices = indices.reshape(1)
        return _encode(indices, self.num_bins, self.output_mode).astype(
            self._out_dtype.as_numpy_dtype)

    def call(self, inputs):
        return _host(self._encode, inputs, self._out_dtype, self._encoded_shape)

    def _encoded_shape(self, shape):
        if self.output_mode == "int":
            return shape
        if self.output_mode == "one_hot":
            if len(shape) and shape[-1] == 1:
                shape = shape[:-1]
            return shape + (self.num_bins,)
        return (self.num_bins,) if len(shape) <= 1 else shape[:-1] + (self.num_bins,)

    def compute_output_shape(self, input_shape):
        return self._encoded_shape(tuple(input_shape))

    def get_config(self):
        config = super().get_config()
        config.update(num_bins=self.num_bins, salt=self.salt, mask_value=self.mask_value,
                      output_mode=self.output_mode, sparse=self.sparse)
        return config
