"""The contents of TensorFlow 1's queues and their blocking, as TensorFlow's queue kernels keep them.

A `QueueSpec` is what a queue is declared with (its kind, component dtypes and shapes, capacity,
and for a shuffling queue `min_after_dequeue` and a seed); a `QueueBuffer` is one live queue of
that spec: the elements (each a tuple of one array per component), a closed flag, and two lines
of waiting callers. A Session keeps one buffer per spec among its resources (as TensorFlow's
resource manager keeps one queue per session); an eager queue keeps its own.

The rules are TensorFlow's:
- Enqueue attempts are served in arrival order. An element goes in when the queue holds fewer
  than `capacity` elements; `enqueue_many` puts its elements in one at a time as room appears.
  An enqueue to a closed queue is a CancelledError ("... is closed.").
- Dequeue attempts are served in arrival order, and `dequeue_many(n)` takes elements as they
  come until it has n. A shuffling queue keeps `min_after_dequeue` elements back while it is
  open and hands out a uniformly random one of the rest. A priority queue hands out the element
  of smallest priority (component 0), ties in arrival order.
- `close()` waits behind the enqueues already waiting (they complete first);
  `close(cancel_pending_enqueues=True)` cancels them and closes at once. Once closed, a dequeue
  that cannot be served in full is an OutOfRangeError naming the request and the size (the
  elements a `dequeue_many` took go back to the front); `dequeue_up_to` returns what is left
  if anything is.
- A wait past the Session.run deadline is a DeadlineExceededError, and closing the Session
  cancels every waiting call.
"""
import collections
import heapq
import itertools
import threading
import time

import numpy as np

from ...framework.context import state
from ...framework.errors import CancelledError, DeadlineExceededError, OutOfRangeError

__all__ = ["QueueBuffer", "QueueSpec", "buffer_of"]

_SERIAL = itertools.count()
_CREATE = threading.Lock()
_KIND_NAMES = {"fifo": "FIFOQueue", "padding_fifo": "PaddingFIFOQueue",
               "random_shuffle": "RandomShuffleQueue", "priority": "PriorityQueue"}


class QueueSpec:
    """A queue's declaration; `shapes` holds a TensorShape per component (unknown: rank None)."""

    def __init__(self, kind, dtypes, shapes, capacity, name, min_after_dequeue=0, seed=None):
        self.kind, self.dtypes, self.shapes = kind, tuple(dtypes), tuple(shapes)
        self.capacity, self.name = capacity, name
        self.min_after_dequeue, self.seed = min_after_dequeue, seed
        self._eager = None

    @property
    def type_name(self):
        return _KIND_NAMES[self.kind]

    def eager_buffer(self):
        """The buffer of a queue used outside any Session."""
        if self._eager is None:
            with _CREATE:
                if self._eager is None:
                    self._eager = QueueBuffer(self)
        return self._eager


def buffer_of(store, spec):
    """The buffer of `spec` in a Session's resources (made on first use), or its eager one."""
    resources = getattr(store, "resources", None)
    if resources is None:
        return spec.eager_buffer()
    buffer = resources.get(spec)
    if buffer is None:
        with _CREATE:
            buffer = resources.setdefault(spec, QueueBuffer(spec))
    return buffer


class QueueBuffer:
    """One live queue (see the module docstring for its rules)."""

    def __init__(self, spec):
        self.spec = spec
        self.name = f"_{next(_SERIAL)}_{spec.name}"
        self.closed = False
        self.ended = False  # the Session closed: every wait is cancelled
        self._cond = threading.Condition()
        self._enqueuers, self._dequeuers = collections.deque(), collections.deque()
        self._cancelled = set()
        self._arrivals = itertools.count()
        if spec.kind == "priority":
            self._items = []
        elif spec.kind == "random_shuffle":
            self._items = []
            self._rng = np.random.default_rng(spec.seed)
        else:
            self._items = collections.deque()

    def __len__(self):
        return len(self._items)

    # -- the element store by kind ----------------------------------------------------------
    def _push(self, element):
        if self.spec.kind == "priority":
            heapq.heappush(self._items, (int(element[0]), next(self._arrivals), element))
        else:
            self._items.append(element)

    def _pop(self):
        kind = self.spec.kind
        if kind == "priority":
            return heapq.heappop(self._items)[2]
        if kind == "random_shuffle":
            index = int(self._rng.integers(len(self._items)))
            items = self._items
            items[index], items[-1] = items[-1], items[index]
            return items.pop()
        return self._items.popleft()

    def _restore(self, elements):
        if self.spec.kind == "priority":
            for element in elements:
                self._push(element)
        elif self.spec.kind == "random_shuffle":
            self._items.extend(elements)
        else:
            self._items.extendleft(reversed(elements))

    def _takeable(self):
        keep = 0 if self.closed or self.spec.kind != "random_shuffle" else \
            self.spec.min_after_dequeue
        return max(len(self._items) - keep, 0)

    # -- waiting ----------------------------------------------------------------------------
    def _wait(self, deadline):
        if self.ended:
            raise CancelledError(None, None, f"{self.spec.type_name} '{self.name}': the Session "
                                 "was closed while this operation waited.")
        if deadline is None:
            self._cond.wait()
            return
        left = deadline - time.monotonic()
        if left <= 0 or not self._cond.wait(left) and time.monotonic() >= deadline:
            raise DeadlineExceededError(None, None, "Timed out waiting for notification")

    def _closed_error(self):
        return CancelledError(None, None, f"{self.spec.type_name} '{self.name}' is closed.")

    # -- the operations (underscored: an error raised in them must not name them as the
    # public function the user called, errors.public_caller) ------------------------------
    def _enqueue(self, elements):
        """Put `elements` (tuples of arrays) in, waiting for room and for earlier enqueues."""
        deadline = state.run_deadline
        with self._cond:
            if self.closed:
                raise self._closed_error()
            token = object()
            self._enqueuers.append(token)
            try:
                done = 0
                while done < len(elements):
                    if token in self._cancelled:
                        raise CancelledError(None, None, "Enqueue operation was cancelled")
                    if self.closed:
                        raise self._closed_error()
                    if self._enqueuers[0] is token and len(self._items) < self.spec.capacity:
                        while done < len(elements) and len(self._items) < self.spec.capacity:
                            self._push(elements[done])
                            done += 1
                        self._cond.notify_all()
                        continue
                    self._wait(deadline)
            finally:
                self._enqueuers.remove(token)
                self._cancelled.discard(token)
                self._cond.notify_all()

    def _dequeue(self, count, allow_smaller):
        """`count` elements (a list of tuples), waiting for them and for earlier dequeues."""
        deadline = state.run_deadline
        with self._cond:
            token = object()
            self._dequeuers.append(token)
            taken = []
            try:
                while len(taken) < count:
                    if self._dequeuers[0] is token:
                        for _ in range(min(self._takeable(), count - len(taken))):
                            taken.append(self._pop())
                        self._cond.notify_all()
                        if len(taken) == count:
                            break
                        if self.closed:
                            if allow_smaller and taken:
                                break
                            raise self._insufficient(count, taken)
                    self._wait(deadline)
            except BaseException:
                self._restore(taken)
                raise
            finally:
                self._dequeuers.remove(token)
                self._cond.notify_all()
            return taken

    def _insufficient(self, count, taken):
        return OutOfRangeError(
            f"{self.spec.type_name} '{self.name}' is closed and has insufficient elements "
            f"(requested {count}, current size {len(self._items) + len(taken)})")

    def _close(self, cancel_pending_enqueues):
        """Close: at once (cancelling waiting enqueues), or behind the waiting enqueues."""
        deadline = state.run_deadline
        with self._cond:
            if cancel_pending_enqueues:
                self._cancelled.update(self._enqueuers)
                self._finish_close()
                return
            token = object()
            self._enqueuers.append(token)
            try:
                while self._enqueuers[0] is not token:
                    self._wait(deadline)
                self._finish_close()
            finally:
                self._enqueuers.remove(token)
                self._cond.notify_all()

    def _finish_close(self):
        if self.closed:
            raise CancelledError(None, None, f"Queue '{self.name}' is already closed.")
        self.closed = True
        self._cond.notify_all()

    def end(self):
        """The Session closed: cancel every waiting call."""
        with self._cond:
            self.ended = True
            self._cond.notify_all()
