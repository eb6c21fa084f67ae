"""RaggedTensor inputs to `fit`, `evaluate` and `predict` (a model built on
`keras.Input(ragged=True)`): the array path cuts x into batches of rows, so a RaggedTensor x is
held as `RaggedRows`, its row_splits and values as NumPy arrays (the values themselves
RaggedRows for a tensor of ragged rank > 1). It answers what data_adapter.py asks of an array:
its number of rows (len), the rows at some positions (indexing by an index array or a slice
gives the RaggedRows of those rows), its dtype and a cast (astype), and the tensor it stands
for (`to_tensor`: a RaggedTensor)."""
import numpy as np

from ..framework.ragged_tensor import RaggedTensor
from ..framework.tensor import constant
from ..ops import ragged as _ragged_methods  # noqa: F401 (RaggedTensor's factory methods)

__all__ = ["RaggedRows", "ragged_rows_of"]


class RaggedRows:
    """A RaggedTensor's parts, sliceable by rows like a NumPy array."""

    def __init__(self, values, row_splits):
        self.values = values
        self.row_splits = np.asarray(row_splits)

    def __len__(self):
        return len(self.row_splits) - 1

    @property
    def dtype(self):
        return self.values.dtype

    def astype(self, dtype):
        return RaggedRows(self.values.astype(dtype), self.row_splits)

    def __getitem__(self, rows):
        picked = np.arange(len(self))[rows]
        starts, limits = self.row_splits[picked], self.row_splits[picked + 1]
        lengths = limits - starts
        inner = (np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
                 + np.arange(int(lengths.sum())))
        splits = np.concatenate([[0], np.cumsum(lengths)]).astype(self.row_splits.dtype)
        return RaggedRows(self.values[inner], splits)

    def to_tensor(self):
        values = self.values.to_tensor() if isinstance(self.values, RaggedRows) else constant(
            self.values)
        return RaggedTensor.from_row_splits(values, constant(self.row_splits), validate=False)


def ragged_rows_of(x):
    """x as RaggedRows when it is an eager RaggedTensor, else x."""
    if not isinstance(x, RaggedTensor):
        return x
    values = x.values
    values = ragged_rows_of(values) if isinstance(values, RaggedTensor) else values.numpy()
    return RaggedRows(values, x.row_splits.numpy())
