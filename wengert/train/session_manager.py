"""`compat.v1.train.SessionManager`: making a Session whose model is ready, from a checkpoint or
by running the init ops, as TensorFlow 1's chief and workers do.

`prepare_session` restores the latest checkpoint of `checkpoint_dir` (or the given file) with
`saver` when there is one, else runs `init_op` (with `init_feed_dict`) and `init_fn(sess)`;
then runs the local init op and checks the ready op: a model that is still not ready (the ready
op, by default `report_uninitialized_variables()`, names variables) is a RuntimeError naming
them. `recover_session` only restores, returning (session, whether it was restored and ready);
`wait_for_session` waits for a model another process initializes, which in one process here
means it must already be ready (else a RuntimeError after `max_wait_secs`; TensorFlow
raises DeadlineExceededError, which wengert's errors lack).
"""
import time

import numpy as np

from ..graph.graph import get_default_graph
from ..runtime.session import Session
from .checkpoint_state import latest_checkpoint

__all__ = ["SessionManager"]


def _names(value):
    return [v.decode() if isinstance(v, bytes) else str(v) for v in np.asarray(value).ravel()]


class SessionManager:
    """Creates sessions whose model is initialized (see the module docstring)."""

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None,
                 graph=None, recovery_wait_secs=30, local_init_run_options=None,
                 local_init_feed_dict=None):
        self._local_init_op, self._ready_op = local_init_op, ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph if graph is not None else get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._local_init_run_options = local_init_run_options
        self._local_init_feed_dict = local_init_feed_dict

    def _restore(self, master, saver, checkpoint_dir, checkpoint_filename_with_path, config):
        """(session, restored): the session, restored when a checkpoint exists."""
        if master not in ("", None):
            raise ValueError(f"SessionManager: master={master!r}: sessions run in this process "
                             "only; leave master empty.")
        sess = Session(graph=self._graph, config=config)
        path = checkpoint_filename_with_path or (
            latest_checkpoint(checkpoint_dir) if checkpoint_dir else None)
        if saver is None or path is None:
            return sess, False
        saver.restore(sess, path)
        return sess, True

    def _local_init_and_check(self, sess):
        """Run the local init op when the model allows it; the reasons it is not ready (None
        when it is)."""
        if self._ready_for_local_init_op is not None:
            pending = _names(sess.run(self._ready_for_local_init_op))
            if pending:
                return "Variables not initialized: " + ", ".join(pending)
        if self._local_init_op is not None:
            sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict,
                     options=self._local_init_run_options)
        if self._ready_op is None:
            return None
        pending = _names(sess.run(self._ready_op))
        return "Variables not initialized: " + ", ".join(pending) if pending else None

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, init_feed_dict=None, init_fn=None):
        """A session restored from the latest checkpoint, or initialized."""
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and "
                             "checkpoint_filename_with_path.")
        sess, restored = self._restore(master, saver, checkpoint_dir,
                                       checkpoint_filename_with_path, config)
        deadline = time.time() + max_wait_secs
        while not restored and wait_for_checkpoint and checkpoint_dir and \
                time.time() < deadline:
            time.sleep(min(self._recovery_wait_secs, max(0.0, deadline - time.time())))
            sess, restored = self._restore(master, saver, checkpoint_dir, None, config)
        if not restored:
            if init_op is None and init_fn is None and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or "
                                   "local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn is not None:
                init_fn(sess)
        problem = self._local_init_and_check(sess)
        if problem is not None:
            raise RuntimeError(f"Init operations did not make model ready.  Init op: "
                               f"{getattr(init_op, 'name', init_op)}, init fn: {init_fn}, "
                               f"error: {problem}")
        return sess

    def recover_session(self, master, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None):
        """(session, True) when a checkpoint restored a ready model, else (session, False)."""
        sess, restored = self._restore(master, saver, checkpoint_dir,
                                       checkpoint_filename_with_path, config)
        deadline = time.time() + max_wait_secs
        while not restored and wait_for_checkpoint and checkpoint_dir and \
                time.time() < deadline:
            time.sleep(min(self._recovery_wait_secs, max(0.0, deadline - time.time())))
            sess, restored = self._restore(master, saver, checkpoint_dir, None, config)
        if not restored:
            return sess, False
        return sess, self._local_init_and_check(sess) is None

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """A session whose model is ready; waits up to `max_wait_secs` for it."""
        deadline = time.time() + max_wait_secs
        while True:
            sess, _ = self._restore(master, None, None, None, config)
            problem = self._local_init_and_check(sess)
            if problem is None:
                return sess
            sess.close()
            if time.time() + self._recovery_wait_secs > deadline:
                raise RuntimeError(f"Session was not ready after waiting "
                                            f"{max_wait_secs} secs: {problem}")
            time.sleep(self._recovery_wait_secs)
