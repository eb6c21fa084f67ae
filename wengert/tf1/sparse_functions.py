"""TensorFlow 1's top-level sparse functions that TensorFlow 2 dropped or reordered:

    sparse_to_dense(indices, shape, values, default)   the dense tensor holding `values` at
                                   `indices` (a scalar, a vector of positions in a vector, or
                                   an [N, rank] matrix) and `default` elsewhere
    sparse_merge(ids, values, vocab_size)   SparseTensor with entry [row..., ids[k]] = values[k]:
                                   ids name the column of each value in a row of width vocab_size
    sparse_segment_sum/mean/sqrt_n   tf.sparse.segment_* with `name` before `num_segments`
    sparse_matmul(a, b)            a @ b in float32; the sparsity hints only tune TensorFlow's
                                   kernel, so the product is matmul's
    convert_to_tensor_or_sparse_tensor, convert_to_tensor_or_indexed_slices   a SparseTensor
                                   (or SparseTensorValue) or IndexedSlices as it is, anything
                                   else through convert_to_tensor
"""
from ..framework import dtypes
from ..framework.indexed_slices import IndexedSlices
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..ops import segment_ops
from ..ops.array_ops import concat
from ..ops.broadcast_ops import broadcast_to
from ..ops.cast_ops import cast
from ..ops.matmul_ops import matmul
from ..ops.reshape_ops import expand_dims, reshape
from ..ops.query_ops import shape as shape_of
from ..ops.sparse.conversions import check_sparse, reorder, to_dense

__all__ = ["sparse_to_dense", "sparse_merge", "sparse_segment_sum", "sparse_segment_mean",
           "sparse_segment_sqrt_n", "sparse_matmul", "convert_to_tensor_or_sparse_tensor",
           "convert_to_tensor_or_indexed_slices"]


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0,
                    validate_indices=True, name=None):
    """A dense tensor of `output_shape` with `sparse_values` at `sparse_indices`."""
    indices = cast(convert_to_tensor(sparse_indices), dtypes.int64)
    shape = cast(reshape(convert_to_tensor(output_shape), [-1]), dtypes.int64)
    if indices.shape.rank is not None and indices.shape.rank > 2:
        raise ValueError(f"tf.compat.v1.sparse_to_dense: sparse_indices must be a scalar, a "
                         f"vector or a matrix, got shape {indices.shape}.")
    if indices.shape.rank == 0:
        indices = reshape(indices, [1, 1])
    elif indices.shape.rank == 1:
        indices = expand_dims(indices, 1)
    values = convert_to_tensor(sparse_values)
    if values.shape.rank == 0:
        values = broadcast_to(values, shape_of(indices)[:1])
    if values.dtype is dtypes.bool:  # filled through int8: bool has no subtraction
        dense = sparse_to_dense(indices, shape, cast(values, dtypes.int8),
                                cast(default_value, dtypes.int8), validate_indices)
        return cast(dense, dtypes.bool, name=name)
    sp = SparseTensor(indices, values, shape)
    return to_dense(sp, default_value=default_value, validate_indices=validate_indices,
                    name=name)


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """Combine ids and values into one SparseTensor of width `vocab_size` per row."""
    ids = check_sparse(sp_ids, "tf.compat.v1.sparse_merge")
    values = check_sparse(sp_values, "tf.compat.v1.sparse_merge")
    if isinstance(vocab_size, (list, tuple)):
        raise NotImplementedError("tf.compat.v1.sparse_merge: a list of sp_ids and vocab_size "
                                  "(one column per id tensor) is not supported; merge one "
                                  "SparseTensor of ids at a time.")
    if not ids.values.dtype.is_integer:
        raise TypeError(f"tf.compat.v1.sparse_merge: sp_ids.values must be integers, got "
                        f"{ids.values.dtype.name}.")
    columns = expand_dims(cast(ids.values, dtypes.int64), 1)
    indices = concat([ids.indices[:, :-1], columns], 1)
    width = reshape(cast(convert_to_tensor(vocab_size), dtypes.int64), [1])
    shape = concat([ids.dense_shape[:-1], width], 0)
    merged = SparseTensor(indices, values.values, shape)
    return merged if already_sorted else reorder(merged, name=name)


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None,
                       sparse_gradient=False):
    """Sum of data[indices] per segment (TensorFlow 1's argument order)."""
    return segment_ops.sparse_segment_sum(data, indices, segment_ids, num_segments=num_segments,
                                          name=name, sparse_gradient=sparse_gradient)


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None,
                        sparse_gradient=False):
    """Mean of data[indices] per segment (TensorFlow 1's argument order)."""
    return segment_ops.sparse_segment_mean(data, indices, segment_ids, num_segments=num_segments,
                                           name=name, sparse_gradient=sparse_gradient)


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None,
                          sparse_gradient=False):
    """Sum of data[indices] per segment over sqrt(segment size) (TensorFlow 1's order)."""
    return segment_ops.sparse_segment_sqrt_n(data, indices, segment_ids,
                                             num_segments=num_segments, name=name,
                                             sparse_gradient=sparse_gradient)


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False,
                  b_is_sparse=False, name=None):
    """a @ b as float32 (a and b float32 or bfloat16)."""
    for hint, value in (("a_is_sparse", a_is_sparse), ("b_is_sparse", b_is_sparse)):
        if not isinstance(value, bool):
            raise TypeError(f"tf.compat.v1.sparse_matmul: {hint} must be a bool, got {value!r}.")
    a, b = convert_to_tensor(a, dtype=dtypes.float32), convert_to_tensor(b, dtype=dtypes.float32)
    return matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name)


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    """value itself if it is a SparseTensor, a SparseTensor for a SparseTensorValue, else a
    tensor."""
    if hasattr(value, "indices") and hasattr(value, "dense_shape") and \
            not isinstance(value, SparseTensor):
        value = SparseTensor(value.indices, value.values, value.dense_shape)
    if isinstance(value, SparseTensor):
        return _checked_dtype(value, dtype, "convert_to_tensor_or_sparse_tensor")
    return convert_to_tensor(value, dtype=dtype, name=name)


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    """value itself if it is IndexedSlices (or another composite tensor), else a tensor."""
    if isinstance(value, (IndexedSlices, SparseTensor)):
        return _checked_dtype(value, dtype, "convert_to_tensor_or_indexed_slices")
    return convert_to_tensor(value, dtype=dtype, name=name)


def _checked_dtype(value, dtype, who):
    if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
        raise ValueError(f"tf.compat.v1.{who}: Tensor conversion requested dtype "
                         f"{dtypes.as_dtype(dtype).name} for {type(value).__name__} with dtype "
                         f"{value.dtype.name}.")
    return value
