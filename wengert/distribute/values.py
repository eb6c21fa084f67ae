"""Values of several replicas in one process: `PerReplica`, and how they are built and taken
apart.

A `PerReplica` holds one value per replica of a one-process MirroredStrategy: what
`strategy.run` returns where the replicas' values differ, what a distributed dataset yields (each
global batch split along its first axis), and what `experimental_distribute_values_from_function`
makes. It is a composite value (util/nest.py's `_nest_components` protocol): a `tf.function`
traces one placeholder per replica's component and rebuilds the PerReplica inside, so the guide's
`distributed_train_step(per_replica_batch)` traces as TensorFlow's does.

`regroup(values)` turns the replicas' results (one structure per replica) into one structure
whose leaves are PerReplica values, except where every replica returned the same object
(a variable, a constant, a merge call's reduced value), which stays as it is, as TensorFlow's
regroup does. `select(r, structure)` is replica r's part of a structure of such values.
"""
from ..util import nest

__all__ = ["PerReplica", "regroup", "select", "is_per_replica"]


class PerReplica:
    """One value per replica (index = replica id in the sync group)."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def _nest_components(self):
        return list(self._values)

    def _nest_rebuild(self, components):
        return PerReplica(components)

    def _format(self, show):
        lines = ",\n".join(f"  {i}: {show(v)}" for i, v in enumerate(self._values))
        return "PerReplica:{\n" + lines + "\n}"

    def __str__(self):
        return self._format(str)

    def __repr__(self):
        return self._format(repr)


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
    if isinstance(structure, PerReplica):
        return structure.values[replica_id]
    if not nest.is_nested(structure):
        return structure
    return nest.map_structure(
        lambda v: v.values[replica_id] if isinstance(v, PerReplica) else v, structure)
