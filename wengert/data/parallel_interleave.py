"""`interleave(..., num_parallel_calls=n)`: the datasets of the cycle produced on threads.

Each dataset opened into interleave's cycle gets a producer thread (prefetch.py's) that keeps
up to `BUFFER` of its elements ready, so the cycle's datasets (file readers, maps over NumPy
kernels, which release the GIL) work at the same time while the consumer takes elements in
TensorFlow's order: `block_length` from each dataset in turn. With `deterministic=False` the
consumer may start the next block at a later dataset of the cycle whose elements are ready
when the one whose turn it is has none yet. Errors reach `next()` in their place, as in the
sequential interleave; the threads stop when their dataset ends or the iterator is collected.
"""
from .functional import InterleaveDataset, _InterleaveStage
from .prefetch import _PrefetchStage

__all__ = ["ParallelInterleaveDataset", "BUFFER"]

BUFFER = 8


class _ParallelInterleaveStage(_InterleaveStage):
    def _wrap(self, stage):
        return _PrefetchStage(stage, BUFFER)

    def _ready_turn(self):
        """The first filled slot from the current turn whose dataset has an element ready."""
        n = len(self._cycle)
        for step in range(n):
            slot = self._cycle[(self._turn + step) % n]
            if slot is not None and not slot._queue.empty():
                return (self._turn + step) % n
        return self._turn

    def __next__(self):
        if not self._ds._ordered and self._taken == 0:
            self._turn = self._ready_turn()
        return super().__next__()


class ParallelInterleaveDataset(InterleaveDataset):
    """interleave whose cycle's datasets are produced on threads (module docstring)."""

    def __init__(self, dataset, fn, cycle_length, block_length, deterministic,
                 what="Dataset.interleave"):
        super().__init__(dataset, fn, cycle_length, block_length, what)
        self._ordered = deterministic is not False

    def _stage(self):
        return _ParallelInterleaveStage(self)
