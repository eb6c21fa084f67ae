"""TensorFlow 1's queues: `FIFOQueue`, `PaddingFIFOQueue`, `RandomShuffleQueue`, `PriorityQueue`
and their base `QueueBase`, as objects whose methods add queue ops (ops/io/queues.py).

In a graph, `enqueue(vals)` / `enqueue_many(vals)` / `dequeue()` / `dequeue_many(n)` /
`dequeue_up_to(n)` / `close()` / `size()` / `is_closed()` return ops and tensors that a Session
runs; each Session has its own queue, and several threads may run them at once (a dequeue
blocks until an element arrives or the queue closes). Eagerly they run at once on the queue
object's own buffer, as TensorFlow 2 allows. Values are converted to the queue's dtypes and
their static shapes checked while the graph is built (TensorFlow's TypeError and ValueError);
a dequeued element is a tensor, a list of tensors, or a dict by the queue's `names`.
`QueueBase.from_list(index, queues)` is a queue whose ops go to `queues[index]` (index known
only when the Session runs).
"""
import functools

import numpy as np

from ..framework import dtypes as dtypes_lib
from ..framework.context import state
from ..framework.execute import execute
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape
from ..ops.cast_ops import cast
from ..ops.creation_ops import constant_value
from ..ops.io.queue_buffers import QueueSpec
from ..ops.io.queues import (QUEUE_CLOSE, QUEUE_CREATORS, QUEUE_DEQUEUE, QUEUE_DEQUEUE_MANY,
                             QUEUE_DEQUEUE_UP_TO, QUEUE_ENQUEUE, QUEUE_ENQUEUE_MANY,
                             QUEUE_IS_CLOSED, QUEUE_SIZE)

__all__ = ["FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase", "RandomShuffleQueue"]


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _shape_list(shapes, count, partial=False, required=False):
    """TensorFlow's queue shapes: None, one shape, or one per component."""
    if shapes is None:
        if required:
            raise ValueError("Shapes must be provided for all components, but received "
                             "None.")
        return None
    if isinstance(shapes, TensorShape) or (isinstance(shapes, (list, tuple)) and all(
            s is None or isinstance(s, int) for s in shapes) and not (partial and not shapes)):
        shapes = [shapes]
    shapes = [as_shape(s) for s in shapes]
    if not partial and any(not s.is_fully_defined() for s in shapes):
        raise ValueError(f"All shapes must be fully defined: {shapes}")
    if any(s.rank is None for s in shapes):
        raise ValueError(f"All shapes must have a defined rank: {shapes}")
    return shapes


def _shape_text(shape):
    if shape.rank is None:
        return "<unknown>"
    dims = ["None" if d is None else str(d) for d in shape.as_list()]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _assert_compatible(got, want):
    """TensorFlow's ValueError for a value whose static shape the queue cannot take."""
    if not TensorShape(got).is_compatible_with(want):
        raise ValueError(f"Shapes {_shape_text(TensorShape(got))} and {_shape_text(want)} are "
                         "incompatible")


def _shape_common(a, b):
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return unknown_shape()
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


class QueueBase:
    """A queue of elements, each a tuple of tensors of the queue's dtypes and shapes."""

    def __init__(self, dtypes, shapes, names, queue_ref):
        self._dtypes = list(dtypes)
        if shapes is not None and len(shapes) != len(self._dtypes):
            raise ValueError("Queue shapes must have the same length as dtypes, received "
                             f"len(shapes)={len(shapes)}, len(dtypes)={len(self._dtypes)}")
        self._shapes = [TensorShape(s) if s is not None else unknown_shape() for s in shapes] \
            if shapes is not None else [unknown_shape() for _ in self._dtypes]
        if names is not None and len(names) != len(self._dtypes):
            raise ValueError("Queue names must have the same length as dtypes,received "
                             f"len(names)={len(names)},len {len(self._dtypes)}")
        self._names = list(names) if names is not None else None
        self._queue_ref = queue_ref
        self._spec = getattr(self, "_spec", None)
        graph_ref = getattr(queue_ref, "op", None) is not None
        self._name = queue_ref.op.name.split("/")[-1] if graph_ref else getattr(
            self, "_eager_name", "Empty")

    @staticmethod
    def from_list(index, queues):
        """A queue that uses `queues[index]` (a scalar integer tensor) when it runs."""
        if not queues or not isinstance(queues, list) or not all(
                isinstance(q, QueueBase) for q in queues):
            raise TypeError("A list of queues expected")
        if not all(queues[0].dtypes == q.dtypes for q in queues[1:]):
            raise TypeError("Queues do not have matching component dtypes.")
        if not all(queues[0].names == q.names for q in queues[1:]):
            raise TypeError("Queues do not have matching component names.")
        shapes = [functools.reduce(_shape_common, s) for s in zip(*[q.shapes for q in queues])]
        selected = cast(convert_to_tensor(index), dtypes_lib.int64)
        chosen = QueueBase(queues[0].dtypes, shapes, queues[0].names, selected)
        chosen._spec = tuple(q._spec for q in queues)
        return chosen

    @property
    def queue_ref(self):
        return self._queue_ref

    @property
    def name(self):
        return self._name if state.graph is None else self._queue_ref.op.name

    @property
    def dtypes(self):
        return self._dtypes

    @property
    def shapes(self):
        return self._shapes

    @property
    def names(self):
        return self._names

    # -- running an op: added to the graph, or at once on the eager buffer -----------------------
    def _op(self, op_def, inputs, name, **attrs):
        attrs = {"queue": self._spec, **attrs}
        inputs = (self._queue_ref,) + tuple(inputs)
        if state.graph is not None:
            return execute(op_def, inputs, attrs, name)
        out = op_def.kernel(None, *[array_of(t) for t in inputs], **attrs)
        if op_def.num_outputs == 0:
            return None
        return Tensor(out) if op_def.num_outputs == 1 else tuple(Tensor(o) for o in out)

    def _check_enqueue_dtypes(self, vals):
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
                raise ValueError("Keys in dictionary to enqueue do not match names of Queue.  "
                                 f"Dictionary: {sorted(vals.keys())},Queue: "
                                 f"{sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        else:
            if self._names:
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            vals = _as_list(vals)
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Queue {self._name!r} holds {len(self._dtypes)} components "
                             f"per element, but {len(vals)} values were given to enqueue.")
        return [convert_to_tensor(v, dtype=d, name=f"component_{i}")
                for i, (v, d) in enumerate(zip(vals, self._dtypes))]

    def _scoped(self, name, default, build):
        if state.graph is None:
            return build(None)
        with state.graph.name_scope(name or default) as scope:
            return build(scope)

    def enqueue(self, vals, name=None):
        """The op that puts one element (`vals`) in the queue, waiting for room."""
        def build(scope):
            tensors = self._check_enqueue_dtypes(vals)
            for tensor, shape in zip(tensors, self._shapes):
                _assert_compatible(tensor.shape, shape)
            return self._op(QUEUE_ENQUEUE, tensors, scope)
        return self._scoped(name, f"{self._name}_enqueue", build)

    def enqueue_many(self, vals, name=None):
        """The op that puts each row of `vals` (sliced along dimension 0) in the queue."""
        def build(scope):
            tensors = self._check_enqueue_dtypes(vals)
            batch = TensorShape([None])
            for tensor, shape in zip(tensors, self._shapes):
                if tensor.shape.rank == 0:
                    raise ValueError(f"Shape must be at least rank 1 but is rank 0 for "
                                     f"'{tensor.name if state.graph else 'enqueue_many'}': "
                                     "enqueue_many slices its values along dimension 0.")
                batch = batch.merge_with(tensor.shape[:1])
                _assert_compatible(tensor.shape[1:], shape)
            return self._op(QUEUE_ENQUEUE_MANY, tensors, scope)
        return self._scoped(name, f"{self._name}_EnqueueMany", build)

    def _outputs(self, lead=False):
        if lead is False:
            return tuple((s, d) for s, d in zip(self._shapes, self._dtypes))
        return tuple((TensorShape([lead]).concatenate(s) if s.rank is not None
                      else unknown_shape(), d) for s, d in zip(self._shapes, self._dtypes))

    def _dequeue_return_value(self, tensors):
        tensors = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
        if self._names:
            return dict(zip(self._names, tensors))
        return tensors[0] if len(tensors) == 1 else tensors

    def dequeue(self, name=None):
        """One element, waiting for it; OutOfRangeError once the queue is closed and empty."""
        out = self._op(QUEUE_DEQUEUE, (), name or f"{self._name}_Dequeue",
                       outputs=self._outputs())
        return self._dequeue_return_value(out)

    def dequeue_many(self, n, name=None):
        """`n` elements stacked along a new dimension 0, waiting for all of them."""
        return self._many(QUEUE_DEQUEUE_MANY, n, name or f"{self._name}_DequeueMany", True)

    def dequeue_up_to(self, n, name=None):
        """As dequeue_many; once the queue is closed, the remaining elements if fewer than n."""
        return self._many(QUEUE_DEQUEUE_UP_TO, n, name or f"{self._name}_DequeueUpTo", False)

    def _many(self, op_def, n, name, exact):
        n = convert_to_tensor(n, dtype=dtypes_lib.int32, name="n")
        lead = None  # dequeue_up_to: any number
        if exact:
            known = constant_value(n) if state.graph is not None else array_of(n)
            lead = int(np.asarray(known)) if known is not None else None
        out = self._op(op_def, (n,), name, outputs=self._outputs(lead))
        return self._dequeue_return_value(out)

    def close(self, cancel_pending_enqueues=False, name=None):
        """The op that closes the queue (cancelling waiting enqueues if asked)."""
        return self._op(QUEUE_CLOSE, (), name or f"{self._name}_Close",
                        cancel_pending_enqueues=bool(cancel_pending_enqueues))

    def is_closed(self, name=None):
        """A bool tensor: whether the queue is closed."""
        return self._op(QUEUE_IS_CLOSED, (), name or f"{self._name}_Is_Closed")

    def size(self, name=None):
        """An int32 tensor: the number of elements in the queue."""
        return self._op(QUEUE_SIZE, (), name or f"{self._name}_Size")


def _make(queue, kind, capacity, dtypes, shapes, names, name, default_name, **extra):
    """Declare `queue`'s spec and make its handle op (eagerly: at once)."""
    if capacity is None or int(capacity) < 0 and kind != "padding_fifo":
        raise ValueError(f"{type(queue).__name__}: capacity must be a non-negative integer, "
                         f"got {capacity!r}.")
    dtypes = [dtypes_lib.as_dtype(d) for d in _as_list(dtypes)]
    if names is not None:
        names = _as_list(names)
        if len(names) != len(dtypes):
            raise ValueError("List of names must have the same length as the list of dtypes, "
                             f"received len(names)={len(names)},len(dtypes)={len(dtypes)}")
    full = shapes if shapes is not None else [unknown_shape() for _ in dtypes]
    if len(full) != len(dtypes):
        raise ValueError("Queue shapes must have the same length as dtypes, received "
                         f"len(shapes)={len(full)}, len(dtypes)={len(dtypes)}")
    queue_name = name or default_name
    queue._spec = QueueSpec(kind, dtypes, full, int(capacity) if int(capacity) >= 0 else
                            2 ** 62, queue_name, **extra)
    queue._eager_name = queue_name
    if state.graph is not None:
        ref = execute(QUEUE_CREATORS[kind], (), {"queue": queue._spec}, queue_name)
        queue._spec.name = ref.op.name.split("/")[-1]
    else:
        ref = Tensor(np.array(0, np.int64))
    QueueBase.__init__(queue, dtypes, shapes, names, ref)


class FIFOQueue(QueueBase):
    """A queue that hands out elements in the order they came in."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
                 name="fifo_queue"):
        _refuse_shared(shared_name)
        dtypes = _as_list(dtypes)
        _make(self, "fifo", capacity, dtypes, _shape_list(shapes, len(dtypes)), names, name,
              "fifo_queue")


class PaddingFIFOQueue(QueueBase):
    """A FIFOQueue whose shapes may have unknown dimensions; dequeue_many pads with zeros."""

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,
                 name="padding_fifo_queue"):
        _refuse_shared(shared_name)
        dtypes = _as_list(dtypes)
        shapes = _shape_list(shapes, len(dtypes), partial=True, required=True)
        if len(shapes) != len(dtypes):
            raise ValueError("Shapes must be provided for all components, but received "
                             f"{len(dtypes)} dtypes and {len(shapes)} shapes.")
        _make(self, "padding_fifo", capacity, dtypes, shapes, names, name,
              "padding_fifo_queue")


class RandomShuffleQueue(QueueBase):
    """A queue that hands out a uniformly random element, keeping `min_after_dequeue` back
    while it is open."""

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None,
                 seed=None, shared_name=None, name="random_shuffle_queue"):
        _refuse_shared(shared_name)
        dtypes = _as_list(dtypes)
        graph_seed = getattr(state.graph, "seed", None)
        mixed = None if seed is None and graph_seed is None else \
            hash((graph_seed, seed)) & 0x7FFFFFFF
        _make(self, "random_shuffle", capacity, dtypes, _shape_list(shapes, len(dtypes)), names,
              name, "random_shuffle_queue", min_after_dequeue=int(min_after_dequeue), seed=mixed)


class PriorityQueue(QueueBase):
    """A queue that hands out the element of smallest priority (an int64 first component)."""

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None,
                 name="priority_queue"):
        _refuse_shared(shared_name)
        types = [dtypes_lib.int64] + _as_list(types)
        shapes = _shape_list(shapes, len(types) - 1)
        shapes = [TensorShape([])] + shapes if shapes is not None else None
        _make(self, "priority", capacity, types, shapes, names, name, "priority_queue")


def _refuse_shared(shared_name):
    if shared_name:
        raise NotImplementedError(f"shared_name={shared_name!r}: a queue shared between "
                                  "sessions on a server is not supported; each Session has "
                                  "its own queue.")
