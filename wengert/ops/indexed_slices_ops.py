"""Computing with `IndexedSlices` (framework/indexed_slices.py): densifying, summing, negating.

An IndexedSlices(values, indices, dense_shape) stands for the dense tensor

    dense = zeros(dense_shape); for j: dense[indices[j]] += values[j]

- densifying builds exactly that with one `GatherGrad` op (a scatter-add into zeros, whose
  gradient is a gather, so higher orders work); with only a dense-shape tensor, a `ScatterNd`;
- the sum of several IndexedSlices concatenates their values and their indices (repeated indices
  add up when densified); a sum with any dense part is dense (`add_n` of the densified parts), as
  TensorFlow's add_n does;
- -slices negates the values.

The class lives in framework/ (below the ops, so every layer can test for it); these functions
need ops, so installs.py installs them on it: `_dense`, `__neg__` and `_shape_of_like`.
"""
from ..framework import dtypes
from ..framework.execute import execute
from ..framework.indexed_slices import IndexedSlices
from .broadcast_ops import add_n
from .cast_ops import cast
from .array_ops import concat
from .reshape_ops import expand_dims
from .creation_ops import shape
from .indexing_ops import GATHER_GRAD, scatter_nd
from .math_ops import negative

__all__ = ["aggregate", "to_dense", "negate", "shape_of_like"]


def to_dense(slices):
    """The dense tensor `slices` stands for: a scatter-add of the values into zeros."""
    attrs = {"params_shape": slices._static, "axis": 0, "batch_dims": 0}
    if slices._static is not None:
        return execute(GATHER_GRAD, (slices._values, slices._indices), attrs)
    if slices._like is not None:
        return execute(GATHER_GRAD, (slices._values, slices._indices, slices._like), attrs)
    if slices._dense_shape is not None:
        return scatter_nd(expand_dims(slices._indices, -1), slices._values, slices._dense_shape)
    raise ValueError("IndexedSlices with an unknown dense_shape cannot be converted to a dense "
                     "tensor; give dense_shape when creating it.")


def aggregate(parts):
    """The sum of gradients some of which are IndexedSlices: dense if any part is dense (the
    sparse ones are densified), else one IndexedSlices whose values and indices concatenate
    the parts'."""
    if len(parts) == 1:
        return parts[0]
    if any(type(p) is not IndexedSlices for p in parts):
        return add_n([to_dense(p) if type(p) is IndexedSlices else p for p in parts])
    first = parts[0]
    kinds = {p._indices.dtype for p in parts}
    indices = [p._indices if len(kinds) == 1 else cast(p._indices, dtypes.int64) for p in parts]
    return IndexedSlices._of(concat([p._values for p in parts], 0), concat(indices, 0),
                             first._static, first._like)


def negate(slices):
    return IndexedSlices._of(negative(slices._values), slices._indices, slices._static,
                             slices._like)


def shape_of_like(slices):
    return shape(slices._like, out_type=dtypes.int64)

