"""The hook protocol of TensorFlow 1's monitored sessions (`compat.v1.train.SessionRunHook`).

A MonitoredSession (train/monitored_session.py) calls each hook around the session's life and
around every `run`:

    begin()                              before the graph is finalized: build ops here
    after_create_session(session, coord) once the session exists and is initialized
    before_run(run_context)              may return SessionRunArgs(fetches, feed_dict, options)
                                         to run along with the caller's fetches
    after_run(run_context, run_values)   run_values.results holds what before_run asked for
    end(session)                         when the monitored session closes without an error

`run_context.request_stop()` asks the loop to stop: `should_stop()` turns true after the run.
"""
import collections

__all__ = ["SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues"]


class SessionRunHook:
    """A hook that does nothing at each point; subclasses override the ones they need."""

    def begin(self):
        pass

    def after_create_session(self, session, coord):
        pass

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values):
        pass

    def end(self, session):
        pass


class SessionRunArgs(collections.namedtuple("SessionRunArgs",
                                            ["fetches", "feed_dict", "options"])):
    """What a hook adds to one `run`: fetches (any structure `Session.run` takes), feeds and
    run options."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The `run` in progress: the caller's arguments, the raw session, and the stop request."""

    def __init__(self, original_args, session):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self):
        return self._original_args

    @property
    def session(self):
        return self._session

    @property
    def stop_requested(self):
        return self._stop_requested

    def request_stop(self):
        self._stop_requested = True


class SessionRunValues(collections.namedtuple("SessionRunValues",
                                              ["results", "options", "run_metadata"])):
    """The results of a hook's fetches after one `run`."""
