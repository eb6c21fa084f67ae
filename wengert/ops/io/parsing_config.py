"""The feature configurations of `tf.io.parse_example` and friends, as TensorFlow declares them
(named tuples, so `FixedLenFeature([3], tf.float32)` compares and prints as TensorFlow's):

    FixedLenFeature(shape, dtype, default_value=None)     a dense tensor of `shape` per record;
                                                          required unless default_value is given
    VarLenFeature(dtype)                                  a SparseTensor of each record's values
    FixedLenSequenceFeature(shape, dtype, allow_missing=False, default_value=None)
                                                          a [steps] + shape tensor per record,
                                                          padded across a batch with
                                                          default_value (or 0 / b"")
    SparseFeature(index_key, value_key, dtype, size, already_sorted=False)
                                                          a SparseTensor assembled from an index
                                                          feature and a value feature
    RaggedFeature(dtype, value_key=None, partitions=(), row_splits_dtype=tf.int32,
                  validate=False)                         a RaggedTensor of each record's values
                                                          (value_key's, the key by default), split
                                                          by its partitions: RowSplits(key),
                                                          RowLengths(key), RowStarts(key),
                                                          RowLimits(key), ValueRowIds(key),
                                                          UniformRowLength(length), outermost
                                                          first (ragged_feature_parsing.py)

A feature's dtype is tf.float32, tf.int64 or tf.string: the three lists a tf.train.Feature holds.
`check_features` validates a features dict before anything is parsed.
"""
import collections

import numpy as np

from ...framework import dtypes
from ...framework.tensor_shape import TensorShape

__all__ = ["FixedLenFeature", "VarLenFeature", "FixedLenSequenceFeature", "SparseFeature",
           "RaggedFeature", "check_features", "KINDS"]

# the tf.train.Feature list that holds each dtype, and the name TensorFlow's messages give it
KINDS = {"float32": ("float_list", "float"), "int64": ("int64_list", "int64"),
         "string": ("bytes_list", "string")}


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A dense feature of fixed shape: `FixedLenFeature([3], tf.float32, default_value=...)`."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature with any number of values, parsed to a SparseTensor."""


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature whose values are a sequence of items of `shape` (the count divisible by
    shape's size), padded with `default_value` across a batch."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A SparseTensor of dense shape [size] (or sizes) from an int64 index feature (or several)
    and a value feature of the same length."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A feature parsed to a RaggedTensor: the values of `value_key` (this feature's own key
    when None), split into rows by `partitions` (outermost first), each a partition class
    below naming the int64 feature that holds it, or UniformRowLength(length)."""

    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])
    _PARTITION_TYPES = (RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds,
                        UniformRowLength)

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        if value_key is not None and not isinstance(value_key, str):
            raise ValueError(f"Argument `value_key` must be a string; got {value_key}")
        if value_key is not None and not value_key:
            raise ValueError("Argument `value_key` must not be empty")
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int64, dtypes.float32, dtypes.string):
            raise ValueError(f"Argument `dtype` must be int64, float32, or bytes; got {dtype!r}")
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Argument `row_splits_dtype` must be int32 or int64; got "
                             f"{row_splits_dtype!r}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError(f"Argument `partitions` must be a list or tuple. Received "
                            f"partitions={partitions} of type {type(partitions).__name__}.")
        partitions = tuple(cls._partition(p) for p in partitions)
        if not isinstance(validate, bool):
            raise TypeError(f"Argument `validate` must be a bool; got {validate!r}")
        return super().__new__(cls, dtype, value_key, partitions, row_splits_dtype, validate)

    @classmethod
    def _partition(cls, partition):
        """`partition` as one of the partition classes (a namedtuple of the same name, as
        another copy of the class after unpickling, is rebuilt); TypeError otherwise."""
        if isinstance(partition, cls._PARTITION_TYPES):
            return partition
        for kind in cls._PARTITION_TYPES:
            if type(partition).__name__ == kind.__name__ and hasattr(partition, kind._fields[0]):
                return kind(getattr(partition, kind._fields[0]))
        raise TypeError(f"Argument `partitions` cannot be cast to any of the partition types "
                        f"RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds or "
                        f"UniformRowLength (tf.io.RaggedFeature.RowSplits(key), ...); got: "
                        f"{partition!r} with type {type(partition)}")


def _dtype(config, key, what):
    dtype = dtypes.as_dtype(config.dtype)
    if dtype.name not in KINDS:
        raise ValueError(f"{what}: feature '{key}' has dtype {dtype.name}; a tf.train.Feature "
                         f"holds float32, int64 or string values.")
    return dtype


def _shape(config, key, what, sequence):
    shape = TensorShape(config.shape)
    dims = shape.as_list() if shape.rank is not None else None
    if dims is None or any(d is None for d in dims):
        kind = "FixedLenSequenceFeature" if sequence else "FixedLenFeature"
        raise ValueError(f"{what}: {kind} '{key}' needs a fully defined shape, got {shape} "
                         f"(use FixedLenSequenceFeature or VarLenFeature for a varying length).")
    return tuple(dims)


def _default(config, key, dtype, shape, what, sequence):
    if config.default_value is None:
        return None
    value = np.asarray(config.default_value.numpy() if hasattr(config.default_value, "numpy")
                       else config.default_value)
    if dtype is dtypes.string:
        value = np.vectorize(lambda v: v.encode() if isinstance(v, str) else v,
                             otypes=[object])(value) if value.size else value.astype(object)
    else:
        value = value.astype(dtype.as_numpy_dtype)
    if sequence:
        if value.size != 1:
            raise ValueError(f"{what}: FixedLenSequenceFeature '{key}' takes a scalar "
                             f"default_value (the padding), got shape {list(value.shape)}.")
        return value.reshape(())
    size = int(np.prod(shape))
    if value.size == 1 and size != 1:
        return np.broadcast_to(value.reshape(()), shape).copy()
    if value.size != size:
        raise ValueError(f"{what}: default_value of '{key}' has {value.size} values, its shape "
                         f"{list(shape)} needs {size}.")
    return value.reshape(shape)


def check_features(features, what):
    """[(key, kind, dtype, shape, default)] for a features dict, kind one of "fixed",
    "sequence", "varlen", "sparse", "ragged" (default then the RaggedFeature); ValueError
    naming the key for a bad configuration."""
    if not isinstance(features, dict) or not features:
        raise ValueError(f"{what}: features must be a non-empty dict of feature "
                         f"configurations, got {features!r:.80}.")
    out = []
    for key in sorted(features):
        config = features[key]
        if isinstance(config, FixedLenFeature):
            dtype = _dtype(config, key, what)
            shape = _shape(config, key, what, False)
            out.append((key, "fixed", dtype, shape,
                        _default(config, key, dtype, shape, what, False)))
        elif isinstance(config, FixedLenSequenceFeature):
            dtype = _dtype(config, key, what)
            shape = _shape(config, key, what, True)
            out.append((key, "sequence", dtype, shape,
                        (_default(config, key, dtype, shape, what, True),
                         bool(config.allow_missing))))
        elif isinstance(config, VarLenFeature):
            out.append((key, "varlen", _dtype(config, key, what), None, None))
        elif isinstance(config, SparseFeature):
            out.append((key, "sparse", _dtype(config, key, what), None, config))
        elif isinstance(config, RaggedFeature):
            out.append((key, "ragged", config.dtype, None, config))
        else:
            raise ValueError(f"{what}: feature '{key}' is configured by "
                             f"{type(config).__name__}; use FixedLenFeature, VarLenFeature, "
                             f"FixedLenSequenceFeature, SparseFeature or RaggedFeature.")
    return out
