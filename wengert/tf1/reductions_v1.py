"""TensorFlow 1's reductions, as `tf.compat.v1` has them: the TensorFlow 2 reductions under their
TF 1 signatures. The reduced axes may be given as `axis` or as `reduction_indices` (TF 1's
name), keeping them as `keepdims` or `keep_dims`; giving both names of one argument is
TensorFlow's ValueError (tf1/renamed_arguments.py). keepdims=None keeps no axes.

    reduce_sum(input_tensor, axis, keepdims, name, reduction_indices, keep_dims)
        (and reduce_mean, _max, _min, _prod, _all, _any, _logsumexp)
    count_nonzero(input_tensor, axis, keepdims, dtype, name, reduction_indices, keep_dims, input)
    argmax / argmin(input, axis, name, dimension, output_type)     axis or `dimension`
    norm(tensor, ord, axis, keepdims, name, keep_dims)

The values are TensorFlow 2's (ops/reduce_ops.py, ops/linalg/norms.py): only the arguments are
translated."""
from ..framework import dtypes
from ..ops import reduce_ops
from ..ops.linalg.norms import norm as _norm
from .renamed_arguments import either

__all__ = ["argmax", "argmin", "count_nonzero", "norm", "reduce_all", "reduce_any",
           "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod",
           "reduce_sum"]


def _v1(reduce):
    """`reduce` (a TensorFlow 2 reduction) under TensorFlow 1's signature."""
    def reduction(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                  keep_dims=None):
        axis = either("axis", axis, "reduction_indices", reduction_indices)
        keepdims = either("keepdims", keepdims, "keep_dims", keep_dims)
        return reduce(input_tensor, axis, bool(keepdims), name)

    reduction.__name__ = reduction.__qualname__ = reduce.__name__
    reduction.__doc__ = (f"TensorFlow 1's {reduce.__name__}: the axes as `axis` or "
                         f"`reduction_indices`, `keepdims` or `keep_dims` (see the module).")
    return reduction


reduce_sum = _v1(reduce_ops.reduce_sum)
reduce_mean = _v1(reduce_ops.reduce_mean)
reduce_max = _v1(reduce_ops.reduce_max)
reduce_min = _v1(reduce_ops.reduce_min)
reduce_prod = _v1(reduce_ops.reduce_prod)
reduce_all = _v1(reduce_ops.reduce_all)
reduce_any = _v1(reduce_ops.reduce_any)
reduce_logsumexp = _v1(reduce_ops.reduce_logsumexp)


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002 (TF's)
    """The number of nonzero entries along the axes (TF 1's names, see the module)."""
    keepdims = either("keepdims", keepdims, "keep_dims", keep_dims)
    input_tensor = either("input", input, "input_tensor", input_tensor)
    axis = either("axis", axis, "reduction_indices", reduction_indices)
    return reduce_ops.count_nonzero(input_tensor, axis, keepdims, dtype, name)


def argmax(input, axis=None, name=None, dimension=None,  # noqa: A002 (TF's name)
           output_type=dtypes.int64):
    """The index of the largest entry along `axis` (or `dimension`; axis 0 when neither)."""
    axis = either("axis", axis, "dimension", dimension)
    return reduce_ops.argmax(input, 0 if axis is None else axis, output_type, name)


def argmin(input, axis=None, name=None, dimension=None,  # noqa: A002 (TF's name)
           output_type=dtypes.int64):
    """The index of the smallest entry along `axis` (or `dimension`; axis 0 when neither)."""
    axis = either("axis", axis, "dimension", dimension)
    return reduce_ops.argmin(input, 0 if axis is None else axis, output_type, name)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None,  # noqa: A002 (TF's)
         keep_dims=None):
    """The vector or matrix norm of `tensor` (keepdims also as `keep_dims`)."""
    keepdims = either("keepdims", keepdims, "keep_dims", keep_dims)
    return _norm(tensor, ord, axis, keepdims, name)
