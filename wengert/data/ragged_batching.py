"""Batches of ragged elements in tf.data pipelines, and `Dataset.ragged_batch`.

A ragged component travels through a pipeline as an eager RaggedTensor (where a dense one is a
NumPy array), and its spec is a RaggedTensorSpec, as TensorFlow's element_spec says (the rows
of `from_tensor_slices(rt)` come from ragged_rows.py):

- batching ragged elements stacks them as rows of a ragged tensor with one more ragged
  dimension (tf.ragged.stack along axis 0).
- `ragged_batch` batches dense elements of varying first dimension: each batch is the ragged
  tensor of those rows (from_row_lengths over their concatenation), the other dimensions
  staying uniform; a component whose spec has a fully defined shape (scalars included) is
  stacked densely, as `batch` does, and ragged elements are stacked as `batch` does.
"""
import itertools

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.ragged_tensor import RaggedTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.ragged import factories, joining
from ..tracing.ragged_spec import RaggedTensorSpec
from .dataset import Dataset, Stage

__all__ = ["stack_ragged", "batched_spec", "RaggedBatchDataset"]


def batched_spec(spec, lead):
    """The spec of a batch of `lead` (None: unknown) elements of `spec`."""
    shape = TensorShape([lead]).concatenate(spec.shape)
    if isinstance(spec, RaggedTensorSpec):
        return RaggedTensorSpec(shape, spec.dtype, spec.ragged_rank + 1, spec.row_splits_dtype)
    return type(spec)(shape, spec.dtype)  # a TensorSpec or a SparseTensorSpec


def stack_ragged(parts):
    """Elements (ragged tensors, or rows of a ragged-rank-0 spec as arrays) as one ragged
    batch."""
    if all(isinstance(p, RaggedTensor) for p in parts):
        return joining.stack(parts, 0)
    return _rows_of(parts, dtypes.int64)


def _rows_of(parts, splits_dtype):
    arrays = [np.asarray(p.numpy() if isinstance(p, Tensor) else p) for p in parts]
    lengths = np.array([a.shape[0] for a in arrays], splits_dtype.as_numpy_dtype)
    inner = {a.shape[1:] for a in arrays}
    if len(inner) > 1:
        raise InvalidArgumentError(
            f"Dataset.ragged_batch: elements must agree in every dimension but the first; got "
            f"shapes {sorted(list(a.shape) for a in arrays)}.")
    values = np.concatenate(arrays) if arrays else np.zeros([0])
    return factories.from_row_lengths(RaggedTensor, convert_to_tensor(values),
                                      convert_to_tensor(lengths), validate=False)


class _RaggedBatchStage(Stage):
    def __init__(self, upstream, size, drop, splits_dtype, dense):
        self._up, self._size, self._drop, self._dtype = upstream, size, drop, splits_dtype
        self._dense = dense  # per component: whether its spec's shape is fully defined

    def __next__(self):
        elements = list(itertools.islice(self._up, self._size))
        if not elements or (self._drop and len(elements) < self._size):
            raise StopIteration
        out = []
        for j in range(len(elements[0])):
            parts = [e[j] for e in elements]
            if any(isinstance(p, RaggedTensor) for p in parts):
                out.append(joining.stack(parts, 0))
            elif self._dense[j]:
                out.append(np.stack([np.asarray(p) for p in parts]))
            else:
                out.append(_rows_of(parts, self._dtype))
        return tuple(out)


class RaggedBatchDataset(Dataset):
    """`Dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)`."""

    def __init__(self, dataset, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
        size = int(np.asarray(getattr(batch_size, "_value", batch_size)))
        if size <= 0:
            raise InvalidArgumentError(f"Dataset.ragged_batch: batch_size must be greater than "
                                       f"zero, got {size}.")
        self._input, self._size, self._drop = dataset, size, bool(drop_remainder)
        self._dtype = dtypes.as_dtype(row_splits_dtype)
        lead = size if self._drop else None
        specs = [self._spec(s, lead) for s in dataset._specs]
        card = dataset._cardinality
        if card >= 0:
            card = card // size if self._drop else -(-card // size)
        super().__init__(dataset._structure, specs, card, (dataset,))

    def _spec(self, spec, lead):
        if isinstance(spec, RaggedTensorSpec) or spec.shape.is_fully_defined():
            return batched_spec(spec, lead)
        shape = TensorShape([lead, None]).concatenate(spec.shape[1:])
        return RaggedTensorSpec(shape, spec.dtype, 1, self._dtype)

    def _stage(self):
        dense = [not isinstance(s, RaggedTensorSpec) and s.shape.is_fully_defined()
                 for s in self._input._specs]
        return _RaggedBatchStage(self._input._stage(), self._size, self._drop, self._dtype,
                                 dense)
