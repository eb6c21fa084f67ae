"""Keras's compiled step falls back to eager execution only when tracing fails (issue 13 item
8): a traced step that fails while it runs may already have assigned variables, so the failure
is reported, never repeated eagerly (the update would apply twice)."""
import warnings

import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.keras import layers


class Counting(layers.Layer):
    """Counts its calls in a variable, then refuses non-finite inputs (when the step runs)."""

    def build(self, input_shape):
        self.count = self.add_weight(name="count", shape=(), initializer="zeros",
                                     trainable=False)

    def call(self, x):
        self.count.assign_add(1.0)
        return tf.debugging.check_numerics(x, "bad input")


class Untraceable(layers.Layer):
    """Reads a value with .numpy(), which a traced function cannot do."""

    def call(self, x):
        return x * float(np.asarray(x.numpy()).mean() * 0.0 + 1.0)


def _model(first):
    model = keras.Sequential([first, layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    model(tf.constant(np.ones((1, 3), np.float32)))  # built
    return model


def test_a_failure_after_an_assignment_is_reported_not_repeated():
    counting = Counting()
    model = _model(counting)
    counting.count.assign(0.0)
    x = np.ones((4, 3), np.float32)
    x[2, 1] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning either
        with pytest.raises(tf.errors.InvalidArgumentError, match="bad input"):
            model.fit(x, np.ones((4, 1), np.float32), batch_size=4, epochs=1, verbose=0)
    assert float(counting.count.numpy()) == 1.0  # the traced step ran once


def test_a_step_that_cannot_be_traced_runs_eagerly_once():
    model = _model(Untraceable())
    kernel = model.layers[1].kernel
    before = kernel.numpy().copy()
    x, y = np.ones((4, 3), np.float32), np.zeros((4, 1), np.float32)
    with pytest.warns(UserWarning, match="could not be compiled"):
        model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    eager = _model(Untraceable())
    eager.layers[1].kernel.assign(before)
    eager.layers[1].bias.assign(np.zeros(1, np.float32))
    eager.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", run_eagerly=True)
    eager.fit(x, y, batch_size=4, epochs=1, verbose=0)
    np.testing.assert_allclose(kernel.numpy(), eager.layers[1].kernel.numpy(), rtol=1e-6)
