"""TensorFlow 1's queues as graph ops, over the buffers of queue_buffers.py.

    FIFOQueueV2 / PaddingFIFOQueueV2 / RandomShuffleQueueV2 / PriorityQueueV2
                                      the queue's handle (int64); running it makes the queue
    QueueEnqueueV2(handle, *components)          puts one element in
    QueueEnqueueManyV2(handle, *components)      puts the rows of the components in, one
                                                 element per row (all of one batch size)
    QueueDequeueV2(handle)                       one element, one output per component
    QueueDequeueManyV2(handle, n)                n elements stacked along a new axis 0
    QueueDequeueUpToV2(handle, n)                the same; after close, what is left (> 0)
    QueueCloseV2(handle)                         closes it (cancel_pending_enqueues attribute)
    QueueSizeV2(handle) -> int32, QueueIsClosedV2(handle) -> bool

The queue's spec travels in the `queue` attribute, and the Session's store holds the buffer of
each spec (an eager call passes no store: the spec's own buffer), so two sessions of one graph
have two queues, as in TensorFlow. Every op is stateful and none has a gradient. An element's
components are checked against the queue's shapes before the queue changes (TensorFlow's
"Shape mismatch in tuple component i"), and copied, so later in-place steps of a plan never
reach into the queue. `dequeue_many` stacks the elements; a PaddingFIFOQueue first pads each
component with zeros (empty strings) up to the largest element's shape in each dimension.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.registry import defop
from ...framework.tensor_shape import TensorShape
from .queue_buffers import buffer_of

__all__ = ["QUEUE_CLOSE", "QUEUE_CREATORS", "QUEUE_DEQUEUE", "QUEUE_DEQUEUE_MANY",
           "QUEUE_DEQUEUE_UP_TO", "QUEUE_ENQUEUE", "QUEUE_ENQUEUE_MANY", "QUEUE_IS_CLOSED",
           "QUEUE_SIZE"]


def _text(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _check_component(spec, index, shape, batch=None):
    want = spec.shapes[index]
    if want.rank is None:
        return
    full = TensorShape([batch]).concatenate(want) if batch is not None else want
    if not full.is_compatible_with(TensorShape(shape)):
        raise InvalidArgumentError(f"Shape mismatch in tuple component {index}. Expected "
                                   f"{_text(full.as_list())}, got {_text(shape)}")


def _component_arrays(spec, components):
    return [np.array(c, dtype=d.as_numpy_dtype, copy=True) for c, d in
            zip(components, spec.dtypes)]


def _resolve(store, handle, queue):
    """(spec, buffer) of the queue an op runs on: `queue` is a spec, or a tuple of them that
    the handle's value indexes (QueueBase.from_list)."""
    if type(queue) is tuple:
        index = int(np.asarray(handle))
        if not 0 <= index < len(queue):
            raise InvalidArgumentError(f"QueueBase.from_list: index {index} is out of range "
                                       f"for {len(queue)} queues.")
        queue = queue[index]
    return queue, buffer_of(store, queue)


def _enqueue(store, handle, *components, queue):
    queue, buffer = _resolve(store, handle, queue)
    arrays = _component_arrays(queue, components)
    for i, array in enumerate(arrays):
        _check_component(queue, i, array.shape)
    buffer._enqueue([tuple(arrays)])


def _enqueue_many(store, handle, *components, queue):
    queue, buffer = _resolve(store, handle, queue)
    arrays = _component_arrays(queue, components)
    for i, array in enumerate(arrays):
        if array.ndim == 0:
            raise InvalidArgumentError(f"Shape mismatch in tuple component {i}. Expected "
                                       "[?,...] (a batch of elements), got []")
        if array.shape[0] != arrays[0].shape[0]:
            raise InvalidArgumentError(
                f"Shape mismatch in tuple component {i}: every component of enqueue_many needs "
                f"the same batch size (dimension 0), got {array.shape[0]} and "
                f"{arrays[0].shape[0]}")
        _check_component(queue, i, array.shape, batch=array.shape[0])
    rows = [tuple(a[r] for a in arrays) for r in range(arrays[0].shape[0] if arrays else 0)]
    buffer._enqueue(rows)


def _dequeue(store, handle, *, queue, outputs=None):
    (element,) = _resolve(store, handle, queue)[1]._dequeue(1, False)
    return tuple(element)


def _require_shapes(spec):
    if spec.kind != "padding_fifo" and any(s.rank is None for s in spec.shapes):
        raise InvalidArgumentError(f"{spec.type_name}'s DequeueMany and DequeueUpTo require "
                                   "the components to have specified shapes.")


def _stack(spec, elements):
    out = []
    for i, dtype in enumerate(spec.dtypes):
        parts = [e[i] for e in elements]
        if not parts:
            known = [d or 0 for d in spec.shapes[i].as_list()] if spec.shapes[i].rank else []
            out.append(np.zeros([0] + known, dtype.as_numpy_dtype))
            continue
        if spec.kind == "padding_fifo":
            parts = _padded(parts, dtype)
        out.append(np.stack(parts))
    return tuple(out)


def _padded(parts, dtype):
    target = np.max([p.shape for p in parts], axis=0) if parts[0].ndim else ()
    fill = b"" if dtype == dtypes.string else 0
    padded = []
    for p in parts:
        if p.shape != tuple(target):
            block = np.full(tuple(target), fill, dtype.as_numpy_dtype)
            block[tuple(slice(0, n) for n in p.shape)] = p
            p = block
        padded.append(p)
    return padded


def _dequeue_many(store, handle, n, *, queue, outputs=None):
    queue, buffer = _resolve(store, handle, queue)
    _require_shapes(queue)
    return _stack(queue, buffer._dequeue(_count(n), False))


def _dequeue_up_to(store, handle, n, *, queue, outputs=None):
    queue, buffer = _resolve(store, handle, queue)
    _require_shapes(queue)
    return _stack(queue, buffer._dequeue(_count(n), True))


def _count(n):
    count = int(np.asarray(n))
    if count < 0:
        raise InvalidArgumentError(f"DequeueMany's n must be >= 0, got {count}")
    return count


def _close(store, handle, *, queue, cancel_pending_enqueues=False):
    _resolve(store, handle, queue)[1]._close(cancel_pending_enqueues)


def _size(store, handle, *, queue):
    return np.array(len(_resolve(store, handle, queue)[1]), np.int32)


def _is_closed(store, handle, *, queue):
    return np.array(_resolve(store, handle, queue)[1].closed)


def _create(store, *, queue):
    buffer_of(store, queue)
    return np.array(0, np.int64)


def _no_outputs(*inputs, **attrs):
    return []


def _output_rule(*inputs, queue, outputs, **attrs):
    return list(outputs)


def _creator(op_type, raw):
    return defop(op_type, _create, shape=lambda *, queue: (TensorShape([]), dtypes.int64),
                 grad=None, stateful=True, raw=raw)


QUEUE_CREATORS = {
    "fifo": _creator("FIFOQueueV2", lambda component_types, shapes=[], capacity=-1,
                     container="", shared_name="", name=None: _raw_queue(
                         "FIFOQueue", capacity, component_types, shapes, shared_name, name)),
    "padding_fifo": _creator(
        "PaddingFIFOQueueV2", lambda component_types, shapes=[], capacity=-1, container="",
        shared_name="", name=None: _raw_queue("PaddingFIFOQueue", capacity, component_types,
                                              shapes, shared_name, name)),
    "random_shuffle": _creator(
        "RandomShuffleQueueV2", lambda component_types, shapes=[], capacity=-1,
        min_after_dequeue=0, seed=0, seed2=0, container="", shared_name="", name=None:
        _raw_queue("RandomShuffleQueue", capacity, component_types, shapes, shared_name, name,
                   min_after_dequeue=min_after_dequeue, seed=seed or None)),
    "priority": _creator(
        "PriorityQueueV2", lambda shapes, component_types=[], capacity=-1, container="",
        shared_name="", name=None: _raw_queue("PriorityQueue", capacity, component_types,
                                              shapes, shared_name, name)),
}


def _raw_queue(class_name, capacity, types, shapes, shared_name, name, **extra):
    """tf.raw_ops' queue constructors: the queue object (its handle is `queue_ref`)."""
    raise NotImplementedError(
        f"tf.raw_ops: wengert's queue ops take the queue object as their `handle`; make the "
        f"queue with tf.compat.v1.{class_name}(capacity, dtypes, shapes) and pass it.")


QUEUE_ENQUEUE = defop("QueueEnqueueV2", _enqueue, shape=_no_outputs, grad=None, num_outputs=0,
                      stateful=True, raw=lambda handle, components, timeout_ms=-1, name=None:
                      handle.enqueue(components, name=name))
QUEUE_ENQUEUE_MANY = defop("QueueEnqueueManyV2", _enqueue_many, shape=_no_outputs, grad=None,
                           num_outputs=0, stateful=True,
                           raw=lambda handle, components, timeout_ms=-1, name=None:
                           handle.enqueue_many(components, name=name))
QUEUE_DEQUEUE = defop("QueueDequeueV2", _dequeue, shape=_output_rule, grad=None,
                      num_outputs=None, stateful=True,
                      raw=lambda handle, component_types, timeout_ms=-1, name=None:
                      handle.dequeue(name=name))
QUEUE_DEQUEUE_MANY = defop("QueueDequeueManyV2", _dequeue_many, shape=_output_rule, grad=None,
                           num_outputs=None, stateful=True,
                           raw=lambda handle, n, component_types, timeout_ms=-1, name=None:
                           handle.dequeue_many(n, name=name))
QUEUE_DEQUEUE_UP_TO = defop("QueueDequeueUpToV2", _dequeue_up_to, shape=_output_rule,
                            grad=None, num_outputs=None, stateful=True,
                            raw=lambda handle, n, component_types, timeout_ms=-1, name=None:
                            handle.dequeue_up_to(n, name=name))
QUEUE_CLOSE = defop("QueueCloseV2", _close, shape=_no_outputs, grad=None, num_outputs=0,
                    stateful=True, raw=lambda handle, cancel_pending_enqueues=False, name=None:
                    handle.close(cancel_pending_enqueues, name=name))
QUEUE_SIZE = defop("QueueSizeV2", _size, grad=None, stateful=True,
                   shape=lambda handle, *, queue: (TensorShape([]), dtypes.int32),
                   raw=lambda handle, name=None: handle.size(name=name))
QUEUE_IS_CLOSED = defop("QueueIsClosedV2", _is_closed, grad=None, stateful=True,
                        shape=lambda handle, *, queue: (TensorShape([]), dtypes.bool),
                        raw=lambda handle, name=None: handle.is_closed(name=name))
