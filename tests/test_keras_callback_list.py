"""A user-built keras.callbacks.CallbackList drives its callbacks as Keras 3's does
(callbacks/callback_list.py), and EarlyStopping.get_monitor_value /
ReduceLROnPlateau.in_cooldown; the expected values are Keras 3.15's for the same program."""
import warnings

import numpy as np
import pytest

import wengert as tf

K = tf.keras


class _Recorder(K.callbacks.Callback):
    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def on_train_begin(self, logs=None):
        self.seen.append(("train_begin", logs, self.params, self.model is not None))

    def on_train_batch_end(self, batch, logs=None):
        self.seen.append(("batch_end", batch, logs))

    def on_epoch_end(self, epoch, logs=None):
        self.seen.append(("epoch_end", epoch, logs))


def test_callback_list_flattens_adds_history_and_pythonifies_logs():
    seen = []
    model = K.Sequential([K.layers.Dense(1)])
    cl = K.callbacks.CallbackList([_Recorder(seen), [_Recorder(seen)]], add_history=True,
                                  model=model, epochs=3, verbose=0)
    assert isinstance(cl, K.callbacks.Callback)
    assert len(cl.callbacks) == 3 and model.history is cl.callbacks[-1]
    cl.on_train_begin()
    cl.on_train_batch_end(0, {"loss": tf.constant(2.5), "b": np.float32(1.5), "a": {"x": 1}})
    cl.on_epoch_end(0, {"loss": 1.0, "acc": np.array(0.5)})
    expected = [("train_begin", {}, {"epochs": 3, "verbose": 0}, True)] * 2 + [
        ("batch_end", 0, {"x": 1.0, "b": 1.5, "loss": 2.5})] * 2 + [
        ("epoch_end", 0, {"acc": 0.5, "loss": 1.0})] * 2
    assert seen == expected
    assert list(seen[2][2]) == ["x", "b", "loss"]  # Keras sorts the keys, merging nested dicts
    assert cl.callbacks[-1].history == {"acc": [0.5], "loss": [1.0]}


def test_callback_list_every_hook_reaches_every_callback():
    calls = []

    class Every(K.callbacks.Callback):
        pass
    hooks = [n for n in dir(K.callbacks.CallbackList) if n.startswith("on_")]
    for name in hooks:
        setattr(Every, name, (lambda n: lambda self, *a, **k: calls.append(n))(name))
    cl = K.callbacks.CallbackList([Every()])
    for name in hooks:
        getattr(cl, name)(*([0] if "epoch" in name or "batch" in name else []))
    assert calls == hooks and len(hooks) == 16


def test_early_stopping_monitor_value_and_reduce_lr_cooldown():
    es = K.callbacks.EarlyStopping(monitor="val_loss")
    assert es.get_monitor_value({"val_loss": 0.3}) == 0.3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert es.get_monitor_value({"loss": 0.3}) is None
    assert "Available metrics are: loss" in str(caught[0].message)
    plateau = K.callbacks.ReduceLROnPlateau(cooldown=2)
    assert not plateau.in_cooldown()
    plateau.cooldown_counter = 1
    assert plateau.in_cooldown()


def test_terminate_on_nan_stops_or_raises():
    model = K.Sequential([K.Input((1,)), K.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((4, 1), "float32"), np.full((4, 1), np.nan, "float32")
    history = model.fit(x, y, batch_size=2, epochs=3, verbose=0,
                        callbacks=[K.callbacks.TerminateOnNaN()])
    assert len(history.history["loss"]) == 1  # stopped in the first epoch
    with pytest.raises(RuntimeError, match="NaN or Inf loss encountered at batch 0"):
        model.fit(x, y, batch_size=2, epochs=1, verbose=0,
                  callbacks=[K.callbacks.TerminateOnNaN(raise_error=True)])

