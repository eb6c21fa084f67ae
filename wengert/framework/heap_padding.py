"""Padding at the top of the C heap (glibc's M_TOP_PAD), set once, when the first plan compiles
(runtime/executor.py) or the first GradientTape starts (autodiff/tape.py).

Why. A training step, compiled or eager, allocates and frees the same large arrays at every run (a
convolution's output, a pooling gradient: 1.4 MB each in the MNIST CNN). glibc carves them from
the top of its heap and, once they are freed and more than twice the largest of them lies free
at the top, gives that memory back to the kernel (heap trimming); the next step touches fresh
pages again, one page fault per 4 KiB, each page zeroed by the kernel. With a top pad glibc
keeps that much free memory above the heap whenever it grows or trims it, so a step's large
arrays come from memory already mapped. Setting the pad turns off glibc's adaptive threshold
above which an array gets pages of its own (mapped, then unmapped when freed: page faults at
every step again), so the threshold is set too, to the ceiling the adaptive one would reach
(32 MiB): arrays below it come from the heap. Measured on bench_cnn.py's workload (one traced epoch of
the MNIST CNN, 250 steps, 2-core machine, one BLAS thread, four interleaved runs): 686 page
faults per step and 3.34-3.45 s of CPU per epoch (0.67 s of it in the kernel) without the pad;
no page faults and 2.50-2.61 s with the pad.

Only glibc has this setting (Linux); elsewhere nothing is done, and a MALLOC_TOP_PAD_ the user
set in the environment is left as it is. The cost is up to 8 MiB of freed memory the process
keeps (and the fragmentation any heap has); values, errors and every other behaviour are unchanged.
"""
import ctypes
import os
import sys

__all__ = ["pad_heap_top"]

M_TOP_PAD, M_MMAP_THRESHOLD = -2, -3  # glibc's malloc.h
TOP_PAD_BYTES = 8 << 20
MMAP_THRESHOLD_BYTES = 32 << 20  # glibc's own ceiling for its adaptive threshold
_done = []


def pad_heap_top():
    """Set glibc's heap top pad to TOP_PAD_BYTES and serve arrays below MMAP_THRESHOLD_BYTES
    from the heap, once per process (no-op elsewhere)."""
    if _done:
        return
    _done.append(True)
    if not sys.platform.startswith("linux") or "MALLOC_TOP_PAD_" in os.environ:
        return
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # glibc only: musl's mallopt does nothing useful
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
    mallopt(M_TOP_PAD, TOP_PAD_BYTES)
