"""Losses scaled for data-parallel training: `tf.nn.compute_average_loss` and
`tf.nn.scale_regularization_loss`.

With N replicas each seeing B/N of a global batch of B examples, and gradients SUMMED across
replicas (what apply_gradients does in a replica context), each replica's loss must be its
examples' loss summed and divided by the GLOBAL batch size B:

    loss_r = sum_{i in replica r} w_i l_i / B,   so   sum_r loss_r = sum_i w_i l_i / B,

the mean over the global batch, whose gradient one process would compute from the whole batch.
`global_batch_size` defaults to this replica's batch size times the replica count (right when
every replica has as many examples). A regularization loss, the same on every replica, is
divided by N so that the sum over replicas counts it once.
"""
from ..framework import dtypes
from ..framework.tensor import array_of, convert_to_tensor
from ..ops.binary_math_ops import div_no_nan
from ..ops.creation_ops import shape as shape_of
from ..ops.math_ops import cast
from ..ops.reduce_ops import reduce_sum
from . import context as ctx

__all__ = ["compute_average_loss", "scale_regularization_loss"]


def _replica_only(name):
    if ctx.has_strategy() and ctx.in_cross_replica_context():
        raise RuntimeError(f"You are calling `{name}` in cross replica context, while it was "
                           "expected to be called in replica context (inside strategy.run).")


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """The sum of the (weighted) per-example losses divided by the global batch size."""
    per_example_loss = convert_to_tensor(per_example_loss)
    dtype = per_example_loss.dtype
    if per_example_loss.shape.rank == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with "
                         "at least rank 1 (one loss per example), got a scalar.")
    if sample_weight is not None:
        per_example_loss = per_example_loss * cast(convert_to_tensor(sample_weight), dtype)
    if global_batch_size is None:
        _replica_only("compute_average_loss")
        replicas = ctx.get_strategy().num_replicas_in_sync
        global_batch_size = shape_of(per_example_loss, out_type=dtypes.int64)[0] * replicas
    else:
        global_batch_size = convert_to_tensor(global_batch_size)
        if global_batch_size.shape.rank != 0:
            raise ValueError("global_batch_size must be scalar.")
        if not global_batch_size.dtype.is_integer:
            raise TypeError("global_batch_size must be an integer.")
        value = array_of(global_batch_size)  # None while a graph is built
        if value is not None and value < 0:
            raise ValueError("global_batch_size must be non-negative.")
    return div_no_nan(reduce_sum(per_example_loss), cast(global_batch_size, dtype))


def scale_regularization_loss(regularization_loss):
    """The summed regularization loss divided by the number of replicas."""
    _replica_only("scale_regularization_loss")
    replicas = ctx.get_strategy().num_replicas_in_sync
    return reduce_sum(convert_to_tensor(regularization_loss)) / replicas
