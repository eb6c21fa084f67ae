"""TensorFlow 1's `categorical_column_with_vocabulary_file`, as `tf.compat.v1.feature_column`
has it: TensorFlow 2's column (categorical.py) with TF 1's order of the
arguments, `num_oov_buckets` and `default_value` before `dtype`, and no `file_format`."""
from ..framework import dtypes
from . import categorical

__all__ = ["categorical_column_with_vocabulary_file"]


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                            num_oov_buckets=0, default_value=None,
                                            dtype=dtypes.string):
    """A categorical column whose ids are the line numbers of a vocabulary file's entries."""
    return categorical.categorical_column_with_vocabulary_file(
        key, vocabulary_file, vocabulary_size, dtype, default_value, num_oov_buckets)
