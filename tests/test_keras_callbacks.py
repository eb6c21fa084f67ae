"""The training callbacks of keras.callbacks (callbacks/training.py) in fit, with Keras 3's
semantics."""
import csv
import os

import numpy as np
import pytest

import wengert as tf

K = tf.keras


def _data(n=64):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    return x, (x @ np.array([1.0, -2.0, 0.5, 3.0], np.float32))[:, None]


def _model(lr=0.05):
    model = K.Sequential([K.layers.Dense(1, input_shape=(4,))])
    model.compile(optimizer=K.optimizers.SGD(lr), loss="mse")
    return model


def test_learning_rate_scheduler_and_the_logged_rate():
    model = _model()
    seen = []
    schedule = K.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 / (epoch + 1))
    probe = K.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(
        logs["learning_rate"]))
    model.fit(*_data(), epochs=3, verbose=0, callbacks=[schedule, probe])
    np.testing.assert_allclose(seen, [0.1, 0.05, 0.1 / 3], rtol=1e-6)


def test_reduce_lr_on_plateau_after_patience_and_not_below_min_lr():
    model = _model()
    losses = iter([1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    plateau = K.callbacks.ReduceLROnPlateau(monitor="fake", factor=0.5, patience=2,
                                            min_lr=0.02)
    plateau.set_model(model)
    plateau.on_train_begin()
    rates = []
    for epoch in range(6):
        plateau.on_epoch_end(epoch, {"fake": next(losses)})
        rates.append(float(np.asarray(model.optimizer.learning_rate)))
    np.testing.assert_allclose(rates, [0.05, 0.05, 0.025, 0.025, 0.02, 0.02], rtol=1e-6)
    with pytest.raises(ValueError, match="factor"):
        K.callbacks.ReduceLROnPlateau(factor=1.5)


def test_model_checkpoint_best_only_and_weights(tmp_path):
    pytest.importorskip("h5py")
    model = _model()
    path = str(tmp_path / "w.{epoch:02d}.weights.h5")
    saver = K.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True,
                                        save_weights_only=True)
    model.fit(*_data(), epochs=3, verbose=0, callbacks=[saver])
    saved = sorted(os.listdir(tmp_path))
    assert saved == ["w.01.weights.h5", "w.02.weights.h5", "w.03.weights.h5"]  # loss falls
    fresh = _model()
    fresh.load_weights(str(tmp_path / "w.03.weights.h5"))
    for a, b in zip(model.get_weights(), fresh.get_weights()):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="weights.h5"):
        K.callbacks.ModelCheckpoint(str(tmp_path / "w.h5"), save_weights_only=True)


def test_csv_logger_rows(tmp_path):
    model = _model()
    path = tmp_path / "log.csv"
    model.fit(*_data(), epochs=2, verbose=0, callbacks=[K.callbacks.CSVLogger(str(path))])
    rows = list(csv.DictReader(open(path)))
    assert [r["epoch"] for r in rows] == ["0", "1"] and "loss" in rows[0]
    model.fit(*_data(), epochs=1, verbose=0,
              callbacks=[K.callbacks.CSVLogger(str(path), append=True)])
    assert len(list(csv.DictReader(open(path)))) == 3


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_terminate_on_nan_stops_training():
    model = _model(lr=1e30)
    x, y = _data()
    history = model.fit(x, y * 1e20, epochs=5, batch_size=8, verbose=0,
                        callbacks=[K.callbacks.TerminateOnNaN()])
    assert len(history.history["loss"]) < 5


def test_remote_monitor_is_refused():
    with pytest.raises(NotImplementedError, match="network"):
        K.callbacks.RemoteMonitor()


class _Recorder(K.callbacks.Callback):
    """Every hook fit calls, in order, with its epoch or step and the names of its logs."""

    def __init__(self):
        super().__init__()
        self.events = []

    def __getattribute__(self, name):
        if name.startswith("on_"):
            events = object.__getattribute__(self, "events")
            return lambda *args, **kwargs: events.append(
                (name,) + tuple(a if isinstance(a, int) else sorted(a or {})
                                for a in args + tuple(kwargs.values())))
        return object.__getattribute__(self, name)


def test_fit_on_arrays_and_on_a_dataset_run_the_one_epoch_loop():
    """keras/loops.py runs fit's epochs for arrays and datasets alike: the same hooks in the same
    order with the same logs, the same history and the same weights."""
    x, y = _data(24)
    runs = []
    for data in ("arrays", "dataset"):
        tf.keras.utils.set_random_seed(1)
        model = _model()
        model.compile(optimizer=K.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
        recorder = _Recorder()
        source = {"x": x, "y": y} if data == "arrays" else {
            "x": tf.data.Dataset.from_tensor_slices((x, y)).batch(8)}
        history = model.fit(**source, batch_size=8, epochs=3, shuffle=False, verbose=0,
                            validation_data=(x[:8], y[:8]), validation_freq=2,
                            callbacks=[recorder])
        runs.append((recorder.events, history.history, model.get_weights()))
    (events, history, weights), (d_events, d_history, d_weights) = runs
    assert events == d_events
    assert events[:4] == [("on_train_begin", []), ("on_epoch_begin", 0, []),  # Keras's {} logs
                          ("on_train_batch_begin", 0, []),
                          ("on_train_batch_end", 0, ["loss", "mae"])]
    assert ("on_epoch_end", 1, ["loss", "mae", "val_loss", "val_mae"]) in events
    assert ("on_epoch_end", 0, ["loss", "mae"]) in events
    assert sorted(history) == sorted(d_history) == ["loss", "mae", "val_loss", "val_mae"]
    for key in history:
        np.testing.assert_allclose(history[key], d_history[key], rtol=1e-5)
    for w, d_w in zip(weights, d_weights):
        np.testing.assert_allclose(w, d_w, rtol=1e-5)
