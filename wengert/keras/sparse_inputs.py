"""SparseTensor inputs to `fit`, `evaluate` and `predict` (a model built on
`keras.Input(sparse=True)`): the array path cuts x into batches of rows, so a SparseTensor x is
held as `SparseRows`, its entries as NumPy arrays grouped by their first index, which answers
what data_adapter.py asks of an array: its number of rows (len), the rows at some positions
(indexing by an index array or a slice gives a SparseRows whose rows are renumbered 0..k-1),
its dtype and a cast (astype), and the tensor it stands for (`to_tensor`: a SparseTensor)."""
import numpy as np

from ..framework.sparse_tensor import SparseTensor

__all__ = ["SparseRows", "rows_of"]


class SparseRows:
    """A SparseTensor's entries, sliceable by rows like a NumPy array."""

    def __init__(self, indices, values, dense_shape):
        self.indices = np.asarray(indices, np.int64)
        self.values = np.asarray(values)
        self.dense_shape = np.asarray(dense_shape, np.int64)

    def __len__(self):
        return int(self.dense_shape[0])

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        return tuple(int(d) for d in self.dense_shape)

    def astype(self, dtype):
        return SparseRows(self.indices, self.values.astype(dtype), self.dense_shape)

    def __getitem__(self, rows):
        picked = np.arange(len(self))[rows]
        position = np.full(len(self), -1)
        position[picked] = np.arange(len(picked))
        new_row = position[self.indices[:, 0]] if len(self.indices) else np.zeros(0, int)
        keep = new_row >= 0
        indices = np.concatenate([new_row[keep, None], self.indices[keep, 1:]], 1)
        order = np.lexsort(indices.T[::-1]) if len(indices) else np.zeros(0, int)
        return SparseRows(indices[order], self.values[keep][order],
                          np.concatenate([[len(picked)], self.dense_shape[1:]]))

    def to_tensor(self):
        return SparseTensor(self.indices.reshape(-1, len(self.dense_shape)), self.values,
                            self.dense_shape)


def rows_of(x):
    """x as SparseRows when it is an eager SparseTensor, else x."""
    if isinstance(x, SparseTensor):
        return SparseRows(x.indices.numpy(), x.values.numpy(), x.dense_shape.numpy())
    return x
