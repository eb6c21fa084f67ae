"""Numeric and bucketized columns.

numeric_column(key, shape): the feature as float32 of shape [batch] + shape, after an optional
`normalizer_fn` (applied before the cast, as TensorFlow applies it). bucketized_column(source,
boundaries): each value's bucket, the number of boundaries at or below it, so boundaries
[b0, ..., bk-1] make k+1 buckets (-inf, b0), [b0, b1), ..., [bk-1, inf). Its dense value is the
one-hot of the bucket for each of the source's elements ([batch] + shape + [k+1]); as a
categorical column element j of the source uses ids j * (k+1) + bucket, so num_buckets is
(k+1) * shape[0].
"""
import numpy as np

from ..framework import dtypes
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import stack
from ..ops.cast_ops import cast
from ..ops.creation_ops import one_hot, range as range_, shape as shape_of, tile
from ..ops.reshape_ops import expand_dims, reshape, transpose
from ..ops.sort_ops import searchsorted
from .base import CategoricalColumn, DenseColumn, IdWeightPair
from ..ops.io.parsing_config import FixedLenFeature

__all__ = ["numeric_column", "bucketized_column", "NumericColumn", "BucketizedColumn"]


def _shape(shape, key):
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(not isinstance(d, int) or d < 1 for d in shape):
        raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, key: {key}")
    return shape


def _default(default_value, shape, dtype, key):
    if default_value is None:
        return None
    value = np.asarray(default_value, dtype=dtype.as_numpy_dtype)
    if value.ndim == 0:
        return tuple(np.full(shape, value).tolist())
    if value.shape != shape:
        raise ValueError(f"The shape of default_value must be equal to given shape. "
                         f"default_value: {default_value}, shape: {shape}, key: {key}")
    return tuple(value.tolist())


class NumericColumn(DenseColumn):
    _fields = ("key", "shape", "default_value", "dtype", "normalizer_fn")

    @property
    def name(self):
        return self.key

    @property
    def parse_example_spec(self):
        return {self.key: FixedLenFeature(self.shape, self.dtype, self.default_value)}

    @property
    def variable_shape(self):
        return TensorShape(self.shape)

    def transform_feature(self, cache, state_manager=None):
        value = cache.get(self.key)
        if isinstance(value, SparseTensor):
            raise ValueError(f"The corresponding Tensor of numerical column must be a Tensor. "
                             f"SparseTensor is not supported. key: {self.key}")
        if self.normalizer_fn is not None:
            value = self.normalizer_fn(value)
        return cast(value, dtypes.float32)


def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32,
                   normalizer_fn=None):
    """A column of real values: the feature `key` as float32 of shape [batch] + shape."""
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Given: {key!r}")
    shape = _shape(shape, key)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    return NumericColumn(key=key, shape=shape, default_value=_default(
        default_value, shape, dtype, key), dtype=dtype, normalizer_fn=normalizer_fn)


def bucketize(values, boundaries):
    """The bucket of each value: how many boundaries are <= it (int32, values' shape)."""
    flat = reshape(values, [1, -1])
    edges = np.asarray(boundaries, dtype=flat.dtype.as_numpy_dtype).reshape(1, -1)
    buckets = searchsorted(edges, flat, side="right", out_type=dtypes.int32)
    return reshape(buckets, shape_of(values))


class BucketizedColumn(DenseColumn, CategoricalColumn):
    _fields = ("source_column", "boundaries")

    @property
    def name(self):
        return f"{self.source_column.name}_bucketized"

    @property
    def parse_example_spec(self):
        return self.source_column.parse_example_spec

    @property
    def variable_shape(self):
        return TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    @property
    def num_buckets(self):
        return (len(self.boundaries) + 1) * self.source_column.shape[0]

    def transform_feature(self, cache, state_manager=None):
        return bucketize(cache.get(self.source_column), self.boundaries)

    def get_dense_tensor(self, cache, state_manager=None, trainable=True, collections=None):
        return one_hot(cache.get(self), len(self.boundaries) + 1, on_value=1.0, off_value=0.0)

    def get_sparse_tensors(self, cache, state_manager=None):
        buckets = cache.get(self)
        width = self.source_column.shape[0]
        batch = shape_of(buckets)[0]
        rows = reshape(tile(expand_dims(range_(0, batch), 1), [1, width]), [-1])
        columns = tile(range_(0, width), [batch])
        ids = reshape(buckets, [-1]) + (len(self.boundaries) + 1) * columns
        indices = cast(transpose(stack([rows, columns])), dtypes.int64)
        dense_shape = cast(stack([batch, width]), dtypes.int64)
        return IdWeightPair(SparseTensor(indices, cast(ids, dtypes.int64), dense_shape), None)


def bucketized_column(source_column, boundaries):
    """The bucket of each value of a numeric column, by sorted `boundaries`."""
    if not isinstance(source_column, NumericColumn):
        raise ValueError(f"source_column must be a column generated with numeric_column(). "
                         f"Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: "
                         f"{source_column}")
    if not boundaries or not isinstance(boundaries, (list, tuple)):
        raise ValueError("boundaries must not be empty.")
    bounds = [float(b) for b in boundaries]
    if any(a >= b for a, b in zip(bounds[:-1], bounds[1:])):
        raise ValueError(f"boundaries must be a sorted list. Given: {boundaries}")
    return BucketizedColumn(source_column=source_column, boundaries=tuple(bounds))
