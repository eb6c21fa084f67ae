"""The Horovod API on wengert: `import wengert.distribute.horovod as hvd`.

    hvd.init()
    model = make_model(); opt = tf.keras.optimizers.SGD(0.01 * hvd.size())
    hvd.broadcast_variables(model.variables, root_rank=0)
    for x, y in shard_of_the_data:                   # each rank its own examples
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        tape = hvd.DistributedGradientTape(tape)     # gradient(): averaged over the ranks
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))

or `opt = hvd.DistributedOptimizer(opt)`, whose apply_gradients (and minimize) average the
gradients first. Launch with `python -m wengert.distribute.run -n 4 train.py`.

`allreduce(t, op=Average|Sum|Min|Max|Product)`, `allgather` (first dimensions may differ),
`broadcast` are ops: differentiable and recorded inside tf.function. IndexedSlices given to
allreduce are all-gathered (values averaged for Average), as Horovod does. `broadcast_object`
sends any structure of plain values, arrays and tensors in a safe encoding (codec.py: JSON, no
pickle). `join()` lets a rank that ran out of data keep answering the others' collectives with
zeros until every rank has joined (averages then divide by the ranks still working); it returns
the rank that joined last.
"""
import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import convert_to_tensor
from ..ops.io import collectives
from ..ops.math_ops import cast
from ..util import nest
from . import codec
from .job import current_job, job

__all__ = ["init", "shutdown", "is_initialized", "rank", "size", "local_rank", "local_size",
           "cross_rank", "cross_size", "Average", "Sum", "Min", "Max", "Product", "Adasum",
           "allreduce", "grouped_allreduce", "allgather", "broadcast", "broadcast_variables",
           "broadcast_object", "allgather_object", "join", "barrier", "Compression",
           "DistributedGradientTape", "DistributedOptimizer", "mpi_enabled", "mpi_built",
           "gloo_enabled", "gloo_built", "nccl_built", "mpi_threads_supported"]

Average, Sum, Adasum, Min, Max, Product = "Average", "Sum", "Adasum", "Min", "Max", "Product"
_REDUCTION = {Average: "sum", Sum: "sum", Min: "min", Max: "max", Product: "prod"}


# -- the job ------------------------------------------------------------------------------------
def init(comm=None, process_sets=None):
    """Join the job (MPI when launched on several processes; one process otherwise)."""
    job()


def shutdown():
    """Nothing to release: MPI finalizes when the process exits."""


def is_initialized():
    return current_job() is not None


def _job():
    the_job = current_job()
    if the_job is None:
        raise ValueError("Horovod has not been initialized; use hvd.init().")
    return the_job


def rank():
    return _job().rank


def size():
    return _job().size


def local_rank():
    return _job().comm.local_rank


def local_size():
    return _job().comm.local_size


def cross_rank():
    """This host's number among the hosts (ranks with local rank 0 are numbered in order)."""
    the_job = _job()
    return the_job.rank // max(the_job.comm.local_size, 1)


def cross_size():
    the_job = _job()
    return max(the_job.size // max(the_job.comm.local_size, 1), 1)


def mpi_enabled():
    return _job().comm.engine == "mpi"


def mpi_built():
    return True


def gloo_enabled():
    return False


gloo_built = nccl_built = gloo_enabled


def mpi_threads_supported():
    return True


# -- compression --------------------------------------------------------------------------------
class _NoneCompressor:
    @staticmethod
    def compress(tensor):
        return tensor, None

    @staticmethod
    def decompress(tensor, ctx):
        return tensor


class _FP16Compressor:
    """Floating-point tensors travel as float16 and come back in their own dtype."""

    @staticmethod
    def compress(tensor):
        if tensor.dtype.is_floating and tensor.dtype.name != "float16":
            return cast(tensor, "float16"), tensor.dtype
        return tensor, None

    @staticmethod
    def decompress(tensor, ctx):
        return tensor if ctx is None else cast(tensor, ctx)


class Compression:
    none = _NoneCompressor
    fp16 = _FP16Compressor


# -- collectives on tensors ---------------------------------------------------------------------
def _reduce_op(op, average):
    if op is None:
        op = Sum if average is False else Average
    if op == Adasum:
        raise NotImplementedError("hvd.Adasum is not available; use hvd.Average or hvd.Sum.")
    if op not in _REDUCTION:
        raise ValueError(f"hvd.allreduce: unknown op {op!r}; use hvd.Average, Sum, Min, Max or "
                         "Product.")
    return op


def allreduce(tensor, average=None, device_dense="", device_sparse="",
              compression=Compression.none, op=None, prescale_factor=1.0,
              postscale_factor=1.0, name=None, process_set=None):
    """`tensor` reduced over the ranks (default: averaged); IndexedSlices are all-gathered."""
    op = _reduce_op(op, average)
    _job()
    if type(tensor) is IndexedSlices:
        values = collectives.all_gather(tensor.values)
        if op == Average:
            values = values / cast(size(), values.dtype)
        return IndexedSlices(values, collectives.all_gather(tensor.indices),
                             tensor.dense_shape)
    tensor = convert_to_tensor(tensor)
    if prescale_factor != 1.0:
        tensor = tensor * cast(prescale_factor, tensor.dtype)
    sent, ctx = compression.compress(tensor)
    out = compression.decompress(
        collectives.all_reduce(sent, _REDUCTION[op], op == Average, name=name), ctx)
    if postscale_factor != 1.0:
        out = out * cast(postscale_factor, out.dtype)
    return out


def grouped_allreduce(tensors, average=None, device_dense="", device_sparse="",
                      compression=Compression.none, op=None, prescale_factor=1.0,
                      postscale_factor=1.0, process_set=None):
    """Each tensor reduced over the ranks; sums and averages travel in one grouped collective."""
    op = _reduce_op(op, average)
    _job()
    tensors = list(tensors)
    if op not in (Average, Sum) or any(type(t) is IndexedSlices for t in tensors) or \
            prescale_factor != 1.0 or postscale_factor != 1.0:
        return [allreduce(t, op=op, compression=compression, prescale_factor=prescale_factor,
                          postscale_factor=postscale_factor) for t in tensors]
    names = [f"grouped_allreduce/{i}" for i in range(len(tensors))]
    return list(collectives.grouped_all_reduce(tensors, names, op == Average))


def allgather(tensor, name=None, process_set=None):
    """The ranks' tensors concatenated along axis 0 (their first dimensions may differ)."""
    _job()
    return collectives.all_gather(tensor, name=name)


def broadcast(tensor, root_rank, name=None, process_set=None):
    """Rank `root_rank`'s tensor on every rank."""
    _check_root(root_rank)
    return collectives.broadcast(tensor, root_rank, name=name)


def _check_root(root_rank):
    if not 0 <= int(root_rank) < _job().size:
        raise ValueError(f"root_rank {root_rank} is not a rank of this job "
                         f"(0..{_job().size - 1}).")


def broadcast_variables(variables, root_rank=0, process_set=None):
    """Assign rank `root_rank`'s values to `variables` on every rank (the ranks first check
    they hold the same variables: names, shapes, dtypes)."""
    _check_root(root_rank)
    _job().broadcast_variables(variables, int(root_rank))


def broadcast_object(obj, root_rank=0, name=None, process_set=None):
    """Rank `root_rank`'s `obj` on every rank, sent in a safe encoding (codec.py)."""
    _check_root(root_rank)
    the_job = _job()
    payload = codec.encode(obj) if the_job.rank == root_rank else b""
    return codec.decode(the_job.coll.broadcast_bytes(payload, int(root_rank)))


def allgather_object(obj, name=None, process_set=None):
    """[rank 0's obj, rank 1's obj, ...] on every rank (safe encoding)."""
    the_job = _job()
    payload = np.frombuffer(codec.encode(obj), np.uint8)
    lengths = the_job.coll.allgather(np.array([payload.size], np.int64))
    data = the_job.coll.allgather(payload)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    return [codec.decode(data[offsets[r]:offsets[r + 1]].tobytes())
            for r in range(the_job.size)]


def join(device=-1):
    """This rank has no more data: serve the others' collectives until all have joined;
    returns the rank that joined last."""
    return _job().coll.join()


def barrier(process_set=None):
    _job().coll.barrier()


# -- gradients ----------------------------------------------------------------------------------
def _sync(grads, sources, op, compression, sparse_as_dense):
    """Gradients averaged (or summed) over the ranks, in the plan's buckets."""
    if op not in (Average, Sum):
        return [None if g is None else allreduce(g, op=op) for g in grads]
    if sparse_as_dense:
        grads = [g._dense() if type(g) is IndexedSlices else g for g in grads]
    the_job = _job()
    if compression is not Compression.none:
        sent = [None if g is None or type(g) is IndexedSlices else compression.compress(
            convert_to_tensor(g)) for g in grads]
        grads = [g if s is None else s[0] for g, s in zip(grads, sent)]
        out = the_job.sync_gradients(grads, [_Spec(g, s) for g, s in zip(grads, sources)],
                                     average=op == Average)
        return [o if s is None or o is None else compression.decompress(o, s[1])
                for o, s in zip(out, sent)]
    return the_job.sync_gradients(grads, sources, average=op == Average)


class _Spec:
    """A source's name with a gradient's shape and dtype (for a compressed gradient)."""

    def __init__(self, grad, source):
        like = grad if grad is not None else source
        self.name, self.shape, self.dtype = getattr(source, "name", "source"), like.shape, \
            like.dtype


class _DistributedGradientTape:
    """A GradientTape whose `gradient()` returns the gradients reduced over the ranks."""

    def __init__(self, tape, op, compression, sparse_as_dense):
        self._tape = tape
        self._op, self._compression, self._sparse_as_dense = op, compression, sparse_as_dense

    def __enter__(self):
        self._tape.__enter__()
        return self

    def __exit__(self, *exc):
        return self._tape.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self._tape, name)

    def gradient(self, target, sources, output_gradients=None, **kwargs):
        grads = self._tape.gradient(target, sources, output_gradients=output_gradients, **kwargs)
        reduced = _sync(nest.flatten(grads), nest.flatten(sources), self._op,
                        self._compression, self._sparse_as_dense)
        return nest.pack_sequence_as(sources, reduced)


def DistributedGradientTape(gradtape, device_dense="", device_sparse="",  # noqa: N802
                            compression=Compression.none, sparse_as_dense=False, op=Average,
                            gradient_predivide_factor=1.0, num_groups=0, groups=None,
                            process_set=None):
    """Wrap a GradientTape: its `gradient()` returns the gradients averaged (op=Sum: summed)
    over the ranks."""
    _job()
    if gradient_predivide_factor != 1.0 and op != Average:
        raise ValueError("gradient_predivide_factor needs op=hvd.Average.")
    return _DistributedGradientTape(gradtape, op, compression, sparse_as_dense)


def DistributedOptimizer(optimizer, name=None, use_locking=False, device_dense="",  # noqa: N802
                         device_sparse="", compression=Compression.none, sparse_as_dense=False,
                         backward_passes_per_step=1, op=Average, gradient_predivide_factor=1.0,
                         average_aggregated_gradients=False, num_groups=0, groups=None,
                         process_set=None):
    """The optimizer (same state, same variables) whose apply_gradients and minimize first
    reduce the gradients over the ranks; with backward_passes_per_step=k, gradients are summed
    locally over k calls (averaged when average_aggregated_gradients) and applied on the k-th."""
    _job()
    if backward_passes_per_step < 1:
        raise ValueError(f"backward_passes_per_step must be >= 1, got "
                         f"{backward_passes_per_step}.")
    base = type(optimizer)
    cls = type(base.__name__, (_DistributedMixin, base), {})
    wrapped = object.__new__(cls)
    wrapped.__dict__.update(optimizer.__dict__)
    wrapped._hvd = {"op": op, "compression": compression, "sparse_as_dense": sparse_as_dense,
                    "passes": int(backward_passes_per_step), "count": 0, "sums": None,
                    "average_aggregated": average_aggregated_gradients}
    return wrapped


class _DistributedMixin:
    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        pairs = list(grads_and_vars)
        grads, variables = [g for g, _ in pairs], [v for _, v in pairs]
        config = self._hvd
        if config["passes"] > 1:
            grads = self._accumulate(grads)
            if grads is None:
                return self.iterations
        grads = _sync(grads, variables, config["op"], config["compression"],
                      config["sparse_as_dense"])
        kwargs["experimental_aggregate_gradients"] = False
        return super().apply_gradients(zip(grads, variables), name=name, **kwargs)

    def _accumulate(self, grads):
        """Local sums over backward_passes_per_step calls; the sums on the last, else None."""
        config = self._hvd
        dense = [None if g is None else convert_to_tensor(
            g._dense() if type(g) is IndexedSlices else g) for g in grads]
        sums = config["sums"]
        config["sums"] = dense if sums is None else [
            b if a is None else a if b is None else a + b for a, b in zip(sums, dense)]
        config["count"] += 1
        if config["count"] < config["passes"]:
            return None
        out, config["sums"], config["count"] = config["sums"], None, 0
        if config["average_aggregated"]:
            out = [None if g is None else g / cast(config["passes"], g.dtype) for g in out]
        return out
