"""The inter-op thread pool: kernels that a compiled plan starts early on a worker thread.

TensorFlow's executor runs every op whose inputs are ready on a pool of threads, so a costly op
that nothing else waits for (the histogram summary of a large weight matrix, fetched beside a
train op) runs while the rest of the step runs. A compiled plan (executor.py) does the same for
ops whose OpDef says `concurrent` and whose inputs hold at least `CONCURRENT_MIN_SIZE` elements
(by their static shapes; an unknown shape counts as large): it starts the kernel here as soon as
the op's inputs exist and takes its result where the op stands in the plan, so the plan's
results, and the errors it raises, are those of running it in order. NumPy releases the GIL in
its loops over large arrays, so the worker computes beside the plan's own thread. Below that
size, handing the kernel to a thread and back costs the plan's thread more than running it.

A job is a pre-acquired lock that the worker releases when the kernel has returned or raised:
starting one costs about 1.5 microseconds, a third of a `concurrent.futures` submission. The
kernel runs with NumPy's floating-point errors ignored, as in the plan's own thread
(float_errors.py). The workers are daemon threads, started on first use in each process (a
forked child starts its own), one per CPU beyond the first, from one to four.
"""
import os
import queue
import threading

from ..framework.float_errors import IGNORE, reset_errstate, set_errstate
from ..framework.intra_op_threads import usable_cores

__all__ = ["CONCURRENT_MIN_SIZE", "start"]

CONCURRENT_MIN_SIZE = 1 << 14
_THREADS = max(1, min(4, usable_cores() - 1))
_QUEUE = []  # [pid, SimpleQueue]: the process's job queue, once its workers run
_STARTING = threading.Lock()


class _Job:
    """A kernel call handed to the workers; `result()` waits for it."""

    __slots__ = ("kernel", "attrs", "args", "done", "value", "error")

    def __init__(self, kernel, attrs, args):
        self.kernel, self.attrs, self.args = kernel, attrs, args
        self.value = self.error = None
        self.done = threading.Lock()
        self.done.acquire()

    def run(self):
        token = set_errstate(IGNORE)
        try:
            self.value = self.kernel(*self.args, **self.attrs)
        except BaseException as exc:  # noqa: BLE001 - raised again by result()
            self.error = exc
        finally:
            reset_errstate(token)
            self.args = None  # the inputs may be freed once the kernel is done
            self.done.release()

    def result(self):
        """The kernel's value, once computed; its exception raised here."""
        self.done.acquire()
        self.done.release()
        if self.error is not None:
            raise self.error
        return self.value


def _work(jobs):
    while True:
        jobs.get().run()


def _start_workers():
    with _STARTING:
        if _QUEUE and _QUEUE[0] == os.getpid():
            return
        jobs = queue.SimpleQueue()
        for n in range(_THREADS):
            threading.Thread(target=_work, args=(jobs,), name=f"wengert-op-{n}",
                             daemon=True).start()
        _QUEUE[:] = [os.getpid(), jobs]


def start(kernel, attrs, *args):
    """A job computing `kernel(*args, **attrs)` on a worker thread."""
    if not _QUEUE or _QUEUE[0] != os.getpid():  # none yet, or a forked child's copy
        _start_workers()
    job = _Job(kernel, attrs, args)
    _QUEUE[1].put(job)
    return job
