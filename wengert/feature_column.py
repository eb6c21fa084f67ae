"""`wengert.feature_column`: TensorFlow's `tf.feature_column` (wengert/feature_columns/)."""
from .feature_columns.categorical import (categorical_column_with_hash_bucket,
                                          categorical_column_with_identity,
                                          categorical_column_with_vocabulary_file,
                                          categorical_column_with_vocabulary_list,
                                          weighted_categorical_column)
from .feature_columns.crossed import crossed_column
from .feature_columns.dense_columns import embedding_column, indicator_column, shared_embeddings
from .feature_columns.layers import make_parse_example_spec
from .feature_columns.numeric import bucketized_column, numeric_column
from .feature_columns.sequence import (sequence_categorical_column_with_hash_bucket,
                                       sequence_categorical_column_with_identity,
                                       sequence_categorical_column_with_vocabulary_file,
                                       sequence_categorical_column_with_vocabulary_list,
                                       sequence_numeric_column)

__all__ = ["bucketized_column", "categorical_column_with_hash_bucket",
           "categorical_column_with_identity", "categorical_column_with_vocabulary_file",
           "categorical_column_with_vocabulary_list", "crossed_column", "embedding_column",
           "indicator_column", "make_parse_example_spec", "numeric_column",
           "sequence_categorical_column_with_hash_bucket",
           "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_vocabulary_file",
           "sequence_categorical_column_with_vocabulary_list", "sequence_numeric_column",
           "shared_embeddings", "weighted_categorical_column"]
