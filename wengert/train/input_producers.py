"""TensorFlow 1's input producers: queues of filenames, indices or slices that queue runners
keep filled, epoch after epoch.

`input_producer(t)` makes a FIFOQueue of the rows of `t` and a QueueRunner whose one thread
enqueues all the rows again and again (shuffled each time with `shuffle=True`).
`limit_epochs(t, num_epochs)` passes `t` on through a counter held in a local variable
("epochs", in LOCAL_VARIABLES: run `local_variables_initializer()`): the `num_epochs + 1`-th
read raises OutOfRangeError, which ends the runner's thread and closes the queue, so readers
see OutOfRangeError once the queue is drained. `string_input_producer` (filenames, with a
check that the list is not empty), `range_input_producer` (0..limit-1) and
`slice_input_producer` (the same row of each tensor: one dequeued index gathers them) are built
on it. `match_filenames_once(pattern)` is a local variable holding the files matching the
pattern when it is initialized. Names and collections follow TensorFlow's, including the
`fraction_of_<capacity>_full` scalar summary of the queue.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.execute import execute
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..graph.collections import GraphKeys
from ..graph.graph import control_dependencies, name_scope
from ..graph.variables import GraphVariable
from ..ops.array_ops import identity
from ..ops.cast_ops import cast
from ..ops.creation_ops import range as range_
from ..ops.indexing_ops import gather
from ..ops.io.byte_codecs import matching_files
from ..ops.io.checks import Assert
from ..ops.io.count_up_to import COUNT_UP_TO
from ..ops.math_ops import greater
from ..ops.query_ops import shape, size
from ..ops.random.distributions import shuffle as random_shuffle
from ..summary.v1_summaries import scalar
from ..tf1.queues import FIFOQueue
from .queue_runner import QueueRunner, add_queue_runner

__all__ = ["input_producer", "limit_epochs", "match_filenames_once", "range_input_producer",
           "slice_input_producer", "string_input_producer"]


def _graph_only(function):
    if state.graph is None:
        raise RuntimeError(f"Input pipelines based on Queues are not supported when eager "
                           f"execution is enabled ({function}). Please use tf.data to ingest "
                           "data into your model instead.")


def _local_variable(initial_value, name, validate_shape=True):
    return GraphVariable(initial_value, trainable=False, name=name,
                         validate_shape=validate_shape,
                         collections=[GraphKeys.LOCAL_VARIABLES])


def limit_epochs(tensor, num_epochs=None, name=None):
    """`tensor`, readable `num_epochs` times; then OutOfRangeError (None: no limit)."""
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with name_scope(name, "limit_epochs", [tensor]) as scope:
        epochs = _local_variable(np.int64(0), "epochs")
        counter = execute(COUNT_UP_TO, (epochs,), {"limit": int(num_epochs)}, "CountUpTo")
        with control_dependencies([counter]):
            return identity(tensor, name=scope)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None,
                   capacity=32, shared_name=None, summary_name=None, name=None,
                   cancel_op=None):
    """A FIFOQueue that a QueueRunner fills with the rows of `input_tensor`, epoch after
    epoch (each epoch shuffled when `shuffle`)."""
    _graph_only("input_producer")
    with name_scope(name, "input_producer", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        row_shape = input_tensor.shape[1:] if input_tensor.shape.rank is not None else \
            TensorShape(None)
        element_shape = row_shape.merge_with(TensorShape(element_shape)) \
            if element_shape is not None else row_shape
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or "
                             "`element_shape` must be specified")
        if shuffle:
            input_tensor = random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        queue = FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype],
                          shapes=[element_shape], shared_name=shared_name, name=name)
        enqueue = queue.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(queue, [enqueue], cancel_op=cancel_op))
        if summary_name is not None:
            scalar(summary_name, cast(queue.size(), dtypes.float32) * (1.0 / capacity))
        return queue


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None,
                          capacity=32, shared_name=None, name=None, cancel_op=None):
    """A queue of the strings (filenames) in `string_tensor`, for a reader."""
    message = "string_input_producer requires a non-null input tensor"
    _graph_only("string_input_producer")
    if isinstance(string_tensor, (list, tuple, np.ndarray)) and not len(string_tensor):
        raise ValueError(message)
    with name_scope(name, "input_producer", [string_tensor]) as scope:
        string_tensor = convert_to_tensor(string_tensor, dtype=dtypes.string)
        with control_dependencies([Assert(greater(size(string_tensor), 0), [message])]):
            string_tensor = identity(string_tensor)
        return input_producer(string_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, name=scope, summary_name=f"fraction_of_{capacity}_full",
                              cancel_op=cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """A queue of the integers 0 .. limit-1."""
    _graph_only("range_input_producer")
    with name_scope(name, "input_producer", [limit]) as scope:
        indices = range_(limit)
        return input_producer(indices, [], num_epochs, shuffle, seed, capacity, shared_name,
                              f"fraction_of_{capacity}_full", scope)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """One row of every tensor in `tensor_list` (the same row), taken from a range queue."""
    _graph_only("slice_input_producer")
    with name_scope(name, "input_producer", tensor_list):
        tensor_list = [convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        rows = shape(tensor_list[0], out_type=dtypes.int64)[0]
        queue = range_input_producer(rows, num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                                     capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [gather(t, index) for t in tensor_list]


def match_filenames_once(pattern, name=None):
    """A local variable holding the names of the files that match `pattern` when it is
    initialized (run `local_variables_initializer()`)."""
    _graph_only("match_filenames_once")
    with name_scope(name, "matching_filenames", [pattern]) as scope:
        return _local_variable(matching_files(pattern), scope,
                               validate_shape=False)
