"""prefetch and cache.

`prefetch(n)` runs the stages below it on a background thread that keeps up to n elements ready
in a queue, so producing the next batch overlaps with the training step that consumes the current
one (NumPy kernels and sleeps release the GIL). Errors cross the queue in order and are raised
by `next()` at the element that failed; the thread stops when the iterator is closed or
collected. AUTOTUNE uses a buffer of 2.

`cache()` keeps the elements of the first complete pass in memory and replays them afterwards;
`cache(filename)` also writes them to `filename.npz` (NumPy's format; strings as fixed-width
bytes, so loading needs no pickle) when the pass completes, and later datasets built with the
same filename read it instead of running the stages below. A pass that stops early caches
nothing.
"""
import os
import queue
import tempfile
import threading
import weakref

import numpy as np

from ..framework.tensor import string_array
from .dataset import AUTOTUNE, Dataset, Stage

__all__ = ["PrefetchDataset", "CacheDataset"]

_END = object()


class _Failure:
    def __init__(self, exc):
        self.exc = exc


def _produce(stage, out, stop):
    """The prefetch thread: move elements (or errors) from `stage` into `out` until the end."""
    while not stop.is_set():
        try:
            item = next(stage)
        except StopIteration:
            item = _END
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer in order
            item = _Failure(exc)
        while not stop.is_set():
            try:
                out.put(item, timeout=0.1)
                break
            except queue.Full:
                continue
        if item is _END:
            return


class _PrefetchStage(Stage):
    def __init__(self, upstream, size):
        self._queue = queue.Queue(maxsize=size)
        self._stop = threading.Event()
        self._finished = False
        self._thread = threading.Thread(target=_produce, args=(upstream, self._queue, self._stop),
                                        name="wengert-prefetch", daemon=True)
        self._thread.start()
        weakref.finalize(self, self._stop.set)

    def __next__(self):
        if self._finished:
            raise StopIteration
        item = self._queue.get()
        if item is _END:
            self._finished = True
            raise StopIteration
        if isinstance(item, _Failure):
            raise item.exc
        return item

    def close(self):
        self._stop.set()


class PrefetchDataset(Dataset):
    def __init__(self, dataset, buffer_size):
        self._input = dataset
        size = int(np.asarray(getattr(buffer_size, "_value", buffer_size)))
        if size == AUTOTUNE:
            size = 2
        if size < 0:
            raise ValueError(f"Dataset.prefetch: buffer_size must be >= 0 or AUTOTUNE, got "
                             f"{size}.")
        self._size = size
        super().__init__(dataset._structure, dataset._specs, dataset._cardinality, (dataset,))

    def _rows(self):
        return None  # batches are made below, on the thread

    def _stage(self):
        if self._size == 0:
            return self._input._stage()
        return _PrefetchStage(self._input._stage(), self._size)


# -- cache -----------------------------------------------------------------------------------------
class _RecordingStage(Stage):
    def __init__(self, dataset):
        self._ds, self._up, self._seen = dataset, dataset._input._stage(), []

    def __next__(self):
        try:
            item = next(self._up)
        except StopIteration:
            self._ds._store(self._seen)
            raise
        self._seen.append(item)
        return item


class CacheDataset(Dataset):
    def __init__(self, dataset, filename=""):
        self._input = dataset
        self._file = os.fspath(filename) if filename else ""
        self._elements = None
        if self._file and os.path.exists(self._file + ".npz"):
            self._elements = _load(self._file + ".npz", len(dataset._specs))
        super().__init__(dataset._structure, dataset._specs, dataset._cardinality, (dataset,))

    def _store(self, elements):
        if self._elements is None:
            self._elements = elements
            if self._file:
                _save(self._file + ".npz", elements)

    def _stage(self):
        if self._elements is not None:
            return iter(self._elements)
        return _RecordingStage(self)


def _save(path, elements):
    arrays = {}
    for i, element in enumerate(elements):
        for j, c in enumerate(element):
            if c.dtype.kind == "O":
                c = np.asarray(c.tolist() if c.ndim else c[()], dtype=bytes)
                arrays[f"s{i}_{j}"] = c
            else:
                arrays[f"e{i}_{j}"] = c
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp.npz")
    os.close(fd)
    try:
        np.savez(tmp, count=np.int64(len(elements)), **arrays)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _load(path, n_components):
    with np.load(path, allow_pickle=False) as data:
        out = []
        for i in range(int(data["count"])):
            element = []
            for j in range(n_components):
                key = f"e{i}_{j}"
                element.append(data[key] if key in data else string_array(data[f"s{i}_{j}"]))
            out.append(tuple(element))
    return out
