"""TensorFlow 1's batching queues: `batch`, `batch_join`, `shuffle_batch`, `shuffle_batch_join`
and their `maybe_*` forms.

Each makes a queue (a FIFOQueue; a PaddingFIFOQueue with `dynamic_pad`; a RandomShuffleQueue
for the shuffle forms, keeping `min_after_dequeue` elements back while it is open), a
QueueRunner whose threads enqueue the given tensors (one example each, or the rows of each
with `enqueue_many`), and returns `dequeue_many(batch_size)`: the tensors stacked along a new
dimension 0, in the structure given (a dict by its keys; a list of one comes back as a single
tensor, as in TensorFlow). `allow_smaller_final_batch` dequeues with `dequeue_up_to`, so the
last batch after the input's final epoch may be smaller (its static batch dimension is None).
`num_threads` threads run the one enqueue op; the `_join` forms run one thread per tensor list.
The `maybe_*` forms enqueue an example only where `keep_input` (a bool scalar, or a vector of
one per row with `enqueue_many`) is True: the rows kept are gathered before the enqueue.
A scalar summary reports how full the queue is, under TensorFlow's names.
"""
from ..framework import dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..graph.graph import name_scope
from ..ops.cast_ops import cast
from ..ops.creation_ops import range as range_
from ..ops.indexing_ops import boolean_mask, gather
from ..ops.math_ops import maximum, multiply
from ..ops.query_ops import shape
from ..ops.reshape_ops import expand_dims
from ..summary.v1_summaries import scalar
from ..tf1.queues import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from .input_producers import _graph_only
from .queue_runner import QueueRunner, add_queue_runner

__all__ = ["batch", "batch_join", "maybe_batch", "maybe_batch_join", "maybe_shuffle_batch",
           "maybe_shuffle_batch_join", "shuffle_batch", "shuffle_batch_join"]


def _as_tensor_list(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors, key=str)]
    if isinstance(tensors, Tensor):
        return [tensors]
    return list(tensors)


def _as_original_type(original, dequeued):
    if isinstance(original, dict):
        dequeued = dequeued if isinstance(dequeued, list) else [dequeued]
        return {k: dequeued[i] for i, k in enumerate(sorted(original, key=str))}
    return dequeued


def _validate(tensor_list, function):
    tensor_list = [convert_to_tensor(t) for t in tensor_list]
    if not tensor_list:
        raise ValueError(f"Expected at least one tensor in {function}().")
    return tensor_list


def _validate_join(tensor_list_list, function):
    lists = [_validate(_as_tensor_list(t), function) for t in tensor_list_list]
    if not lists:
        raise ValueError(f"Expected at least one input in {function}().")
    first = [t.dtype for t in lists[0]]
    for other in lists[1:]:
        if [t.dtype for t in other] != first:
            raise TypeError("Expected types to be consistent: "
                            f"{', '.join(d.name for d in first)} vs. "
                            f"{', '.join(t.dtype.name for t in other)}.")
    return lists


def _validate_keep_input(keep_input, enqueue_many):
    keep_input = convert_to_tensor(keep_input, dtype=dtypes.bool)
    rank = keep_input.shape.rank
    if rank is None or rank > 1:
        raise ValueError("`keep_input` must be a scalar or a vector.")
    if rank == 1 and not enqueue_many:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    return keep_input


def _shapes(tensor_list_list, shapes, enqueue_many):
    if shapes is not None:
        return [TensorShape(s) for s in shapes]
    merged = []
    for i in range(len(tensor_list_list[0])):
        common = TensorShape(None)
        for tensor_list in tensor_list_list:
            tensor = tensor_list[i]
            if tensor.shape.rank is None:
                raise ValueError(f"Cannot infer Tensor's rank: {tensor}")
            common = common.merge_with(tensor.shape[1:] if enqueue_many else tensor.shape)
        merged.append(common)
    return merged


def _kept(tensor_list, keep_input, enqueue_many):
    """The rows of `tensor_list` to enqueue (as a batch) where `keep_input` says so, or None
    when everything is kept (`keep_input` the constant True)."""
    if keep_input is True:
        return None
    if keep_input.shape.rank == 1:
        return [boolean_mask(t, keep_input) for t in tensor_list]
    count = cast(keep_input, dtypes.int32)
    if enqueue_many:
        return [gather(t, range_(multiply(shape(t)[0], count))) for t in tensor_list]
    return [gather(expand_dims(t, 0), range_(count)) for t in tensor_list]


def _enqueue_ops(queue, tensor_lists, enqueue_many, keep_input, repeat=1):
    ops = []
    for tensor_list in tensor_lists:
        kept = _kept(tensor_list, keep_input, enqueue_many)
        if kept is None:
            op = (queue.enqueue_many if enqueue_many else queue.enqueue)(tensor_list)
        else:
            op = queue.enqueue_many(kept)
        ops.extend([op] * repeat)
    add_queue_runner(QueueRunner(queue, ops))


def _dequeue(queue, batch_size, allow_smaller_final_batch, name):
    if allow_smaller_final_batch:
        return queue.dequeue_up_to(batch_size, name=name)
    return queue.dequeue_many(batch_size, name=name)


def _batch(tensors_list, join, batch_size, keep_input, capacity, enqueue_many, shapes,
           dynamic_pad, allow_smaller_final_batch, shared_name, name, default_name,
           num_threads=1):
    _graph_only(default_name)
    flat = [t for tensors in tensors_list for t in _as_tensor_list(tensors)]
    with name_scope(name, default_name, flat) as scope:
        lists = _validate_join(tensors_list, default_name) if join else \
            [_validate(_as_tensor_list(tensors_list[0]), default_name)]
        if keep_input is not True:
            keep_input = _validate_keep_input(keep_input, enqueue_many)
        queue_class = PaddingFIFOQueue if dynamic_pad else FIFOQueue
        queue = queue_class(capacity=capacity, dtypes=[t.dtype for t in lists[0]],
                            shapes=_shapes(lists, shapes, enqueue_many),
                            shared_name=shared_name)
        _enqueue_ops(queue, lists, enqueue_many, keep_input, 1 if join else num_threads)
        scalar(f"fraction_of_{capacity}_full",
               cast(queue.size(), dtypes.float32) * (1.0 / capacity))
        return _as_original_type(tensors_list[0],
                                 _dequeue(queue, batch_size, allow_smaller_final_batch, scope))


def _shuffle_batch(tensors_list, join, batch_size, capacity, min_after_dequeue, keep_input,
                   seed, enqueue_many, shapes, allow_smaller_final_batch, shared_name, name,
                   default_name, num_threads=1):
    _graph_only(default_name)
    flat = [t for tensors in tensors_list for t in _as_tensor_list(tensors)]
    with name_scope(name, default_name, flat) as scope:
        lists = _validate_join(tensors_list, default_name) if join else \
            [_validate(_as_tensor_list(tensors_list[0]), default_name)]
        if keep_input is not True:
            keep_input = _validate_keep_input(keep_input, enqueue_many)
        queue = RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue,
                                   seed=seed, dtypes=[t.dtype for t in lists[0]],
                                   shapes=_shapes(lists, shapes, enqueue_many),
                                   shared_name=shared_name)
        _enqueue_ops(queue, lists, enqueue_many, keep_input, 1 if join else num_threads)
        full = cast(maximum(0, queue.size() - min_after_dequeue), dtypes.float32) * (
            1.0 / (capacity - min_after_dequeue))
        scalar(f"fraction_over_{min_after_dequeue}_of_{capacity - min_after_dequeue}_full",
               full)
        return _as_original_type(tensors_list[0],
                                 _dequeue(queue, batch_size, allow_smaller_final_batch, scope))


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
          dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches of `batch_size` examples of `tensors`, in the order the threads enqueue them."""
    return _batch([tensors], False, batch_size, True, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name, "batch",
                  num_threads)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32,
                enqueue_many=False, shapes=None, dynamic_pad=False,
                allow_smaller_final_batch=False, shared_name=None, name=None):
    """`batch`, enqueuing only the examples where `keep_input` is True."""
    return _batch([tensors], False, batch_size, keep_input, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name, "batch",
                  num_threads)


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None,
               dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches from several lists of tensors, one enqueuing thread per list."""
    return _batch(tensors_list, True, batch_size, True, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name, "batch_join")


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False,
                     shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
                     shared_name=None, name=None):
    """`batch_join`, enqueuing only the examples where `keep_input` is True."""
    return _batch(tensors_list, True, batch_size, keep_input, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name, "batch_join")


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None,
                  enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                  shared_name=None, name=None):
    """Batches of examples drawn at random from a queue of at least `min_after_dequeue`."""
    return _shuffle_batch([tensors], False, batch_size, capacity, min_after_dequeue, True, seed,
                          enqueue_many, shapes, allow_smaller_final_batch, shared_name, name,
                          "shuffle_batch", num_threads)


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                        num_threads=1, seed=None, enqueue_many=False, shapes=None,
                        allow_smaller_final_batch=False, shared_name=None, name=None):
    """`shuffle_batch`, enqueuing only the examples where `keep_input` is True."""
    return _shuffle_batch([tensors], False, batch_size, capacity, min_after_dequeue,
                          keep_input, seed, enqueue_many, shapes, allow_smaller_final_batch,
                          shared_name, name, "shuffle_batch", num_threads)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None,
                       enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                       shared_name=None, name=None):
    """`shuffle_batch` from several lists of tensors, one enqueuing thread per list."""
    return _shuffle_batch(tensors_list, True, batch_size, capacity, min_after_dequeue, True,
                          seed, enqueue_many, shapes, allow_smaller_final_batch, shared_name,
                          name, "shuffle_batch_join")


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input,
                             seed=None, enqueue_many=False, shapes=None,
                             allow_smaller_final_batch=False, shared_name=None, name=None):
    """`shuffle_batch_join`, enqueuing only the examples where `keep_input` is True."""
    return _shuffle_batch(tensors_list, True, batch_size, capacity, min_after_dequeue,
                          keep_input, seed, enqueue_many, shapes, allow_smaller_final_batch,
                          shared_name, name, "shuffle_batch_join")
