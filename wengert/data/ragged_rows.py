"""The rows of a ragged tensor as the source of `Dataset.from_tensor_slices(rt)`.

`RaggedRows` indexes like the arrays behind a slice dataset (and its batch fast path): row i is
`values[s_i:s_{i+1}]`, a NumPy array when rt has ragged rank 1 (TensorFlow's element_spec is
then a RaggedTensorSpec of ragged rank 0, its elements dense tensors) and a ragged tensor of one
ragged rank less otherwise; a slice or an index array gathers rows into a ragged tensor of rt's
ragged rank (one batch). `ragged_component` checks what Dataset.from_generator yields for a
RaggedTensorSpec of its output_signature.
"""
import numpy as np

from ..framework.ragged_tensor import RaggedTensor
from ..ops.ragged.indexing import gather_rows
from ..tracing.ragged_spec import RaggedTensorSpec

__all__ = ["RaggedRows", "ragged_source", "ragged_component"]


class RaggedRows:
    """The rows of an eager ragged tensor, indexed as a source array is (see the module
    docstring)."""

    def __init__(self, rt):
        self.rt = rt
        self._values = rt.values.numpy() if not isinstance(rt.values, RaggedTensor) else None
        self._splits = rt.row_splits.numpy()
        self.shape = (len(self._splits) - 1,)
        self.ndim = rt.shape.rank
        self.dtype = None  # not an array (of objects): the batch fast path only indexes it

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, key):
        if isinstance(key, tuple):  # a[i, ...]: the row
            key = key[0]
        if isinstance(key, (int, np.integer)):
            start, stop = self._splits[int(key)], self._splits[int(key) + 1]
            if self._values is not None:
                return self._values[start:stop]
            return gather_rows(self.rt.values, np.arange(start, stop, dtype=np.int64))
        rows = np.arange(len(self))[key] if isinstance(key, slice) else np.asarray(key)
        return gather_rows(self.rt, rows.astype(np.int64))


def ragged_source(rt):
    """(RaggedRows, the spec of one row) for Dataset.from_tensor_slices."""
    if not rt.is_eager:
        raise TypeError("Dataset.from_tensor_slices: got a symbolic RaggedTensor; datasets "
                        "hold eager values.")
    spec = RaggedTensorSpec(rt.shape[1:], rt.dtype, rt.ragged_rank - 1, rt.row_splits.dtype)
    return RaggedRows(rt), spec


def ragged_component(value, spec, what):
    """`value`, a ragged tensor a generator yielded, checked against its RaggedTensorSpec."""
    if not isinstance(value, RaggedTensor):
        raise TypeError(f"{what} is {type(value).__name__}, where the output_signature says "
                        f"{spec}; yield a tf.RaggedTensor (tf.ragged.constant(rows)).")
    if not spec.is_compatible_with(value):
        raise TypeError(f"{what} has spec {RaggedTensorSpec.from_value(value)}, which does not "
                        f"fit the output_signature's {spec}.")
    return value
