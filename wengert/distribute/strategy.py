"""TensorFlow's strategies: MultiWorkerMirroredStrategy over the ranks of an MPI job, the base
that the one-process MirroredStrategy / OneDeviceStrategy (mirrored_strategy.py) share, and the
default strategy.

    strategy = tf.distribute.MultiWorkerMirroredStrategy()   # one replica per process
    with strategy.scope():                                    # variables: rank 0's values
        model = make_model(); optimizer = tf.keras.optimizers.SGD(0.1)
    dist = strategy.experimental_distribute_dataset(dataset.batch(GLOBAL_BATCH))

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            per_example = loss_fn(y, model(x))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))  # summed over replicas
        return loss
    for x, y in dist:
        total = strategy.reduce("SUM", strategy.run(step, args=(x, y)), axis=None)

The cluster comes from the MPI environment (`python -m wengert.distribute.run -n N script.py`,
or mpiexec/srun): TF_CONFIG is not needed. Each variable created inside `scope()` is broadcast
from rank 0 as it is created (after the ranks check they create the same variable), so every
replica starts from the same weights whatever its random seed. Inside `run`, the replica context
is active: `get_replica_context().all_reduce` combines values across replicas, and an
optimizer's `apply_gradients` sums the gradients across replicas before applying them (the loss
is scaled to the global batch, so the sum is the global mean's gradient), as TensorFlow does.
`reduce(op, value, axis)` combines values in the cross-replica context: SUM or MEAN across
replicas, and with `axis` also across that axis of each replica's value (MEAN then divides by the
total number of elements along it).
"""
import contextlib

from ..framework import dtypes
from ..framework.context import state
from ..tracing.func_graph import init_scope
from ..ops.io import collectives
from ..ops.creation_ops import shape as shape_of
from ..ops.math_ops import cast
from ..ops.reduce_ops import reduce_sum
from ..framework.tensor import convert_to_tensor
from ..util import nest
from . import context as ctx
from .input import DistributedDataset, InputContext, ValueContext
from .job import job
from .mirrored_run import sum_values
from .values import PerReplica

__all__ = ["Strategy", "MultiWorkerMirroredStrategy", "all_reduce_sum_gradients",
           "apply_in_replica_context", "StrategyExtended"]


class _ClusterResolver:
    """What the MPI job says about the cluster (TF's cluster_resolver fields)."""

    def __init__(self, rank, size):
        self.task_type = "worker"
        self.task_id = rank
        self.num_workers = size
        self.rpc_layer = "mpi"

    def cluster_spec(self):
        return {"worker": [f"rank{r}" for r in range(self.num_workers)]}

    def __repr__(self):
        return f"<MPI cluster: worker {self.task_id} of {self.num_workers}>"


class StrategyExtended:
    """`strategy.extended`: the less common parts of the strategy API."""

    def __init__(self, strategy):
        self._strategy = strategy

    @property
    def should_checkpoint(self):
        """True on the rank that writes checkpoints (rank 0)."""
        return self._strategy._rank == 0

    should_save_summary = should_checkpoint

    @property
    def worker_devices(self):
        return ("/device:CPU:0",)

    @property
    def parameter_devices(self):
        return ("/device:CPU:0",)

    def reduce_to(self, reduce_op, value, destinations=None, options=None):
        return self._strategy._all_reduce(ctx.check_reduce_op(reduce_op), value)

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        return [self.reduce_to(reduce_op, v) for v, _ in value_destination_pairs]

    def update(self, var, fn, args=(), kwargs=None, group=True):
        return fn(var, *args, **(kwargs or {}))


class Strategy:
    """The base of the strategies (see the module docstring)."""

    def __init__(self, rank=0, size=1, job_=None):
        self._rank, self._size, self._job = rank, size, job_
        self._replica_context = ctx.ReplicaContext(self, rank)
        self.extended = StrategyExtended(self)
        self.cluster_resolver = _ClusterResolver(rank, size)

    @property
    def num_replicas_in_sync(self):
        return self._size

    # -- contexts -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def scope(self):
        """Create variables here (each is broadcast from rank 0 when created) and run Keras's
        compile/fit under this strategy."""
        entry = ctx.current_entry()
        if entry is not None and entry[0] is not self:
            raise ValueError("Mixing different tf.distribute.Strategy objects: this scope is "
                             f"entered inside the scope of {entry[0]!r}.")
        hooks = state.variable_hooks
        if self._size > 1:
            state.variable_hooks = hooks + (self._broadcast_new_variable,)
        ctx.push(self, entry[1] if entry is not None else None)
        try:
            yield self
        finally:
            ctx.pop()
            state.variable_hooks = hooks

    def _broadcast_new_variable(self, variable):
        with init_scope():
            name = getattr(variable, "path", None) or variable.name  # a Keras weight's path
            self._job.broadcast_variables([variable], 0, what=f"the new variable '{name}'")

    def run(self, fn, args=(), kwargs=None, options=None):
        """Call fn(*args, **kwargs) as this process's replica (in the replica context)."""
        entry = ctx.current_entry()
        if entry is not None and entry[0] is not self:
            raise ValueError("strategy.run was called inside another strategy's scope.")
        hooks = state.variable_hooks
        if self._size > 1 and self._broadcast_new_variable not in hooks:
            state.variable_hooks = hooks + (self._broadcast_new_variable,)
        ctx.push(self, self._replica_context)
        try:
            return fn(*args, **(kwargs or {}))
        finally:
            ctx.pop()
            state.variable_hooks = hooks

    # -- values across replicas -----------------------------------------------------------------
    def reduce(self, reduce_op, value, axis=None):
        """`value` (this replica's; a structure of tensors) combined across replicas: SUM or
        MEAN; with `axis`, also over that axis of each replica's value."""
        reduce_op = ctx.check_reduce_op(reduce_op)
        if axis is None:
            return nest.map_structure(lambda v: self._all_reduce(reduce_op, v), value)
        return nest.map_structure(lambda v: self._reduce_axis(reduce_op, v, axis), value)

    def _all_reduce(self, reduce_op, value):
        value = convert_to_tensor(value)
        if self._size == 1:
            return value
        return collectives.all_reduce(value, "sum", reduce_op == ctx.ReduceOp.MEAN)

    def _reduce_axis(self, reduce_op, value, axis):
        value = convert_to_tensor(value)
        total = self._all_reduce(ctx.ReduceOp.SUM, reduce_sum(value, axis))
        if reduce_op == ctx.ReduceOp.SUM:
            return total
        count = self._all_reduce(ctx.ReduceOp.SUM, shape_of(value, out_type=dtypes.int64)[axis])
        return total / cast(count, total.dtype)

    def experimental_local_results(self, value):
        """This process's values: one replica, so `(value,)`."""
        return (value,)

    def gather(self, value, axis):
        """Every replica's `value` concatenated along `axis`, in replica order."""
        if self._size == 1:
            return nest.map_structure(convert_to_tensor, value)
        return nest.map_structure(lambda v: ctx.gather_along(v, axis), value)

    # -- input ----------------------------------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None):
        """This replica's shard of every global batch of `dataset` (see input.py)."""
        return DistributedDataset(dataset, self._rank, self._size)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """`dataset_fn(InputContext)` builds this replica's own pipeline."""
        context = InputContext(self._size, self._rank, self._size)
        return DistributedDataset(dataset_fn(context), self._rank, self._size,
                                  already_local=True)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        return value_fn(ValueContext(self._rank, self._size))

    def __repr__(self):
        return f"<{type(self).__name__}: replica {self._rank} of {self._size}>"


class _DefaultStrategy(Strategy):
    """The strategy in use when none is: one replica, nothing distributed."""

    @contextlib.contextmanager
    def scope(self):
        yield self

    def run(self, fn, args=(), kwargs=None, options=None):
        return fn(*args, **(kwargs or {}))


class MultiWorkerMirroredStrategy(Strategy):
    """One replica per process of the MPI job (see the module docstring); with one process it is
    a one-replica strategy, as TensorFlow's is without TF_CONFIG."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        the_job = job()
        the_job.collective_checkpoints = True  # every rank saves; rank 0 writes
        super().__init__(the_job.rank, the_job.size, the_job)


ctx.set_default_strategy(_DefaultStrategy())


def apply_in_replica_context(grads_and_vars, apply_fn):
    """apply_fn(pairs) with each gradient summed across the replicas: an optimizer's
    apply_gradients. Replicas that are threads of this process (a MirroredStrategy over
    several devices) share their variables, so the summed gradients are applied once, in a merge
    call (mirrored_run.py); across processes every rank applies the allreduced sum."""
    entry = ctx.current_entry()
    if entry is not None and entry[1] is not None and \
            getattr(entry[0], "_local_replicas", 1) > 1:
        def merge(strategy, pairs):
            return apply_fn(_summed_pairs(pairs))
        return entry[1].merge_call(merge, args=(list(grads_and_vars),))
    return apply_fn(all_reduce_sum_gradients(grads_and_vars))


def _summed_pairs(pairs):
    """[(gradient summed over the replicas, variable)] from the merged (gradient, variable)
    pairs, whose gradients are PerReplica values (the variables are shared)."""
    return [(sum_values(g.values) if isinstance(g, PerReplica) else g, v) for g, v in pairs]


def all_reduce_sum_gradients(grads_and_vars):
    """The (gradient, variable) pairs with each gradient summed across replicas when called in
    a replica context of a strategy with several replicas (an optimizer's apply_gradients calls
    it, as Keras's does); unchanged otherwise."""
    entry = ctx.current_entry()
    if entry is None or entry[1] is None or entry[0].num_replicas_in_sync == 1:
        return grads_and_vars
    pairs = list(grads_and_vars)
    grads = entry[0]._job.sync_gradients([g for g, _ in pairs], [v for _, v in pairs])
    return list(zip(grads, [v for _, v in pairs]))
