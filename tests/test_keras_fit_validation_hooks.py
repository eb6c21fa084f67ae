"""fit's validation reaches the user's callbacks as Keras 3 calls them: each validation is an
evaluate whose on_test_begin / on_test_batch_* / on_test_end hooks go to fit's own callbacks
(with the un-prefixed logs), between the epoch's last train batch and on_epoch_end; evaluate's
own callbacks are unchanged; datasets and arrays alike."""
import numpy as np
import pytest

import wengert as tf

keras = tf.keras


class Recorder(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.events = []

    def on_epoch_end(self, epoch, logs=None):
        self.events.append(("epoch_end", epoch, sorted(logs)))

    def on_test_begin(self, logs=None):
        self.events.append(("test_begin",))

    def on_test_batch_end(self, batch, logs=None):
        self.events.append(("test_batch_end", batch))

    def on_test_end(self, logs=None):
        self.events.append(("test_end", sorted(logs)))


def _model():
    model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    return model


@pytest.mark.parametrize("as_dataset", [False, True])
def test_validation_calls_the_test_hooks_of_fits_callbacks(as_dataset):
    x = np.arange(16, dtype="float32").reshape(8, 2) / 10
    y = x.sum(axis=1, keepdims=True)
    validation = (x[:4], y[:4])
    if as_dataset:
        validation = tf.data.Dataset.from_tensor_slices(validation).batch(2)
    recorder = Recorder()
    model = _model()
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, validation_data=validation,
              validation_batch_size=None if as_dataset else 2, callbacks=[recorder])
    one_epoch = [("test_begin",), ("test_batch_end", 0), ("test_batch_end", 1),
                 ("test_end", ["loss", "mae"])]
    assert recorder.events == (one_epoch + [("epoch_end", 0, ["loss", "mae", "val_loss", "val_mae"])]
                               + one_epoch + [("epoch_end", 1, ["loss", "mae", "val_loss", "val_mae"])])
    assert recorder.params["epochs"] == 2  # fit's params, not the validation's


def test_validation_freq_skips_the_hooks_and_evaluate_keeps_its_own():
    x = np.ones((4, 2), "float32")
    recorder = Recorder()
    model = _model()
    model.fit(x, x[:, :1], batch_size=4, epochs=2, verbose=0, validation_data=(x, x[:, :1]),
              validation_freq=2, callbacks=[recorder])
    assert [e[0] for e in recorder.events] == ["epoch_end", "test_begin", "test_batch_end",
                                               "test_end", "epoch_end"]
    other = Recorder()
    model.evaluate(x, x[:, :1], verbose=0, callbacks=[other])
    assert [e[0] for e in other.events] == ["test_begin", "test_batch_end", "test_end"]
