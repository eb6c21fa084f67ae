"""`wengert.distribute`: TensorFlow's `tf.distribute` for data-parallel training over MPI, and
the layer the Horovod-style API (`wengert.distribute.horovod`) shares with it.

    python -m wengert.distribute.run -n 4 train.py      # 4 processes, one replica each

comm.py (the communicator over NumPy buffers: MPI or one process), protocol.py (checked
collectives: headers, agreement of variables, join), watchdog.py, gradient_sync.py (bucketed
gradient allreduce), job.py (this process's job; the engine of the collective ops),
context.py (strategy/replica contexts), strategy.py (MultiWorkerMirroredStrategy),
mirrored_strategy.py (MirroredStrategy: replicas in one process, over the logical CPUs),
mirrored_run.py (how those replicas run), values.py (PerReplica, Mirrored, mirrored variables
and how their replicas' updates combine), input.py (distributed datasets), mirrored_input.py
(their per-replica split, eagerly and inside tf.function), losses.py (compute_average_loss),
checkpointing.py (rank 0 writes, restores broadcast), horovod.py, run.py (the launcher).
"""
from .context import (ReduceOp, ReplicaContext, get_cross_replica_context, get_replica_context,
                      get_strategy, has_strategy, in_cross_replica_context)
from .input import DistributedDataset, DistributedIterator, InputContext, InputOptions
from .job import job
from .losses import compute_average_loss, scale_regularization_loss
from .protocol import ReplicaMismatchError
from .mirrored_strategy import MirroredStrategy, OneDeviceStrategy
from .strategy import MultiWorkerMirroredStrategy, Strategy, StrategyExtended

__all__ = ["ReduceOp", "ReplicaContext", "get_strategy", "has_strategy", "get_replica_context",
           "in_cross_replica_context", "get_cross_replica_context", "Strategy",
           "StrategyExtended", "MirroredStrategy", "MultiWorkerMirroredStrategy",
           "OneDeviceStrategy", "InputContext", "InputOptions", "DistributedDataset",
           "DistributedIterator", "ReplicaMismatchError", "experimental", "set_watchdog"]


class experimental:  # noqa: N801  (tf.distribute.experimental, a namespace)
    """tf.distribute.experimental: communication options are accepted (MPI decides)."""

    class CommunicationImplementation:
        AUTO = "AUTO"
        RING = "RING"
        NCCL = "NCCL"

    CollectiveCommunication = CommunicationImplementation

    class CommunicationOptions:
        def __init__(self, bytes_per_pack=0, timeout_seconds=None, implementation="AUTO"):
            self.bytes_per_pack = bytes_per_pack
            self.timeout_seconds = timeout_seconds
            self.implementation = implementation

    MultiWorkerMirroredStrategy = MultiWorkerMirroredStrategy


def set_watchdog(report_after=60.0, abort_after=None):
    """Report a rank that waits on a collective longer than `report_after` seconds, and end the
    job (MPI_Abort) after `abort_after` seconds when given (see watchdog.py)."""
    job().coll.watchdog.configure(report_after, abort_after)
