"""`compat.v1.train.replica_device_setter`: TensorFlow 1's placement of variables on parameter
servers. Without parameter servers (`ps_tasks=0` and no cluster) TensorFlow returns None, and
`with tf.device(None)` places nothing, so single-machine programs that call it run unchanged;
wengert runs in one process, so asking for parameter servers is an error naming the argument.
"""
from ..framework.errors import UnimplementedError

__all__ = ["replica_device_setter"]


def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker",
                          merge_devices=True, cluster=None, ps_ops=None, ps_strategy=None):
    """None when no parameter servers are asked for (see the module docstring)."""
    if cluster is None and ps_tasks == 0:
        return None
    given = {"ps_tasks": ps_tasks, "cluster": cluster, "ps_device": ps_device,
             "worker_device": worker_device, "merge_devices": merge_devices, "ps_ops": ps_ops,
             "ps_strategy": ps_strategy}
    asked = ", ".join(f"{k}={v!r}" for k, v in given.items() if k in ("ps_tasks", "cluster"))
    raise UnimplementedError(f"replica_device_setter({asked}): wengert runs in one process and "
                             "has no parameter servers; call it with ps_tasks=0 and no cluster "
                             f"(it then returns None). Other arguments given: {given}.")
