"""Between ragged and dense (or sparse) tensors: to_tensor, from_tensor, to_sparse, from_sparse.

to_tensor pads every ragged level to its longest row, from the innermost level out, and crops
or pads to a `shape` (None keeps the bounding size): one RaggedTensorToTensor op
(padded_tensor.py states its kernel and gradient).

from_tensor keeps, per row, the first lengths[i] entries: given, or (with `padding`) up to the
last entry that is not all padding, or all of them (uniform rows). Its outer ragged_rank - 1
dimensions become uniform partitions. to_sparse's indices are each value's coordinates
(row ids and positions within rows, level by level, then the inner dense dimensions in
row-major order); from_sparse reads a 2-D sparse tensor's rows, which must be ragged-right
(row i holds columns 0..k_i - 1).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.ragged_tensor import RaggedTensor
from ...framework.sparse_tensor import SparseTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ..array_ops import concat, where
from ..creation_ops import fill, range as range_, shape as shape_of, tile
from ..indexing_ops import boolean_mask, gather
from ..math_ops import cast, equal, floordiv, logical_not
from ..reduce_ops import reduce_all, reduce_max, reduce_prod
from ..reshape_ops import reshape
from ..shape_ops import sequence_mask
from . import factories
from .padded_tensor import padded
from .partition_queries import bounding_shape, value_rowids

__all__ = ["to_tensor", "from_tensor", "to_sparse", "from_sparse"]


def to_tensor(self, default_value=None, name=None, shape=None):
    """The dense tensor of bounding_shape (or `shape`), padded with default_value (0, or b""
    for strings): TensorFlow's RaggedTensorToTensor op (padded_tensor.py)."""
    flat = self.flat_values
    if default_value is None:
        default_value = b"" if flat.dtype is dtypes.string else 0
    default = convert_to_tensor(default_value, dtype=flat.dtype)
    return padded(flat, default, list(self.nested_row_splits), shape, name)


def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                row_splits_dtype=dtypes.int64):
    """The ragged tensor of `tensor`'s rows, cut to `lengths` or before trailing `padding`."""
    tensor = convert_to_tensor(tensor)
    rank = tensor.shape.rank
    if not isinstance(ragged_rank, int) or ragged_rank < 1:
        raise ValueError(f"RaggedTensor.from_tensor: ragged_rank must be an int >= 1, got "
                         f"{ragged_rank!r}.")
    if rank is not None and rank <= ragged_rank:
        raise ValueError(f"RaggedTensor.from_tensor: ragged_rank={ragged_rank} needs a tensor "
                         f"of rank > {ragged_rank}, got shape {tensor.shape}.")
    if lengths is not None and padding is not None:
        raise ValueError("RaggedTensor.from_tensor: give at most one of lengths and padding.")
    dtype = dtypes.as_dtype(row_splits_dtype)
    dims = shape_of(tensor, out_type=dtype)
    outer = dims[:ragged_rank]
    # the row count is spelled out: a -1 cannot be inferred when a dimension is 0
    rows = reshape(tensor, concat([reduce_prod(outer, keepdims=True), dims[ragged_rank:]], 0))
    width = _dim(tensor, dims, ragged_rank, dtype)
    if lengths is None and padding is None:
        rt = factories.from_uniform_row_length(cls, _merge_two(rows), width,
                                               nrows=reduce_prod(outer), validate=False)
    else:
        if padding is not None:
            lengths = _unpadded_lengths(rows, padding, dtype)
        lengths = cast(reshape(convert_to_tensor(lengths, dtype_hint=dtype), [-1]), dtype)
        mask = sequence_mask(lengths, width)
        rt = factories.from_row_lengths(cls, boolean_mask(rows, mask), lengths, validate=False)
    for level in range(ragged_rank - 1, 0, -1):
        rt = factories.from_uniform_row_length(cls, rt, _dim(tensor, dims, level, dtype),
                                               nrows=reduce_prod(outer[:level]), validate=False)
    return rt


def _dim(tensor, dims, axis, dtype):
    """Dimension `axis` of tensor: a constant where the static shape knows it (so a uniform row
    length built from it is static, as TensorFlow's is), else dims[axis]."""
    size = tensor.shape[axis] if tensor.shape.rank is not None else None
    return dims[axis] if size is None else convert_to_tensor(size, dtype=dtype)


def _merge_two(rows):
    dims = shape_of(rows)
    return reshape(rows, concat([dims[:1] * dims[1:2], dims[2:]], 0))


def _unpadded_lengths(rows, padding, dtype):
    padding = convert_to_tensor(padding, dtype=rows.dtype)
    is_pad = equal(rows, padding)
    rank = rows.shape.rank
    if rank > 2:
        is_pad = reduce_all(is_pad, axis=list(range(2, rank)))
    width = shape_of(rows, out_type=dtype)[1]
    positions = range_(1, width + 1, dtype=dtype)
    kept = where(logical_not(is_pad), positions[None, :], 0)
    return reduce_max(concat([kept, fill([shape_of(rows)[0], 1], cast(0, dtype))], 1), axis=1)


def to_sparse(self, name=None):
    """A SparseTensor with one entry per value, at its coordinates."""
    coords, rt = None, self
    while isinstance(rt, RaggedTensor):
        rowids = cast(value_rowids(rt), dtypes.int64)
        splits = cast(rt.row_splits, dtypes.int64)
        cols = range_(shape_of(rowids, out_type=dtypes.int64)[0], dtype=dtypes.int64) - \
            gather(splits, rowids)
        head = rowids[:, None] if coords is None else gather(coords, rowids)
        coords = concat([head, cols[:, None]], 1)
        rt = rt.values
    flat = rt
    if flat.shape.rank > 1:
        inner = shape_of(flat, out_type=dtypes.int64)[1:]
        cells = cast(where(fill(inner, True)), dtypes.int64)
        count = shape_of(cells, out_type=dtypes.int64)[0]
        repeated = floordiv(range_(shape_of(coords, out_type=dtypes.int64)[0] * count,
                                   dtype=dtypes.int64), count)
        coords = concat([gather(coords, repeated),
                         tile(cells, [shape_of(flat, out_type=dtypes.int64)[0], 1])], 1)
    return SparseTensor(coords, reshape(flat, [-1]), bounding_shape(self, out_type=dtypes.int64))


def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
    """The rows of a 2-D ragged-right SparseTensor."""
    if not isinstance(st_input, SparseTensor):
        raise TypeError(f"RaggedTensor.from_sparse: st_input must be a SparseTensor, got "
                        f"{type(st_input).__name__}.")
    if st_input.shape.rank not in (None, 2):
        raise ValueError(f"rank(st_input) must be 2, got shape {st_input.shape} "
                         "(RaggedTensor.from_sparse).")
    dtype = dtypes.as_dtype(row_splits_dtype)
    _check_ragged_right(st_input.indices)
    rowids = cast(st_input.indices[:, 0], dtype)
    nrows = cast(st_input.dense_shape[0], dtype)
    return factories.from_value_rowids(cls, st_input.values, rowids, nrows, validate=False)


def _check_ragged_right(indices):
    idx = static_value(indices)
    if idx is None or len(idx) == 0:
        return
    rows, cols = idx[:, 0], idx[:, 1]
    new_row = np.concatenate([[True], rows[1:] != rows[:-1]])
    expected = np.where(new_row, 0, np.concatenate([[0], cols[:-1] + 1]))
    ordered = np.all(np.diff(rows) >= 0)
    if not ordered or np.any(cols != expected):
        raise InvalidArgumentError(
            "RaggedTensor.from_sparse: SparseTensor is not right-ragged: each row must hold "
            "columns 0, 1, ... with no gaps, in row-major order; got indices "
            f"{idx.tolist()[:8]}... (reorder with tf.sparse.reorder, or use tf.sparse.to_dense "
            "then RaggedTensor.from_tensor(padding=...)).")
