"""`tf.compat.v1.feature_column`: tf.feature_column's columns plus TensorFlow 1's input_layer,
linear_model and shared_embedding_columns (wengert/feature_columns/), with TF 1's order of
categorical_column_with_vocabulary_file's arguments (feature_columns/tf1_signatures.py)."""
from ...feature_column import (bucketized_column, categorical_column_with_hash_bucket,
                               categorical_column_with_identity,
                               categorical_column_with_vocabulary_list, crossed_column,
                               embedding_column, indicator_column, make_parse_example_spec,
                               numeric_column, sequence_categorical_column_with_hash_bucket,
                               sequence_categorical_column_with_identity,
                               sequence_categorical_column_with_vocabulary_file,
                               sequence_categorical_column_with_vocabulary_list,
                               sequence_numeric_column, weighted_categorical_column)
from ...feature_columns.dense_columns import shared_embedding_columns
from ...feature_columns.layers import input_layer, linear_model
from ...feature_columns.tf1_signatures import categorical_column_with_vocabulary_file

__all__ = ["bucketized_column", "categorical_column_with_hash_bucket",
           "categorical_column_with_identity", "categorical_column_with_vocabulary_file",
           "categorical_column_with_vocabulary_list", "crossed_column", "embedding_column",
           "indicator_column", "input_layer", "linear_model", "make_parse_example_spec",
           "numeric_column", "sequence_categorical_column_with_hash_bucket",
           "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_vocabulary_file",
           "sequence_categorical_column_with_vocabulary_list", "sequence_numeric_column",
           "shared_embedding_columns", "weighted_categorical_column"]
