"""`IndexedSlices`: a sparse gradient, the rows `indices` of a dense tensor holding `values`.

The gradient of `gather(params, ids)` (and so of `embedding_lookup`) with respect to params is
zero except in the gathered rows: row ids[j] receives the incoming gradient of output j, and a row
gathered twice receives both. TensorFlow represents it without building the zeros:

    IndexedSlices(values, indices, dense_shape)
    dense = zeros(dense_shape); for j: dense[indices[j]] += values[j]

with values of shape [N] + dense_shape[1:] and indices of shape [N] (repeated indices add up).
An embedding table of a million rows trained on a batch of 64 ids then costs 64 rows per step.

How it moves through wengert, as in TensorFlow:
- the reverse pass keeps it sparse: it flows through ops whose gradient passes gradients
  unchanged (variable reads, identity) and reaches the source as it is; summing sparse gradients
  concatenates their values and indices; summing with a dense gradient densifies (`add_n`);
- every other gradient function receives it densified (`_dense()`: one `GatherGrad`, a scatter-add
  into zeros whose gradient is a gather, so higher orders work: see ops/indexed_slices_ops.py;
  ops/installs.py installs `_dense`, `__neg__` and `_shape_of_like` here, since they need ops);
- `convert_to_tensor(slices)` (and any op given it) densifies it, through the `_as_tensor`
  protocol variables use too;
- the TF2 optimizers apply it with scatter updates of the touched rows (optimizers/optimizer.py).
"""
import numpy as np

from . import dtypes
from .composite_tensor import CompositeTensor
from .tensor import convert_to_tensor, is_eager_tensor
from .tensor_shape import TensorShape

__all__ = ["IndexedSlices"]


class IndexedSlices(CompositeTensor):
    """A sparse representation of a dense tensor: `values[j]` belongs in row `indices[j]`.

    values: a tensor of shape [N] + dense_shape[1:]. indices: an int32/int64 tensor of shape [N].
    dense_shape: the dense tensor's shape (a tuple, list or int tensor), or None if unknown.
    """

    __slots__ = ("_indices", "_dense_shape", "_static", "_like")

    def __init__(self, values, indices, dense_shape=None):
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        if not self._indices.dtype.is_integer:
            raise TypeError(f"IndexedSlices: indices must be int32 or int64, got "
                            f"{self._indices.dtype.name}.")
        self._like = None  # a tensor of the dense shape, when only the graph knows it
        self._static = None
        if dense_shape is None:
            self._dense_shape = None
        elif isinstance(dense_shape, (tuple, list, TensorShape)) and all(
                d is not None for d in dense_shape):
            self._static = tuple(int(d) for d in dense_shape)
            self._dense_shape = None  # made on request
        else:
            self._dense_shape = convert_to_tensor(dense_shape)
            value = getattr(self._dense_shape, "_value", None)
            if value is not None:
                self._static = tuple(int(d) for d in value)

    @classmethod
    def _of(cls, values, indices, shape, like=None):
        """Internal constructor from tensors: `shape` a tuple of ints, or None and `like` a tensor
        of the dense shape (graph mode with unknown dimensions)."""
        self = object.__new__(cls)
        self._values, self._indices, self._static, self._like = values, indices, shape, like
        self._dense_shape = None
        return self

    # -- what it is (values, dtype and graph: CompositeTensor) ------------------------------------
    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        """The dense shape as an int64 tensor (None when it is not known)."""
        if self._dense_shape is None:
            if self._static is not None:
                self._dense_shape = convert_to_tensor(np.array(self._static, np.int64))
            elif self._like is not None:
                self._dense_shape = self._shape_of_like()
        return self._dense_shape

    @property
    def shape(self):
        if self._static is not None:
            return TensorShape(self._static)
        if self._like is not None:
            return self._like.shape
        return TensorShape([None]).concatenate(self._values.shape[1:])

    @property
    def name(self):
        return self._values.name

    @property
    def op(self):
        return self._values.op

    @property
    def device(self):
        return self._values.device

    # -- densifying (`_dense`, `__neg__`, `_shape_of_like`: installed by ops/indexed_slices_ops.py)
    def _as_tensor(self, dtype=None):
        if dtype is not None and dtypes.as_dtype(dtype) is not self.dtype:
            raise ValueError(f"IndexedSlices of dtype {self.dtype.name} cannot be converted to "
                             f"a tensor of dtype {dtypes.as_dtype(dtype).name}; use cast.")
        return self._dense()

    def numpy(self):
        """The dense value as a NumPy array (a wengert convenience; TensorFlow has none)."""
        return self._dense().numpy()

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.numpy(), dtype=dtype)

    def __repr__(self):
        if is_eager_tensor(self._values):  # show the numbers
            return (f"IndexedSlices(indices={self._indices!r}, values={self._values!r}, "
                    f"dense_shape={self._static})")
        return (f"IndexedSlices(indices={self._indices}, values={self._values}, "
                f"dense_shape={self._static if self._static is not None else self.shape})")

    def __reduce__(self):
        raise TypeError("IndexedSlices are not picklable; convert_to_tensor(slices).numpy() "
                        "gives the dense value.")

