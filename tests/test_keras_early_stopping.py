"""EarlyStopping counts, stops and restores as Keras 3 does. The expectations are TensorFlow
2.21's Keras 3.15 driven through the same epochs (a stand-in model whose weights are the epoch
number, so the restored weights say which epoch they came from)."""
import numpy as np
import pytest

import wengert as tf

SCENARIOS = {
    "runs_all_epochs": ([5, 3, 4, 3.5, 3.2],
                        dict(monitor="loss", patience=10, restore_best_weights=True)),
    "stops": ([5, 3, 4, 3.5, 3.2, 1, 0.5],
              dict(monitor="loss", patience=2, restore_best_weights=True)),
    "baseline": ([5, 4, 3.9, 3.8, 3.7, 3.6],
                 dict(monitor="loss", patience=2, baseline=3.0, restore_best_weights=True)),
    "min_delta": ([5, 4.95, 4.9, 4.85, 3], dict(monitor="loss", patience=2, min_delta=0.1)),
    "max_mode": ([0.5, 0.7, 0.6, 0.65, 0.66],
                 dict(monitor="acc", mode="max", patience=2, restore_best_weights=True)),
    "start_from": ([1, 2, 3, 4, 5, 6],
                   dict(monitor="loss", patience=1, start_from_epoch=2,
                        restore_best_weights=True)),
}
# TensorFlow 2.21 (Keras 3.15.1): epochs run, stopped_epoch, best_epoch, restored weights, wait
KERAS = {
    "runs_all_epochs": (5, 0, 1, 1, 3),
    "stops": (4, 3, 1, 1, 2),
    "baseline": (6, 0, 5, 5, 6),
    "min_delta": (3, 2, 0, None, 2),
    "max_mode": (4, 3, 1, 1, 2),
    "start_from": (4, 3, 2, 2, 1),
}


class _EpochModel:
    """Weights that name the epoch they were read in; set_weights records which came back."""

    def __init__(self):
        self.epoch, self.stop_training, self.restored = -1, False, None

    def get_weights(self):
        return [np.array(self.epoch)]

    def set_weights(self, weights):
        self.restored = int(weights[0])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_early_stopping_matches_keras(name):
    values, kwargs = SCENARIOS[name]
    callback = tf.keras.callbacks.EarlyStopping(**kwargs)
    model = _EpochModel()
    callback.set_model(model)
    callback.on_train_begin()
    ran = 0
    for epoch, value in enumerate(values):
        model.epoch = epoch
        callback.on_epoch_end(epoch, {kwargs["monitor"]: value})
        ran = epoch + 1
        if model.stop_training:
            break
    callback.on_train_end()
    assert (ran, callback.stopped_epoch, callback.best_epoch, model.restored,
            callback.wait) == KERAS[name]


def test_best_weights_come_back_after_fit_runs_all_its_epochs():
    tf.keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.95), loss="mse")
    seen = []
    record = tf.keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append((logs["loss"], model.get_weights())))
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=100,
                                            restore_best_weights=True)
    model.fit(x, y, epochs=6, batch_size=64, verbose=0, callbacks=[record, stop])
    best = min(range(len(seen)), key=lambda k: seen[k][0])
    assert 0 < best < len(seen) - 1, "the loss should rise after its best epoch here"
    assert stop.stopped_epoch == 0 and stop.best_epoch == best
    for mine, want in zip(model.get_weights(), seen[best][1]):
        np.testing.assert_array_equal(mine, want)


def test_an_unknown_mode_falls_back_to_auto_with_a_warning():
    with pytest.warns(UserWarning, match="mode 'sideways' is unknown"):
        callback = tf.keras.callbacks.EarlyStopping(monitor="val_accuracy", mode="sideways")
    assert callback._sign == -1.0
