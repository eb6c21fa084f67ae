"""Several replicas in one process: how a MirroredStrategy over the logical CPUs
(`tf.config.set_logical_device_configuration(cpu, [LogicalDeviceConfiguration()] * N)`) runs
`strategy.run(fn, args)`.

fn runs once per replica, each in a thread of its own, ONE AT A TIME, as TensorFlow's
mirrored_run does: replica 0 runs until it returns or calls `merge_call`, then replica 1, and so
on. When every replica waits in merge_call, the merge function runs once, in the calling thread
and the cross-replica context, on PerReplica values of the replicas' arguments; each replica then
goes on with its part of the result. A replica that returns while another waits in a merge call
is TensorFlow's RuntimeError. The collectives of a replica context are merge calls:

    all_reduce(SUM, v) = v_0 + ... + v_{N-1} (MEAN: that / N), the same tensor for every replica,
    all_gather(v, axis) = concat([v_0, ..., v_{N-1}], axis),

so they are plain ops over the replicas' tensors: eagerly they compute at once, and under
`tf.function` (the replica threads build the caller's graph, as TensorFlow's do) they are nodes
of that one graph, which then runs in order with nothing to wait for.

Variables are mirrored by being shared: one made under `scope()` is one variable that every
replica reads, and a variable that replica r > 0 creates inside `run` is the one replica 0
created at the same place (its k-th creation in this call). An assignment to a mirrored
variable inside a replica goes by the variable's aggregation (values.py: SUM, MEAN and
ONLY_FIRST_REPLICA through a merge call). An optimizer's `apply_gradients` in
a replica context is a merge call (strategy.py's `apply_in_replica_context`): the gradients
summed over the replicas are applied once, which is TensorFlow's update of every mirror with the
all-reduced gradient.

A replica thread starts with its caller's per-thread state (the graph being built, tapes,
name scope, variable creators), so a tape opened outside `run` records every replica's ops.
"""
import threading

from ..framework import dtypes, variable_creators
from ..framework.context import state
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import convert_to_tensor
from ..framework.variables import replica_update_scope
from ..ops.array_ops import concat, identity
from ..util import nest
from . import context as ctx
from .values import (PerReplica, reduce_values, regroup, select, sum_values,
                     update_in_replica)

__all__ = ["run", "LocalReplicaContext", "sum_values", "reduce_values"]


class _Aborted(BaseException):
    """Ends a replica that waits in a merge call after another replica failed."""


class _Replica(threading.Thread):
    """One replica's thread: it runs only between `step()` and its next merge call or end."""

    def __init__(self, replica_id, body):
        super().__init__(name=f"wengert-replica-{replica_id}", daemon=True)
        self.replica_id = replica_id
        self._body = body
        self._resume, self._paused = threading.Event(), threading.Event()
        self.merge = None          # (merge_fn, args, kwargs) while waiting in merge_call
        self.merge_result = None
        self.abort = False
        self.done = False
        self.result = self.error = None

    def run(self):
        self._resume.wait()
        self._resume.clear()
        try:
            if not self.abort:
                self.result = self._body(self)
        except _Aborted:
            pass
        except BaseException as err:  # noqa: BLE001 - handed to the caller, which raises it
            self.error = err
        self.done = True
        self._paused.set()

    def step(self):
        """(caller) Let the replica run to its next merge call or its end."""
        self._paused.clear()
        self._resume.set()
        self._paused.wait()

    def release(self):
        """(caller) End a replica that has not finished (another one failed)."""
        self.abort = True
        self._paused.clear()
        self._resume.set()

    def wait_in_merge(self, merge_fn, args, kwargs):
        """(replica) Hand the merge call to the caller and wait for its result."""
        self.merge = (merge_fn, args, kwargs)
        self._paused.set()
        self._resume.wait()
        self._resume.clear()
        self.merge = None
        if self.abort:
            raise _Aborted()
        result, self.merge_result = self.merge_result, None
        return result


def _inherit(saved):
    """Give this thread the caller's per-thread state (graph, tapes, scopes, creators)."""
    framework_state, creators = saved
    for name, value in framework_state.items():
        setattr(state, name, value)
    variable_creators.restore(creators)


def _mirror_creator(created, replica_id):
    """Replica 0 keeps the variables it creates; replica r > 0 gets them back in order."""
    count = [0]

    def creator(next_creator, **kwargs):
        if replica_id == 0:
            variable = next_creator(**kwargs)
            created.append(variable)
            return variable
        k = count[0]
        count[0] += 1
        if k >= len(created):
            raise RuntimeError(f"strategy.run: replica {replica_id} created a variable that "
                               "replica 0 did not; every replica must create the same variables.")
        return created[k]
    return creator


def run(strategy, fn, args=(), kwargs=None):
    """fn(*args, **kwargs) once per replica (see the module docstring); the results regrouped."""
    kwargs = kwargs or {}
    saved = (dict(state.__dict__), variable_creators.snapshot())
    created = []

    def body(replica):
        r = replica.replica_id
        _inherit(saved)
        if strategy._mirror_new_variable not in state.variable_hooks:
            state.variable_hooks += (strategy._mirror_new_variable,)
        with variable_creators.creator_scope(_mirror_creator(created, r)), \
                replica_update_scope(update_in_replica):
            ctx.push(strategy, LocalReplicaContext(strategy, r))
            try:
                return fn(*select(r, args), **select(r, kwargs))
            finally:
                ctx.pop()

    replicas = [_Replica(r, body) for r in range(strategy.num_replicas_in_sync)]
    for replica in replicas:
        replica.start()
    try:
        _drive(strategy, replicas)
    finally:
        for replica in replicas:
            if not replica.done:
                replica.release()
        for replica in replicas:
            replica.join()
    return regroup([replica.result for replica in replicas])


def _drive(strategy, replicas):
    while True:
        for replica in replicas:
            replica.step()
            if replica.error is not None:
                raise replica.error
        waiting = [r for r in replicas if not r.done]
        if not waiting:
            return
        if len(waiting) < len(replicas):
            raise RuntimeError("Some replicas made a different number of "
                               "replica_context().merge_call() calls.")
        _merge(strategy, replicas)


def _merge(strategy, replicas):
    """Run the replicas' merge call once, in the cross-replica context."""
    merge_fn = replicas[0].merge[0]
    args = regroup([list(r.merge[1]) for r in replicas])
    kwargs = regroup([dict(r.merge[2]) for r in replicas])
    ctx.push(strategy, None)
    try:
        result = merge_fn(strategy, *args, **kwargs)
    finally:
        ctx.pop()
    for replica in replicas:
        replica.merge_result = select(replica.replica_id, result)


def _current_replica():
    thread = threading.current_thread()
    return thread if isinstance(thread, _Replica) else None


def _own_copy(value):
    """A replica's own tensor of a value every replica got (TensorFlow's copy per device)."""
    return identity(value) if value is not None and type(value) is not IndexedSlices else value


class LocalReplicaContext(ctx.ReplicaContext):
    """A replica's context when the replicas are threads of this process."""

    @property
    def replica_id_in_sync_group(self):
        return convert_to_tensor(self._replica_id, dtype=dtypes.int32)

    @property
    def devices(self):
        return (self._strategy.extended.worker_devices[self._replica_id],)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """merge_fn(strategy, *args, **kwargs) run once for all replicas, on PerReplica values
        of their arguments; this replica's part of the result."""
        replica = _current_replica()
        if replica is None:
            raise RuntimeError("merge_call must be called from the replica function that "
                               "strategy.run is running.")
        return replica.wait_in_merge(merge_fn, tuple(args), dict(kwargs or {}))

    def all_reduce(self, reduce_op, value, options=None):
        """`value` (tensors, IndexedSlices, or a structure of them) combined over the
        replicas: SUM adds, MEAN averages; every replica gets its copy of the result."""
        reduce_op = ctx.check_reduce_op(reduce_op)
        reduced = self.merge_call(lambda strategy, v: nest.map_structure(
            lambda x: reduce_values(reduce_op, x), v), args=(value,))
        return nest.map_structure(_own_copy, reduced)

    def all_gather(self, value, axis, options=None):
        """Each replica's `value` concatenated along `axis`, in replica order."""
        def gather(strategy, v):
            return nest.map_structure(lambda x: concat(list(x.values), axis) if isinstance(
                x, PerReplica) else concat([x] * strategy.num_replicas_in_sync, axis), v)
        return nest.map_structure(_own_copy, self.merge_call(gather, args=(value,)))
