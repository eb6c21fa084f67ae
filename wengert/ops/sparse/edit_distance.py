"""`tf.edit_distance`: the Levenshtein distance between sequences held in SparseTensors.

EditDistance(hypothesis indices/values/shape, truth indices/values/shape; normalize) takes two
SparseTensors of the same rank R. The entries that share their first R - 1 indices form one
sequence, in the order of their last index; the output has shape
max(hypothesis_shape[:-1], truth_shape[:-1]) and holds, at each position, the least number of
insertions, deletions and substitutions that turn the hypothesis sequence into the truth
sequence (values compared for equality, strings too). With normalize=True it is divided by the
truth sequence's length: a hypothesis against an empty truth is then +inf, an empty hypothesis
against a non-empty truth 1, and two empty sequences 0, as in TensorFlow's kernel. The output
is float32 and not differentiable (TensorFlow declares EditDistance non-differentiable).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape

__all__ = ["edit_distance"]


def _levenshtein(a, b):
    """The edit distance between sequences a and b, one row of the dynamic program at a time."""
    row = np.arange(len(b) + 1)
    for i, x in enumerate(a, 1):
        prev, row = row, np.empty_like(row)
        row[0] = i
        for j, y in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x != y))
    return int(row[-1])


def _sequences(indices, values, shape, which):
    """{group (the first R-1 indices): the values in order of the last index}."""
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    bad = np.any((indices < 0) | (indices >= np.asarray(shape)), axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        raise InvalidArgumentError(f"EditDistance: {which} index {indices[i].tolist()} is out "
                                   f"of bounds of its dense shape {list(shape)}.")
    groups = {}
    for i in np.lexsort(indices.T[::-1]) if len(indices) else ():
        groups.setdefault(tuple(indices[i, :-1].tolist()), []).append(values[i])
    return groups


def _edit_distance_kernel(h_indices, h_values, h_shape, t_indices, t_values, t_shape, *,
                          normalize):
    if len(h_shape) != len(t_shape) or len(h_shape) < 1:
        raise InvalidArgumentError(f"EditDistance: hypothesis and truth must have the same rank "
                                   f"(at least 1), got dense shapes {list(h_shape)} and "
                                   f"{list(t_shape)}.")
    hyp = _sequences(h_indices, h_values, h_shape, "hypothesis")
    truth = _sequences(t_indices, t_values, t_shape, "truth")
    out = np.zeros(np.maximum(h_shape[:-1], t_shape[:-1]), np.float32)
    for group in set(hyp) | set(truth):
        h, t = hyp.get(group, []), truth.get(group, [])
        distance = float(_levenshtein(h, t))
        if normalize:
            distance = distance / len(t) if t else (np.inf if h else 0.0)
        out[group] = distance
    return out


def _edit_distance_rule(h_indices, h_values, h_shape, t_indices, t_values, t_shape, *,
                        normalize):
    rank = h_shape.shape[0] if h_shape.shape.rank == 1 else None
    rank = rank if rank is not None else (t_shape.shape[0] if t_shape.shape.rank == 1 else None)
    return TensorShape(None if rank is None else [None] * (rank - 1)), dtypes.float32


EDIT_DISTANCE = defop(
    "EditDistance", _edit_distance_kernel, shape=_edit_distance_rule, grad=None,
    tf_inputs=("hypothesis_indices", "hypothesis_values", "hypothesis_shape", "truth_indices",
               "truth_values", "truth_shape"),
    raw=lambda hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
    truth_values, truth_shape, normalize=True, name=None: execute(
        EDIT_DISTANCE, tuple(convert_to_tensor(a) for a in (
            hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
            truth_shape)), {"normalize": bool(normalize)}, name))


def _as_sparse(value, which):
    if isinstance(value, SparseTensor):
        return value
    if all(hasattr(value, a) for a in ("indices", "values", "dense_shape")):
        return SparseTensor(value.indices, value.values, value.dense_shape)
    raise TypeError(f"edit_distance: {which} must be a SparseTensor (or SparseTensorValue), got "
                    f"{type(value).__name__}; build one with tf.sparse.from_dense.")


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The Levenshtein distance between the sequences of `hypothesis` and `truth` (SparseTensors
    of the same rank R), one per position of their first R - 1 axes; divided by the truth's
    length when `normalize` (see the module docstring)."""
    h, t = _as_sparse(hypothesis, "hypothesis"), _as_sparse(truth, "truth")
    if h.dtype != t.dtype:
        raise TypeError(f"edit_distance: hypothesis and truth must have the same dtype, got "
                        f"{h.dtype.name} and {t.dtype.name}.")
    return execute(EDIT_DISTANCE, (h.indices, h.values, h.dense_shape, t.indices, t.values,
                                   t.dense_shape), {"normalize": bool(normalize)}, name)
