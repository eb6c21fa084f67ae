"""Values of several replicas in one process: `PerReplica`, `Mirrored`, `MirroredVariable`, how
they are built and taken apart, and how a replica's update of a mirrored variable combines with
the other replicas' updates.

A `PerReplica` holds one value per replica of a one-process MirroredStrategy: what
`strategy.run` returns where the replicas' values differ, what a distributed dataset yields (each
global batch split along its first axis), and what `experimental_distribute_values_from_function`
makes. A `Mirrored` holds one value per replica that are the same (what `extended.reduce_to`
gives towards distributed destinations). Both are composite values (util/nest.py's
`_nest_components` protocol): a `tf.function` traces one placeholder per replica's component and
rebuilds the value inside, so the guide's `distributed_train_step(per_replica_batch)` traces as
TensorFlow's does. Both print as TensorFlow's: `PerReplica:{\\n  0: <value 0>,\\n  1: ...\\n}`.

`regroup(values)` turns the replicas' results (one structure per replica) into one structure
whose leaves are PerReplica values, except where every replica returned the same object
(a variable, a constant, a merge call's reduced value), which stays as it is, as TensorFlow's
regroup does. `select(r, structure)` is replica r's part of a structure of such values.

A variable created under a MirroredStrategy's scope (or inside its `run`) is mirrored: one
variable that every replica reads (a plain `tf.Variable` becomes a `MirroredVariable`, printed as
TensorFlow prints its N copies, "<name>/replica_r:0" for r > 0). An assignment to it inside a
replica (`assign`, `assign_add`, `assign_sub`) goes by its `aggregation`, as TensorFlow's
MirroredVariable's `_update_replica` does:

    SUM                  a merge call applies  update(v, x_0 + ... + x_{N-1})  once
    MEAN                 a merge call applies  update(v, (x_0 + ... + x_{N-1}) / N)  once
    ONLY_FIRST_REPLICA   a merge call applies  update(v, x_0)  once
    NONE (the default)   each replica updates its own copy, without a merge call; the copies
                         are one variable here, which takes replica 0's update (TensorFlow's
                         primary copy, the one it reads outside `run`, saves and returns from
                         get_weights); replica r > 0 then reads that value. Where TensorFlow's
                         copies would differ (different x_r), a replica r > 0 sees replica 0's.

where x_r is replica r's value; a value every replica passed as the same object (a Python
number in the function's text) is not per-replica: MEAN and ONLY_FIRST_REPLICA take it as it
is, and SUM raises TensorFlow's ValueError. Each replica gets the new value (a tensor of its
own), or None with `read_value=False`. Variables not made under the strategy are updated by
every replica in turn, as TensorFlow's plain variables are. A variable made with
`synchronization=ON_READ` keeps a copy per replica instead (sync_on_read.py).
"""
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import TensorLike, convert_to_tensor
from ..framework.variables import Variable
from ..ops.array_ops import concat, identity
from ..ops.broadcast_ops import add_n
from ..ops.math_ops import cast
from ..util import nest
from . import context as ctx
from .sync_on_read import is_on_read, make_sync_on_read

__all__ = ["PerReplica", "Mirrored", "MirroredVariable", "regroup", "select", "is_per_replica",
           "sum_values", "reduce_values", "update_in_replica", "mirror_variable"]


class DistributedValues:
    """One value per replica (index = replica id in the sync group)."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def _nest_components(self):
        return list(self._values)

    def _nest_rebuild(self, components):
        return type(self)(components)

    def _format(self, show):
        lines = ",\n".join(f"  {i}: {show(v)}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{lines}\n}}"

    def __str__(self):
        return self._format(str)

    def __repr__(self):
        return self._format(repr)


class PerReplica(DistributedValues):
    """One value per replica, each its own."""


class Mirrored(DistributedValues):
    """One value per replica, all the same."""


def is_per_replica(value):
    return isinstance(value, PerReplica)


def regroup(per_replica_results):
    """One structure from the replicas' structures: PerReplica leaves where they differ."""
    first = per_replica_results[0]
    flats = [nest.flatten(r) for r in per_replica_results]
    if any(len(f) != len(flats[0]) for f in flats):
        raise ValueError("strategy.run: the replicas returned structures of different "
                         "lengths; every replica must return the same structure.")
    leaves = []
    for parts in zip(*flats):
        same = all(p is parts[0] for p in parts)
        leaves.append(parts[0] if same else PerReplica(parts))
    if not nest.is_nested(first):
        return leaves[0]
    return nest.pack_sequence_as(first, leaves)


def select(replica_id, structure):
    """Replica `replica_id`'s part of `structure`: each PerReplica leaf's component."""
    if isinstance(structure, DistributedValues):
        return structure.values[replica_id]
    if not nest.is_nested(structure):
        return structure
    return nest.map_structure(
        lambda v: v.values[replica_id] if isinstance(v, DistributedValues) else v, structure)


# -- combining the replicas' values -----------------------------------------------------------
def sum_values(values):
    """The sum of the replicas' values (IndexedSlices: their rows concatenated)."""
    values = list(values)
    if any(v is None for v in values):
        return None
    if all(type(v) is IndexedSlices for v in values):
        return IndexedSlices(concat([v.values for v in values], 0),
                             concat([v.indices for v in values], 0), values[0].dense_shape)
    tensors = [convert_to_tensor(v) for v in values]
    return tensors[0] if len(tensors) == 1 else add_n(tensors)


def reduce_values(reduce_op, per_replica):
    """SUM or MEAN of a PerReplica's values (a value every replica shares: itself)."""
    if not isinstance(per_replica, DistributedValues):
        return per_replica
    total = sum_values(per_replica.values)
    if reduce_op == ctx.ReduceOp.MEAN and total is not None:
        count = len(per_replica.values)
        if type(total) is IndexedSlices:
            return IndexedSlices(total.values / cast(count, total.values.dtype), total.indices,
                                 total.dense_shape)
        return total / cast(count, total.dtype)
    return total


# -- mirrored variables ---------------------------------------------------------------------------
class MirroredVariable(Variable):
    """A variable created under a MirroredStrategy's scope: one variable, N replicas' copy."""

    @property
    def distribute_strategy(self):
        return self._mirrored_by

    def __repr__(self):
        first = Variable.__repr__(self)
        lines = [first] + [first.replace(f"'{self.name}'", f"'{self._name}/replica_{r}:0'", 1)
                           for r in range(1, self._mirrored_by.num_replicas_in_sync)]
        body = ",\n".join(f"  {i}: {line}" for i, line in enumerate(lines))
        return f"MirroredVariable:{{\n{body}\n}}"

    __str__ = __repr__


def mirror_variable(strategy, variable):
    """Mark a variable made under `strategy` as mirrored (a plain Variable becomes a
    MirroredVariable, or with synchronization ON_READ a SyncOnReadVariable (sync_on_read.py):
    the same object, whose identity every tape and hook keeps)."""
    variable._mirrored_by = strategy
    if type(variable) is not Variable:
        return
    if is_on_read(variable.synchronization):
        make_sync_on_read(strategy, variable, aggregation_name(variable.aggregation))
    else:
        variable.__class__ = MirroredVariable


def aggregation_name(aggregation):
    """"NONE", "SUM", "MEAN" or "ONLY_FIRST_REPLICA" from a VariableAggregation, Keras's
    strings ("sum") or None."""
    if aggregation is None:
        return "NONE"
    return str(getattr(aggregation, "name", aggregation)).upper()


def update_in_replica(var, kind, value, read_value, apply):
    """`var.<kind>(value)` called in a replica (framework/variables.py's route), combined with
    the other replicas' as the module docstring says."""
    entry = ctx.current_entry()
    replica = entry[1] if entry is not None else None
    if replica is None or getattr(var, "_mirrored_by", None) is None:
        return apply(value, read_value)
    aggregation = aggregation_name(var.aggregation)
    if aggregation == "NONE":
        result = apply(value, read_value) if replica._replica_id == 0 else var
        return _replica_result(var, result, read_value)

    def merge(strategy, value):
        return apply(_aggregated(aggregation, value, var), read_value)
    return _replica_result(var, replica.merge_call(merge, args=(value,)), read_value)


def _aggregated(aggregation, value, var):
    if not isinstance(value, PerReplica):
        if aggregation == "SUM":
            raise ValueError(f"A non-DistributedValues value {value} cannot be reduced with "
                             "the given reduce op ReduceOp.SUM.")
        return value
    parts = [v if isinstance(v, TensorLike) else convert_to_tensor(v, dtype=var.dtype)
             for v in value.values]
    if aggregation == "ONLY_FIRST_REPLICA":
        return parts[0]
    if aggregation not in ("SUM", "MEAN"):
        raise ValueError(f"Variable '{var.name}': aggregation {var.aggregation!r} is not one "
                         "of NONE, SUM, MEAN, ONLY_FIRST_REPLICA.")
    return reduce_values(aggregation, PerReplica(parts))


def _replica_result(var, result, read_value):
    """What an update returns in a replica: the new value as this replica's own tensor."""
    if not read_value:
        return None
    if isinstance(result, Variable):
        return var.read_value()
    return identity(result)
