"""`nn.embedding_lookup`: rows of an embedding table, with a sparse gradient.

embedding_lookup(params, ids) is gather(params, ids) along axis 0: output[i...] = params[ids[i...]].
Its gradient with respect to params is `IndexedSlices(g rows, ids, params.shape)` (see
framework/indexed_slices.py): only the looked-up rows, which the optimizers apply by scatter.
A list of tables (shards) is joined along axis 0 first ("div" partitioning: shard 0 holds the first
rows), and `max_norm` rescales each looked-up row to L2 norm at most max_norm, as TensorFlow does.
"""
from ..framework.tensor import convert_to_tensor
from .array_ops import concat
from .clip_ops import clip_by_norm
from .indexing_ops import gather

__all__ = ["embedding_lookup"]


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows `ids` of `params` (a tensor or variable of shape [vocabulary, ...], or a list of
    such shards): output shape ids.shape + params.shape[1:]."""
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("embedding_lookup: params must be a tensor or a non-empty list of "
                             "tensors.")
        params = params[0] if len(params) == 1 else concat(list(params), 0)
    ids = convert_to_tensor(ids)
    if not ids.dtype.is_integer:
        raise TypeError(f"embedding_lookup: ids must be int32 or int64, got {ids.dtype.name} "
                        f"(shape {ids.shape}); cast them with cast(ids, tf.int32).")
    rows = gather(params, ids, name=name)
    if max_norm is not None:
        rows = clip_by_norm(rows, max_norm, axes=[rows.shape.rank - 1])
    return rows
