"""`Dataset.sparse_batch(batch_size, row_shape)`: batches of dense elements as SparseTensors.

Each batch of up to `batch_size` elements (one tensor each, of rank len(row_shape), each
dimension at most row_shape's) becomes one SparseTensor of dense shape [B] + row_shape holding
every entry of every element at (b, its index), as TensorFlow's dense_to_sparse_batch does; the
element spec is SparseTensorSpec([None] + row_shape).
"""
import itertools

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.sparse_tensor import SparseTensorSpec
from ..framework.tensor_shape import TensorShape
from . import structure as st
from .dataset import Dataset, Stage
from .sparse_elements import dense_to_sparse_batch

__all__ = ["SparseBatchDataset"]


class _SparseBatchStage(Stage):
    def __init__(self, upstream, size, row_shape):
        self._up, self._size, self._row_shape = upstream, size, row_shape
        self._index = 0

    def __next__(self):
        elements = list(itertools.islice(self._up, self._size))
        if not elements:
            raise StopIteration
        index, self._index = self._index, self._index + 1
        return (dense_to_sparse_batch([e[0] for e in elements], self._row_shape, index),)


class SparseBatchDataset(Dataset):
    def __init__(self, dataset, batch_size, row_shape):
        size = int(np.asarray(getattr(batch_size, "numpy", lambda: batch_size)()))
        if size <= 0:
            raise InvalidArgumentError(f"Dataset.sparse_batch: batch_size must be greater than "
                                       f"zero, got {size}.")
        if len(dataset._specs) != 1 or st.structure_of(dataset.element_spec) is not None:
            raise TypeError("Dataset.sparse_batch: the elements must be single tensors, got "
                            f"{dataset.element_spec}.")
        self._input, self._size = dataset, size
        self._row_shape = np.asarray(
            getattr(row_shape, "numpy", lambda: row_shape)(), np.int64).reshape(-1)
        spec = dataset._specs[0]
        if spec.shape.rank is not None and spec.shape.rank != len(self._row_shape):
            raise InvalidArgumentError(
                f"Dataset.sparse_batch: row_shape {self._row_shape.tolist()} has "
                f"{len(self._row_shape)} dimensions but the elements have rank {spec.shape.rank}.")
        shape = TensorShape([None]).concatenate(TensorShape(self._row_shape.tolist()))
        card = dataset._cardinality
        super().__init__(None, [SparseTensorSpec(shape, spec.dtype)],
                         card if card < 0 else -(-card // size), (dataset,))

    def _stage(self):
        return _SparseBatchStage(self._input._stage(), self._size, self._row_shape)
