"""`tf.shape` of a ragged tensor: TensorFlow's DynamicRaggedShape, the shape as its lengths.

A ragged tensor's shape is not a vector of sizes: its dimension k (for a ragged partition) has
a length per row. The shape holds, outermost first, nrows, then per row partition either its
uniform row length or the row lengths, then the flat values' inner dimensions; TensorFlow
prints it as `<DynamicRaggedShape lengths=[3, (2, 0, 1), (2, 1, 3)] num_row_partitions=2>`.
Indexing a uniform dimension gives its size (a scalar of the shape's dtype, int32 unless
tf.shape's out_type says otherwise); indexing a ragged one raises ValueError("Index k is not
uniform"), as TensorFlow does.
"""
from ...framework import dtypes
from ...framework.ragged_tensor import RaggedTensor
from ..creation_ops import shape as shape_of
from ..math_ops import cast
from .partition_queries import nrows, row_lengths

__all__ = ["DynamicRaggedShape", "ragged_shape"]


class DynamicRaggedShape:
    """The shape of a ragged tensor (see the module docstring)."""

    def __init__(self, rt, dtype=dtypes.int32):
        self._rt = rt
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def dtype(self):
        return self._dtype

    @property
    def num_row_partitions(self):
        return self._rt.ragged_rank

    @property
    def rank(self):
        return self._rt.shape.rank

    @property
    def inner_shape(self):
        return shape_of(self._rt.flat_values, out_type=self._dtype)

    @property
    def inner_rank(self):
        return self._rt.flat_values.shape.rank

    def _levels(self):
        levels, rt = [], self._rt
        while isinstance(rt, RaggedTensor):
            levels.append(rt)
            rt = rt.values
        return levels

    def is_uniform(self, axis):
        if axis == 0 or axis > self.num_row_partitions:
            return True
        return self._levels()[axis - 1].uniform_row_length is not None

    def __getitem__(self, index):
        if not isinstance(index, int):
            raise TypeError(f"DynamicRaggedShape: index with an int, got {index!r}.")
        rank = self.rank
        if index < 0:
            index += rank
        if not 0 <= index < rank:
            raise IndexError(f"Index {index} is out of range for a shape of rank {rank}.")
        if index == 0:
            return cast(nrows(self._rt), self._dtype)
        partitions = self.num_row_partitions
        if index <= partitions:
            width = self._levels()[index - 1].uniform_row_length
            if width is None:
                raise ValueError(f"Index {index} is not uniform")
            return cast(width, self._dtype)
        return self.inner_shape[index - partitions]

    def static_lengths(self):
        """The lengths as Python values: ints for uniform dimensions, tuples of row lengths for
        ragged ones (None where not known now)."""
        out = [_number(nrows(self._rt))]
        for level in self._levels():
            width = level.uniform_row_length
            if width is not None:
                out.append(_number(width))
                continue
            lengths = row_lengths(level)
            value = getattr(lengths, "_value", None)
            out.append(None if value is None else tuple(int(v) for v in value))
        inner = self._rt.flat_values.shape.as_list()[1:]
        return out + inner

    def __repr__(self):
        lengths = ", ".join(str(x) for x in self.static_lengths())
        return (f"<DynamicRaggedShape lengths=[{lengths}] "
                f"num_row_partitions={self.num_row_partitions}>")


def _number(t):
    value = getattr(t, "_value", None)
    return None if value is None else int(value)


def ragged_shape(input, out_type=dtypes.int32, name=None):  # noqa: A002 (TensorFlow's name)
    """tf.shape of a RaggedTensor."""
    if out_type not in (dtypes.int32, dtypes.int64, "int32", "int64"):
        raise ValueError(f"tf.shape: out_type must be int32 or int64, got {out_type!r}.")
    return DynamicRaggedShape(input, out_type)
