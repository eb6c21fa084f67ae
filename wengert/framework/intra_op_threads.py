"""Intra-op parallelism for kernels that NumPy runs on one core, or runs badly on several.

Two kinds of kernel gain from splitting their work between the machine's cores by hand:

- **Matrix products.** `np.matmul` calls OpenBLAS once per matrix, and OpenBLAS splits each
  product between its threads, which meet at a barrier for every panel of the product; a stack
  of small products (attention's Q K^T and P V: 32 products of 128 x 64 x 128 in a GPT block)
  wakes and waits for them 32 times. On a loaded 2-core machine a woken thread is often not
  scheduled and the product waits (measured: 40 ms for what one thread does in 1.5 ms; a GPT's
  [1024, 256] x [256, 1024] 52 ms against 26 ms split). `matmul` instead gives each worker a
  slice of the stack, or a block of rows (or columns) of a matrix product, to multiply with
  OpenBLAS held to one thread: one hand-off per worker, as PyTorch's bmm splits its batch.
- **Elementwise special functions** (SciPy's erfc, which GELU runs on a [B, T, 4D] tensor: 22 ms
  per million float32 values on one core). `split_map` cuts the flat array into one slice per
  worker; the ufuncs release the GIL, so the slices run side by side.

Workers are the calling thread plus a small pool (one thread per further core, created on first
use, recreated after a fork). `config.threading.set_intra_op_parallelism_threads(1)` turns the
splitting off, as it limits the BLAS pool. Work below `MIN_WORK` (multiply-adds or elements)
runs unsplit: handing a slice to a thread costs tens of microseconds. An elementwise result is
exactly the unsplit one; a product may differ in the last bits (OpenBLAS's one-thread kernel
sums in another order), as it does between machines.
"""
import ctypes
import glob
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .config import get_intra_op_parallelism_threads

MIN_WORK = 1 << 18
MATRIX_MIN_WORK = 1 << 22  # below it OpenBLAS's own split (or none) is as fast


class _Pool:
    executor = None
    workers = None
    blas = None  # (get_num_threads, set_num_threads) of NumPy's OpenBLAS, False when not found
    lock = threading.Lock()
    holders = 0
    saved_threads = 0


def _reset_after_fork():
    """The child has no pool threads; a split product running in another thread of the parent
    left OpenBLAS at one thread, which the child gets back."""
    if _Pool.holders and _Pool.blas:
        _Pool.blas[1](_Pool.saved_threads)
    _Pool.executor, _Pool.lock, _Pool.holders = None, threading.Lock(), 0


os.register_at_fork(after_in_child=_reset_after_fork)


def usable_cores():
    """The cores this process may run on (its CPU affinity where the OS reports one)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else (os.cpu_count() or 1)


def workers():
    """How many threads split a kernel: the cores this process may use, or the intra-op
    setting when it is positive."""
    limit = get_intra_op_parallelism_threads()
    if _Pool.workers is None:
        _Pool.workers = usable_cores()
    return min(limit, _Pool.workers) if limit > 0 else _Pool.workers


def _executor(count):
    if _Pool.executor is None or _Pool.executor._max_workers < count - 1:
        _Pool.executor = ThreadPoolExecutor(max_workers=count - 1,
                                            thread_name_prefix="wengert-intra-op")
    return _Pool.executor


def _with_errstate(task, settings):
    def run():
        with np.errstate(**settings):
            task()
    return run


def _bounds(size, parts):
    """Where `parts` near-equal slices of range(size) start and end."""
    return [i * size // parts for i in range(parts + 1)]


def _run_split(tasks):
    """Run the callables in `tasks`: the first in this thread, the rest in the pool, under this
    thread's NumPy error settings (np.errstate is per thread)."""
    settings = np.geterr()
    futures = [_executor(len(tasks)).submit(_with_errstate(task, settings))
               for task in tasks[1:]]
    try:
        tasks[0]()
    finally:
        for future in futures:
            future.result()


def _openblas():
    """(get, set) thread-count functions of the OpenBLAS NumPy loaded, or False."""
    if _Pool.blas is None:
        _Pool.blas = False
        libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
        for path in glob.glob(os.path.join(libs, "*openblas*")):
            try:
                lib = ctypes.CDLL(path)
            except OSError:
                continue
            for prefix, suffix in (("scipy_openblas", "64_"), ("openblas", "64_"),
                                   ("openblas", "")):
                get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                put = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                if get is not None and put is not None:
                    get.restype, put.argtypes = ctypes.c_int, [ctypes.c_int]
                    _Pool.blas = (get, put)
                    return _Pool.blas
    return _Pool.blas


class _SingleThreadedBlas:
    """OpenBLAS held to one thread while any split product runs (its count is process-wide)."""

    def __enter__(self):
        get, put = _Pool.blas
        with _Pool.lock:
            if _Pool.holders == 0:
                _Pool.saved_threads = get()
                put(1)
            _Pool.holders += 1

    def __exit__(self, *exc):
        with _Pool.lock:
            _Pool.holders -= 1
            if _Pool.holders == 0:
                _Pool.blas[1](_Pool.saved_threads)


def matmul(a, b):
    """np.matmul(a, b) of matrices or stacks of them, split between workers: a stack along its
    first axis, a product of two matrices along the longer side of the result."""
    count = workers()
    if (count < 2 or a.ndim < 2 or b.ndim < 2 or a.dtype.kind not in "fc"
            or b.dtype.kind not in "fc" or not _openblas()):
        return np.matmul(a, b)
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if a.ndim == 2 and b.ndim == 2:
        return _split_matrix_product(a, b, m, k, n, count)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if batch[0] < 2 or int(np.prod(batch)) * m * k * n < MIN_WORK:
        return np.matmul(a, b)
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    out = np.empty(batch + (m, n), np.result_type(a, b))
    bounds = _bounds(batch[0], min(count, batch[0]))

    def part(lo, hi):
        return lambda: np.matmul(a[lo:hi], b[lo:hi], out=out[lo:hi])
    with _SingleThreadedBlas():
        _run_split([part(lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:])])
    return out


def _split_matrix_product(a, b, m, k, n, count):
    """A [m, k] x [k, n] product as `count` products of row (or column) blocks of the result,
    each on one BLAS thread: one hand-off per worker instead of OpenBLAS's barrier per panel."""
    if m * k * n < MATRIX_MIN_WORK or max(m, n) < 2 * count:
        return np.matmul(a, b)
    out = np.empty((m, n), np.result_type(a, b))
    rows = m >= n
    bounds = _bounds(m if rows else n, count)

    def part(lo, hi):
        if rows:
            return lambda: np.matmul(a[lo:hi], b, out=out[lo:hi])
        return lambda: np.matmul(b[:, lo:hi].T, a.T, out=out.T[lo:hi])
    with _SingleThreadedBlas():
        _run_split([part(lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:])])
    return out


def split_map(fn, x):
    """fn(x) for an elementwise `fn` that keeps x's dtype and releases the GIL, x's flat slices
    split between workers."""
    count = workers()
    if count < 2 or x.size < MIN_WORK:
        return fn(x)
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty_like(flat)
    bounds = _bounds(flat.size, count)

    def part(lo, hi):
        def run():
            out[lo:hi] = fn(flat[lo:hi])
        return run
    _run_split([part(lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:])])
    return out.reshape(x.shape)
