"""The common hooks of TensorFlow 1's monitored sessions (`compat.v1.train.*Hook`).

- StopAtStepHook: request a stop once the global step reaches `last_step` (or `num_steps`
  past the step the session started at).
- CheckpointSaverHook: save with a Saver when the session starts, then every `save_steps`
  global steps or `save_secs` seconds, and at the end; CheckpointSaverListener callbacks run
  before and after each save (an `after_save` returning True stops training).
- LoggingTensorHook: log the values of named tensors every N local steps or seconds (and/or at
  the end), as "tag = value, ..." in tag order (sorted for a dict).
- NanTensorHook: fail (NanLossDuringTrainingError) or stop when the loss is NaN.
- StepCounterHook: log global steps per second every N steps or seconds.
- SummarySaverHook: write the summary op's output to an event file every N steps or seconds.
- FeedFnHook feeds `feed_fn()` to every run; FinalOpsHook runs ops when the session ends;
  GlobalStepWaiterHook holds the first run until the global step reaches a value.
`SecondOrStepTimer` decides when a hook fires: the first time, then once `every_steps` steps
or `every_secs` seconds have passed since it last fired.
"""
import logging
import os
import time

import numpy as np

from ..framework.tensor import convert_to_tensor
from ..graph.collections import GraphKeys
from ..graph.graph import get_default_graph
from ..summary import protobuf
from ..summary.v1 import FileWriter
from .global_step_variable import get_global_step
from .session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["SecondOrStepTimer", "StopAtStepHook", "CheckpointSaverListener",
           "CheckpointSaverHook", "LoggingTensorHook", "NanTensorHook",
           "NanLossDuringTrainingError", "StepCounterHook", "SummarySaverHook", "FeedFnHook",
           "FinalOpsHook", "GlobalStepWaiterHook"]

_LOG = logging.getLogger("tensorflow")


class SecondOrStepTimer:
    """Fires every `every_secs` seconds or every `every_steps` steps (exactly one given)."""

    def __init__(self, every_secs=None, every_steps=None):
        if (every_secs is None) == (every_steps is None):
            raise ValueError("Either every_secs or every_steps should be provided."
                             if every_secs is None else
                             "Can not provide both every_secs and every_steps.")
        self._every_secs, self._every_steps = every_secs, every_steps
        self.reset()

    def reset(self):
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None:
            return time.time() >= self._last_triggered_time + self._every_secs
        return step >= self._last_triggered_step + self._every_steps

    def update_last_triggered_step(self, step):
        """Mark `step` as fired; returns (seconds, steps) since the last firing (None, None
        the first time)."""
        now = time.time()
        elapsed = (None, None) if self._last_triggered_time is None else (
            now - self._last_triggered_time, step - self._last_triggered_step)
        self._last_triggered_time, self._last_triggered_step = now, step
        return elapsed

    def last_triggered_step(self):
        return self._last_triggered_step


def _global_step(hook):
    step = get_global_step()
    if step is None:
        raise RuntimeError(f"Global step should be created to use {hook}.")
    return step


class StopAtStepHook(SessionRunHook):
    """Requests a stop at a global step."""

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps, self._last_step = num_steps, last_step

    def begin(self):
        self._global_step_tensor = _global_step("StopAtStepHook")

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = int(session.run(self._global_step_tensor)) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        if int(run_values.results) + 1 >= self._last_step:
            if int(run_context.session.run(self._global_step_tensor)) >= self._last_step:
                run_context.request_stop()


class CheckpointSaverListener:
    """Callbacks around CheckpointSaverHook's saves."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves checkpoints every N steps or seconds (see the module docstring)."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None,
                 save_graph_def=True):
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver, self._scaffold = saver, scaffold
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = list(listeners or [])
        self._save_graph_def = save_graph_def

    def begin(self):
        self._global_step_tensor = _global_step("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        step = int(session.run(self._global_step_tensor))
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        if self._timer.should_trigger_for_step(int(run_values.results) + 1):
            step = int(run_context.session.run(self._global_step_tensor))
            if self._timer.should_trigger_for_step(step):
                self._timer.update_last_triggered_step(step)
                if self._save(run_context.session, step):
                    run_context.request_stop()

    def end(self, session):
        step = int(session.run(self._global_step_tensor))
        if step != self._timer.last_triggered_step():
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _save(self, session, step):
        """Save at `step`; True when a listener asks to stop."""
        _LOG.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        _LOG.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step,
                               write_meta_graph=self._save_graph_def)
        return any([listener.after_save(session, step) for listener in self._listeners])

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if not savers:
            raise RuntimeError(f"No items in collection {GraphKeys.SAVERS}. Please add a saver "
                               "to the collection or provide a saver or scaffold.")
        if len(savers) > 1:
            raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS}. Please "
                               "indicate which one to use by passing it to the constructor.")
        self._saver = savers[0]
        return self._saver


def _as_graph_element(item):
    if isinstance(item, str):
        graph = get_default_graph()
        return graph.get_tensor_by_name(item if ":" in item else item + ":0")
    return convert_to_tensor(item)


class LoggingTensorHook(SessionRunHook):
    """Logs tensors' values every N local steps or seconds, and/or at the end."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False,
                 formatter=None):
        only_log_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_log_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and "
                             "every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if isinstance(tensors, dict):
            self._tag_order = sorted(tensors)
        else:
            self._tag_order = [t if isinstance(t, str) else t.name for t in tensors]
            tensors = {tag: t for tag, t in zip(self._tag_order, tensors)}
        self._tensors = tensors
        self._formatter, self._log_at_end = formatter, at_end
        self._timer = None if only_log_at_end else SecondOrStepTimer(
            every_secs=every_n_secs, every_steps=every_n_iter)

    def begin(self):
        if self._timer is not None:
            self._timer.reset()
        self._iter_count = 0
        self._current = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = self._timer is not None and \
            self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current) if self._should_trigger else None

    def _log(self, values):
        elapsed = None
        if self._timer is not None:
            elapsed, _ = self._timer.update_last_triggered_step(self._iter_count)
        if self._formatter is not None:
            _LOG.info(self._formatter(values))
            return
        text = ", ".join(f"{tag} = {values[tag]!s}" for tag in self._tag_order)
        if elapsed is not None:
            _LOG.info("%s (%.3f sec)", text, elapsed)
        else:
            _LOG.info("%s", text)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log(session.run(self._current))


class NanLossDuringTrainingError(RuntimeError):
    def __str__(self):
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Raises NanLossDuringTrainingError (or requests a stop) when the loss is NaN."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor, self._fail_on_nan_loss = loss_tensor, fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                _LOG.error(message)
                raise NanLossDuringTrainingError
            _LOG.warning(message)
            run_context.request_stop()


class StepCounterHook(SessionRunHook):
    """Logs "global_step/sec" every N global steps or seconds."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None,
                 summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be "
                             "provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._output_dir, self._summary_writer = output_dir, summary_writer
        self.steps_per_sec = None

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = FileWriter(self._output_dir)
        self._global_step_tensor = _global_step("StepCounterHook")
        self._summary_tag = self._global_step_tensor.op.name + "/sec"

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        if not self._timer.should_trigger_for_step(int(run_values.results) + 1):
            return
        step = int(run_context.session.run(self._global_step_tensor))
        if self._timer.should_trigger_for_step(step):
            seconds, steps = self._timer.update_last_triggered_step(step)
            if seconds:
                self.steps_per_sec = steps / seconds
                _LOG.info("%s: %g", self._summary_tag, self.steps_per_sec)
                if self._summary_writer is not None:
                    self._summary_writer.add_summary(
                        scalar_summary(self._summary_tag, self.steps_per_sec), step)


def scalar_summary(tag, value):
    """A serialized Summary holding one float32 scalar for TensorBoard's scalars dashboard."""
    return protobuf.summary([protobuf.summary_value(
        tag, tensor=protobuf.tensor_proto(np.float32(value)),
        metadata=protobuf.summary_metadata("scalars"))])


class SummarySaverHook(SessionRunHook):
    """Writes the summary op's output (serialized Summary protos) to an event file every N
    global steps or seconds."""

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None,
                 scaffold=None, summary_op=None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op, self._scaffold = summary_op, scaffold
        self._summary_writer, self._output_dir = summary_writer, output_dir
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = FileWriter(self._output_dir)
        self._global_step_tensor = _global_step("SummarySaverHook")
        self._next_step = None

    def _summaries(self):
        op = self._summary_op if self._summary_op is not None else self._scaffold.summary_op
        if op is None:
            return None
        return list(op) if isinstance(op, (list, tuple)) else [op]

    def before_run(self, run_context):
        requests = {"global_step": self._global_step_tensor}
        summaries = self._summaries()
        self._request_summary = summaries is not None and (
            self._next_step is None or self._timer.should_trigger_for_step(self._next_step))
        if self._request_summary:
            requests["summary"] = summaries
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        step = int(run_values.results["global_step"])
        if self._request_summary and self._summary_writer is not None:
            self._timer.update_last_triggered_step(step)
            for summary in run_values.results["summary"]:
                self._summary_writer.add_summary(summary, step)
        self._next_step = step + 1

    def end(self, session=None):
        if self._summary_writer is not None:
            self._summary_writer.flush()


class GlobalStepWaiterHook(SessionRunHook):
    """Holds the first run until the global step reaches `wait_until_step` (a worker waiting
    for the chief to make progress); the step is polled every half second."""

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = _global_step("GlobalStepWaiterHook")

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        _LOG.info("Waiting for global step %d before starting training.",
                  self._wait_until_step)
        while int(run_context.session.run(self._global_step_tensor)) < self._wait_until_step:
            time.sleep(0.5)
        self._worker_is_started = True
        return None


class FeedFnHook(SessionRunHook):
    """Feeds `feed_fn()` (a feed dict) to every run."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` when the session ends; their values are `final_ops_values`."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops, self._final_ops_feed_dict = final_ops, final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is not None:
            self._final_ops_values = session.run(self._final_ops,
                                                 feed_dict=self._final_ops_feed_dict)
