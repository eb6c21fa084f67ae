"""Appending to a growing TensorArray in amortized constant time, so that a loop writing N
elements costs O(N) time and its kept history O(N) memory (not O(N^2)).

A TensorArray's flow is one dense array [size, *element_shape], and each write returns a new
flow, as it must (the old one may still be read, and a while_loop's history keeps the flow that
entered every iteration). Written naively, appending row n copies the n rows before it, so N
appends copy N^2/2 rows, and a history of the N flows holds N^2/2 rows.

Here an append returns a view: the rows live in a *buffer* with spare capacity (doubling when
full, as a Python list grows), the flow of size n is buffer[:n], and appending rows n..m-1 to it
writes them into buffer[n:m] and returns buffer[:m]. That is safe because rows are only ever
written past the buffer's *filled* mark (the largest size any flow of it was given), where no
flow can see them; the flows before it still see exactly their own rows. A write to a flow that
is not the buffer's longest (a second append to an old flow, a write to an earlier index) copies,
as before. The scatter op is declared `returns_view`, so executors never write into a flow in
place. The marks are kept per buffer (by id, checked with a weak reference) under a lock.
"""
import threading
import weakref

import numpy as np

__all__ = ["append"]

_FILLED = {}  # id(buffer) -> [weak reference to the buffer, rows filled]
_LOCK = threading.Lock()
_MIN_CAPACITY = 16


def _forget(key):
    def callback(_ref):
        with _LOCK:
            entry = _FILLED.get(key)
            if entry is not None and entry[0]() is None:
                del _FILLED[key]
    return callback


def _buffer_of(flow):
    """The registered buffer `flow` is the first rows of, or None."""
    base = flow.base
    if base is None or type(base) is not np.ndarray:
        return None
    entry = _FILLED.get(id(base))
    if entry is None or entry[0]() is not base:
        return None
    if base.shape[1:] != flow.shape[1:] or base.dtype != flow.dtype or \
            flow.__array_interface__["data"][0] != base.__array_interface__["data"][0]:
        return None
    return base, entry


def append(flow, n, size, indices, values):
    """`flow` (n rows) with rows `indices` (all >= n) set to `values` and rows up to `size`
    that no index names zero: a view of a shared buffer when `flow` is its longest flow."""
    with _LOCK:
        found = _buffer_of(flow) if n else None
        if found is not None and found[1][1] == n and size <= found[0].shape[0]:
            buffer, entry = found
            entry[1] = size
        else:
            buffer = _new_buffer(flow, n, size)
    buffer[n:size] = 0 if buffer.dtype != object else b""
    buffer[indices] = values
    return buffer[:size]


def _new_buffer(flow, n, size):
    capacity = max(_MIN_CAPACITY, 2 * size)
    buffer = np.zeros((capacity,) + flow.shape[1:], flow.dtype) if flow.dtype != object \
        else np.full((capacity,) + flow.shape[1:], b"", dtype=object)
    buffer[:n] = flow
    _FILLED[id(buffer)] = [weakref.ref(buffer, _forget(id(buffer))), size]
    return buffer
