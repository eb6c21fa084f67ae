"""The dense forms of categorical ids: indicator and embedding columns.

indicator_column(c): for each example the count of each id of c, a [num_buckets] vector (a
multi-hot vector when ids do not repeat; with a weighted column the weights are summed instead
of counted). Ids outside [0, num_buckets) (the -1 of an unknown vocabulary value) count nowhere.

embedding_column(c, dimension): an embedding table `embedding_weights` [num_buckets, dimension]
(made with get_variable in the current variable scope, initialized by default from a truncated
normal with stddev 1/sqrt(dimension)); each example's vector is its ids' rows combined by
`combiner` ("mean", "sqrtn" or "sum", weighted when c gives weights), by
safe_embedding_lookup_sparse: an example without valid ids gets zeros. shared_embeddings makes
one table for several columns of the same number of buckets.
"""
import math

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..graph.collections import add_to_collection, get_collection
from ..graph.variable_scope import get_variable
from ..ops.creation_ops import one_hot
from ..ops.nn.embedding import embedding_lookup_sparse, safe_embedding_lookup_sparse
from ..ops.random.initializers import truncated_normal_initializer
from ..ops.reduce_ops import reduce_sum
from ..ops.reshape_ops import expand_dims
from ..ops.sparse.conversions import to_dense
from ..train.checkpoint_utils import init_from_checkpoint
from .base import CategoricalColumn, DenseColumn
from .sequence import refuse_sequence

__all__ = ["indicator_column", "embedding_column", "shared_embeddings",
           "shared_embedding_columns", "IndicatorColumn", "EmbeddingColumn"]


class IndicatorColumn(DenseColumn):
    _fields = ("categorical_column",)

    @property
    def name(self):
        return f"{self.categorical_column.name}_indicator"

    @property
    def parse_example_spec(self):
        return self.categorical_column.parse_example_spec

    @property
    def variable_shape(self):
        return TensorShape([self.categorical_column.num_buckets])

    def transform_feature(self, cache, state_manager=None):
        refuse_sequence(self, "indicator_column")
        ids, weights = self.categorical_column.get_sparse_tensors(cache, state_manager)
        depth = self.categorical_column.num_buckets
        hot = one_hot(to_dense(ids, default_value=-1), depth, on_value=1.0, off_value=0.0)
        if weights is not None:
            hot = hot * expand_dims(to_dense(weights, default_value=0.0), -1)
        return reduce_sum(hot, axis=[-2])


def indicator_column(categorical_column):
    """The multi-hot (count) vector of a categorical column's ids."""
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError(f"Unsupported input type. Input must be a CategoricalColumn. Given: "
                         f"{categorical_column}")
    return IndicatorColumn(categorical_column=categorical_column)


class EmbeddingColumn(DenseColumn):
    _fields = ("categorical_column", "dimension", "combiner", "initializer",
               "ckpt_to_load_from", "tensor_name_in_ckpt", "max_norm", "trainable",
               "use_safe_embedding_lookup", "shared_name", "shared_v2")

    @property
    def name(self):
        suffix = "_shared_embedding" if self.shared_name else "_embedding"
        return f"{self.categorical_column.name}{suffix}"

    @property
    def parse_example_spec(self):
        return self.categorical_column.parse_example_spec

    @property
    def variable_shape(self):
        return TensorShape([self.dimension])

    @property
    def scope_name(self):
        """The variable scope input_layer opens for it: a shared table's own name."""
        return self.shared_name or self.name

    def transform_feature(self, cache, state_manager=None):
        refuse_sequence(self, "embedding_column")
        return self.categorical_column.get_sparse_tensors(cache, state_manager)

    def embedding_weights(self, trainable=True, collections=None):
        """The table: made in the current variable scope, or for a shared column the one its
        first column made (kept in the graph collection named for the table)."""
        if self.shared_v2:
            raise ValueError("SharedEmbeddingColumns are not supported in `linear_model` or "
                             "`input_layer`. Please use `DenseFeatures` or `LinearModel` "
                             "instead.")
        if self.shared_name and get_collection(self.shared_name):
            return get_collection(self.shared_name)[0]
        shape = [self.categorical_column.num_buckets, self.dimension]
        weights = get_variable("embedding_weights", shape=shape, dtype=dtypes.float32,
                               initializer=self.initializer,
                               trainable=self.trainable and trainable, collections=collections)
        if self.shared_name:
            add_to_collection(self.shared_name, weights)
        if self.ckpt_to_load_from is not None:
            init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: weights})
        return weights

    def get_dense_tensor(self, cache, state_manager=None, trainable=True, collections=None):
        ids, weights = cache.get(self)
        table = self.embedding_weights(trainable, collections)
        lookup = safe_embedding_lookup_sparse if self.use_safe_embedding_lookup else \
            embedding_lookup_sparse
        return lookup(table, ids, weights, combiner=self.combiner, max_norm=self.max_norm,
                      name=f"{self.name}_weights")


def _embedding_args(column, dimension, combiner, initializer, ckpt_to_load_from,
                    tensor_name_in_ckpt):
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or "
                         "none of them.")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. Embedding of "
                         f"column_name: {column.name}")
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be 'mean', 'sqrtn' or 'sum', got {combiner!r}.")
    return initializer or truncated_normal_initializer(mean=0.0,
                                                      stddev=1 / math.sqrt(dimension))


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True, use_safe_embedding_lookup=True):
    """A `dimension`-wide embedding of a categorical column's ids."""
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError(f"Unsupported input type. Input must be a CategoricalColumn. Given: "
                         f"{categorical_column}")
    initializer = _embedding_args(categorical_column, dimension, combiner, initializer,
                                  ckpt_to_load_from, tensor_name_in_ckpt)
    return EmbeddingColumn(categorical_column=categorical_column, dimension=int(dimension),
                           combiner=combiner, initializer=initializer,
                           ckpt_to_load_from=ckpt_to_load_from,
                           tensor_name_in_ckpt=tensor_name_in_ckpt, max_norm=max_norm,
                           trainable=trainable,
                           use_safe_embedding_lookup=use_safe_embedding_lookup,
                           shared_name=None, shared_v2=False)


def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None,
                             tensor_name_in_ckpt=None, max_norm=None, trainable=True,
                             use_safe_embedding_lookup=True, _v2=False):
    """Embedding columns that share one table (the categorical columns must have the same
    number of buckets); the table's scope defaults to the sorted column names joined by "_"
    plus "_shared_embedding"."""
    columns = list(categorical_columns)
    if not columns:
        raise ValueError("categorical_columns must not be empty.")
    sizes = {c.num_buckets for c in columns}
    if len(sizes) != 1:
        raise ValueError(f"To use shared_embedding_column, all categorical_columns must have "
                         f"the same number of buckets. Given column: {columns[0]} with buckets: "
                         f"{columns[0].num_buckets} does not match the others: {sorted(sizes)}")
    initializer = _embedding_args(columns[0], dimension, combiner, initializer,
                                  ckpt_to_load_from, tensor_name_in_ckpt)
    shared = shared_embedding_collection_name or (
        "_".join(sorted(c.name for c in columns)) + "_shared_embedding")
    return [EmbeddingColumn(categorical_column=c, dimension=int(dimension), combiner=combiner,
                            initializer=initializer, ckpt_to_load_from=ckpt_to_load_from,
                            tensor_name_in_ckpt=tensor_name_in_ckpt, max_norm=max_norm,
                            trainable=trainable,
                            use_safe_embedding_lookup=use_safe_embedding_lookup,
                            shared_name=shared, shared_v2=_v2) for c in columns]


def shared_embeddings(categorical_columns, dimension, combiner="mean", initializer=None,
                      shared_embedding_collection_name=None, ckpt_to_load_from=None,
                      tensor_name_in_ckpt=None, max_norm=None, trainable=True,
                      use_safe_embedding_lookup=True):
    """TensorFlow 2's shared embedding columns: as shared_embedding_columns, for Keras's
    DenseFeatures, which Keras 3 no longer has; input_layer refuses them as TensorFlow does."""
    return shared_embedding_columns(categorical_columns, dimension, combiner, initializer,
                                    shared_embedding_collection_name, ckpt_to_load_from,
                                    tensor_name_in_ckpt, max_norm, trainable,
                                    use_safe_embedding_lookup, _v2=True)
