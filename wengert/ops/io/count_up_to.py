"""ResourceCountUpTo: a variable used as a bounded counter, TensorFlow 1's `count_up_to`.

    ResourceCountUpTo(var; limit) -> the variable's value before the step, which adds 1 to it;
                                     OutOfRangeError "Reached limit of <limit>" once the value
                                     has reached `limit` (the variable is left unchanged)

TF 1's input pipelines count epochs with it (train.limit_epochs): the enqueue that needs the
count fails with OutOfRangeError after the last epoch, which closes the queue. The read and the
increment happen under one lock, so queue-runner threads running it at once each see their own
count. No gradient.
"""
import threading

import numpy as np

from ...framework.context import state
from ...framework.errors import OutOfRangeError
from ...framework.tensor import convert_to_tensor
from ...framework.registry import defop

__all__ = ["COUNT_UP_TO"]

_LOCK = threading.Lock()


def _count_up_to(store, var, *, limit):
    with _LOCK:
        old = np.array(store.read(var))
        if old >= limit:
            raise OutOfRangeError(f"Reached limit of {limit}")
        store.write(var, old + np.asarray(1, old.dtype))
    return old


def _raw(resource, limit, T, name=None):
    """tf.raw_ops.ResourceCountUpTo on a Variable (TensorFlow's handle to one)."""
    if state.graph is not None:
        return state.graph.create_op(COUNT_UP_TO, (resource,), {"limit": int(limit)},
                                     name or "ResourceCountUpTo")
    with _LOCK:
        old = resource.numpy()
        if old >= limit:
            raise OutOfRangeError(f"Reached limit of {limit}")
        resource.assign_add(np.asarray(1, old.dtype))
    return convert_to_tensor(old)


COUNT_UP_TO = defop("ResourceCountUpTo", _count_up_to, grad=None, stateful=True,
                    shape=lambda var, *, limit: (var.shape, var.dtype), raw=_raw)
