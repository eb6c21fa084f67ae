"""Collective ops: values combined across the processes of a data-parallel job.

    CollectiveReduceV2   y = x_0 (+) x_1 (+) ... (+) x_{N-1} on every rank, where (+) is the
                         reduction ("sum", "prod", "min", "max"; TensorFlow's merge_op Add,
                         Mul, Min, Max); average=True divides by N (TensorFlow's final_op Div)
    GroupedAllReduce     the same sum (or mean) for a list of tensors in one op (gradients:
                         the distribute layer packs them into a few large buffers)
    CollectiveGatherV2   the ranks' tensors concatenated along axis 0 in rank order
    HorovodBroadcast     root's tensor on every rank

They are ops so that a traced `function` (Keras's compiled train step, a `strategy.run` inside
`tf.function`) performs the communication each time it runs: the kernels call the engine that
the distribute layer installs (`install_engine`), which sits above this layer. Without one, the
job is one process and every collective is the identity.

Gradients (each rank's loss L_r depends on every rank's x through the collective):
- sum: y = sum_r x_r on every rank, so dL/dx_r = sum_s dL_s/dy_s: the gradient is the sum of
  the incoming gradients, another CollectiveReduceV2 (Add); a mean likewise with Div;
- gather: rank r's rows are a slice of y, so its gradient is the summed incoming gradient's
  slice at rank r's offset (the row counts are gathered to find it);
- broadcast: y_s = x_root for every s, so the root's gradient is the sum of every rank's
  incoming gradient and the other ranks get zeros.
Min, max and product reductions have no gradient here (TensorFlow registers none). All four are
linear in their input (sums), so forward mode applies the same collective to the tangents.
"""
import numpy as np

from ...framework import dtypes
from ...framework.execute import execute
from ...framework.registry import defop, linear
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..cast_ops import cast
from ..reshape_ops import reshape
from ..broadcast_ops import zeros_like
from ..creation_ops import range as range_
from ..creation_ops import shape as shape_of
from ..indexing_ops import gather
from ..reduce_ops import reduce_sum

__all__ = ["all_reduce", "grouped_all_reduce", "all_gather", "broadcast", "install_engine",
           "engine"]

REDUCTIONS = ("sum", "prod", "min", "max")


class OneProcess:
    """The engine of a job of one process: every collective is the identity."""

    rank = 0
    size = 1

    def all_reduce(self, array, reduction, average):
        return np.array(array, copy=True)

    def grouped_all_reduce(self, arrays, names, average):
        return tuple(np.array(a, copy=True) for a in arrays)

    def all_gather(self, array):
        return np.array(array, copy=True).reshape((-1,) + array.shape[1:]) if array.ndim \
            else np.array(array, copy=True).reshape(1)

    def broadcast(self, array, root):
        return np.array(array, copy=True)


_ENGINE = [OneProcess()]


def install_engine(new_engine):
    """Route the collective ops to `new_engine` (the distribute layer's); None: one process."""
    _ENGINE[0] = new_engine if new_engine is not None else OneProcess()


def engine():
    return _ENGINE[0]


def _check(reduction, average):
    if reduction not in REDUCTIONS:
        raise ValueError(f"CollectiveReduceV2: reduction must be one of {REDUCTIONS}, got "
                         f"{reduction!r}.")
    if average and reduction != "sum":
        raise ValueError("CollectiveReduceV2: average=True needs reduction='sum'.")


# -- CollectiveReduceV2 ------------------------------------------------------------------------
def _reduce_kernel(x, *, reduction, average):
    return _ENGINE[0].all_reduce(np.asarray(x), reduction, average)


def _reduce_grad(op, grad):
    reduction = op.get_attr("reduction")
    if reduction != "sum":
        raise LookupError(f"CollectiveReduceV2 with reduction={reduction!r} has no gradient "
                          "(only sums and means are differentiable).")
    return all_reduce(grad, "sum", op.get_attr("average"))


def _reduce_jvp(primals, tangents, outputs, reduction, average):
    if reduction != "sum":
        raise LookupError(f"CollectiveReduceV2 with reduction={reduction!r} has no "
                          "derivative.")
    return all_reduce(tangents[0], "sum", average)


COLLECTIVE_REDUCE = defop("CollectiveReduceV2", _reduce_kernel, grad=_reduce_grad,
                          jvp=_reduce_jvp, shape=lambda x, **_: (x.shape, x.dtype),
                          batch="safe", pure=False,
                          raw=lambda input, group_size, group_key, instance_key, ordering_token,
                          merge_op, final_op, communication_hint="auto", timeout_seconds=0,
                          is_stateless=False, max_subdivs_per_device=-1, name=None: all_reduce(
                              input, _TF_MERGE.get(str(merge_op).lower(), merge_op),
                              str(final_op).lower() == "div", name))
# TensorFlow's merge_op names (raw CollectiveReduceV2; group and instance keys are the engine's)
_TF_MERGE = {"add": "sum", "mul": "prod", "min": "min", "max": "max"}


def all_reduce(x, reduction="sum", average=False, name=None):
    """The reduction of `x` over the ranks (see the module docstring), on every rank."""
    _check(reduction, bool(average))
    x = convert_to_tensor(x)
    return execute(COLLECTIVE_REDUCE, (x,), {"reduction": reduction, "average": bool(average)},
                   name or "CollectiveReduceV2")


# -- GroupedAllReduce --------------------------------------------------------------------------
def _grouped_kernel(*arrays, names, average):
    return tuple(_ENGINE[0].grouped_all_reduce([np.asarray(a) for a in arrays], names,
                                               average))


def _grouped_grad(op, *grads):
    grads = [g if g is not None else zeros_like(x) for g, x in zip(grads, op.inputs)]
    out = grouped_all_reduce(grads, [f"{n}/grad" for n in op.get_attr("names")],
                             op.get_attr("average"))
    return list(out)


GROUPED_ALL_REDUCE = defop(
    "GroupedAllReduce", _grouped_kernel, grad=_grouped_grad, jvp=linear, num_outputs=None,
    pure=False,
    shape=lambda *inputs, **_: [(x.shape, x.dtype) for x in inputs], batch="safe")


def grouped_all_reduce(tensors, names, average=False, name=None):
    """The sum (or with average=True the mean) over the ranks of each tensor, in one op;
    `names` (one string per tensor, e.g. variable names) let the ranks check they agree."""
    tensors = [convert_to_tensor(t) for t in tensors]
    if len(names) != len(tensors):
        raise ValueError(f"GroupedAllReduce: {len(tensors)} tensors but {len(names)} names.")
    if not tensors:
        return ()
    out = execute(GROUPED_ALL_REDUCE, tuple(tensors),
                  {"names": tuple(str(n) for n in names), "average": bool(average)},
                  name or "GroupedAllReduce")
    return out if isinstance(out, tuple) else (out,)


# -- CollectiveGatherV2 ------------------------------------------------------------------------
def _gather_kernel(x):
    return _ENGINE[0].all_gather(np.asarray(x))


def _gather_shape(x):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    if x.shape.rank == 0:
        return TensorShape([None]), x.dtype
    return TensorShape([None] + x.shape.as_list()[1:]), x.dtype


def _gather_grad(op, grad):
    x = op.inputs[0]
    summed = all_reduce(grad)
    rows = shape_of(x, out_type=dtypes.int64)[:1] if x.shape.rank != 0 else \
        convert_to_tensor(np.array([1], np.int64))
    counts = all_gather(rows)
    rank = _ENGINE[0].rank
    start = reduce_sum(counts[:rank]) if rank else convert_to_tensor(np.int64(0))
    piece = gather(summed, range_(start, start + cast(rows[0], dtypes.int64)))
    return reshape(piece, shape_of(x)) if x.shape.rank == 0 else piece


COLLECTIVE_GATHER = defop("CollectiveGatherV2", _gather_kernel, grad=_gather_grad,
                          jvp=linear, shape=_gather_shape, pure=False,
                          raw=lambda input, group_size, group_key, instance_key, ordering_token,
                          communication_hint="auto", timeout_seconds=0, is_stateless=False,
                          name=None: all_gather(input, name))


def all_gather(x, name=None):
    """The ranks' `x` concatenated along axis 0 in rank order (a scalar counts as one row)."""
    return execute(COLLECTIVE_GATHER, (convert_to_tensor(x),), name=name or "CollectiveGatherV2")


# -- HorovodBroadcast --------------------------------------------------------------------------
def _broadcast_kernel(x, *, root_rank):
    return _ENGINE[0].broadcast(np.asarray(x), root_rank)


def _broadcast_grad(op, grad):
    summed = all_reduce(grad)
    if _ENGINE[0].rank == op.get_attr("root_rank"):
        return summed
    return zeros_like(summed)


BROADCAST = defop("HorovodBroadcast", _broadcast_kernel, grad=_broadcast_grad, jvp=linear,
                  shape=lambda x, **_: (x.shape, x.dtype), pure=False)


def broadcast(x, root_rank=0, name=None):
    """Rank `root_rank`'s `x` on every rank (shapes and dtypes must agree)."""
    return execute(BROADCAST, (convert_to_tensor(x),), {"root_rank": int(root_rank)},
                   name=name or "HorovodBroadcast")
