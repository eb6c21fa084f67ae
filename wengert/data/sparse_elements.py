"""Dataset elements that hold SparseTensors.

A SparseTensor travels through a pipeline as one component, the eager SparseTensor itself (as
a window's dataset does), described in `element_spec` by a SparseTensorSpec. Three things differ
from a dense component:

- rows (from_tensor_slices): row i of a sparse tensor of dense shape [n, d_1..d_k] is the
  SparseTensor of the entries whose first index is i, with that index dropped and dense shape
  [d_1..d_k]; the rows are computed once and kept in an object array, one per row;
- batches (batch): B sparse elements of one rank become one SparseTensor whose indices are
  each element's indices with its position b in front, of dense shape [B, max of the shapes];
- sparse_batch(B, row_shape): B dense elements become one SparseTensor holding every entry of
  each (zeros too, as TensorFlow's dense_to_sparse_batch), of dense shape [B] + row_shape.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.sparse_tensor import SparseTensor, SparseTensorSpec
from ..framework.tensor import is_eager_tensor, to_array
from ..framework.tensor_shape import TensorShape

__all__ = ["is_sparse", "unwrap", "sparse_rows", "batch_sparse", "sparse_spec", "batched_spec",
           "dense_to_sparse_batch"]


def is_sparse(component):
    return isinstance(unwrap(component), SparseTensor)


def unwrap(component):
    """The SparseTensor a row of an object array holds (a 0-d object array), else component."""
    if isinstance(component, np.ndarray) and component.dtype == object and component.ndim == 0:
        item = component.item()
        return item if isinstance(item, SparseTensor) else component
    return component


def _parts(sp, what):
    tensors = (sp.indices, sp.values, sp.dense_shape)
    if not all(is_eager_tensor(t) for t in tensors):
        raise TypeError(f"{what}: got a symbolic SparseTensor; datasets hold eager values.")
    return [np.asarray(t.numpy()) for t in tensors]


def sparse_rows(sp, what="Dataset.from_tensor_slices"):
    """The rows of `sp` along its first dimension, as an object array of SparseTensors."""
    indices, values, shape = _parts(sp, what)
    if len(shape) == 0:
        raise InvalidArgumentError(f"{what}: a SparseTensor needs a first dimension to slice; "
                                   "got a scalar one.")
    rows = np.empty(int(shape[0]), object)
    order = np.argsort(indices[:, 0], kind="stable") if len(indices) else np.zeros(0, int)
    starts = np.searchsorted(indices[order, 0], np.arange(int(shape[0]) + 1))
    for i in range(int(shape[0])):
        pick = order[starts[i]:starts[i + 1]]
        rows[i] = SparseTensor(indices[pick, 1:], values[pick], shape[1:])
    return rows


def batch_sparse(parts, index):
    """One SparseTensor of the SparseTensors `parts` stacked along a new first dimension."""
    pieces = [_parts(unwrap(p), "Dataset.batch") for p in parts]
    ranks = {len(shape) for _, _, shape in pieces}
    if len(ranks) > 1:
        raise InvalidArgumentError(f"Dataset.batch: cannot batch SparseTensors of different "
                                   f"ranks {sorted(ranks)} (batch {index}).")
    indices = [np.concatenate([np.full((len(i), 1), b, np.int64), i], 1)
               for b, (i, _, _) in enumerate(pieces)]
    shape = np.max([s for _, _, s in pieces], axis=0) if pieces[0][2].size else np.zeros(0)
    return SparseTensor(np.concatenate(indices).reshape(-1, ranks.pop() + 1),
                        np.concatenate([v for _, v, _ in pieces]),
                        np.concatenate([[len(parts)], shape]).astype(np.int64))


def sparse_spec(component):
    component = unwrap(component)
    return SparseTensorSpec(component.shape, component.dtype)


def batched_spec(spec, lead):
    """The spec of a batch of elements of `spec` (lead: the batch size, or None)."""
    return type(spec)(TensorShape([lead]).concatenate(spec.shape), spec.dtype)


def dense_to_sparse_batch(elements, row_shape, index):
    """Every entry of B dense elements as one SparseTensor [B] + row_shape."""
    indices, values = [], []
    for b, element in enumerate(elements):
        array = to_array(element)
        if array.ndim != len(row_shape) or np.any(np.asarray(array.shape) > row_shape):
            raise InvalidArgumentError(
                f"Dataset.sparse_batch: element {b} of batch {index} has shape "
                f"{list(array.shape)}, which does not fit row_shape {list(row_shape)}.")
        where = np.argwhere(np.ones(array.shape, bool))
        indices.append(np.concatenate([np.full((len(where), 1), b, np.int64), where], 1))
        values.append(array[tuple(where.T)])
    return SparseTensor(np.concatenate(indices).reshape(-1, len(row_shape) + 1),
                        np.concatenate(values),
                        np.concatenate([[len(elements)], row_shape]).astype(np.int64))
