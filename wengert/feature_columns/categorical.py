"""Categorical columns: integer ids in [0, num_buckets) for each example's values.

- vocabulary list / file: a value's position in the vocabulary; a value outside it gets
  `default_value` (-1, which the dense columns ignore) or, with `num_oov_buckets`, one of the
  buckets after the vocabulary by TensorFlow's fast string hash (FarmHash Fingerprint64 of the
  value's text, modulo the number of buckets). num_buckets = vocabulary size + OOV buckets.
- hash bucket: Fingerprint64(text) mod hash_bucket_size (integers hashed as their decimal text).
- identity: the integer value itself; values outside [0, num_buckets) become `default_value`,
  or stay as they are when there is none (TensorFlow 2.21 checks nothing; an indicator column
  then counts them nowhere).
- weighted: another categorical column's ids with a weight per id from a second feature.

Dense features become sparse by dropping their missing entries (base.to_sparse_input); the
lookup tables are made where the column is transformed (in a TF 1 graph they join the
TABLE_INITIALIZERS collection, so `tables_initializer()` fills them).
"""
from ..data.lookup_tables import StaticHashTableV1, StaticVocabularyTableV1
from ..data.table_initializers import (KeyValueTensorInitializer, TextFileIndex,
                                       TextFileInitializer)
from ..framework import dtypes
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..ops.array_ops import where as where_v2
from ..ops.cast_ops import cast
from ..ops.io.parsing_config import VarLenFeature
from ..ops.io.string_hashing import to_hash_bucket_fast
from ..ops.io.strings import as_string
from ..ops.math_ops import greater_equal, less, logical_and
from .base import CategoricalColumn, IdWeightPair, to_sparse_input

__all__ = ["categorical_column_with_vocabulary_list", "categorical_column_with_vocabulary_file",
           "categorical_column_with_hash_bucket", "categorical_column_with_identity",
           "weighted_categorical_column"]


def _key(key):
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Given: {key!r}")
    return key


def _check_values(values, expected_string, column):
    if (values.dtype == dtypes.string) != expected_string or not (
            values.dtype == dtypes.string or values.dtype.is_integer):
        raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. key: "
                         f"{column.key}, column dtype: {column.dtype}, tensor dtype: "
                         f"{values.dtype}")


class _IdColumn(CategoricalColumn):
    @property
    def name(self):
        return self.key

    @property
    def parse_example_spec(self):
        return {self.key: VarLenFeature(self.dtype)}

    def _sparse_input(self, cache):
        return to_sparse_input(cache.get(self.key))

    def _lookup(self, init, values):
        """values' ids in the table `init` fills: OOV buckets after it, else default_value."""
        if self.num_oov_buckets:
            return StaticVocabularyTableV1(init, self.num_oov_buckets).lookup(values)
        return StaticHashTableV1(init, self.default_value).lookup(values)

    def transform_feature(self, cache, state_manager=None):
        sparse = self._sparse_input(cache)
        _check_values(sparse, self.dtype == dtypes.string, self)
        values = sparse.values
        if values.dtype.is_integer and values.dtype != dtypes.int64:
            values = cast(values, dtypes.int64)
        return SparseTensor(sparse.indices, self._ids(values), sparse.dense_shape)


class VocabularyListColumn(_IdColumn):
    _fields = ("key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets")

    @property
    def num_buckets(self):
        return len(self.vocabulary_list) + self.num_oov_buckets

    def _ids(self, values):
        keys = convert_to_tensor(list(self.vocabulary_list), dtype=values.dtype)
        return self._lookup(KeyValueTensorInitializer(
            keys, list(range(len(self.vocabulary_list))), value_dtype=dtypes.int64), values)


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                            num_oov_buckets=0):
    """Ids by position in an in-memory vocabulary (see the module docstring)."""
    vocabulary = list(vocabulary_list if vocabulary_list is not None else [])
    if not vocabulary:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, column_name: "
                         f"{key}")
    if len(set(vocabulary)) != len(vocabulary):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, column_name: "
                         f"{key}")
    is_string = isinstance(vocabulary[0], (str, bytes))
    vocabulary = [v.decode() if isinstance(v, bytes) else v for v in vocabulary]
    dtype = dtypes.as_dtype(dtype) if dtype is not None else (
        dtypes.string if is_string else dtypes.int64)
    if is_string != (dtype == dtypes.string):
        raise ValueError(f"dtype {dtype} and vocabulary dtype "
                         f"{'string' if is_string else 'int'} do not match, column_name: {key}")
    return VocabularyListColumn(key=_key(key), vocabulary_list=tuple(vocabulary), dtype=dtype,
                                default_value=_oov_default(default_value, num_oov_buckets, key),
                                num_oov_buckets=int(num_oov_buckets))


def _oov_default(default_value, num_oov_buckets, key):
    if num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets}, column_name: {key}")
    default_value = -1 if default_value is None else int(default_value)
    if num_oov_buckets and default_value != -1:
        raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
    return default_value


class VocabularyFileColumn(_IdColumn):
    _fields = ("key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype",
               "default_value")

    @property
    def num_buckets(self):
        return self.vocabulary_size + self.num_oov_buckets

    def _ids(self, values):
        return self._lookup(TextFileInitializer(
            self.vocabulary_file, values.dtype, TextFileIndex.WHOLE_LINE, dtypes.int64,
            TextFileIndex.LINE_NUMBER, vocab_size=self.vocabulary_size), values)


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                            dtype=dtypes.string, default_value=None,
                                            num_oov_buckets=0, file_format=None):
    """Ids by line number in a vocabulary file, one entry per line."""
    if file_format not in (None, "text"):
        raise ValueError(f"file_format {file_format!r} is not supported: only text files.")
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    if vocabulary_size is None:
        with open(vocabulary_file, "rb") as f:
            vocabulary_size = sum(1 for _ in f)
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    dtype = dtypes.as_dtype(dtype)
    if not (dtype == dtypes.string or dtype.is_integer):
        raise ValueError(f"Invalid dtype {dtype} in {key}: string or integer.")
    return VocabularyFileColumn(key=_key(key), vocabulary_file=vocabulary_file,
                                vocabulary_size=int(vocabulary_size),
                                num_oov_buckets=int(num_oov_buckets), dtype=dtype,
                                default_value=_oov_default(default_value, num_oov_buckets, key))


class HashedColumn(_IdColumn):
    _fields = ("key", "hash_bucket_size", "dtype")

    @property
    def num_buckets(self):
        return self.hash_bucket_size

    def transform_feature(self, cache, state_manager=None):
        sparse = self._sparse_input(cache)
        if not (sparse.dtype == dtypes.string or sparse.dtype.is_integer):
            raise ValueError(f"SparseColumn input must be a SparseTensor with dtype string or "
                             f"integer. key: {self.key} dtype: {sparse.dtype}")
        _check_values(sparse, self.dtype == dtypes.string, self)
        text = sparse.values if sparse.dtype == dtypes.string else as_string(sparse.values)
        return SparseTensor(sparse.indices, to_hash_bucket_fast(text, self.hash_bucket_size),
                            sparse.dense_shape)


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """Ids by hashing each value into `hash_bucket_size` buckets."""
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. key: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: "
                         f"{hash_bucket_size}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    if not (dtype == dtypes.string or dtype.is_integer):
        raise ValueError(f"dtype must be string or integer. dtype: {dtype}, column_name: {key}")
    return HashedColumn(key=_key(key), hash_bucket_size=int(hash_bucket_size), dtype=dtype)


class IdentityColumn(_IdColumn):
    _fields = ("key", "number_buckets", "default_value")

    @property
    def dtype(self):
        return dtypes.int64

    @property
    def num_buckets(self):
        return self.number_buckets

    def transform_feature(self, cache, state_manager=None):
        sparse = self._sparse_input(cache)
        if not sparse.dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} dtype: "
                             f"{sparse.dtype}")
        values = cast(sparse.values, dtypes.int64)
        if self.default_value is not None:
            inside = logical_and(greater_equal(values, 0), less(values, self.number_buckets))
            values = where_v2(inside, values, convert_to_tensor(self.default_value,
                                                                dtypes.int64))
        return SparseTensor(sparse.indices, values, sparse.dense_shape)


def categorical_column_with_identity(key, num_buckets, default_value=None):
    """Integer features used as their own ids, in [0, num_buckets)."""
    if num_buckets is None or num_buckets < 1:
        raise ValueError(f"Invalid num_buckets {num_buckets}. key: {key}")
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError(f"Invalid default_value {default_value}. key: {key}")
    return IdentityColumn(key=_key(key), number_buckets=int(num_buckets),
                          default_value=default_value)


class WeightedColumn(CategoricalColumn):
    _fields = ("categorical_column", "weight_feature_key", "dtype")

    @property
    def name(self):
        return f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}"

    @property
    def num_buckets(self):
        return self.categorical_column.num_buckets

    @property
    def parse_example_spec(self):
        spec = dict(self.categorical_column.parse_example_spec)
        if self.weight_feature_key in spec:
            raise ValueError(f"Parse config {spec[self.weight_feature_key]} already exists for "
                             f"{self.weight_feature_key}.")
        spec[self.weight_feature_key] = VarLenFeature(self.dtype)
        return spec

    def transform_feature(self, cache, state_manager=None):
        weights = cache.get(self.weight_feature_key)
        if weights.dtype.base_dtype != self.dtype:
            raise ValueError(f"Bad dtype, expected {self.dtype}, but got {weights.dtype}.")
        weights = to_sparse_input(weights, ignore_value=0.0)
        if not weights.dtype.is_floating:
            weights = SparseTensor(weights.indices, cast(weights.values, dtypes.float32),
                                   weights.dense_shape)
        ids = self.categorical_column.get_sparse_tensors(cache, state_manager).id_tensor
        return ids, weights

    def get_sparse_tensors(self, cache, state_manager=None):
        return IdWeightPair(*cache.get(self))


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=dtypes.float32):
    """`categorical_column`'s ids weighted by the feature `weight_feature_key`."""
    dtype = dtypes.as_dtype(dtype)
    if dtype is None or not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype {dtype} is not convertible to float.")
    return WeightedColumn(categorical_column=categorical_column,
                          weight_feature_key=weight_feature_key, dtype=dtype)
