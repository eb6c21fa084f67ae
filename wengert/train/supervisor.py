"""`compat.v1.train.Supervisor` and `basic_train_loop`: TensorFlow 1's older managed training
loop, before MonitoredTrainingSession.

    sv = tf.compat.v1.train.Supervisor(logdir="/tmp/run")
    with sv.managed_session() as sess:
        while not sv.should_stop():
            sess.run(train_op)

Making a Supervisor settles the ops it uses (each argument left at its default is taken from
the graph's collection of that name, or made: the init op, the ready ops, the local init op,
a Saver of the global variables, the global step) and finalizes the graph. `managed_session`
prepares a session with a SessionManager (restoring the latest checkpoint of `logdir` if there
is one) and, for the chief, starts the standard services as threads on the Supervisor's
Coordinator: a checkpoint saved at once and then every `save_model_secs`, the summary op's
output written every `save_summaries_secs`, and global steps per second. Leaving the block stops
and joins the threads and closes the session; an exception in the block, or in a service,
stops them and is re-raised, except OutOfRangeError (an input pipeline running out), which ends
the block quietly. Services run `Session.run` from their threads beside the training loop, as
TensorFlow's do.
"""
import contextlib
import os
import time

from ..framework.context import state
from ..framework.errors import AbortedError, UnimplementedError
from ..graph.collections import GraphKeys
from ..graph.graph import get_default_graph
from ..graph.variable_initialization import report_uninitialized_variables
from ..graph.variables import (global_variables, global_variables_initializer,
                               local_variables_initializer)
from ..summary.v1 import FileWriter
from .basic_hooks import scalar_summary
from .coordinator import Coordinator, LooperThread
from .global_step_variable import get_global_step
from .saver import Saver
from .session_manager import SessionManager

__all__ = ["Supervisor", "basic_train_loop"]


def _settled(value, graph, key, make):
    """An argument as given, or (left at USE_DEFAULT) the collection's one item or a new one."""
    if value is not Supervisor.USE_DEFAULT:
        return value
    items = graph.get_collection(key)
    if items:
        return items[0]
    made = make()
    if made is not None:
        graph.add_to_collection(key, made)
    return made


class Supervisor:
    """A managed training loop (see the module docstring)."""

    USE_DEFAULT = 0

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT,
                 is_chief=True, init_op=USE_DEFAULT, init_feed_dict=None,
                 local_init_op=USE_DEFAULT, logdir=None, summary_op=USE_DEFAULT,
                 saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120,
                 checkpoint_basename="model.ckpt", session_manager=None,
                 summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        if state.graph is None and graph is None:
            raise RuntimeError("Supervisors are incompatible with eager execution.")
        self._graph = graph if graph is not None else get_default_graph()
        with self._graph.as_default():
            self._settle(ready_op, ready_for_local_init_op, init_op, local_init_op, summary_op,
                         saver, global_step)
        self._init_feed_dict, self._init_fn = init_feed_dict, init_fn
        self._is_chief, self._logdir = is_chief, logdir
        self._save_summaries_secs, self._save_model_secs = save_summaries_secs, save_model_secs
        self._stop_grace_secs = stop_grace_secs
        self._save_path = os.path.join(logdir, checkpoint_basename) if logdir else None
        self._summary_writer = (FileWriter(logdir) if logdir and is_chief else None) \
            if summary_writer is Supervisor.USE_DEFAULT else summary_writer
        self._session_manager = session_manager or SessionManager(
            local_init_op=self._local_init_op, ready_op=self._ready_op,
            ready_for_local_init_op=self._ready_for_local_init_op, graph=self._graph,
            recovery_wait_secs=recovery_wait_secs,
            local_init_run_options=local_init_run_options)
        self._coord = Coordinator()
        self._started_threads = []
        self._graph.finalize()

    def _settle(self, ready_op, ready_for_local_init_op, init_op, local_init_op, summary_op,
                saver, global_step):
        graph = self._graph
        self._ready_op = _settled(ready_op, graph, GraphKeys.READY_OP,
                                  report_uninitialized_variables)
        self._ready_for_local_init_op = _settled(
            ready_for_local_init_op, graph, GraphKeys.READY_FOR_LOCAL_INIT_OP,
            lambda: report_uninitialized_variables(global_variables()))
        self._init_op = _settled(init_op, graph, GraphKeys.INIT_OP, global_variables_initializer)
        self._local_init_op = _settled(local_init_op, graph, GraphKeys.LOCAL_INIT_OP,
                                       local_variables_initializer)
        self._summary_op = _settled(summary_op, graph, GraphKeys.SUMMARY_OP, lambda: None)
        self._saver = _settled(saver, graph, GraphKeys.SAVERS,
                               lambda: Saver() if global_variables() else None)
        self._global_step = get_global_step(graph) if global_step is Supervisor.USE_DEFAULT \
            else global_step

    coord = property(lambda self: self._coord)
    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    summary_writer = property(lambda self: self._summary_writer)
    summary_op = property(lambda self: self._summary_op)
    save_summaries_secs = property(lambda self: self._save_summaries_secs)
    global_step = property(lambda self: self._global_step)
    saver = property(lambda self: self._saver)
    save_model_secs = property(lambda self: self._save_model_secs)
    save_path = property(lambda self: self._save_path)
    session_manager = property(lambda self: self._session_manager)
    is_chief = property(lambda self: self._is_chief)

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False,
                                    max_wait_secs=7200, start_standard_services=True):
        """The chief's prepared session (services started), or a worker's ready one."""
        self._coord.clear_stop()
        if not self._is_chief:
            return self._session_manager.wait_for_session(master, config=config,
                                                          max_wait_secs=max_wait_secs)
        sess = self._session_manager.prepare_session(
            master, init_op=self._init_op, saver=self._saver, checkpoint_dir=self._logdir,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config, init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
        if self._summary_writer is not None:
            self._summary_writer.add_graph(self._graph)
        if start_standard_services:
            self.start_standard_services(sess)
        return sess

    def start_standard_services(self, sess):
        """Start the checkpoint, summary and step-counter threads; returns them."""
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because "
                               "only chief supervisors can write events.")
        threads = []
        if self._saver is not None and self._save_path and self._save_model_secs:
            threads.append(self.loop(self._save_model_secs, self._save_checkpoint, (sess,)))
        writer = self._summary_writer
        if writer is not None and self._save_summaries_secs:
            if self._summary_op is not None:
                threads.append(self.loop(self._save_summaries_secs, self._write_summary,
                                         (sess,)))
            if self._global_step is not None:
                counter = _StepRate(self, sess)
                threads.append(self.loop(self._save_summaries_secs, counter.record))
        return threads

    def _save_checkpoint(self, sess):
        self._saver.save(sess, self._save_path, global_step=self._global_step)

    def _write_summary(self, sess):
        fetches = [self._summary_op] + ([self._global_step] if self._global_step is not None
                                        else [])
        values = sess.run(fetches)
        self._summary_writer.add_summary(values[0], values[1] if len(values) > 1 else None)

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """Start a LooperThread on the Supervisor's coordinator; returns it."""
        looper = LooperThread(self._coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        self._started_threads.append(looper)
        return looper

    def start_queue_runners(self, sess, queue_runners=None):
        """Queue runners are not part of wengert: with none in the graph this starts nothing."""
        runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS) \
            if queue_runners is None else list(queue_runners)
        if runners:
            raise UnimplementedError(f"Supervisor.start_queue_runners: {len(runners)} queue "
                                     f"runners given; wengert has no queue runners (use "
                                     f"tf.data). Session: {sess!r:.40}")
        return []

    def summary_computed(self, sess, summary, global_step=None):
        """Write a summary computed by the caller, at the global step."""
        if self._summary_writer is None:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self._global_step is not None:
            global_step = int(sess.run(self._global_step))
        self._summary_writer.add_summary(summary, global_step)

    def request_stop(self, ex=None):
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Stop and join the services (and `threads`); re-raise what requested the stop."""
        joined = self._started_threads + list(threads or [])
        self._coord.request_stop()
        try:
            self._coord.join(joined, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            self._started_threads = []
            if close_summary_writer and self._summary_writer is not None:
                self._summary_writer.close()

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True,
                        close_summary_writer=True):
        """A session for the `with` block, services running (see the module docstring)."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(
                master, config=config, start_standard_services=start_standard_services)
            yield sess
        except Exception as error:  # noqa: BLE001 - handed to the coordinator, re-raised by stop
            self.request_stop(error)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    sess.close()


# TensorFlow's capitalized aliases of the methods, from its first releases
Supervisor.PrepareSession = Supervisor.prepare_or_wait_for_session
Supervisor.StartQueueRunners = Supervisor.start_queue_runners
Supervisor.StartStandardServices = Supervisor.start_standard_services
Supervisor.Stop = Supervisor.stop
Supervisor.RequestStop = Supervisor.request_stop
Supervisor.Loop = Supervisor.loop
Supervisor.ShouldStop = Supervisor.should_stop
Supervisor.StopOnException = Supervisor.stop_on_exception
Supervisor.WaitForStop = Supervisor.wait_for_stop
Supervisor.SummaryComputed = Supervisor.summary_computed


class _StepRate:
    """Writes "global_step/sec" between two calls."""

    def __init__(self, supervisor, sess):
        self._sv, self._sess = supervisor, sess
        self._last = None

    def record(self):
        step, now = int(self._sess.run(self._sv.global_step)), time.time()
        if self._last is not None and now > self._last[1]:
            rate = (step - self._last[0]) / (now - self._last[1])
            tag = self._sv.global_step.op.name + "/sec"
            self._sv.summary_writer.add_summary(scalar_summary(tag, rate), step)
        self._last = (step, now)


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Call `train_step_fn(sess, *args, **kwargs)` until the supervisor stops, starting over
    in a new managed session after an AbortedError."""
    args, kwargs = args or [], kwargs or {}
    should_retry = True
    while should_retry:
        try:
            should_retry = False
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
        except AbortedError:
            should_retry = True
