"""Checkpoints in a data-parallel job: written once, read once, the same on every rank.

Under MultiWorkerMirroredStrategy every rank calls `Checkpoint.save` / `CheckpointManager.save`
and `restore` at the same point of the program (as TensorFlow requires), and
train/checkpoint.py routes the file work through here:

- `write_once(fn)`: rank 0 runs `fn` (which writes the files atomically: temporary files
  renamed into place), then every rank learns in one allreduce whether it succeeded, a barrier
  that also makes the other ranks raise if rank 0's write failed, instead of training on
  while no checkpoint exists;
- `read_on_root(fn)`: rank 0 runs `fn`, which reads {name: array} (and a path), and every rank
  receives the same values: a JSON description (names, dtypes, shapes) and one broadcast per
  dtype. Only rank 0 needs to see the files (hosts without a shared file system work), and an
  error on rank 0 (a missing or corrupted file) is raised on every rank;
- `decide_on_root(value)`: rank 0's value of a small decision (the path to restore, the list
  of checkpoints a manager keeps), so that every rank takes the same branch.

With one process, or with no strategy of several replicas (the Horovod style, where rank 0 alone
saves, as Horovod's documentation says), each call just runs `fn` locally.
"""
import json

import numpy as np

from ..framework.errors import AbortedError
from . import codec
from .job import current_job

__all__ = ["collective_job", "write_once", "read_on_root", "decide_on_root"]


def collective_job():
    """The job when checkpoints are collective (a strategy of several replicas exists)."""
    job = current_job()
    if job is None or job.size == 1 or not getattr(job, "collective_checkpoints", False):
        return None
    return job


def _on_root(job, fn, what, failed):
    """fn() on rank 0, then one allreduce tells every rank whether it succeeded: rank 0 raises
    fn's error, the others AbortedError("Rank 0 failed while {what}; {failed}"). Returns fn's
    result on rank 0 and None elsewhere."""
    result, error = None, None
    if job.rank == 0:
        try:
            result = fn()
        except BaseException as err:  # noqa: BLE001 - re-raised below after the others learn it
            error = err
    flags = job.coll.allreduce(np.array([1 if error is not None else 0], np.int32),
                               what=f"the outcome of {what}")
    if int(flags[0]):
        if error is not None:
            raise error
        raise AbortedError(f"Rank 0 failed while {what}; {failed}")
    return result


def write_once(fn, what="writing a checkpoint"):
    """fn() on rank 0, then every rank waits for it (see the module docstring); returns fn's
    result on rank 0 and None elsewhere."""
    job = collective_job()
    if job is None:
        return fn()
    return _on_root(job, fn, what, "see its error (no checkpoint was written).")


def decide_on_root(value, what="a checkpoint decision"):
    """Rank 0's `value` (None, numbers, strings, lists, dicts) on every rank."""
    job = collective_job()
    if job is None:
        return value
    payload = codec.encode(value) if job.rank == 0 else b""
    return codec.decode(job.coll.broadcast_bytes(payload, 0, what=what))


def read_on_root(fn, what="reading a checkpoint"):
    """fn() -> (text, {name: ndarray}) run on rank 0; the same result on every rank."""
    job = collective_job()
    if job is None:
        return fn()
    result = _on_root(job, fn, what, "see its error.")
    text, arrays = result if job.rank == 0 else (None, None)
    layout = None
    if job.rank == 0:
        layout = {"text": text, "names": list(arrays),
                  "dtypes": [arrays[n].dtype.str for n in arrays],
                  "shapes": [list(arrays[n].shape) for n in arrays]}
    layout = json.loads(job.coll.broadcast_bytes(
        json.dumps(layout).encode() if job.rank == 0 else b"", 0, what=f"{what} (its index)"))
    return layout["text"], _broadcast_arrays(job, layout, arrays, what)


def _broadcast_arrays(job, layout, arrays, what):
    names = layout["names"]
    dtypes = [np.dtype(d) for d in layout["dtypes"]]
    shapes = [tuple(s) for s in layout["shapes"]]
    out = {}
    for dtype in dict.fromkeys(dtypes):
        group = [i for i, d in enumerate(dtypes) if d == dtype]
        sizes = [int(np.prod(shapes[i], dtype=np.int64)) for i in group]
        if job.rank == 0:
            flat = np.concatenate([np.ascontiguousarray(arrays[names[i]]).reshape(-1)
                                   for i in group]) if group else np.zeros(0, dtype)
        else:
            flat = np.empty(sum(sizes), dtype)
        flat = job.coll.broadcast(flat, 0, what=f"{what} ({dtype.name} values)")
        offset = 0
        for i, n in zip(group, sizes):
            out[names[i]] = flat[offset:offset + n].reshape(shapes[i])
            offset += n
    return out
