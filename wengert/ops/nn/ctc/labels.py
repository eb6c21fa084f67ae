"""CTC label helpers: `tf.nn.collapse_repeated` and `tf.nn.ctc_unique_labels`, compositions of
other ops (integer results, so no gradient, as in TensorFlow).

collapse_repeated(labels [B, T], seq_length [B]) keeps label t of row b when it is inside the
sequence (t < seq_length[b]) and differs from label t - 1 (label 0 is always kept):

    keep[b, t] = (t == 0 or labels[b, t] != labels[b, t - 1]) and t < seq_length[b]

and packs the kept labels of each row to the left, zero padded to max_b sum_t keep[b, t] columns;
the new lengths are sum_t keep[b, t] in seq_length's dtype. As TensorFlow does it: the kept labels,
read row by row, are scattered to the positions of sequence_mask(new lengths).

ctc_unique_labels(labels [B, L]) gives per row the distinct labels in order of first appearance,
zero padded to L (int64), and for each label its index in that list (int32), what
`tf.unique` gives row by row. With eq[b, i, j] = (labels[b, i] == labels[b, j]) and
first[b, j] = "no k < j has eq[b, j, k]", a first appearance j has rank r[b, j] = (number of first
appearances up to j) - 1, so

    idx[b, i] = sum_j eq[b, i, j] first[b, j] r[b, j]
    unique[b, k] = sum_j labels[b, j] first[b, j] [r[b, j] == k]

(TensorFlow maps `tf.unique` over the rows; these L x L masks give the same numbers in one pass,
in graph mode as well.)
"""
from ....framework import dtypes
from ....framework.errors import InvalidArgumentError
from ....framework.tensor import convert_to_tensor
from ....framework.context import op_scope
from ...cast_ops import cast
from ...broadcast_ops import ones_like
from ...reshape_ops import reshape
from ...array_ops import concat
from ...reshape_ops import expand_dims
from ...creation_ops import range as range_
from ...indexing_ops import boolean_mask, scatter_nd
from ...math_ops import equal, logical_and, logical_not, not_equal
from ...matrix_ops import band_part
from ...query_ops import shape as shape_of
from ...scan_ops import cumsum
from ...reduce_ops import reduce_any, reduce_max, reduce_sum
from ...shape_ops import sequence_mask

__all__ = ["collapse_repeated", "ctc_unique_labels"]


def _dim(t, i):
    """t.shape[i], the static value when known, else a scalar tensor (TensorFlow's _get_dim)."""
    static = t.shape[i] if t.shape.rank is not None else None
    return static if static is not None else shape_of(t)[i]


def _check_rank2(fn, labels):
    if labels.shape.rank is not None and labels.shape.rank != 2:
        raise InvalidArgumentError(f"{fn}: labels must be rank 2 [batch, max_length], got shape "
                                   f"{labels.shape}; pad the label sequences into a matrix.")


def collapse_repeated(labels, seq_length, name=None):
    """Merges runs of equal labels into one: returns (collapsed_labels, new_seq_length).

    `[[A, A, B, B, A], [A, B, C, D, E]]` with lengths [5, 5] gives
    `[[A, B, A, 0, 0], [A, B, C, D, E]]` and [3, 5]; the result has max(new lengths) columns.
    """
    with op_scope(name, "collapse_repeated"):
        labels = convert_to_tensor(labels, name="labels")
        seq_length = convert_to_tensor(seq_length, name="seq_length")
        _check_rank2("collapse_repeated", labels)
        label_mask = concat([ones_like(labels[:, :1], dtype=dtypes.bool),
                             not_equal(labels[:, 1:], labels[:, :-1])], axis=1)
        seq_mask = sequence_mask(seq_length, maxlen=_dim(labels, 1))
        label_mask = logical_and(label_mask, seq_mask)
        new_seq_len = reduce_sum(cast(label_mask, dtypes.int32), axis=1)
        new_maxlen = reduce_max(new_seq_len)
        idx_mask = sequence_mask(new_seq_len, maxlen=new_maxlen)
        flat_labels = reshape(labels, [-1])
        flat_label_mask = reshape(label_mask, [-1])
        flat_idx_mask = reshape(idx_mask, [-1])
        idx = range_(_dim(flat_idx_mask, 0))
        flat = scatter_nd(indices=expand_dims(boolean_mask(idx, flat_idx_mask), axis=1),
                          updates=boolean_mask(flat_labels, flat_label_mask),
                          shape=shape_of(flat_idx_mask))
        return (reshape(flat, [_dim(labels, 0), new_maxlen]), cast(new_seq_len, seq_length.dtype))


def ctc_unique_labels(labels, name=None):
    """Per row, the distinct labels zero padded to the row's length (int64) and each label's index
    among them (int32): `[[3, 4, 4, 3]]` gives `[[3, 4, 0, 0]]` and `[[0, 1, 1, 0]]`."""
    with op_scope(name, "ctc_unique_labels"):
        labels = convert_to_tensor(labels, name="labels")
        _check_rank2("ctc_unique_labels", labels)
        if not (labels.dtype.is_integer or labels.dtype.is_floating):
            raise InvalidArgumentError(f"ctc_unique_labels: labels must be numbers, got dtype "
                                       f"{labels.dtype.name}.")
        eq = equal(expand_dims(labels, 2), expand_dims(labels, 1))           # [B, L, L]
        earlier = cast(band_part(ones_like(eq, dtype=dtypes.int32), -1, 0)
                       - band_part(ones_like(eq, dtype=dtypes.int32), 0, 0), dtypes.bool)  # k < j
        first = logical_not(reduce_any(logical_and(eq, earlier), axis=2))   # [B, L]
        rank = cumsum(cast(first, dtypes.int32), axis=1) - 1
        owner = logical_and(eq, expand_dims(first, 1))                      # j is i's first place
        idx = reduce_sum(cast(owner, dtypes.int32) * expand_dims(rank, 1), axis=2)
        slot = logical_and(equal(expand_dims(rank, 2), range_(_dim(labels, 1))),
                           expand_dims(first, 2))                           # [B, j, k]
        unique = reduce_sum(expand_dims(cast(labels, dtypes.int64), 2) * cast(slot, dtypes.int64),
                            axis=1)
        return unique, idx
