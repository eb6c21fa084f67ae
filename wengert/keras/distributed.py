"""Keras's compile / fit / evaluate under a tf.distribute strategy with several replicas.

A model compiled inside `strategy.scope()` keeps that strategy (`model.distribute_strategy`),
and then, with N replicas (one per process of the MPI job):

- `fit` and `evaluate` run inside the strategy's scope; `batch_size` is the GLOBAL batch size:
  every rank walks the same batches (the shuffled order is rank 0's, broadcast once per epoch;
  a dataset must yield the same global batches on every rank) and keeps its shard of each
  (input.py's rule: N equal parts, the first B mod N ranks one row more);
- the train step runs as `strategy.run(step)`: the optimizer sums the gradients across
  replicas, and each replica's mean loss is its share of the global batch's mean (its sum over
  the number of elements of the global batch, counted before the step), so each update is the
  global batch's whatever the split: ranks with one row more, or none, in a last batch smaller
  than the process count. Outside fit and evaluate (a custom loop), the loss objects divide
  their mean by N, as Keras 3 does;
- the running loss and the metrics are reduced across ranks before they are logged: one
  allreduce per step of the loss sums and every metric's state (totals, counts), after which
  each metric computes its result from the summed state, as TensorFlow's sync-on-read metric
  variables do;
- the progress bar (and verbose output) appears on rank 0 only.
`predict` is not split: every rank predicts every row.

With N replicas in this process (a MirroredStrategy over N logical CPUs: distribute/
mirrored_strategy.py) nothing is sharded before the step: the step is a `tf.function` around
`strategy.run(step)` (as Keras's is), given each global batch split into N parts; each
replica's loss is its mean divided by N (Keras 3's scaling, losses/loss.py), the optimizer
applies the gradients summed over the replicas once, and the loss tracker counts each replica's
unscaled mean over its rows, as Keras 3's sync-on-read tracker does. A model's own
train_step / test_step / predict_step runs in every replica on its part of the batch (Keras 3's
`strategy.run(step)`), its logs averaged over the replicas and its predictions concatenated.
"""
import functools
import threading

import numpy as np

from ..distribute.context import current_entry, get_strategy, has_strategy
from ..distribute.input import local_rows
from ..distribute.mirrored_input import split_batch
from ..distribute.values import PerReplica
from ..framework.tensor import Tensor, array_of, constant, convert_to_tensor
from ..framework.variables import Variable
from ..ops.array_ops import concat, stack
from ..ops.reduce_ops import reduce_mean
from ..tracing.func_graph import init_scope
from ..tracing.function import function
from ..util import nest

__all__ = ["get_strategy", "capture_strategy", "strategy_of", "in_strategy_scope", "local_index",
           "shared_order", "run_step", "reduced_logs", "verbose_for", "shard", "global_rows",
           "loss_rows", "first_tensor", "replica_step", "split_for_replicas"]


def capture_strategy(model):
    """Remember the strategy whose scope `compile` runs in (None without one)."""
    model._distribute_strategy = get_strategy() if has_strategy() else None


def strategy_of(model):
    """The model's strategy when it has several replicas in several processes, else None."""
    strategy = getattr(model, "_distribute_strategy", None)
    return strategy if strategy is not None and strategy.num_replicas_in_sync > 1 and \
        getattr(strategy, "_local_replicas", 1) == 1 else None


def local_strategy_of(model):
    """The model's strategy when it runs several replicas in this process, else None."""
    strategy = getattr(model, "_distribute_strategy", None)
    return strategy if getattr(strategy, "_local_replicas", 1) > 1 else None


def in_strategy_scope(method):
    """Run a Model method inside its strategy's scope (entered once)."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        strategy = getattr(self, "_distribute_strategy", None)
        entry = current_entry()
        if strategy is None or (entry is not None and entry[0] is strategy):
            return method(self, *args, **kwargs)
        with strategy.scope():
            return method(self, *args, **kwargs)
    return wrapper


def _rank(strategy):
    return strategy.cluster_resolver.task_id


def local_index(index, strategy):
    """This replica's part of a global batch given as a slice or an index array."""
    if strategy is None:
        return index
    size = strategy.num_replicas_in_sync
    if isinstance(index, slice):
        part = local_rows(index.stop - index.start, _rank(strategy), size)
        return slice(index.start + part.start, index.start + part.stop)
    index = np.asarray(index)
    return index[local_rows(len(index), _rank(strategy), size)]


def shared_order(strategy, rng, n):
    """A permutation of n rows, the same on every rank (rank 0's)."""
    order = rng.permutation(n)
    if strategy is None:
        return order
    return strategy._job.coll.broadcast(order.astype(np.int64), 0,
                                        what="the shuffled order of the epoch")


def shard(strategy, *parts):
    """This replica's rows of each part (arrays, lists of arrays, or None)."""
    if strategy is None:
        return parts
    size, rank = strategy.num_replicas_in_sync, _rank(strategy)

    def rows(data):
        if data is None:
            return None
        if isinstance(data, list):
            return [rows(d) for d in data]
        return data[local_rows(len(data), rank, size)]
    return tuple(rows(p) for p in parts)


def run_step(model, fn, *args):
    """fn(*args) as this process's replica when the model is distributed. The step's global
    batch (the rows of every replica, args[0] being x) is counted first and set where the
    mean losses read it (global_rows), so that each replica's loss is its share of the global
    mean; `model._step_global_rows` keeps it for the loss tracker."""
    strategy = strategy_of(model)
    if strategy is None:
        local = local_strategy_of(model)
        return fn(*args) if local is None else _run_replicas(model, local, fn, args)
    local = np.array(_rows_of(args[0]), np.float64)
    total = strategy._job.coll.allreduce(local, what="the rows of the global batch")
    rows = _rows_variable(strategy)
    rows.assign(total)
    model._step_global_rows = float(total)
    _STEP.rows = rows
    try:
        return strategy.run(fn, args=args)
    finally:
        _STEP.rows = None


def replica_step(model, fn, reduction):
    """A model's own step `fn(data)` as Keras 3 runs it under a strategy whose replicas are in
    this process: `strategy.run(fn, (data,))` on the global batch split among the replicas
    (`split_for_replicas`), each per-replica output reduced as `reduction` says ("mean" over the
    replicas for logs, "concat" along the rows for predictions); `fn` itself otherwise."""
    strategy = local_strategy_of(model)
    if strategy is None:
        return fn

    def step(data):
        return nest.map_structure(lambda v: _reduced(v, reduction),
                                  strategy.run(fn, args=(data,)))
    return step


def split_for_replicas(model, data):
    """The batch split among the replicas of the model's one-process strategy (PerReplica
    leaves), or as it is without one."""
    strategy = local_strategy_of(model)
    return data if strategy is None else split_batch(data, strategy.num_replicas_in_sync)


def _reduced(value, reduction):
    if not isinstance(value, PerReplica):
        return value
    parts = [convert_to_tensor(v) for v in value.values]
    if reduction == "concat":
        return concat(parts, 0)
    return reduce_mean(stack(parts), axis=0)


def _run_replicas(model, strategy, step, args):
    """The step run by the replicas of this process on their parts of the global batch;
    (the loss the tracker counts for the global batch, the predictions of every row)."""
    n = strategy.num_replicas_in_sync
    total = _rows_of(args[0])
    parts = [local_rows(total, r, n) for r in range(n)]

    def split(t):
        if isinstance(t, Tensor) and t.shape.rank and t.shape[0] == total:
            array = array_of(t)
            return PerReplica([convert_to_tensor(array[p]) for p in parts])
        return t
    steps = model.__dict__.setdefault("_replica_steps", {})
    if id(step) not in steps:
        def body(*a):
            return strategy.run(step.fn, args=a)
        steps[id(step)] = (step, function(body) if step.traced is not None else body)
    loss, y_pred = steps[id(step)][1](*nest.map_structure(split, list(args)))
    losses = strategy.experimental_local_results(loss)
    if len(losses) == 1:
        losses = losses * n
    tracked = sum(float(l) * n * (p.stop - p.start) for l, p in zip(losses, parts))
    preds = strategy.experimental_local_results(y_pred)
    return constant(tracked / max(total, 1), loss.values[0].dtype if isinstance(
        loss, PerReplica) else loss.dtype), (concat(list(preds), 0) if len(preds) > 1
                                             else preds[0])


class _StepRows(threading.local):
    rows = None  # the global-rows variable while a built-in distributed step runs


_STEP = _StepRows()


def loss_rows(model, rows):
    """The rows a step's loss stands for in the running loss: its own `rows`, or under a
    strategy the global batch's (each replica's loss is its share of the global mean)."""
    return rows if strategy_of(model) is None else model._step_global_rows


def global_rows():
    """The variable holding the current distributed step's global batch rows while fit or
    evaluate runs a built-in step under a multi-process strategy, else None."""
    return _STEP.rows


def first_tensor(x):
    """The first tensor of a nested batch (a dict's first value, a list's first item)."""
    while isinstance(x, (list, tuple, dict)):
        x = next(iter(x.values())) if isinstance(x, dict) else x[0]
    return x


def _rows_of(x):
    shape = getattr(first_tensor(x), "shape", ())
    return int(shape[0]) if len(shape) else 1


def _rows_variable(strategy):
    rows = getattr(strategy, "_keras_global_rows", None)
    if rows is None:
        with init_scope():
            rows = Variable(0.0, trainable=False, name="keras_global_batch_rows",
                            dtype="float64")
        strategy._keras_global_rows = rows
    return rows


def verbose_for(model, verbose):
    strategy = strategy_of(model)
    return verbose if strategy is None or _rank(strategy) == 0 else 0


def reduced_logs(model):
    """{"loss": ..., metric: ...} over every rank's examples so far (see the module docstring)."""
    strategy = strategy_of(model)
    metrics = list(model._compiled_metrics or [])
    states = [(v, np.asarray(v.numpy())) for m in metrics for v in m.variables]
    local = np.concatenate([np.array([model._loss_total, model._loss_count], np.float64)]
                           + [a.astype(np.float64).reshape(-1) for _, a in states])
    total = strategy._job.coll.allreduce(local, what="the loss and metrics of the step")
    logs = {"loss": float(total[0] / max(total[1], 1))}
    offset = 2
    for v, a in states:
        v.assign(total[offset:offset + a.size].reshape(a.shape).astype(a.dtype))
        offset += a.size
    try:
        for m in metrics:
            logs[m.name] = float(m.result())
    finally:
        for v, a in states:
            v.assign(a)
    return logs
