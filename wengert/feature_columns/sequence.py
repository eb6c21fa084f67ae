"""Sequence columns: features with a variable number of steps per example.

sequence_numeric_column and the sequence_categorical_column_with_* constructors describe such
features and their parsing spec (a VarLenFeature each); a sequence categorical column wraps the
plain categorical column of the same arguments and shares its ids. TensorFlow 2.21 builds
sequence input only with Keras's SequenceFeatures layer, which Keras 3 no longer has, so here
as there an input_layer refuses them with TensorFlow's suggested fixes.
"""
from ..framework import dtypes
from ..ops.io.parsing_config import VarLenFeature
from .base import CategoricalColumn, FeatureColumn
from .categorical import (categorical_column_with_hash_bucket, categorical_column_with_identity,
                          categorical_column_with_vocabulary_file,
                          categorical_column_with_vocabulary_list)
from .numeric import _shape

__all__ = ["sequence_numeric_column", "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_hash_bucket",
           "sequence_categorical_column_with_vocabulary_file",
           "sequence_categorical_column_with_vocabulary_list", "SequenceCategoricalColumn",
           "refuse_sequence"]


class SequenceNumericColumn(FeatureColumn):
    _fields = ("key", "shape", "default_value", "dtype", "normalizer_fn")

    @property
    def name(self):
        return self.key

    @property
    def parse_example_spec(self):
        return {self.key: VarLenFeature(self.dtype)}


def sequence_numeric_column(key, shape=(1,), default_value=0.0, dtype=dtypes.float32,
                            normalizer_fn=None):
    """Real values at each step of a sequence feature."""
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    return SequenceNumericColumn(key=key, shape=_shape(shape, key), default_value=default_value,
                                 dtype=dtype, normalizer_fn=normalizer_fn)


class SequenceCategoricalColumn(CategoricalColumn):
    _fields = ("categorical_column",)

    @property
    def name(self):
        return self.categorical_column.name

    @property
    def num_buckets(self):
        return self.categorical_column.num_buckets

    @property
    def parse_example_spec(self):
        return self.categorical_column.parse_example_spec

    def transform_feature(self, cache, state_manager=None):
        return self.categorical_column.transform_feature(cache, state_manager)


def refuse_sequence(column, kind):
    """TensorFlow's error for a sequence column inside a dense (non-sequence) column."""
    if isinstance(column.categorical_column, SequenceCategoricalColumn):
        raise ValueError(
            f"In {kind}: {column.name}. categorical_column must not be of type "
            f"SequenceCategoricalColumn. Suggested fix A: If you wish to use DenseFeatures, use "
            f"a non-sequence categorical_column_with_*. Suggested fix B: If you wish to create "
            f"sequence input, use SequenceFeatures instead of DenseFeatures. Given (type "
            f"{type(column.categorical_column).__name__}): {column.categorical_column}")


def sequence_categorical_column_with_identity(key, num_buckets, default_value=None):
    """categorical_column_with_identity over each step of a sequence."""
    return SequenceCategoricalColumn(categorical_column=categorical_column_with_identity(
        key, num_buckets, default_value))


def sequence_categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """categorical_column_with_hash_bucket over each step of a sequence."""
    return SequenceCategoricalColumn(categorical_column=categorical_column_with_hash_bucket(
        key, hash_bucket_size, dtype))


def sequence_categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                                     num_oov_buckets=0, default_value=None,
                                                     dtype=dtypes.string):
    """categorical_column_with_vocabulary_file over each step of a sequence."""
    return SequenceCategoricalColumn(categorical_column=categorical_column_with_vocabulary_file(
        key, vocabulary_file, vocabulary_size, dtype=dtype, default_value=default_value,
        num_oov_buckets=num_oov_buckets))


def sequence_categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None,
                                                     default_value=-1, num_oov_buckets=0):
    """categorical_column_with_vocabulary_list over each step of a sequence."""
    return SequenceCategoricalColumn(categorical_column=categorical_column_with_vocabulary_list(
        key, vocabulary_list, dtype, default_value, num_oov_buckets))
