"""keras.RematScope / keras.remat (remat.py, layers/call_variants.py) and a metric's stateless
API (metrics/stateless_metric.py); the expected values are Keras 3.15's on TensorFlow 2.21 for
the same programs."""
import numpy as np
import pytest

import wengert as tf

K = tf.keras
X = tf.constant(np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4))


@pytest.mark.parametrize("mode,options", [
    ("full", {}), ("activations", {}), ("larger_than", {"output_size_threshold": 4}),
    ("list_of_layers", {"layer_names": ["d"]}), (None, {})])
def test_remat_modes_give_the_same_values_and_gradients(mode, options):
    with K.RematScope(mode, **options):
        dense = K.layers.Dense(5, activation="tanh", kernel_initializer="ones", name="d")
    assert dense._remat_mode.mode == mode
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(dense(X) ** 2)
    grads = tape.gradient(y, dense.trainable_variables)
    np.testing.assert_allclose(float(y), 9.881784439086914, rtol=1e-6)
    np.testing.assert_allclose([float(tf.reduce_sum(g)) for g in grads],
                               [0.6837261915206909, 0.0], rtol=1e-5, atol=1e-6)
    call = dense.call
    wrapped = dense.rematerialized_call(call, X)
    assert (wrapped is call) == (mode is None)


def test_remat_scope_errors_and_remat_function():
    assert K.layers.Dense(2)._remat_mode is None
    with pytest.raises(ValueError, match="Invalid mode 'bogus'"):
        K.RematScope("bogus")
    x = tf.constant([0.5, 1.0])
    f = K.remat(lambda v: tf.sin(v) * v)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(f(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               np.cos([0.5, 1.0]) * [0.5, 1.0] + np.sin([0.5, 1.0]), rtol=1e-6)


def test_metric_stateless_api_leaves_the_metric_alone():
    mean = K.metrics.Mean()
    values = mean.stateless_reset_state()
    assert [float(v) for v in values] == [0.0, 0.0]
    values = mean.stateless_update_state(values, np.array([1.0, 2.0, 3.0], "float32"))
    assert [float(v) for v in values] == [6.0, 3.0]
    values = mean.stateless_update_state(values, np.array([5.0], "float32"),
                                         sample_weight=np.array([2.0], "float32"))
    assert [float(v) for v in values] == [16.0, 5.0]
    np.testing.assert_allclose(float(mean.stateless_result(values)), 3.2, rtol=1e-6)
    assert float(mean.result()) == 0.0 and [float(v) for v in mean.variables] == [0.0, 0.0]
    accuracy = K.metrics.SparseCategoricalAccuracy()
    values = accuracy.stateless_update_state([np.float32(0), np.float32(0)], np.array([1, 0]),
                                             np.array([[0.2, 0.8], [0.9, 0.1]], "float32"))
    assert [float(v) for v in values] == [2.0, 2.0]
    assert float(accuracy.stateless_result(values)) == 1.0
    with pytest.raises(ValueError, match="expected 2 variables"):
        mean.stateless_update_state([], np.ones(2))
