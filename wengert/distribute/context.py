"""Where code runs under tf.distribute: the default strategy, cross-replica and replica contexts.

TensorFlow distinguishes three situations, and so does this module (per thread):

- no strategy: `get_strategy()` is the default strategy (one replica, nothing distributed) and
  `get_replica_context()` a default replica context;
- inside `strategy.scope()` but outside `strategy.run`: the *cross-replica* context;
  `get_replica_context()` is None, `in_cross_replica_context()` is True;
- inside `strategy.run(fn)`: the *replica* context; `get_replica_context()` is this replica's
  context, whose `all_reduce` combines values across replicas, and optimizers' apply_gradients
  sums the gradients across replicas there.

Here one replica runs in each process (the ranks of an MPI job), so a replica's values are the
process's own tensors and "per-replica" values need no wrapper: `experimental_local_results(v)`
is `(v,)`.
"""
import threading

from ..ops.io import collectives
from ..ops.reshape_ops import transpose
from ..ops.math_ops import cast
from ..framework import dtypes
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import convert_to_tensor
from ..util import nest

__all__ = ["ReduceOp", "ReplicaContext", "get_strategy", "has_strategy", "get_replica_context",
           "in_cross_replica_context", "get_cross_replica_context", "current_entry"]


class ReduceOp:
    """How values of the replicas combine: SUM adds them, MEAN averages them."""

    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        name = str(getattr(aggregation, "name", aggregation)).upper()
        if name.endswith("SUM"):
            return ReduceOp.SUM
        if name.endswith("MEAN"):
            return ReduceOp.MEAN
        raise ValueError(f"Could not convert aggregation {aggregation!r} to a ReduceOp.")


def check_reduce_op(reduce_op):
    """"SUM"/"MEAN" (also given as ReduceOp.SUM or the strings "sum"/"mean")."""
    name = str(getattr(reduce_op, "value", reduce_op)).upper()
    if name not in (ReduceOp.SUM, ReduceOp.MEAN):
        raise ValueError(f"reduce_op must be tf.distribute.ReduceOp.SUM or MEAN, got "
                         f"{reduce_op!r}.")
    return name


class _Stack(threading.local):
    entries = ()  # (strategy, replica context or None), innermost last


_stack = _Stack()


def current_entry():
    return _stack.entries[-1] if _stack.entries else None


def push(strategy, replica_context):
    _stack.entries = _stack.entries + ((strategy, replica_context),)


def pop():
    _stack.entries = _stack.entries[:-1]


class ReplicaContext:
    """A replica's view inside `strategy.run`: its id, the replica count, and collectives."""

    def __init__(self, strategy, replica_id):
        self._strategy = strategy
        self._replica_id = replica_id

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        return convert_to_tensor(self._replica_id, dtype=dtypes.int32)

    @property
    def devices(self):
        return ("/job:worker/replica:0/task:%d/device:CPU:0" % self._replica_id,)

    def all_reduce(self, reduce_op, value, options=None):
        """`value` (a tensor, IndexedSlices, or a nested structure of them) combined across the
        replicas: SUM adds, MEAN averages; dense tensors travel in one grouped collective."""
        reduce_op = check_reduce_op(reduce_op)
        flat = nest.flatten(value)
        if self.num_replicas_in_sync == 1:
            return nest.pack_sequence_as(value, [_local_copy(v) for v in flat])
        dense = [i for i, v in enumerate(flat) if type(v) is not IndexedSlices]
        out = list(flat)
        if dense:
            tensors = [convert_to_tensor(flat[i]) for i in dense]
            reduced = collectives.grouped_all_reduce(
                tensors, [f"all_reduce/{i}" for i in dense], reduce_op == ReduceOp.MEAN)
            for i, t in zip(dense, reduced):
                out[i] = t
        for i, v in enumerate(flat):
            if type(v) is IndexedSlices:
                out[i] = _gather_slices(v, reduce_op, self.num_replicas_in_sync)
        return nest.pack_sequence_as(value, out)

    def all_gather(self, value, axis, options=None):
        """Each replica's `value` concatenated along `axis` in replica order."""
        return nest.map_structure(lambda v: gather_along(v, axis), value)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Run merge_fn(strategy, *args, **kwargs) in the cross-replica context."""
        push(self._strategy, None)
        try:
            return merge_fn(self._strategy, *args, **(kwargs or {}))
        finally:
            pop()

    def __repr__(self):
        return (f"<ReplicaContext replica {self._replica_id} of "
                f"{self.num_replicas_in_sync}>")


def _local_copy(v):
    return v if type(v) is IndexedSlices else convert_to_tensor(v)


def _gather_slices(slices, reduce_op, replicas):
    values = collectives.all_gather(slices.values)
    indices = collectives.all_gather(slices.indices)
    if reduce_op == ReduceOp.MEAN:
        values = values / cast(replicas, values.dtype)
    return IndexedSlices(values, indices, slices.dense_shape)


def gather_along(value, axis):
    """All ranks' `value` concatenated along `axis` (the collective gathers along axis 0)."""
    value = convert_to_tensor(value)
    rank = value.shape.rank
    if axis == 0 or rank == 0:
        return collectives.all_gather(value)
    axis = axis % rank
    perm = [axis] + [d for d in range(rank) if d != axis]
    inverse = [perm.index(d) for d in range(rank)]
    return transpose(collectives.all_gather(transpose(value, perm)), inverse)


# -- the default strategy and the queries -------------------------------------------------------
_DEFAULT = []  # the default strategy; strategy.py sets it (it sits above this module)


def set_default_strategy(strategy):
    _DEFAULT[:] = [strategy]


def _default_strategy():
    return _DEFAULT[0]


def get_strategy():
    """The strategy of the innermost `scope()` or `run`, else the default strategy."""
    entry = current_entry()
    return entry[0] if entry is not None else _default_strategy()


def has_strategy():
    """True inside a non-default strategy's scope (or run)."""
    return current_entry() is not None


def get_replica_context():
    """This replica's context inside `strategy.run`; None in the cross-replica context (inside
    a scope, outside run); a default replica context when no strategy is in use."""
    entry = current_entry()
    if entry is None:
        return _default_strategy()._replica_context
    return entry[1]


def in_cross_replica_context():
    entry = current_entry()
    return entry is not None and entry[1] is None


def get_cross_replica_context():
    """The strategy in the cross-replica context (or the default strategy with no strategy in
    use); None inside a replica context."""
    entry = current_entry()
    if entry is None:
        return _default_strategy()
    return entry[0] if entry[1] is None else None
