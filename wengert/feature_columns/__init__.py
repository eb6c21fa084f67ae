"""TensorFlow's feature columns (tf.feature_column and tf.compat.v1.feature_column): declarative
descriptions of how raw input features become a model's dense input, and the v1 functions that
build that input in a graph (input_layer, linear_model).

A column names a feature (or other columns) and says what it computes: numeric values
(numeric.py), bucket ids of a numeric value and categorical ids from a vocabulary, a hash, an
identity mapping or a cross of features (categorical.py, crossed.py), and the dense forms of
categorical ids: one-hot/multi-hot counts (indicator) and combined embedding rows (embedding,
dense_columns.py). base.py holds what every column shares: the cache that transforms each column
once per call, and the conversion of raw features to tensors. layers.py builds the dense input
and the linear model from a list of columns, in the variable scopes TensorFlow uses, so
checkpoints and variable names agree with TensorFlow's.
"""
