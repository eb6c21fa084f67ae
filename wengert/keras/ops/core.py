"""Keras 3's core tensor ops (`keras.ops.cast`, `shape`, `slice_update`, `scatter`, ...) over
wengert's ops, with the TensorFlow backend's semantics.

Dtypes are Keras's strings (dtypes.standardize_dtype: None is floatx, Python `int` is "int64",
`float` "float32", any wengert or NumPy dtype its name). `shape(x)` is a tuple whose
unknown entries are scalar tensors read at run time. `slice(x, start, shape)` reads the block
x[start : start + shape]; `slice_update(x, start, updates)` writes `updates` there (the start is
clamped so the block fits, as XLA's dynamic_update_slice does), written as a scatter of the
block's coordinates so that both `x` (zero gradient on the block) and `updates` (the gradient
read back from the block) are differentiable. `scatter(indices, values, shape)` adds `values`
into zeros of `shape` at `indices` (duplicates add); `scatter_update(x, indices, updates,
reduction)` replaces, adds, takes the max/min or multiplies.
"""
import numpy as np

from ...framework.ragged_tensor import RaggedTensor
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor as _to_tensor, is_tensor as _is_tensor
from ...ops.sparse.conversions import to_dense as _sparse_to_dense
from ...ops.array_ops import stack, stop_gradient as _stop_gradient, unstack as _unstack
from ...ops.cast_ops import cast as _cast
from ...ops.creation_ops import shape as _dynamic_shape
from ...ops.indexing_ops import gather_nd, scatter_nd
from ...ops.math_ops import clip_by_value
from ...ops.scatter_ops import (tensor_scatter_nd_add, tensor_scatter_nd_max,
                                tensor_scatter_nd_min, tensor_scatter_nd_update)
from ...ops.shape_ops import saturate_cast as _saturate_cast
from ...ops.slice_ops import slice as _slice
from ...autodiff.custom import custom_gradient as _custom_gradient
from ...control_flow.while_loop import while_loop as _while_loop
from .dtypes import convert, standardize_dtype

__all__ = ["convert_to_tensor", "convert_to_numpy", "is_tensor", "shape",
           "dtype", "cast", "saturate_cast", "stop_gradient", "custom_gradient", "unstack",
           "slice", "slice_update", "scatter", "scatter_update"]


def _sparse_cast(x, dtype):
    return SparseTensor(x.indices, _cast(x.values, standardize_dtype(dtype)), x.dense_shape)


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """x as a tensor; with `dtype`, cast to it (ints and bools convert first, then cast). As
    Keras's TensorFlow backend: sparse=False densifies a SparseTensor and ragged=False a
    RaggedTensor (padding with zeros); otherwise (None or True) they stay as they are."""
    if isinstance(x, SparseTensor):
        if sparse is not None and not sparse:
            return convert(_sparse_to_dense(x), dtype)
        return x if dtype is None else _sparse_cast(x, dtype)
    if isinstance(x, RaggedTensor):
        if ragged is not None and not ragged:
            return convert(x.to_tensor(), dtype)
        return x if dtype is None else x.with_values(_cast(x.values, standardize_dtype(dtype)))
    if not _is_tensor(x) and hasattr(x, "assign"):
        x = _to_tensor(x)
    return convert(x, dtype)


def convert_to_numpy(x):
    """A NumPy array holding x's value (eager tensors, variables, arrays, Python values)."""
    return np.array(convert_to_tensor(x))


def is_tensor(x):
    return _is_tensor(x)


def shape(x):
    """x's shape as a tuple: ints where known, scalar int32 tensors where only known at run
    time."""
    x = convert_to_tensor(x)
    if x.shape.rank is None:
        raise ValueError("shape: all tensors passed to `ops.shape` must have a statically known "
                         f"rank; got {x} with unknown rank.")
    dims = x.shape.as_list()
    if all(d is not None for d in dims):
        return tuple(dims)
    dynamic = _dynamic_shape(x)
    return tuple(dynamic[i] if d is None else d for i, d in enumerate(dims))


def dtype(x):
    """x's dtype as Keras's string, e.g. "float32"."""
    return standardize_dtype(x.dtype)


def cast(x, dtype):
    return _cast(convert_to_tensor(x), standardize_dtype(dtype))


def saturate_cast(x, dtype):
    """x cast to dtype after clipping to the range dtype holds (no wrap-around)."""
    return _saturate_cast(convert_to_tensor(x), standardize_dtype(dtype))


def stop_gradient(variable):
    return _stop_gradient(convert_to_tensor(variable))


def custom_gradient(f):
    """`f(*args) -> (output, grad_fn)`, where `grad_fn(*upstream)` returns one gradient per
    argument (TensorFlow's `tf.custom_gradient`)."""
    return _custom_gradient(f)


def unstack(x, num=None, axis=0):
    return _unstack(convert_to_tensor(x), num=num, axis=axis)


def slice(inputs, start_indices, shape):  # noqa: A001 (Keras's name)
    """The block of `inputs` starting at `start_indices` with extent `shape`."""
    return _slice(convert_to_tensor(inputs), start_indices, shape)


def _block_indices(start, sizes):
    """[*sizes, rank] int64 coordinates of the block of extent `sizes` from `start`."""
    grids = np.stack(np.meshgrid(*[np.arange(n) for n in sizes], indexing="ij"), axis=-1)
    return _cast(start, "int64") + _to_tensor(grids.astype(np.int64))


def slice_update(inputs, start_indices, updates):
    """`inputs` with the block at `start_indices` replaced by `updates`."""
    inputs = convert_to_tensor(inputs)
    updates = convert_to_tensor(updates, dtype=inputs.dtype)
    sizes = updates.shape.as_list()
    if None in sizes or inputs.shape.rank is None or len(sizes) != inputs.shape.rank:
        raise ValueError(f"slice_update: updates of shape {updates.shape} must have a known "
                         f"shape of the rank of inputs {inputs.shape}.")
    start = _cast(stack([convert_to_tensor(s) for s in start_indices])
                  if isinstance(start_indices, (list, tuple)) else
                  convert_to_tensor(start_indices), "int64")
    limit = _cast(_dynamic_shape(inputs), "int64") - np.asarray(sizes, np.int64)
    start = clip_by_value(start, np.zeros(len(sizes), np.int64), limit)
    return tensor_scatter_nd_update(inputs, _block_indices(start, sizes), updates)


def scatter(indices, values, shape):
    """zeros(shape) with `values` added at `indices` (a [..., index_depth] tensor)."""
    return scatter_nd(convert_to_tensor(indices), convert_to_tensor(values), shape)


def _scatter_multiply(inputs, indices, updates):
    count = _dynamic_shape(indices)[0]

    def body(i, result):
        index = indices[i:i + 1]
        return i + 1, tensor_scatter_nd_update(result, index,
                                               gather_nd(result, index) * updates[i:i + 1])
    return _while_loop(lambda i, _: i < count, body, (_to_tensor(0), inputs))[1]


_REDUCTIONS = {None: tensor_scatter_nd_update, "add": tensor_scatter_nd_add,
               "max": tensor_scatter_nd_max, "min": tensor_scatter_nd_min,
               "mul": _scatter_multiply}


def scatter_update(inputs, indices, updates, reduction=None):
    """`inputs` with `updates` written at `indices`: replaced, or combined by `reduction`
    ("add", "max", "min", "mul")."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"scatter_update: unsupported reduction {reduction!r}; use one of "
                         f"{[r for r in _REDUCTIONS]}.")
    inputs = convert_to_tensor(inputs)
    return _REDUCTIONS[reduction](inputs, convert_to_tensor(indices),
                                  convert_to_tensor(updates, dtype=inputs.dtype))

