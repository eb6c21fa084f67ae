"""TF 1's Supervisor and basic_train_loop: a managed session that restores from its logdir,
saves a checkpoint as soon as it starts (and every save_model_secs), re-raises a failing
step's error after stopping, and ends quietly on OutOfRangeError."""
import os
import time

import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from wengert.train import Supervisor, basic_train_loop


def _model():
    step = v1.train.get_or_create_global_step()
    w = v1.get_variable("w", initializer=np.float32([1.0, -2.0]))
    train = v1.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(tf.square(w)),
                                                            global_step=step)
    return step, w, train


def test_managed_session_saves_restores_and_stops(tmp_path):
    with tf.Graph().as_default() as graph:
        step, w, train = _model()
        sv = Supervisor(logdir=str(tmp_path), save_model_secs=3600)
        assert graph.finalized and isinstance(sv.saver, v1.train.Saver)
        with sv.managed_session() as sess:
            for _ in range(500):  # the checkpoint service saves once at the start
                if (v1.train.latest_checkpoint(str(tmp_path)) or "").endswith("ckpt-0"):
                    break
                time.sleep(0.01)
            for _ in range(3):
                sess.run(train)
            sv.saver.save(sess, sv.save_path, global_step=step)
            sv.request_stop()
        assert sv.should_stop()
    files = os.listdir(tmp_path)
    assert "model.ckpt-0.index" in files and "model.ckpt-3.index" in files
    assert any(f.startswith("events.out.tfevents") for f in files)
    with tf.Graph().as_default():
        step, w, train = _model()
        sv = Supervisor(logdir=str(tmp_path), save_model_secs=0)
        with sv.managed_session() as sess:
            assert sess.run(step) == 3
            np.testing.assert_allclose(sess.run(w), np.float32([1.0, -2.0]) * 0.8 ** 3,
                                       rtol=1e-5)


def test_errors_are_reraised_and_out_of_range_ends_quietly(tmp_path):
    with tf.Graph().as_default():
        _model()
        sv = Supervisor(logdir=None)
        with pytest.raises(ValueError, match="bad step"):
            with sv.managed_session():
                raise ValueError("bad step")
        with sv.managed_session():
            raise tf.errors.OutOfRangeError("done")


def test_basic_train_loop_runs_until_a_stop(tmp_path):
    with tf.Graph().as_default():
        step, w, train = _model()
        sv = Supervisor(logdir=str(tmp_path / "run"), save_model_secs=0,
                        save_summaries_secs=0)
        calls = []

        def train_step(sess, limit):
            calls.append(int(sess.run(train) is None))
            if len(calls) >= limit:
                sv.request_stop()
        basic_train_loop(sv, train_step, args=[4])
        assert len(calls) == 4
    with pytest.raises(RuntimeError, match="Supervisors are incompatible with eager"):
        Supervisor()
