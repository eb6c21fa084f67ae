"""The communicator: collectives over NumPy buffers between the processes of one job.

Both distribution APIs (tf.distribute's strategies and the Horovod-style `horovod` module) move
data only through a `Communicator`, which offers five collectives on contiguous NumPy arrays:

    allreduce(send, recv=None, op="sum")   recv[i] = send_0[i] + send_1[i] + ... on every rank
                                            (in place when recv is None; op: sum/max/min/prod)
    broadcast(array, root)                 every rank's array becomes root's (in place)
    allgather(array)                       the ranks' arrays stacked along axis 0, rank order;
                                            their first dimensions may differ
    barrier()                              returns once every rank has entered it
    iallreduce(send, recv)                 a started allreduce; `.wait()` finishes it
    dup()                                  a new communicator over the same ranks, whose
                                            collectives never match this one's (MPI Comm_dup)

MPI is the one engine behind it for now (`MPICommunicator`, through mpi4py: buffers are reduced
in place by the MPI library, zero-copy, and the job is launched by `mpiexec`, `srun` or
`python -m wengert.distribute.run`). `LocalCommunicator` is the one-process group (size 1),
which needs nothing installed. `world()` picks MPI when an MPI launcher started several processes
(or WENGERT_MPI=1; a missing mpi4py is then an error naming the extra), else the local group.

Gradients travel in nonblocking allreduces (gradient_sync.py), which Open MPI runs with its
`libnbc` component. For fewer than four ranks its default is a reduce to one rank followed by a
broadcast, which took 5.7 ms at best for 3.26 MB on 2 ranks where the blocking Allreduce took
1.1-2.2 ms; so `import_mpi` asks it for the ring (0.7 ms at best) before MPI starts, for jobs of 2
or 3 ranks and unless OMPI_MCA_coll_libnbc_iallreduce_algorithm is already set (from 4 ranks
on, libnbc already picks the ring for large buffers and a tree for small ones).

Ranks also have a local rank and size: their place among the ranks of their own host, found by
MPI's shared-memory split (COMM_TYPE_SHARED), as Horovod's local_rank does.
"""
import os

import numpy as np

__all__ = ["Communicator", "LocalCommunicator", "MPICommunicator", "world", "launched_size",
           "MissingMPIError", "INSTALL_HINT"]

INSTALL_HINT = ('pip install "wengert[mpi]"  (mpi4py with the Open MPI wheels), then launch with '
                "python -m wengert.distribute.run -n N script.py")

# Environment variables an MPI launcher sets in each process it starts (Open MPI, MPICH/Hydra,
# PMIx, Slurm's srun with PMI): the world size, read without importing MPI.
_SIZE_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS")

_REDUCE_OPS = ("sum", "max", "min", "prod")


class MissingMPIError(ImportError):
    """mpi4py is needed (several processes were started, or MPI was asked for) but missing."""


def launched_size():
    """The number of processes the launcher started (1 when not started by an MPI launcher)."""
    for name in _SIZE_VARIABLES:
        value = os.environ.get(name)
        if value and value.isdigit():
            return int(value)
    return 1


def _contiguous(array, what):
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{what} needs a NumPy array, got {type(array).__name__}.")
    if not array.flags.c_contiguous:
        raise ValueError(f"{what} needs a C-contiguous array (use np.ascontiguousarray).")
    if array.dtype.kind not in "biuf" or array.dtype.hasobject:
        raise TypeError(f"{what}: dtype {array.dtype} cannot be communicated; use a numeric "
                        "or bool array.")
    return array


class Communicator:
    """The collectives every engine offers (see the module docstring)."""

    rank = 0
    size = 1
    local_rank = 0
    local_size = 1
    engine = "base"

    def allreduce(self, send, recv=None, op="sum"):
        raise NotImplementedError

    def iallreduce(self, send, recv=None, op="sum"):
        raise NotImplementedError

    def broadcast(self, array, root=0):
        raise NotImplementedError

    def allgather(self, array):
        raise NotImplementedError

    def barrier(self):
        raise NotImplementedError

    def dup(self):
        raise NotImplementedError

    def abort(self, code=1):
        os._exit(code)

    def __repr__(self):
        return f"<{type(self).__name__} rank {self.rank} of {self.size}>"


class _Done:
    """A finished request (the local communicator's iallreduce)."""

    def wait(self):
        return None


class LocalCommunicator(Communicator):
    """One process: every collective is a copy (or nothing)."""

    engine = "local"

    def allreduce(self, send, recv=None, op="sum"):
        _check_op(op)
        _contiguous(send, "allreduce")
        if recv is not None and recv is not send:
            np.copyto(recv, send.reshape(recv.shape))
            return recv
        return send

    def iallreduce(self, send, recv=None, op="sum"):
        self.allreduce(send, recv, op)
        return _Done()

    def broadcast(self, array, root=0):
        _check_root(root, 1)
        return _contiguous(array, "broadcast")

    def allgather(self, array):
        return np.array(_contiguous(array, "allgather"), copy=True)

    def barrier(self):
        return None

    def dup(self):
        return LocalCommunicator()


def _check_op(op):
    if op not in _REDUCE_OPS:
        raise ValueError(f"allreduce: unknown op {op!r}; use one of {_REDUCE_OPS}.")


def _check_root(root, size):
    if not 0 <= int(root) < size:
        raise ValueError(f"broadcast: root rank {root} is not a rank of this job (0..{size - 1}).")


class _Request:
    def __init__(self, request):
        self._request = request

    def wait(self):
        self._request.Wait()


class MPICommunicator(Communicator):
    """The ranks of an MPI communicator (COMM_WORLD by default), through mpi4py's buffer
    interface (never its pickle-based lowercase methods)."""

    engine = "mpi"

    def __init__(self, comm=None):
        MPI = import_mpi()
        self._MPI = MPI
        self._comm = comm if comm is not None else MPI.COMM_WORLD
        self.rank = self._comm.Get_rank()
        self.size = self._comm.Get_size()
        local = self._comm.Split_type(MPI.COMM_TYPE_SHARED, key=self.rank)
        self.local_rank, self.local_size = local.Get_rank(), local.Get_size()
        local.Free()
        self._ops = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}

    @property
    def mpi_comm(self):
        """The mpi4py communicator (for code that wants raw MPI next to wengert's)."""
        return self._comm

    def allreduce(self, send, recv=None, op="sum"):
        _check_op(op)
        _contiguous(send, "allreduce")
        if recv is None or recv is send:
            self._comm.Allreduce(self._MPI.IN_PLACE, send, op=self._ops[op])
            return send
        self._comm.Allreduce(send, _contiguous(recv, "allreduce"), op=self._ops[op])
        return recv

    def iallreduce(self, send, recv=None, op="sum"):
        _check_op(op)
        _contiguous(send, "iallreduce")
        if recv is None or recv is send:
            return _Request(self._comm.Iallreduce(self._MPI.IN_PLACE, send, op=self._ops[op]))
        return _Request(self._comm.Iallreduce(send, recv, op=self._ops[op]))

    def broadcast(self, array, root=0):
        _check_root(root, self.size)
        self._comm.Bcast(_contiguous(array, "broadcast"), root=int(root))
        return array

    def allgather(self, array):
        array = _contiguous(array, "allgather")
        rows = np.array([array.shape[0] if array.ndim else 1], np.int64)
        counts = np.empty(self.size, np.int64)
        self._comm.Allgather(rows, counts)
        row = int(np.prod(array.shape[1:], dtype=np.int64)) if array.ndim else 1
        out = np.empty((int(counts.sum()),) + array.shape[1:], array.dtype)
        sizes = counts * row
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self._comm.Allgatherv(array.reshape(-1),
                              [out.reshape(-1), (sizes.tolist(), offsets.tolist())])
        return out

    def barrier(self):
        self._comm.Barrier()

    def dup(self):
        """Collective: every rank calls it at the same point (Collectives.channel does)."""
        twin = MPICommunicator.__new__(MPICommunicator)
        twin.__dict__.update(self.__dict__)
        twin._comm = self._comm.Dup()
        return twin

    def abort(self, code=1):
        self._comm.Abort(code)


_NONBLOCKING_ALLREDUCE = "OMPI_MCA_coll_libnbc_iallreduce_algorithm"


def import_mpi():
    """mpi4py's MPI module, or MissingMPIError naming the extra."""
    if launched_size() in (2, 3) and _NONBLOCKING_ALLREDUCE not in os.environ:
        os.environ[_NONBLOCKING_ALLREDUCE] = "1"  # the ring (see the module docstring)
    try:
        from mpi4py import MPI  # optional dependency
    except ImportError as err:
        raise MissingMPIError(
            f"wengert.distribute needs mpi4py to run across processes ({err}). Install the "
            f"extra: {INSTALL_HINT}") from None
    return MPI


_WORLD = []


def world(require_mpi=False):
    """The communicator of this job (made once): MPI when an MPI launcher started several
    processes, when `require_mpi`, or when WENGERT_MPI=1 is set; otherwise the one-process group
    (MPI is not even initialized then)."""
    if _WORLD:
        return _WORLD[0]
    wanted = require_mpi or os.environ.get("WENGERT_MPI", "") == "1"
    comm = MPICommunicator() if wanted or launched_size() > 1 else LocalCommunicator()
    _WORLD.append(comm)
    return comm
