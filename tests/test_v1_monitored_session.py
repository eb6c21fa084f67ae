"""TF 1's monitored training: MonitoredTrainingSession / MonitoredSession /
SingularMonitoredSession with the common hooks, Scaffold, Coordinator. What each hook does is
TensorFlow 2.21's (the same program's checkpoints, logged lines and stop steps were read off
TensorFlow: checkpoints at steps 0, 4, 8 and 10 for save_checkpoint_steps=4 and
last_step=10)."""
import logging
import math
import os
import threading

import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from wengert.train import (CheckpointSaverHook, CheckpointSaverListener, Coordinator,
                           FeedFnHook, FinalOpsHook, LoggingTensorHook, LooperThread,
                           MonitoredSession, MonitoredTrainingSession, NanLossDuringTrainingError,
                           NanTensorHook, Scaffold, SecondOrStepTimer, SessionRunArgs,
                           SessionRunHook, SingularMonitoredSession, StepCounterHook,
                           StopAtStepHook)


def _model():
    step = v1.train.get_or_create_global_step()
    w = v1.get_variable("w", initializer=np.float32([1.0, -2.0]))
    loss = tf.reduce_sum(tf.square(w))
    train = v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    return step, w, loss, train


def test_training_loop_stops_saves_and_resumes(tmp_path):
    with tf.Graph().as_default():
        step, w, loss, train = _model()
        with MonitoredTrainingSession(checkpoint_dir=str(tmp_path), save_checkpoint_steps=4,
                                      hooks=[StopAtStepHook(last_step=10)],
                                      log_step_count_steps=None) as sess:
            runs = 0
            while not sess.should_stop():
                sess.run(train)
                runs += 1
        assert runs == 10
    kept = sorted(int(f.split("-")[1].split(".")[0]) for f in os.listdir(tmp_path)
                  if f.endswith(".index"))
    assert kept == [0, 4, 8, 10]
    assert v1.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-10")
    with tf.Graph().as_default():
        step, w, loss, train = _model()
        with MonitoredTrainingSession(checkpoint_dir=str(tmp_path),
                                      hooks=[StopAtStepHook(num_steps=2)]) as sess:
            assert sess.run(step) == 10  # restored, not initialized
            np.testing.assert_allclose(sess.run(w), np.float32([1.0, -2.0]) * 0.8 ** 10,
                                       rtol=1e-5)
            while not sess.should_stop():
                sess.run(train)
            with pytest.raises(RuntimeError, match="Run called even after should_stop"):
                sess.run(step)
    assert v1.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-12")


def test_graph_is_finalized_and_hooks_see_every_point():
    events = []

    class Recorder(SessionRunHook):
        def begin(self):
            events.append("begin")
            self.doubled = tf.multiply(v1.train.get_global_step(), 2)

        def after_create_session(self, session, coord):
            events.append(("created", int(session.run(v1.train.get_global_step()))))

        def before_run(self, run_context):
            events.append(("before", run_context.original_args.fetches is not None))
            return SessionRunArgs(self.doubled)

        def after_run(self, run_context, run_values):
            events.append(("after", int(run_values.results)))
            if run_values.results >= 4:
                run_context.request_stop()

        def end(self, session):
            events.append("end")

    with tf.Graph().as_default() as graph:
        step, w, loss, train = _model()
        with MonitoredSession(hooks=[Recorder()]) as sess:
            assert graph.finalized
            with pytest.raises(RuntimeError, match="finalized"):
                tf.constant(1.0)
            while not sess.should_stop():
                sess.run(train)
    assert events == ["begin", ("created", 0), ("before", True), ("after", 0),
                      ("before", True), ("after", 2), ("before", True), ("after", 4), "end"]


def test_feeds_final_ops_and_feed_conflicts():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [])
        total = v1.get_variable("total", initializer=np.float32(0.0))
        add = total.assign_add(x)
        final = FinalOpsHook(total * 10.0)
        with SingularMonitoredSession(hooks=[FeedFnHook(lambda: {x: 2.0}), final]) as sess:
            sess.run(add)
            sess.run(add)
            assert sess.raw_session().run(total) == 4.0
            with pytest.raises(RuntimeError, match="fed by a SessionRunHook and user"):
                sess.run(add, feed_dict={x: 1.0})
        assert final.final_ops_values == 40.0


def test_out_of_range_ends_the_block_quietly_and_skips_nothing():
    with tf.Graph().as_default():
        _model()
        with MonitoredSession() as sess:
            raise tf.errors.OutOfRangeError("input exhausted")
        assert sess.should_stop()


def test_logging_and_step_counter_hooks(caplog, tmp_path):
    with tf.Graph().as_default():
        step, w, loss, train = _model()
        hooks = [LoggingTensorHook({"loss": loss}, every_n_iter=2),
                 StepCounterHook(every_n_steps=2, output_dir=str(tmp_path)),
                 StopAtStepHook(last_step=5)]
        with caplog.at_level(logging.INFO, logger="tensorflow"):
            with MonitoredSession(hooks=hooks) as sess:
                while not sess.should_stop():
                    sess.run(train)
    logged = [r.getMessage() for r in caplog.records if "loss =" in r.getMessage()]
    assert [m.split(" (")[0] for m in logged] == ["loss = 5.0", "loss = 2.0479999",
                                                  "loss = 0.83886063"]  # TensorFlow's lines
    assert logged[1].endswith(" sec)") and not logged[0].endswith(" sec)")
    assert any(r.getMessage().startswith("global_step/sec: ") for r in caplog.records)
    assert any(f.startswith("events.out.tfevents") for f in os.listdir(tmp_path))
    with pytest.raises(ValueError, match="exactly one of every_n_iter and every_n_secs"):
        LoggingTensorHook(["x"])
    with pytest.raises(ValueError, match="invalid every_n_iter=0"):
        LoggingTensorHook(["x"], every_n_iter=0)


def test_nan_hook_raises_or_stops():
    for fail in (True, False):
        with tf.Graph().as_default():
            v1.train.get_or_create_global_step()
            x = v1.placeholder(tf.float32, [])
            with MonitoredSession(hooks=[NanTensorHook(tf.sqrt(x), fail_on_nan_loss=fail)]) \
                    as sess:
                sess.run(x, {x: 4.0})
                if fail:
                    with pytest.raises(NanLossDuringTrainingError, match="NaN loss during"):
                        sess.run(x, {x: -1.0})
                else:
                    sess.run(x, {x: -1.0})
                    assert sess.should_stop()


def test_checkpoint_listener_and_hook_errors(tmp_path):
    calls = []

    class Listener(CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            calls.append(global_step_value)
            return global_step_value >= 3

    with tf.Graph().as_default():
        step, w, loss, train = _model()
        scaffold = Scaffold()
        hook = CheckpointSaverHook(str(tmp_path), save_steps=3, listeners=[Listener()],
                                   scaffold=scaffold)
        with SingularMonitoredSession(hooks=[hook], scaffold=scaffold) as sess:
            while not sess.should_stop():
                sess.run(train)
            assert sess.raw_session().run(step) == 3
    assert calls == [0, 3]
    with pytest.raises(ValueError, match="both saver and scaffold"):
        CheckpointSaverHook(str(tmp_path), save_steps=1, saver=object(), scaffold=Scaffold())
    with pytest.raises(ValueError, match="Either every_secs or every_steps"):
        SecondOrStepTimer()
    with pytest.raises(ValueError, match="One of num_steps or last_step"):
        StopAtStepHook()
    with tf.Graph().as_default():
        with pytest.raises(RuntimeError, match="Global step should be created to use "
                                               "StopAtStepHook"):
            MonitoredSession(hooks=[StopAtStepHook(1)])


def test_scaffold_init_fn_and_feed():
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=np.float32(1.0))
        seen = []
        scaffold = Scaffold(init_fn=lambda scaffold, sess: seen.append(sess.run(w)))
        with MonitoredSession(v1.train.ChiefSessionCreator(scaffold=scaffold)) as sess:
            assert sess.run(w) == 1.0
        assert seen == [1.0] and isinstance(scaffold.saver, v1.train.Saver)


def test_coordinator_joins_threads_and_reraises():
    coord = Coordinator()
    counter = []

    def work():
        with coord.stop_on_exception():
            while not coord.should_stop():
                counter.append(1)
                if len(counter) >= 5:
                    raise ValueError("stop here")

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    with pytest.raises(ValueError, match="stop here"):
        coord.join(threads)
    assert coord.should_stop() and coord.joined
    coord.clear_stop()
    ticks = []
    looper = LooperThread.loop(coord, None, lambda: (ticks.append(1), len(ticks) >= 3
                                                     and coord.request_stop()))
    coord.join([looper])
    assert len(ticks) >= 3
    clean = Coordinator()
    clean.request_stop(tf.errors.OutOfRangeError("done"))
    clean.join([])  # a clean stop is not re-raised
    assert math.isfinite(1.0)


def test_run_step_fn_runs_with_hooks_and_can_stop():
    with tf.Graph().as_default():
        step, w, loss, train = _model()
        with MonitoredSession() as sess:
            def step_fn(context):
                assert isinstance(context, MonitoredSession.StepContext)
                value = context.run_with_hooks(train)
                if context.session.run(step) >= 2:
                    context.request_stop()
                return value
            while not sess.should_stop():
                sess.run_step_fn(step_fn)
            assert sess.should_stop()
