"""TensorFlow 1's queue runners: threads that keep a queue filled while a Session trains.

A `QueueRunner(queue, enqueue_ops)` runs each enqueue op in its own thread, over and over,
until the coordinator asks to stop or the op fails. An OutOfRangeError (an input producer past
its last epoch: the `queue_closed_exception_types`) ends that thread quietly, and the last
thread to end closes the queue, so the consumer's dequeue drains what is left and then raises
OutOfRangeError too. Any other error is handed to the Coordinator (`request_stop(e)`, which
`join` re-raises) and kept in `exceptions_raised`. With a coordinator one more thread waits for
the stop request and then runs `cancel_op` (close with cancel_pending_enqueues), which unblocks
enqueues waiting for room.

`add_queue_runner(qr)` files a runner in the graph's QUEUE_RUNNERS collection and
`start_queue_runners(sess, coord)` starts the threads of every runner there (once per session:
a runner already running in a session starts nothing new), returning them for
`coord.join(threads)`.
"""
import threading

from ..framework.context import state
from ..framework.errors import OutOfRangeError
from ..graph.collections import GraphKeys, add_to_collection
from ..runtime.session import Session, get_default_session
from ..util.tf_logging import get_logger

__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]


class QueueRunner:
    """Threads that run `enqueue_ops` to fill `queue` (see the module docstring)."""

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if state.graph is None:
            raise RuntimeError("QueueRunners are not supported when eager execution is "
                               "enabled. Instead, please use tf.data to get data into your "
                               "model.")
        if queue_runner_def is not None or import_scope is not None:
            raise NotImplementedError("QueueRunner: queue_runner_def / import_scope (a runner "
                                      "read back from a MetaGraphDef) are not supported; make "
                                      "the runner from its queue and enqueue ops.")
        if not queue or not enqueue_ops:
            raise ValueError("Queue and enqueue ops are required. Pass `queue` and "
                             "`enqueue_ops` to make a QueueRunner.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else \
            queue.close(cancel_pending_enqueues=True)
        types = queue_closed_exception_types
        if types is not None and (not isinstance(types, tuple) or not types or not all(
                isinstance(t, type) and issubclass(t, BaseException) for t in types)):
            raise TypeError("queue_closed_exception_types, when provided, must be a tuple of "
                            f"tf.error types, but saw: {types}")
        self._queue_closed_exception_types = types or (OutOfRangeError,)
        self._lock = threading.Lock()
        self._runs_per_session = {}
        self._exceptions_raised = []

    @property
    def queue(self):
        return self._queue

    @property
    def enqueue_ops(self):
        return self._enqueue_ops

    @property
    def close_op(self):
        return self._close_op

    @property
    def cancel_op(self):
        return self._cancel_op

    @property
    def queue_closed_exception_types(self):
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self):
        """The errors the threads stopped with (other than the queue-closed types)."""
        return self._exceptions_raised

    @property
    def name(self):
        return self._queue.name

    def to_proto(self, export_scope=None):
        """TensorFlow's QueueRunnerDef of the runner: not written by wengert."""
        raise NotImplementedError(
            f"QueueRunner.to_proto(export_scope={export_scope!r}): wengert's meta graphs do not "
            "hold queue runners; build the runner again with the graph.")

    @staticmethod
    def from_proto(queue_runner_def, import_scope=None):
        """A runner from TensorFlow's QueueRunnerDef: not read by wengert."""
        raise NotImplementedError(
            f"QueueRunner.from_proto(import_scope={import_scope!r}): wengert does not read a "
            f"QueueRunnerDef ({type(queue_runner_def).__name__}); build the runner from its "
            "queue and enqueue ops.")

    def _run(self, sess, enqueue_op, coord):
        """One thread: run `enqueue_op` until asked to stop or it fails."""
        decremented = False
        try:
            while not (coord and coord.should_stop()):
                try:
                    sess.run(enqueue_op)
                except self._queue_closed_exception_types:
                    decremented = True
                    self._last_one_closes(sess)
                    return
        except Exception as error:  # noqa: BLE001 - handed to the coordinator, as TensorFlow does
            if coord:
                coord.request_stop(error)
            else:
                get_logger().error("Exception in QueueRunner: %s", error)
                with self._lock:
                    self._exceptions_raised.append(error)
                raise
            with self._lock:
                self._exceptions_raised.append(error)
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _last_one_closes(self, sess):
        with self._lock:
            self._runs_per_session[sess] -= 1
            last = self._runs_per_session[sess] == 0
        if last:
            _run_quietly(sess, self._close_op)

    def _close_on_stop(self, sess, coord):
        """The extra thread: once the coordinator stops, cancel the queue's waiting enqueues."""
        coord.wait_for_stop()
        _run_quietly(sess, self._cancel_op)

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """The runner's threads for `sess` (none if it is already running there)."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord), daemon=daemon)
                   for op in self._enqueue_ops]
        if coord:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, coord),
                                            daemon=daemon))
        for thread in threads:
            if coord:
                coord.register_thread(thread)
            if start:
                thread.start()
        return threads


def _run_quietly(sess, op):
    """Run a close or cancel op whose failure (the queue closed already, the session closed)
    changes nothing; TensorFlow logs it only at a verbose level."""
    try:
        sess.run(op)
    except Exception:  # noqa: BLE001, S110 - see the docstring
        pass


def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    """File `qr` in the default graph's `collection` (QUEUE_RUNNERS)."""
    add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True,
                        collection=GraphKeys.QUEUE_RUNNERS):
    """Start the threads of every QueueRunner in `sess`'s graph's `collection`; returns them."""
    if sess is None:
        try:
            sess = get_default_session()
        except ValueError:
            sess = None
        if sess is None:
            raise ValueError("Cannot start queue runners: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to "
                             "tf.compat.v1.train.start_queue_runners(sess=sess)")
    if not isinstance(sess, Session):
        if type(sess).__name__ in ("MonitoredSession", "SingularMonitoredSession"):
            return []  # it started its runners itself
        raise TypeError(f"sess must be a `tf.Session` object. Given class: {type(sess)}")
    threads = []
    for runner in sess.graph.get_collection(collection):
        threads.extend(runner.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
