"""Building a model's input from feature columns, as TensorFlow 1 does it, and the parsing
spec that reads the columns' features from tf.train.Example records.

input_layer(features, columns): for each dense column in the order of its name, its value
reshaped to [batch, prod(variable_shape)], inside a variable scope named for the column (so an
embedding table is `input_layer/<column>_embedding/embedding_weights`); the results
concatenated along axis 1.

linear_model(features, columns, units): the sum over columns of each column's weighted sum plus
a bias, all weights starting at zero: a dense column contributes value @ W (W
[prod(variable_shape), units]); a categorical one (a bucketized column counts as categorical
here) the rows of W [num_buckets, units] of its ids, combined by `sparse_combiner`. Variables
are `linear_model/<column>/weights` and `linear_model/bias_weights`.
"""
from ..graph.collections import GraphKeys, get_collection
from ..graph.variable_scope import get_variable, get_variable_scope, variable_scope
from ..ops.array_ops import concat
from ..ops.broadcast_ops import add_n
from ..ops.creation_ops import shape as shape_of
from ..ops.matmul_ops import matmul
from ..ops.nn.activations import bias_add
from ..ops.nn.embedding import safe_embedding_lookup_sparse
from ..ops.random.initializers import zeros_initializer
from ..ops.reshape_ops import reshape
from ..ops.sparse.reshaping import reshape as sparse_reshape
from .base import CategoricalColumn, DenseColumn, FeatureColumn, TransformCache, check_columns

__all__ = ["input_layer", "linear_model", "make_parse_example_spec"]


def _collections(weight_collections):
    collections = list(weight_collections or [])
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES):
        if key not in collections:
            collections.append(key)
    return collections


def _flat(tensor, column):
    return reshape(tensor, [shape_of(tensor)[0], column.variable_shape.num_elements()])


def input_layer(features, feature_columns, weight_collections=None, trainable=True,
                cols_to_vars=None, cols_to_output_tensors=None):
    """The dense input of `feature_columns` over `features`: [batch, total width]."""
    columns = check_columns(feature_columns, DenseColumn, "input_layer")
    cache, collections = TransformCache(features), _collections(weight_collections)
    outputs = []
    with variable_scope(None, default_name="input_layer", values=list(features.values())):
        for column in sorted(columns, key=lambda c: c.name):
            with variable_scope(None, default_name=getattr(column, "scope_name", column.name)):
                output = _flat(column.get_dense_tensor(cache, trainable=trainable,
                                                collections=collections), column)
                outputs.append(output)
                if cols_to_vars is not None:
                    cols_to_vars[column] = get_collection(
                        GraphKeys.GLOBAL_VARIABLES, scope=get_variable_scope().name)
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = output
        return concat(outputs, 1)


def _weighted_sum(column, cache, units, sparse_combiner, trainable, collections):
    if isinstance(column, CategoricalColumn):
        ids, weights = column.get_sparse_tensors(cache)
        ids = sparse_reshape(ids, [ids.dense_shape[0], -1])
        if weights is not None:
            weights = sparse_reshape(weights, [weights.dense_shape[0], -1])
        table = get_variable("weights", shape=[column.num_buckets, units],
                             initializer=zeros_initializer(), trainable=trainable,
                             collections=collections)
        return safe_embedding_lookup_sparse(table, ids, weights, combiner=sparse_combiner,
                                            name="weighted_sum")
    value = _flat(column.get_dense_tensor(cache, trainable=trainable,
                                                collections=collections), column)
    weight = get_variable("weights", shape=[column.variable_shape.num_elements(), units],
                          initializer=zeros_initializer(), trainable=trainable,
                          collections=collections)
    return matmul(value, weight, name="weighted_sum")


def linear_model(features, feature_columns, units=1, sparse_combiner="sum",
                 weight_collections=None, trainable=True, cols_to_vars=None):
    """A linear model of `feature_columns` over `features`: [batch, units]."""
    columns = check_columns(feature_columns, (DenseColumn, CategoricalColumn), "linear_model")
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"sparse_combiner must be one of 'mean', 'sqrtn' or 'sum', got "
                         f"{sparse_combiner!r}.")
    cache, collections = TransformCache(features), _collections(weight_collections)
    sums = []
    with variable_scope(None, default_name="linear_model"):
        for column in sorted(columns, key=lambda c: c.name):
            with variable_scope(None, default_name=column.name):
                sums.append(_weighted_sum(column, cache, units, sparse_combiner, trainable,
                                          collections))
                if cols_to_vars is not None:
                    cols_to_vars[column] = get_collection(
                        GraphKeys.GLOBAL_VARIABLES, scope=get_variable_scope().name)
        total = add_n(sums, name="weighted_sum_no_bias")
        bias = get_variable("bias_weights", shape=[units], initializer=zeros_initializer(),
                            trainable=trainable, collections=collections)
        if cols_to_vars is not None:
            cols_to_vars["bias"] = [bias]
        return bias_add(total, bias, name="weighted_sum")


def make_parse_example_spec(feature_columns):
    """{feature key: FixedLenFeature/VarLenFeature} that parse_example needs for the columns."""
    spec = {}
    for column in feature_columns:
        if not isinstance(column, FeatureColumn):
            raise ValueError(f"All feature_columns must be FeatureColumn instances. Given: "
                             f"{column}")
        for key, value in column.parse_example_spec.items():
            if key in spec and spec[key] != value:
                raise ValueError(f"feature_columns contain different parse_spec for key {key}. "
                                 f"Given {value} and {spec[key]}")
            spec[key] = value
    return spec
