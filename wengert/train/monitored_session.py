"""TensorFlow 1's monitored training loop: `MonitoredTrainingSession`, `MonitoredSession`,
`SingularMonitoredSession`, `Scaffold` and the session creators.

    with tf.compat.v1.train.MonitoredTrainingSession(
            checkpoint_dir="/tmp/run", hooks=[StopAtStepHook(last_step=1000)]) as sess:
        while not sess.should_stop():
            sess.run(train_op)

Making a monitored session calls every hook's `begin`, finalizes the Scaffold (the init op, the
local init op, the ready ops and the Saver, each taken from the graph's collections or made)
and then the graph (so an op created inside the loop is an error), creates a Session with a
SessionManager (train/session_manager.py: the latest checkpoint of `checkpoint_dir` restored if
there is one, else the init op, its feed dict and init_fn; then the local init op and the ready
check), and calls every hook's `after_create_session`. Each `run`
gathers the hooks' `before_run` fetches and feeds, runs them with the caller's in one
`Session.run` (a tensor fed by both a hook and the caller is an error), hands each hook its
results in `after_run`, and returns the caller's. Leaving the `with` block calls every hook's
`end` (unless an error is propagating), stops and joins the queue runners' threads (started
with the session, as TensorFlow's does) and closes the session; OutOfRangeError and
StopIteration (an input pipeline running out) end the block quietly.
MonitoredTrainingSession adds, for the chief, a StepCounterHook, a CheckpointSaverHook every
600 seconds by default (or `save_checkpoint_steps`) when a checkpoint_dir is given, and the
chief-only hooks; a non-chief only waits for the chief's initialization (here: none is needed,
one process) and runs the user's hooks.
"""
from ..framework.errors import OutOfRangeError
from ..graph.collections import GraphKeys
from ..graph.graph import NO_OP, get_default_graph
from ..graph.variable_initialization import report_uninitialized_variables
from ..graph.variables import (global_variables, global_variables_initializer,
                               local_variables_initializer)
from .basic_hooks import CheckpointSaverHook, StepCounterHook, SummarySaverHook
from .coordinator import Coordinator
from .queue_runner import start_queue_runners
from .saver import Saver
from .session_manager import SessionManager
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunValues

__all__ = ["Scaffold", "SessionCreator", "ChiefSessionCreator", "WorkerSessionCreator",
           "MonitoredSession", "SingularMonitoredSession", "MonitoredTrainingSession"]

USE_DEFAULT = object()


class Scaffold:
    """The ops a monitored session needs: init, local init, ready checks and the Saver."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None,
                 saver=None, copy_from_scaffold=None, local_init_feed_dict=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            init_op = init_op or copy_from_scaffold.init_op
            init_feed_dict = init_feed_dict or copy_from_scaffold.init_feed_dict
            init_fn = init_fn or copy_from_scaffold._user_init_fn
            local_init_op = local_init_op or copy_from_scaffold.local_init_op
            summary_op = summary_op or copy_from_scaffold.summary_op
            saver = saver or copy_from_scaffold.saver
        self._init_op, self._init_feed_dict = init_op, init_feed_dict
        self._user_init_fn = init_fn
        self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op
        self._local_init_op, self._local_init_feed_dict = local_init_op, local_init_feed_dict
        self._summary_op, self._saver = summary_op, saver
        self._finalized = False

    def finalize(self):
        """Make the missing ops (or take them from the graph's collections), then finalize the
        graph."""
        if self._finalized:
            return self
        graph = get_default_graph()
        if self._init_op is None:
            self._init_op = _from_collection(graph, GraphKeys.INIT_OP,
                                             global_variables_initializer)
        if self._local_init_op is None:
            self._local_init_op = _from_collection(graph, GraphKeys.LOCAL_INIT_OP,
                                                   local_variables_initializer)
        if self._ready_op is None:
            self._ready_op = _from_collection(graph, GraphKeys.READY_OP,
                                              report_uninitialized_variables)
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = _from_collection(
                graph, GraphKeys.READY_FOR_LOCAL_INIT_OP,
                lambda: report_uninitialized_variables(global_variables()))
        if self._summary_op is None:
            self._summary_op = _from_collection(graph, GraphKeys.SUMMARY_OP, lambda: None)
        if self._saver is None:
            self._saver = default_saver(graph)
        graph.finalize()
        self._finalized = True
        return self

    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    init_fn = property(lambda self: (lambda sess: self._user_init_fn(self, sess))
                       if self._user_init_fn else None)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    local_init_op = property(lambda self: self._local_init_op)
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        """The one item of a collection, or a new one (added to it)."""
        return _from_collection(get_default_graph(), collection_key, default_constructor,
                                arg_name)

    @staticmethod
    def default_local_init_op():
        return local_variables_initializer()


def _from_collection(graph, key, make, what=None):
    items = graph.get_collection(key)
    if len(items) > 1:
        raise RuntimeError(f"More than one item in the collection \"{key}\". Please indicate "
                           f"which one to use by passing it to the constructor"
                           f"{f' as {what}' if what else ''}.")
    if items:
        return items[0]
    item = make()
    if item is not None:
        graph.add_to_collection(key, item)
    return item


def default_saver(graph):
    """The graph's one Saver in SAVERS, or a new Saver of all variables (added there)."""
    return _from_collection(graph, GraphKeys.SAVERS,
                            lambda: Saver(sharded=True, allow_empty=True))


class SessionCreator:
    """Makes the session a MonitoredSession runs."""

    def create_session(self):
        raise NotImplementedError("SessionCreator subclasses implement create_session().")


class ChiefSessionCreator(SessionCreator):
    """Restores the latest checkpoint (or initializes), then runs the local init op."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        self._master = master
        self._scaffold = scaffold or Scaffold()
        self._config = config
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path

    def create_session(self):
        scaffold = self._scaffold.finalize()
        manager = SessionManager(local_init_op=scaffold.local_init_op,
                                 local_init_feed_dict=scaffold.local_init_feed_dict,
                                 ready_op=scaffold.ready_op,
                                 ready_for_local_init_op=scaffold.ready_for_local_init_op,
                                 graph=get_default_graph())
        path = self._checkpoint_filename_with_path
        return manager.prepare_session(
            self._master, saver=scaffold.saver, checkpoint_dir=None if path else
            self._checkpoint_dir, checkpoint_filename_with_path=path, config=self._config,
            init_op=scaffold.init_op, init_feed_dict=scaffold.init_feed_dict,
            init_fn=scaffold.init_fn)


class WorkerSessionCreator(ChiefSessionCreator):
    """A non-chief's session: in one process it is made as the chief's is."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        if max_wait_secs is not None and max_wait_secs < 0:
            raise ValueError(f"WorkerSessionCreator: max_wait_secs must be >= 0, got "
                             f"{max_wait_secs}.")
        super().__init__(scaffold, master, config)


def _merged_feeds(caller, hooks_args):
    feeds = dict(caller or {})
    for args in hooks_args:
        for key, value in (args.feed_dict or {}).items():
            if any(key is k for k in feeds):
                raise RuntimeError("Same tensor is fed by two hooks." if key not in (caller or {})
                                   else "Same tensor is fed by a SessionRunHook and user.")
            feeds[key] = value
    return feeds


class MonitoredSession:
    """A Session that runs hooks around every run (see the module docstring)."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._graph = get_default_graph()
        self._coord = Coordinator()
        self._stop_grace_period_secs = stop_grace_period_secs
        self._sess = (session_creator or ChiefSessionCreator()).create_session()
        self._threads = start_queue_runners(self._sess, self._coord)
        self._should_stop = False
        for hook in self._hooks:
            hook.after_create_session(self._sess, self._coord)

    @property
    def graph(self):
        return self._graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Run `fetches` with the hooks' fetches and feeds; returns the caller's results."""
        if self._sess is None:
            raise RuntimeError("Run called on a closed MonitoredSession.")
        if self._should_stop:
            raise RuntimeError("Run called even after should_stop requested.")
        context = SessionRunContext(SessionRunArgs(fetches, feed_dict), self._sess)
        asked = [(hook, hook.before_run(context) or SessionRunArgs(None))
                 for hook in self._hooks]
        feeds = _merged_feeds(feed_dict, [args for _, args in asked])
        extra = [args.fetches for _, args in asked if args.fetches is not None]
        results = self._sess.run([fetches, extra], feed_dict=feeds or None, options=options,
                                 run_metadata=run_metadata)
        found = iter(results[1])
        for hook, args in asked:
            result = next(found) if args.fetches is not None else None
            hook.after_run(context, SessionRunValues(result, options, run_metadata))
        self._should_stop = self._should_stop or context.stop_requested
        return results[0]

    def run_step_fn(self, step_fn):
        """`step_fn(step_context)`, whose `run_with_hooks` is this session's run and `session`
        the raw one; a `request_stop()` from it stops the loop."""
        context = StepContext(self._sess, self.run)
        try:
            return step_fn(context)
        except _StopRequested:
            self._should_stop = True
            return None

    def should_stop(self):
        return self._sess is None or self._should_stop or self._coord.should_stop()

    def close(self):
        self._close(None)

    def _close(self, error_type):
        if self._sess is None:
            return
        try:
            if error_type is None:
                for hook in self._hooks:
                    hook.end(self._sess)
        finally:
            self._coord.request_stop()
            try:
                self._coord.join(self._threads, self._stop_grace_period_secs,
                                 ignore_live_threads=True)
            finally:
                self._sess.close()
                self._sess = None

    def __enter__(self):
        return self

    def __exit__(self, error_type, error, traceback):
        if error_type in (OutOfRangeError, StopIteration):
            error_type = None
        self._close(error_type)
        return error_type is None and error is not None

    def _tf_sess(self):
        return self._sess


class _StopRequested(Exception):
    """Raised by a step function's request_stop to leave it."""


class StepContext:
    """What `run_step_fn` hands the step function: the raw session, the hooked run, and
    `request_stop`."""

    def __init__(self, session, run_with_hooks_fn):
        self.session, self._run_with_hooks = session, run_with_hooks_fn

    def run_with_hooks(self, *args, **kwargs):
        return self._run_with_hooks(*args, **kwargs)

    def request_stop(self):
        raise _StopRequested


MonitoredSession.StepContext = StepContext


class SingularMonitoredSession(MonitoredSession):
    """A MonitoredSession with a ChiefSessionCreator, whose raw session is reachable."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config,
                                      checkpoint_dir=checkpoint_dir,
                                      checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, stop_grace_period_secs)

    def raw_session(self):
        return self._sess


def _schedule(secs, steps, default):
    """(seconds, steps) of a saving hook: the default when neither is given."""
    if secs is USE_DEFAULT and steps is USE_DEFAULT:
        return default
    return (None if secs is USE_DEFAULT else secs, None if steps is USE_DEFAULT else steps)


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None,  # noqa: N802 - TensorFlow's name
                             hooks=None, chief_only_hooks=None,
                             save_checkpoint_secs=USE_DEFAULT, save_summaries_steps=USE_DEFAULT,
                             save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100,
                             max_wait_secs=7200, save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None, save_graph_def=True):
    """A MonitoredSession set up for training (see the module docstring)."""
    scaffold = scaffold or Scaffold()
    hooks = list(hooks or [])
    if not is_chief:
        creator = WorkerSessionCreator(scaffold, master, config, max_wait_secs=max_wait_secs)
        return MonitoredSession(creator, hooks, stop_grace_period_secs)
    creator = ChiefSessionCreator(scaffold, master, config, checkpoint_dir=checkpoint_dir)
    hooks = list(chief_only_hooks or []) + hooks
    if log_step_count_steps and log_step_count_steps > 0:
        hooks.append(StepCounterHook(every_n_steps=log_step_count_steps,
                                     output_dir=summary_dir or checkpoint_dir))
    summary_dir = summary_dir or checkpoint_dir
    secs, steps = _schedule(save_summaries_secs, save_summaries_steps, (None, 100))
    if summary_dir and (secs or steps):
        hooks.append(SummarySaverHook(save_steps=steps, save_secs=secs, output_dir=summary_dir,
                                      scaffold=scaffold))
    secs, steps = _schedule(save_checkpoint_secs, save_checkpoint_steps, (600, None))
    if checkpoint_dir and (secs or steps):
        hooks.append(CheckpointSaverHook(checkpoint_dir, save_secs=secs, save_steps=steps,
                                         scaffold=scaffold, save_graph_def=save_graph_def))
    return MonitoredSession(creator, hooks, stop_grace_period_secs)
