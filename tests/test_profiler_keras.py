"""keras.callbacks.TensorBoard(profile_batch=...): the profiler runs over exactly the batches
named (counted from 1 over the whole of `fit`, as Keras 3 counts them), writes its trace under
log_dir/train/plugins/profile/, and each profiled batch is a "batch" Trace step; a profiler
that is already running is logged and training goes on, as in Keras."""
import glob
import gzip
import json

import numpy as np
import pytest

import wengert as tf
from wengert.profiler import last_events

keras = tf.keras


def fit(tmp_path, profile_batch, epochs=1, recorder=None):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 3)).astype(np.float32)
    y = rng.normal(size=(40, 1)).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    board = keras.callbacks.TensorBoard(str(tmp_path), profile_batch=profile_batch)
    callbacks = ([recorder] if recorder is not None else []) + [board]
    model.fit(x, y, batch_size=8, epochs=epochs, verbose=0, callbacks=callbacks)
    return board


class Running(keras.callbacks.Callback):
    """Notes, per batch (1-based over fit), whether the profiler was running inside it."""

    def __init__(self):
        super().__init__()
        self.batches = []

    def on_train_batch_end(self, batch, logs=None):
        from wengert.framework.context import state
        self.batches.append(state.profiler is not None)


@pytest.mark.parametrize("profile_batch, profiled", [(2, [2]), ((2, 4), [2, 3, 4]),
                                                     ("6,7", [6, 7])])
def test_the_named_batches_are_profiled(tmp_path, profile_batch, profiled):
    running = Running()
    fit(tmp_path, profile_batch, epochs=2, recorder=running)
    assert [i + 1 for i, on in enumerate(running.batches) if on] == profiled
    events, path = last_events()
    steps = [e for e in events if e[0] == "region"]
    assert [e[1] for e in steps] == ["batch"] * len(profiled)
    assert [e[6] for e in steps] == [(b - 1) % 5 for b in profiled]
    assert path.startswith(str(tmp_path / "train" / "plugins" / "profile"))
    kernels = [e for e in events if e[0] != "region"]
    assert kernels and {e[6] for e in kernels} <= {s[6] for s in steps}
    assert any(e[2] == "MatMul" for e in kernels)


def test_trace_file_of_a_profiled_fit_loads(tmp_path):
    fit(tmp_path, 3)
    files = glob.glob(str(tmp_path / "train" / "plugins" / "profile" / "*" / "*.trace.json.gz"))
    assert len(files) == 1
    with gzip.open(files[0], "rt") as f:
        doc = json.load(f)
    names = {e["args"].get("op_type") for e in doc["traceEvents"] if e["ph"] == "X"}
    assert "MatMul" in names


def test_profile_batch_zero_profiles_nothing(tmp_path):
    running = Running()
    fit(tmp_path, 0, recorder=running)
    assert not any(running.batches)
    assert not (tmp_path / "train" / "plugins").exists()


def test_a_running_profiler_is_logged_not_fatal(tmp_path, monkeypatch):
    said = []
    monkeypatch.setattr(tf.get_logger(), "error", lambda *args: said.append(args[0] % args[1:]))
    tf.profiler.experimental.start(str(tmp_path / "mine"))
    try:
        fit(tmp_path, 1)
    finally:
        tf.profiler.experimental.stop()
    assert said[0].startswith("Failed to start profiler: ")
    assert said[0].endswith("Another profiler is running.")
