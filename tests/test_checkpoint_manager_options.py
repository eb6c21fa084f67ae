"""tf.train.CheckpointManager's interval saving (checkpoint_interval, step_counter,
last_checkpoint_step, save(check_interval=...)), init_fn, keep_checkpoint_every_n_hours and
sync, and tf.train.CheckpointOptions as Checkpoint.write/save/restore accept them, with the
results TensorFlow 2.21 gives (read from /work/tfvenv case by case)."""
import os
import time

import pytest

import wengert as tf


def test_saves_only_when_the_interval_passed(tmp_path):
    step = tf.Variable(0, dtype=tf.int64)
    ck = tf.train.Checkpoint(v=tf.Variable(1.))
    with pytest.raises(ValueError, match="`step_counter` should be passed"):
        tf.train.CheckpointManager(ck, str(tmp_path), 3, checkpoint_interval=2)
    m = tf.train.CheckpointManager(ck, str(tmp_path), 3, step_counter=step,
                                   checkpoint_interval=2)
    assert m.checkpoint_interval == 2
    saved = []
    for s in range(6):
        step.assign(s)
        path = m.save()
        saved.append(None if path is None else os.path.basename(path))
    assert saved == ["ckpt-1", None, "ckpt-2", None, "ckpt-3", None]
    assert os.path.basename(m.save(check_interval=False)) == "ckpt-4"
    assert m.save(checkpoint_number=100) is None  # step 5 is the last save's step
    assert [os.path.basename(p) for p in m.checkpoints] == ["ckpt-2", "ckpt-3", "ckpt-4"]
    m.sync()
    assert ck.sync() is None
    step.assign(10)
    late = tf.train.CheckpointManager(ck, str(tmp_path / "b"), 3, step_counter=step,
                                      checkpoint_interval=5, last_checkpoint_step=8)
    assert late.save() is None
    step.assign(13)
    assert late.save() is not None


def test_restore_or_initialize_calls_init_fn(tmp_path):
    calls = []
    ck = tf.train.Checkpoint(v=tf.Variable(1.))
    m = tf.train.CheckpointManager(ck, str(tmp_path), 3, init_fn=lambda: calls.append(1))
    assert m.restore_or_initialize() is None and calls == [1]
    path = m.save()
    again = tf.train.CheckpointManager(ck, str(tmp_path), 3, init_fn=lambda: calls.append(1))
    assert again.restore_or_initialize() == path and calls == [1]


def test_keep_checkpoint_every_n_hours_keeps_files(tmp_path):
    ck = tf.train.Checkpoint(v=tf.Variable(1.))
    m = tf.train.CheckpointManager(ck, str(tmp_path), 2, keep_checkpoint_every_n_hours=1e-9)
    for _ in range(4):
        m.save()
        time.sleep(0.01)
    assert len(m.checkpoints) == 2
    assert len([f for f in os.listdir(tmp_path) if f.endswith(".index")]) == 4
    plain = tf.train.CheckpointManager(ck, str(tmp_path / "p"), 2)
    for _ in range(4):
        plain.save()
    assert len([f for f in os.listdir(tmp_path / "p") if f.endswith(".index")]) == 2


def test_checkpoint_options(tmp_path):
    v = tf.Variable(1.)
    ck = tf.train.Checkpoint(v=v)
    o = tf.train.CheckpointOptions()
    assert (o.experimental_io_device, o.experimental_enable_async_checkpoint, o.enable_async,
            o.experimental_write_callbacks, o.experimental_sharding_callback) == (
                None, False, False, None, None)
    seen = []
    o = tf.train.CheckpointOptions(experimental_io_device="/job:localhost", enable_async=True,
                                   experimental_write_callbacks=[seen.append,
                                                                 lambda: seen.append("-")])
    assert o.experimental_enable_async_checkpoint
    w = ck.write(str(tmp_path / "w"), options=o)
    s = ck.save(str(tmp_path / "s"), options=o)
    assert seen == [w, "-", s, "-"]
    v.assign(5.)
    ck.restore(w, options=tf.train.CheckpointOptions())
    assert float(v.numpy()) == 1.0
    m = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path / "m"), 1)
    assert os.path.basename(m.save(options=tf.train.CheckpointOptions())) == "ckpt-1"
    with pytest.raises(TypeError, match="CheckpointOptions"):
        ck.write(str(tmp_path / "x"), options=3)
    with pytest.raises(NotImplementedError):
        ck.restore(w, options=tf.train.CheckpointOptions(experimental_skip_slot_variables=True))
    with pytest.raises(NotImplementedError):
        tf.train.CheckpointOptions(experimental_sharding_callback=object())
