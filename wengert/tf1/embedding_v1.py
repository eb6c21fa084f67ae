"""TensorFlow 1's embedding lookups and sampled losses, as `tf.compat.v1.nn` has them: TensorFlow
2's (ops/nn/embedding.py, ops/nn/sampled_losses.py) under their TF 1 signatures, which take a
`partition_strategy` for a table given as a list of shards (a partitioned variable):

    "mod"  id i lives in shard i % n, row i // n (TF 1's default)
    "div"  the shards hold consecutive ranges of ids, the first ones one row longer when the
           ids do not divide evenly (TensorFlow 2's only way)

Both are computed here on the whole table the shards make: the shards concatenated ("div"), or
interleaved by dynamic_stitch, row r of shard s becoming row r * n + s ("mod"), for shards as
TensorFlow's partitioners make them; the values and gradients are those of the lookups
TensorFlow shards. One tensor (or a list of one) is one shard, whatever the strategy.
`validate_indices` is deprecated in TensorFlow and changes nothing there: ids out of range are
an error either way.

    embedding_lookup(params, ids, partition_strategy="mod", name, validate_indices, max_norm)
    embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name,
                            combiner, max_norm, allow_fast_lookup)
    safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner,
                                 default_id, name, partition_strategy="div", max_norm,
                                 allow_fast_lookup)
    nce_loss / sampled_softmax_loss(..., remove_accidental_hits, partition_strategy="mod",
                                    name[, seed])"""
from ..framework.tensor import convert_to_tensor
from ..ops.array_ops import concat
from ..ops.creation_ops import range as _range
from ..ops.nn import embedding, sampled_losses
from ..ops.partition_ops import dynamic_stitch
from ..ops.query_ops import shape

__all__ = ["embedding_lookup", "embedding_lookup_sparse", "nce_loss",
           "safe_embedding_lookup_sparse", "sampled_softmax_loss"]


def whole_table(params, partition_strategy):
    """The one table that the shards `params` make under `partition_strategy`."""
    if not isinstance(params, (list, tuple)) or len(params) <= 1:
        return params
    if partition_strategy not in ("mod", "div"):
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}.Must be one "
                         f"of either `mod` or `div`.")
    if partition_strategy == "div":
        return concat(list(params), 0)
    shards, n = [convert_to_tensor(p) for p in params], len(params)
    rows = [_range(s, s + n * shape(shard)[0], n) for s, shard in enumerate(shards)]
    return dynamic_stitch(rows, shards)


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    """The rows `ids` of the table `params` (a tensor, or a list of shards)."""
    del validate_indices  # deprecated in TensorFlow, where it changes nothing (see the module)
    return embedding.embedding_lookup(whole_table(params, partition_strategy), ids, max_norm,
                                      name)


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None,
                            combiner=None, max_norm=None, allow_fast_lookup=False):
    """The rows of each row of sp_ids, combined ("sum", "mean", "sqrtn"; weighted)."""
    return embedding.embedding_lookup_sparse(whole_table(params, partition_strategy), sp_ids,
                                             sp_weights, combiner, max_norm, name,
                                             allow_fast_lookup)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, name=None,
                                 partition_strategy="div", max_norm=None,
                                 allow_fast_lookup=False):
    """embedding_lookup_sparse that skips invalid ids and gives empty rows default_id's row
    (or zeros)."""
    return embedding.safe_embedding_lookup_sparse(
        whole_table(embedding_weights, partition_strategy), sparse_ids, sparse_weights,
        combiner, default_id, max_norm, name, allow_fast_lookup)


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, partition_strategy="mod",
             name="nce_loss"):
    """The noise-contrastive estimation loss of each example."""
    return sampled_losses.nce_loss(whole_table(weights, partition_strategy),
                                   whole_table(biases, partition_strategy), labels, inputs,
                                   num_sampled, num_classes, num_true, sampled_values,
                                   remove_accidental_hits, name)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True,
                         partition_strategy="mod", name="sampled_softmax_loss", seed=None):
    """The softmax cross entropy of each example over its labels and sampled classes."""
    return sampled_losses.sampled_softmax_loss(
        whole_table(weights, partition_strategy), whole_table(biases, partition_strategy),
        labels, inputs, num_sampled, num_classes, num_true, sampled_values,
        remove_accidental_hits, seed, name)
