"""`tf.sparse.bincount`: how often each integer occurs, per batch row, as a SparseTensor.

DenseCountSparseOutput (inputs values [n] or [batch, n], weights: empty or values' shape) and
SparseCountSparseOutput (a sparse tensor's indices, values, dense_shape, and weights: empty or
one per value; its batch row is indices[:, 0] when rank 2) count, per batch row b and value v,
c[b, v] = number of v in row b (1 with binary_output; the sum of the weights of those entries
when weights are given). Values at or past maxlength (> 0) are dropped; negative values are an
error. The dense shape is maxlength when given, else max(largest value + 1, minlength); the
output lists the nonzero counts in row-major order, its dtype the weights' (else the values').
Not differentiable.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..reshape_ops import reshape

__all__ = ["bincount"]


def _count(op, rows, n_rows, values, weights, binary_output, minlength, maxlength):
    values = np.asarray(values).reshape(-1)
    if (values < 0).any():
        raise InvalidArgumentError(f"{op}: Input values must all be non-negative")
    weights = np.asarray(weights).reshape(-1)
    if len(weights) and len(weights) != len(values):
        raise InvalidArgumentError(f"{op}: Weights and values must have the same shape; got "
                                   f"{len(weights)} weights for {len(values)} values.")
    keep = values < maxlength if maxlength > 0 else np.ones(len(values), bool)
    largest = int(values[keep].max()) if keep.any() else -1
    bins = maxlength if maxlength > 0 else max(largest + 1, minlength)
    dtype = weights.dtype if len(weights) else values.dtype
    key = rows[keep] * max(bins, 1) + values[keep]
    cells, inverse = np.unique(key, return_inverse=True)
    counts = np.zeros(len(cells), dtype)
    np.add.at(counts, inverse.reshape(-1), weights[keep] if len(weights) else 1)
    if binary_output:
        counts = np.ones(len(cells), dtype)
    batch, value = np.divmod(cells, max(bins, 1))
    indices = np.stack([batch, value], 1) if n_rows is not None else value[:, None]
    shape = [bins] if n_rows is None else [n_rows, bins]
    return indices.astype(np.int64), counts, np.asarray(shape, np.int64)


def _dense_kernel(values, weights, binary_output=False, minlength=-1, maxlength=-1):
    if values.ndim not in (1, 2):
        raise InvalidArgumentError(f"DenseCountSparseOutput: Input must be a 1 or 2-dimensional "
                                   f"tensor. Got: {values.ndim}")
    batched = values.ndim == 2
    rows = np.repeat(np.arange(values.shape[0]), values.shape[1]) if batched else \
        np.zeros(values.size, np.int64)
    return _count("DenseCountSparseOutput", rows, values.shape[0] if batched else None,
                  values, weights, binary_output, minlength, maxlength)


def _sparse_kernel(indices, values, dense_shape, weights, binary_output=False, minlength=-1,
                   maxlength=-1):
    batched = len(dense_shape) == 2
    rows = indices[:, 0] if batched else np.zeros(len(values), np.int64)
    return _count("SparseCountSparseOutput", np.asarray(rows, np.int64),
                  int(dense_shape[0]) if batched else None, values, weights, binary_output,
                  minlength, maxlength)


def _rule(rank, values, weights):
    dtype = weights.dtype if weights.shape.num_elements() != 0 else values.dtype
    return [(TensorShape([None, rank]), dtypes.int64), (TensorShape([None]), dtype),
            (TensorShape([rank]), dtypes.int64)]


def _attrs(binary_output, minlength, maxlength):
    return {"binary_output": bool(binary_output), "minlength": int(minlength),
            "maxlength": int(maxlength)}


DENSE_COUNT = defop(
    "DenseCountSparseOutput", _dense_kernel, grad=None, num_outputs=3,
    shape=lambda values, weights, **_: _rule(values.shape.rank, values, weights),
    raw=lambda values, weights, binary_output, minlength=-1, maxlength=-1, name=None: execute(
        DENSE_COUNT, (convert_to_tensor(values), convert_to_tensor(weights)),
        _attrs(binary_output, minlength, maxlength), name))
SPARSE_COUNT = defop(
    "SparseCountSparseOutput", _sparse_kernel, grad=None, num_outputs=3,
    shape=lambda indices, values, dense_shape, weights, **_: _rule(dense_shape.shape[0], values,
                                                                 weights),
    raw=lambda indices, values, dense_shape, weights, binary_output, minlength=-1, maxlength=-1,
    name=None: execute(SPARSE_COUNT, tuple(convert_to_tensor(t) for t in (
        indices, values, dense_shape, weights)), _attrs(binary_output, minlength, maxlength),
        name))


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False,
             name=None):
    """Counts of each value of `values` (dense or a SparseTensor), over all of it (axis=0) or
    per row of a rank-2 input (axis=-1), as a SparseTensor; weighted counts with `weights`."""
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         "currently supported.")
    sparse = isinstance(values, SparseTensor)
    if not sparse:
        values = convert_to_tensor(values)
    if weights is not None:
        weights = weights.values if isinstance(weights, SparseTensor) else \
            convert_to_tensor(weights)
    attrs = _attrs(binary_output, -1 if minlength is None else minlength,
                   -1 if maxlength is None else maxlength)
    if axis == 0:
        values = values.values if sparse else reshape(values, [-1])
        weights = None if weights is None else reshape(weights, [-1])
        sparse = False
    dtype = (values.values if sparse else values).dtype
    weights = convert_to_tensor(np.zeros(0, dtype.as_numpy_dtype)) if weights is None else weights
    if sparse:
        parts = execute(SPARSE_COUNT, (values.indices, values.values, values.dense_shape,
                                       weights), attrs, name)
    else:
        parts = execute(DENSE_COUNT, (values, weights), attrs, name)
    return SparseTensor(*parts)
