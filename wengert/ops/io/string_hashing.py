"""Hashing strings into buckets and fingerprinting tensors, bit for bit as TensorFlow:

    StringToHashBucket        Hash64(s) mod n       (TF's MurmurHash64A; tf.strings.to_hash_bucket)
    StringToHashBucketFast    Fingerprint64(s) mod n  (FarmHash; to_hash_bucket_fast)
    StringToHashBucketStrong  SipHash-2-4(key)(s) mod n  (to_hash_bucket_strong, key = [k0, k1])
    Fingerprint               for each row of data (its first axis), FarmHash Fingerprint64 of
                              the row's bytes as 8 little-endian uint8s, shape [rows, 8]; a row
                              of one string hashes its bytes, a row of several the concatenation
                              of their own fingerprints

The hashes themselves are hashing.py's. No op here is differentiable.
"""
import struct

import numpy as np

from ...framework import dispatch, dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .hashing import fingerprint64, hash64, siphash24

__all__ = ["fingerprint", "to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong"]


def _buckets(hash_fn):
    def kernel(strings, *, num_buckets, **attrs):
        flat = np.asarray(strings, dtype=object).reshape(-1)
        out = np.array([hash_fn(s, **attrs) % num_buckets for s in flat], np.uint64)
        return out.astype(np.int64).reshape(np.shape(strings))
    return kernel


def _bucket_rule(strings, **attrs):
    if strings.dtype is not dtypes.string:
        raise InvalidArgumentError(f"to_hash_bucket: input must be a string tensor, got "
                                   f"{strings.dtype.name}")
    return strings.shape, dtypes.int64


def _strong(data, *, key):
    return siphash24(key, data)


def _fingerprint_kernel(data, *, method):
    data = np.asarray(data)
    if data.ndim == 0:
        raise InvalidArgumentError("Fingerprint: data must have rank at least 1, got a scalar.")
    if data.dtype == object:
        data = data.reshape(len(data), -1)
        rows = [row[0] if len(row) == 1 else
                b"".join(struct.pack("<Q", fingerprint64(s)) for s in row) for row in data]
    else:
        rows = [np.ascontiguousarray(row).tobytes() for row in data]
    out = np.zeros((len(rows), 8), np.uint8)
    for i, row in enumerate(rows):
        out[i] = np.frombuffer(struct.pack("<Q", fingerprint64(row)), np.uint8)
    return out




HASH_BUCKET = defop("StringToHashBucket", _buckets(hash64), grad=None, shape=_bucket_rule,
                    raw=lambda string_tensor, num_buckets, name=None: to_hash_bucket(
                        string_tensor, num_buckets, name))
HASH_BUCKET_FAST = defop("StringToHashBucketFast", _buckets(fingerprint64), grad=None,
                         shape=_bucket_rule,
                         raw=lambda input, num_buckets, name=None: to_hash_bucket_fast(
                             input, num_buckets, name))
HASH_BUCKET_STRONG = defop("StringToHashBucketStrong", _buckets(_strong), grad=None,
                           shape=_bucket_rule,
                           raw=lambda input, num_buckets, key, name=None: to_hash_bucket_strong(
                               input, num_buckets, key, name))
FINGERPRINT = defop("Fingerprint", _fingerprint_kernel, grad=None,
                    shape=lambda data, **a: (TensorShape([data.shape[0] if data.shape.rank
                                                          else None, 8]), dtypes.uint8),
                    raw=lambda data, method, name=None: fingerprint(data, method, name))


def _checked_buckets(num_buckets, what):
    num_buckets = int(num_buckets)
    if num_buckets < 1:
        raise InvalidArgumentError(f"{what}: num_buckets must be >= 1, got {num_buckets}.")
    return num_buckets


def to_hash_bucket(string_tensor, num_buckets, name=None):
    """Each string's bucket in [0, num_buckets): TensorFlow's Hash64 mod num_buckets."""
    ragged = dispatch.elementwise(lambda x: to_hash_bucket(x, num_buckets, name), string_tensor)
    if ragged is not None:
        return ragged
    return execute(HASH_BUCKET, (convert_to_tensor(string_tensor, dtype_hint=dtypes.string),),
                   {"num_buckets": _checked_buckets(num_buckets, "to_hash_bucket")}, name)


def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 (TensorFlow's name)
    """Each string's bucket: FarmHash Fingerprint64 mod num_buckets."""
    ragged = dispatch.elementwise(lambda x: to_hash_bucket_fast(x, num_buckets, name), input)
    if ragged is not None:
        return ragged
    return execute(HASH_BUCKET_FAST, (convert_to_tensor(input, dtype_hint=dtypes.string),),
                   {"num_buckets": _checked_buckets(num_buckets, "to_hash_bucket_fast")}, name)


def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Each string's bucket: SipHash-2-4 under the 2-int `key`, mod num_buckets."""
    ragged = dispatch.elementwise(lambda x: to_hash_bucket_strong(x, num_buckets, key, name),
                                  input)
    if ragged is not None:
        return ragged
    key = tuple(int(k) for k in np.asarray(key).reshape(-1))
    if len(key) != 2:
        raise ValueError(f"to_hash_bucket_strong: key must be a list of 2 integers, got {key}.")
    return execute(HASH_BUCKET_STRONG, (convert_to_tensor(input, dtype_hint=dtypes.string),),
                   {"num_buckets": _checked_buckets(num_buckets, "to_hash_bucket_strong"),
                    "key": key}, name)


def fingerprint(data, method="farmhash64", name=None):
    """A [rows, 8] uint8 fingerprint of each row of `data` (FarmHash Fingerprint64)."""
    method = method.numpy() if hasattr(method, "numpy") else method
    method = method.decode() if isinstance(method, bytes) else method
    if method != "farmhash64":
        raise InvalidArgumentError(f"Fingerprint: unsupported method {method!r}; TensorFlow "
                                   f"supports 'farmhash64' only.")
    return execute(FINGERPRINT, (convert_to_tensor(data),), {"method": "farmhash64"}, name)
