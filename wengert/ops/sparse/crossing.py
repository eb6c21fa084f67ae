"""`tf.sparse.cross` and `tf.sparse.cross_hashed`: feature crosses of sparse and dense columns.

Each input is a column of features per batch row: a SparseTensor [batch, *] (row b's features
are its values with first index b, in order) or a dense [batch, k] tensor (all k). The ops take
the sparse columns first, then the dense ones. For each row, every combination of one feature
per column, the last column varying fastest, gives one output entry (b, j), j counting the
row's combinations; the dense shape is [batch, the most combinations of any row].

SparseCrossV2 joins a combination's features (integers in decimal) with `sep` into a string.
SparseCross with hashed_output (what cross_hashed runs) hashes it as TensorFlow does: starting
from hash_key, h <- FingerprintCat64(h, f_i) for each feature, f_i = FarmHash Fingerprint64 of
a string feature or the integer feature itself, and outputs h mod num_buckets (num_buckets > 0)
or h mod (2^63 - 1). FingerprintCat64(a, b) mixes with k = 0xc6a4a7935bd1e995 and
s(v) = v xor (v >> 47): r = s(((a xor k) xor s(b k) k) k) k, then r = s(r), all mod 2^64.
Not differentiable.
"""
import itertools

import numpy as np

from ...framework import dtypes
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..cast_ops import cast
from ..io.hashing import fingerprint64

__all__ = ["cross", "cross_hashed"]

_M = (1 << 64) - 1
_K = 0xc6a4a7935bd1e995
_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _shift_mix(v):
    return v ^ (v >> 47)


def fingerprint_cat64(a, b):
    """TensorFlow's FingerprintCat64 of two unsigned 64-bit fingerprints."""
    result = (a ^ _K) & _M
    result ^= (_shift_mix((b * _K) & _M) * _K) & _M
    result = (result * _K) & _M
    result = (_shift_mix(result) * _K) & _M
    return _shift_mix(result)


def _rows(inputs, n_sparse, n_dense):
    """Per input column, per batch row, its list of features."""
    sparse = [inputs[i::n_sparse][:3] for i in range(n_sparse)]
    columns = []
    for indices, values, shape in sparse:
        rows = [[] for _ in range(int(shape[0]))]
        for b, v in zip(np.asarray(indices)[:, 0], values):
            rows[int(b)].append(v)
        columns.append(rows)
    for dense in inputs[3 * n_sparse:3 * n_sparse + n_dense]:
        columns.append([list(row) for row in np.asarray(dense).reshape(len(dense), -1)])
    return columns


def _text(feature):
    return feature.decode() if isinstance(feature, bytes) else str(int(feature))


def _hash(feature):
    if isinstance(feature, (bytes, str)):
        return fingerprint64(feature if isinstance(feature, bytes) else feature.encode())
    return int(feature) & _M


def _cross(columns, combine, dtype):
    batch = len(columns[0]) if columns else 0
    indices, values, width = [], [], 0
    for b in range(batch):
        combos = list(itertools.product(*[col[b] for col in columns]))
        width = max(width, len(combos))
        indices += [(b, j) for j in range(len(combos))]
        values += [combine(c) for c in combos]
    return (np.asarray(indices, np.int64).reshape(-1, 2), np.asarray(values, dtype),
            np.asarray([batch, width], np.int64))


def _cross_v2_kernel(*inputs, n_sparse=0, n_dense=0):
    sep = _text(np.asarray(inputs[-1]).item())
    columns = _rows(inputs[:-1], n_sparse, n_dense)
    return _cross(columns, lambda c: sep.join(_text(f) for f in c).encode(), object)


def _cross_kernel(*inputs, n_sparse=0, n_dense=0, hashed_output=False, num_buckets=0,
                  hash_key=_DEFAULT_HASH_KEY):
    columns = _rows(inputs, n_sparse, n_dense)
    if not hashed_output:
        return _cross(columns, lambda c: "_X_".join(_text(f) for f in c).encode(), object)

    def combine(c):
        h = hash_key & _M
        for f in c:
            h = fingerprint_cat64(h, _hash(f))
        return h % num_buckets if num_buckets > 0 else h % ((1 << 63) - 1)
    return _cross(columns, combine, np.int64)


def _rule(out_dtype):
    return lambda *inputs, **attrs: [(TensorShape([None, 2]), dtypes.int64),
                                     (TensorShape([None]), out_dtype(attrs)),
                                     (TensorShape([2]), dtypes.int64)]


def _flat(indices, values, shapes, dense_inputs):
    return tuple(convert_to_tensor(t) for t in (*indices, *values, *shapes, *dense_inputs))


SPARSE_CROSS_V2 = defop(
    "SparseCrossV2", _cross_v2_kernel, shape=_rule(lambda a: dtypes.string), grad=None,
    num_outputs=3, tf_inputs=(),
    raw=lambda indices, values, shapes, dense_inputs, sep, name=None: execute(
        SPARSE_CROSS_V2, _flat(indices, values, shapes, dense_inputs) + (
            convert_to_tensor(sep),), {"n_sparse": len(indices), "n_dense": len(dense_inputs)},
        name))
SPARSE_CROSS = defop(
    "SparseCross", _cross_kernel, grad=None, num_outputs=3, tf_inputs=(),
    shape=_rule(lambda a: dtypes.int64 if a.get("hashed_output") else dtypes.string),
    raw=lambda indices, values, shapes, dense_inputs, hashed_output, num_buckets, hash_key,
    out_type, internal_type, name=None: execute(
        SPARSE_CROSS, _flat(indices, values, shapes, dense_inputs),
        {"n_sparse": len(indices), "n_dense": len(dense_inputs),
         "hashed_output": bool(hashed_output), "num_buckets": int(num_buckets),
         "hash_key": int(hash_key)}, name))


def _columns(inputs, fn):
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("Inputs must be a list")
    sparse = [i for i in inputs if isinstance(i, SparseTensor)]
    dense = [convert_to_tensor(i) for i in inputs if not isinstance(i, SparseTensor)]
    as_int = lambda t: t if t.dtype is dtypes.string else cast(t, dtypes.int64)  # noqa: E731
    for d in dense:
        if d.shape.rank not in (None, 2):
            raise ValueError(f"{fn}: a dense input must be a matrix [batch, k], got shape "
                             f"{d.shape}.")
    return ([s.indices for s in sparse], [as_int(s.values) for s in sparse],
            [s.dense_shape for s in sparse], [as_int(d) for d in dense])


def cross(inputs, name=None, separator=None):
    """The string crosses of the features of `inputs` (SparseTensors and dense matrices,
    sparse ones first), joined by `separator` ("_X_" unless given), per batch row."""
    indices, values, shapes, dense = _columns(inputs, "sparse.cross")
    sep = convert_to_tensor("_X_" if separator is None else separator, dtype=dtypes.string)
    parts = execute(SPARSE_CROSS_V2, _flat(indices, values, shapes, dense) + (sep,),
                    {"n_sparse": len(indices), "n_dense": len(dense)}, name)
    return SparseTensor(*parts)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The crosses of the features of `inputs` hashed as TensorFlow hashes them, into
    `num_buckets` buckets (0: no bucketing)."""
    indices, values, shapes, dense = _columns(inputs, "sparse.cross_hashed")
    attrs = {"n_sparse": len(indices), "n_dense": len(dense), "hashed_output": True,
             "num_buckets": int(num_buckets), "hash_key": int(hash_key or _DEFAULT_HASH_KEY)}
    return SparseTensor(*execute(SPARSE_CROSS, _flat(indices, values, shapes, dense), attrs,
                                 name))
