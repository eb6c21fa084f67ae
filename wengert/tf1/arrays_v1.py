"""TensorFlow 1's array functions, as `tf.compat.v1` has them: TensorFlow 2's (ops/) under their
TF 1 signatures, with the old argument names beside the new ones (either name, never both:
tf1/renamed_arguments.py) and TF 1's order of the positional arguments (`name` before the
newer optional ones).

    expand_dims(input, axis, name, dim)              one of axis / dim is required
    squeeze(input, axis, name, squeeze_dims)
    reverse_sequence(input, seq_lengths, seq_axis, batch_axis, name, seq_dim, batch_dim)
    shape / size(input, name, out_type)              out_type None is int32
    gather(params, indices, validate_indices, name, axis, batch_dims)
    gather_nd(params, indices, name, batch_dims, bad_indices_policy)
    boolean_mask(tensor, mask, name, axis), pad(tensor, paddings, mode, name, constant_values)
    transpose(a, perm, name, conjugate)
    ones_like / zeros_like(tensor, dtype, name, optimize)
    constant(value, dtype, shape, name, verify_shape)   verify_shape: `value` must have
                                                        `shape` exactly (TensorFlow's TypeError,
                                                        worded as it words it eagerly and in a
                                                        graph)
    convert_to_tensor(value, dtype, name, preferred_dtype, dtype_hint)
    space_to_batch(input, paddings, block_size, name, block_shape)   2-D, a square block
    batch_to_space(input, crops, block_size, name, block_shape)
    matmul(..., output_type, grad_a, grad_b, name)
    serialize_sparse / serialize_many_sparse(sp_input, name, out_type)

`optimize` (ones_like, zeros_like) lets TensorFlow fold a known shape into a constant, and
`grad_a`/`grad_b` (matmul) tell its graph optimizer that an operand is a gradient: neither
changes a value, in TensorFlow as here."""
import numpy as np

from ..framework import dtypes
from ..framework.context import executing_eagerly
from ..framework.tensor import constant as _constant, convert_to_tensor as _convert
from ..ops import (broadcast_ops, indexing_ops, manip_ops, matmul_ops, pad_ops, query_ops,
                   reshape_ops, space_ops)
from ..ops.sparse import serialization
from .renamed_arguments import either

__all__ = ["batch_to_space", "boolean_mask", "constant", "convert_to_tensor", "expand_dims",
           "gather", "gather_nd", "matmul", "ones_like", "pad", "reverse_sequence",
           "serialize_many_sparse", "serialize_sparse", "shape", "size", "space_to_batch",
           "squeeze", "transpose", "zeros_like"]


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002 (TF's name)
    """`input` with a size-1 axis inserted at `axis` (or `dim`)."""
    axis = either("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return reshape_ops.expand_dims(input, axis, name)


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002 (TF's name)
    """`input` without its size-1 axes (those of `axis`, or `squeeze_dims`, when given)."""
    axis = either("axis", axis, "squeeze_dims", squeeze_dims)
    if np.isscalar(axis):
        axis = [axis]
    return reshape_ops.squeeze(input, axis, name)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None,  # noqa: A002
                     name=None, seq_dim=None, batch_dim=None):
    """Each batch entry's first seq_lengths[i] items along seq_axis (or seq_dim) reversed."""
    seq_axis = either("seq_axis", seq_axis, "seq_dim", seq_dim)
    batch_axis = either("batch_axis", batch_axis, "batch_dim", batch_dim)
    return manip_ops.reverse_sequence(input, seq_lengths, seq_axis, batch_axis, name)


def shape(input, name=None, out_type=None):  # noqa: A002 (TF's name)
    """The shape of `input` as a 1-D tensor of out_type (int32 when None)."""
    return query_ops.shape(input, dtypes.int32 if out_type is None else out_type, name)


def size(input, name=None, out_type=None):  # noqa: A002 (TF's name)
    """The number of elements of `input` as a scalar of out_type (int32 when None)."""
    return query_ops.size(input, dtypes.int32 if out_type is None else out_type, name)


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """The slices of `params` at `indices` along `axis`."""
    return indexing_ops.gather(params, indices, validate_indices, axis, batch_dims, name)


def gather_nd(params, indices, name=None, batch_dims=0, bad_indices_policy=""):
    """The slices of `params` at the index tuples of `indices`."""
    return indexing_ops.gather_nd(params, indices, batch_dims, name, bad_indices_policy)


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """The entries of `tensor` where `mask` is true (mask over the axes from `axis`)."""
    return indexing_ops.boolean_mask(tensor, mask, axis, name)


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """`tensor` padded by `paddings` ([[before, after]] per axis)."""
    return pad_ops.pad(tensor, paddings, mode, constant_values, name)


def transpose(a, perm=None, name="transpose", conjugate=False):
    """`a` with its axes permuted by `perm` (reversed by default)."""
    return reshape_ops.transpose(a, perm, conjugate, name)


def ones_like(tensor, dtype=None, name=None, optimize=True):
    """Ones of tensor's shape (and dtype unless given); `optimize`: see the module."""
    del optimize  # changes no value (see the module)
    return broadcast_ops.ones_like(tensor, dtype, name)


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """Zeros of tensor's shape (and dtype unless given); `optimize`: see the module."""
    del optimize  # changes no value (see the module)
    return broadcast_ops.zeros_like(tensor, dtype, name)


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """A constant tensor; with verify_shape, `value` must already have `shape`."""
    if verify_shape and shape is not None:
        given = np.asarray(value)
        if tuple(given.shape) != tuple(shape) and executing_eagerly():
            raise TypeError(f"Expected Tensor {given} (converted from {value}) with shape "
                            f"{tuple(shape)}, but got shape {given.shape}.")
        if tuple(given.shape) != tuple(shape):
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {given.shape}.")
    return _constant(value, dtype, shape, name)


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None):
    """`value` as a tensor; preferred_dtype is TensorFlow 1's name of dtype_hint."""
    dtype_hint = either("dtype_hint", dtype_hint, "preferred_dtype", preferred_dtype)
    return _convert(value, dtype, dtype_hint, name)


def space_to_batch(input, paddings, block_size=None, name=None,  # noqa: A002 (TF's name)
                   block_shape=None):
    """The 2-D spatial blocks of `input`, padded by `paddings`, moved into the batch: the
    block is block_size x block_size (block_shape is the same number under its new name)."""
    block = either("block_shape", block_shape, "block_size", block_size)
    return space_ops.space_to_batch_nd(input, [block, block], paddings, name)


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """The inverse of space_to_batch: batch blocks moved back into 2-D space, less `crops`."""
    block = either("block_shape", block_shape, "block_size", block_size)
    return space_ops.batch_to_space(input, [block, block], crops, name)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """The matrix product a @ b (grad_a, grad_b: see the module)."""
    del grad_a, grad_b  # hints to TensorFlow's graph optimizer (see the module)
    return matmul_ops.matmul(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse,
                             b_is_sparse, output_type, name)


def serialize_sparse(sp_input, name=None, out_type=dtypes.string):
    """A SparseTensor as a 3-vector of serialized tensors (indices, values, dense_shape)."""
    return serialization.serialize_sparse(sp_input, out_type, name)


def serialize_many_sparse(sp_input, name=None, out_type=dtypes.string):
    """A batch of SparseTensors (the first axis) as one 3-vector per entry."""
    return serialization.serialize_many_sparse(sp_input, out_type, name)
