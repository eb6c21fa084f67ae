"""The job: this process's place in a data-parallel run, and the operations both APIs share.

`job()` makes, once per process, the communicator (comm.py), its checked collectives
(protocol.py) and the gradient synchroniser (gradient_sync.py), and installs itself as the engine
of the collective ops (ops/io/collectives.py), so traced functions communicate through it too.
Strategies and the Horovod-style module both call it:

- `sync_gradients(grads, variables, average)`: the sum or mean over ranks of each gradient.
  Eagerly it runs the variables' plan directly (IndexedSlices all-gathered, None counted as
  zeros and kept None only when no rank has a gradient). While a graph is built (a traced train
  step) it adds one GroupedAllReduce op for the dense gradients (IndexedSlices are densified
  there; a None gradient stays None: in a trace None-ness is fixed by the program, the same on
  every rank, and the signature check catches ranks that differ);
- `broadcast_variables(variables, root)`: root's values assigned on every rank, after checking
  that the ranks hold the same variables (names, shapes, dtypes), in one fused broadcast per
  dtype;
- `allreduce` / `allgather` / `broadcast` of single tensors, through the ops (differentiable,
  and recorded in traced functions).
"""
import numpy as np

from ..framework.context import state
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..ops.io import collectives
from .comm import world
from .gradient_sync import Synchronizer
from .protocol import Collectives

__all__ = ["job", "current_job", "Job"]

class Job:
    """This process's communicator, checked collectives and gradient plans."""

    def __init__(self, comm):
        self.comm = comm
        self.coll = Collectives(comm)
        self.sync = Synchronizer(self.coll)
        self.collective_checkpoints = False  # MultiWorkerMirroredStrategy: every rank saves

    @property
    def rank(self):
        return self.comm.rank

    @property
    def size(self):
        return self.comm.size

    # -- the engine of the collective ops (arrays in, arrays out) --------------------------------
    def all_reduce(self, array, reduction, average):
        return self.coll.allreduce(array, reduction, average=average,
                                   what=f"allreduce ({reduction})")

    def grouped_all_reduce(self, arrays, names, average):
        plan = self.sync.plan(names, [a.shape for a in arrays], [a.dtype for a in arrays],
                              [2] * len(arrays))
        out, _ = plan.run(self.coll, arrays, average)
        return out

    def all_gather(self, array):
        return self.coll.allgather(array)

    def broadcast(self, array, root):
        return self.coll.broadcast(array, root)

    # -- gradients ------------------------------------------------------------------------------
    def sync_gradients(self, grads, variables, average=False):
        """Each gradient summed (or averaged) over the ranks; None where no rank has one."""
        grads, variables = list(grads), list(variables)
        if self.size == 1:
            return grads
        if state.graph is not None:
            return self._sync_in_graph(grads, variables, average)
        names = [_source_name(v, i) for i, v in enumerate(variables)]
        shapes = [tuple(v.shape.as_list()) for v in variables]
        dtypes = [v.dtype.as_numpy_dtype for v in variables]
        kinds = [0 if g is None else 1 if type(g) is IndexedSlices else 2 for g in grads]
        plan = self.sync.plan(names, shapes, dtypes, kinds)
        arrays = [_as_payload(g, index in plan.sparse, shapes[index])
                  for index, g in enumerate(grads)]
        out, _ = plan.run(self.coll, arrays, average)
        return [_as_gradient(o, shapes[i]) for i, o in enumerate(out)]

    def _sync_in_graph(self, grads, variables, average):
        present = [i for i, g in enumerate(grads) if g is not None]
        tensors = [convert_to_tensor(grads[i]) for i in present]
        names = [_source_name(variables[i], i) for i in present]
        reduced = collectives.grouped_all_reduce(tensors, names, average)
        out = list(grads)
        for i, t in zip(present, reduced):
            out[i] = t
        return out

    # -- variables ------------------------------------------------------------------------------
    def broadcast_variables(self, variables, root=0, what="the variables broadcast"):
        """Assign root's value of each variable on every rank (checked first)."""
        variables = list(variables)
        if self.size == 1 or not variables:
            return
        self.coll.agree([_entry(v) for v in variables], what)
        by_dtype = {}
        for v in variables:
            by_dtype.setdefault(np.dtype(v.dtype.as_numpy_dtype), []).append(v)
        for dtype, group in by_dtype.items():
            flat = np.concatenate([np.asarray(array_of(v), dtype).reshape(-1) for v in group])
            flat = self.coll.broadcast(flat, root, what=f"broadcast of {len(group)} "
                                                        f"{dtype.name} variables")
            offset = 0
            for v in group:
                n = int(np.prod(v.shape.as_list(), dtype=np.int64))
                v.assign(flat[offset:offset + n].reshape(v.shape.as_list()))
                offset += n


def _source_name(source, index):
    """A variable's name; for a tensor source, its position (eager tensors have no name)."""
    try:
        return str(source.name)
    except (AttributeError, ValueError):
        return f"source #{index}"


def _entry(variable):
    name = getattr(variable, "path", None) or variable.name  # a Keras weight: its path
    return f"'{name}' {variable.dtype.name} {variable.shape.as_list()}"


def _as_payload(grad, sparse, shape):
    """What the plan sends for one gradient: an array, (values, indices), or None."""
    if grad is None:
        return None
    if type(grad) is IndexedSlices:
        if sparse:
            return np.asarray(array_of(grad.values)), np.asarray(array_of(grad.indices))
        return np.asarray(array_of(grad._dense()))
    array = np.asarray(array_of(convert_to_tensor(grad)))
    if sparse:  # a dense gradient for a variable whose plan sends rows: all of them
        return array.reshape(shape), np.arange(shape[0], dtype=np.int64)
    return array


def _as_gradient(value, shape):
    if value is None:
        return None
    if isinstance(value, tuple):
        values, indices = value
        return IndexedSlices(Tensor(values), Tensor(indices), np.array(shape, np.int64))
    return Tensor(value)


_JOB = []


def job(require_mpi=False):
    """This process's Job, made on first use (MPI when launched on several processes)."""
    if not _JOB:
        _JOB.append(Job(world(require_mpi)))
        collectives.install_engine(_JOB[0])
    return _JOB[0]


def current_job():
    """The Job if one was made, else None (nothing distributed has started)."""
    return _JOB[0] if _JOB else None
