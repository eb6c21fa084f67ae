"""Feature crosses of ragged tensors: tf.ragged.cross and tf.ragged.cross_hashed, over
TensorFlow's RaggedCross op.

Each input is a 2-D batch of features (ragged, dense, or a SparseTensor, which are made ragged
first), int64 or string. Row i of the result holds one entry per combination of one feature
from row i of every input, the last input varying fastest:

    cross:         the features' text joined by "_X_" (integers in decimal)
    cross_hashed:  h = hash_key; for each feature f: h = FingerprintCat64(h, F(f)), where F is
                   FarmHash's Fingerprint64 of a string and the value itself (as uint64) of an
                   integer; the entry is h mod num_buckets, or h mod (2^63 - 1) without buckets

    FingerprintCat64(a, b) = S(S((a ^ k) ^ S(b k) k) k) k ... with k = 0xc6a4a7935bd1e995 and
    S(v) = v ^ (v >> 47), all mod 2^64 (TensorFlow's definition, spelled out in _cat64).

The op has no gradient (its outputs are strings and hashes).
"""
import itertools

import numpy as np

from ...framework import dtypes
from ...framework.execute import execute
from ...framework.ragged_tensor import RaggedTensor
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..io.hashing import fingerprint64
from ..math_ops import cast
from . import factories
from .dense_conversions import from_sparse, from_tensor

__all__ = ["cross", "cross_hashed", "RAGGED_CROSS"]

_MASK = (1 << 64) - 1
_MUL = 0xc6a4a7935bd1e995
_INT64_MAX = (1 << 63) - 1
DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _shift_mix(v):
    return v ^ (v >> 47)


def _cat64(fp1, fp2):
    result = fp1 ^ _MUL
    result ^= (_shift_mix((fp2 * _MUL) & _MASK) * _MUL) & _MASK
    result = (result * _MUL) & _MASK
    result = (_shift_mix(result) * _MUL) & _MASK
    return _shift_mix(result)


def _feature_hash(value):
    if isinstance(value, (bytes, str)):
        return fingerprint64(value.encode() if isinstance(value, str) else value)
    return int(value) & _MASK


def _feature_text(value):
    if isinstance(value, bytes):
        return value
    return value.encode() if isinstance(value, str) else str(int(value)).encode()


def _combine(combo, hashed_output, num_buckets, hash_key):
    if not hashed_output:
        return b"_X_".join(_feature_text(v) for v in combo)
    h = hash_key & _MASK
    for value in combo:
        h = _cat64(h, _feature_hash(value))
    return h % num_buckets if num_buckets > 0 else h % _INT64_MAX


def _cross_kernel(*arrays, hashed_output, num_buckets, hash_key):
    values, splits = arrays[0::2], arrays[1::2]
    out, lengths = [], []
    for i in range(len(splits[0]) - 1):
        rows = [v[s[i]:s[i + 1]] for v, s in zip(values, splits)]
        combos = [_combine(c, hashed_output, num_buckets, hash_key)
                  for c in itertools.product(*rows)]
        out.extend(combos)
        lengths.append(len(combos))
    result = np.array(out, dtype=np.int64 if hashed_output else object)
    if not hashed_output and not out:
        result = np.zeros([0], dtype=object)
    return result, np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)


def _cross_rule(*inputs, hashed_output, num_buckets, hash_key):
    splits = inputs[1].shape
    rows = None if splits.rank is None or splits[0] is None else splits[0]
    dtype = dtypes.int64 if hashed_output else dtypes.string
    return [(TensorShape([None]), dtype), (TensorShape([rows]), dtypes.int64)]


def _raw_cross(ragged_values, ragged_row_splits, sparse_indices, sparse_values, sparse_shape,
               dense_inputs, input_order, hashed_output, num_buckets, hash_key, out_values_type,
               out_row_splits_type, name=None):
    queues = {"R": [factories.from_row_splits(RaggedTensor, v, s)
                    for v, s in zip(ragged_values, ragged_row_splits)],
              "S": [SparseTensor(i, v, s) for i, v, s in zip(sparse_indices, sparse_values,
                                                               sparse_shape)],
              "D": list(dense_inputs)}
    inputs = [queues[kind].pop(0) for kind in input_order]
    rt = _cross(inputs, hashed_output, num_buckets, hash_key, name, "RaggedCross")
    return rt.flat_values, rt.row_splits


RAGGED_CROSS = defop("RaggedCross", _cross_kernel, shape=_cross_rule, grad=None, num_outputs=2,
                     raw=_raw_cross)


def _as_feature(x, index, fn):
    if isinstance(x, SparseTensor):
        x = from_sparse(RaggedTensor, x)
    elif not isinstance(x, RaggedTensor):
        x = convert_to_tensor(x)
        if x.shape.rank != 2:
            raise ValueError(f"{fn}: inputs[{index}] must be 2-D (a batch of feature lists), "
                             f"got shape {x.shape}.")
        x = from_tensor(RaggedTensor, x)
    if x.ragged_rank != 1 or x.flat_values.shape.rank != 1:
        raise ValueError(f"{fn}: inputs[{index}] must be a 2-D ragged tensor, got shape "
                         f"{x.shape}.")
    values = x.flat_values
    if values.dtype is dtypes.int32:
        values = cast(values, dtypes.int64)
    if values.dtype not in (dtypes.int64, dtypes.string):
        raise ValueError(f"Unexpected dtype for inputs[{index}]: {values.dtype!r}")
    return values, cast(x.row_splits, dtypes.int64)


def _cross(inputs, hashed_output, num_buckets, hash_key, name, fn):
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError(f"{fn}: inputs must be a non-empty list of tensors.")
    arrays = []
    for i, x in enumerate(inputs):
        arrays.extend(_as_feature(x, i, fn))
    values, splits = execute(RAGGED_CROSS, tuple(arrays),
                             {"hashed_output": bool(hashed_output), "num_buckets": int(num_buckets),
                              "hash_key": int(hash_key)}, name)
    return factories.wrap(values, splits, fn=fn, validate=False)


def cross(inputs, name=None):
    """Row-wise string crosses of the features in `inputs` (see the module docstring)."""
    return _cross(inputs, False, 0, 0, name, "tf.ragged.cross")


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Row-wise hashed crosses: int64 buckets in [0, num_buckets) (any int64 when 0)."""
    if num_buckets < 0:
        raise ValueError(f"tf.ragged.cross_hashed: num_buckets must be >= 0, got {num_buckets}.")
    key = DEFAULT_HASH_KEY if hash_key is None else hash_key
    return _cross(inputs, True, num_buckets, key, name, "tf.ragged.cross_hashed")
