"""Keras 3's other ways to call a layer (layers/call_variants.py), keras.StatelessScope
(stateless_scope.py) and the refused quantization hooks (layers/quantization.py). Expected
values are Keras 3.15 on TensorFlow 2.21's answers to the same programs."""
import numpy as np
import pytest

import wengert as tf

K = tf.keras


def _model():
    return K.Sequential([K.Input((3,)), K.layers.Dense(2, activity_regularizer="l2"),
                         K.layers.BatchNormalization()])


def test_stateless_call_reads_the_given_values_and_changes_nothing():
    model = _model()
    x = np.arange(6, dtype="float32").reshape(2, 3)
    tv = [tf.constant(np.ones(v.shape, "float32")) for v in model.trainable_variables]
    ntv = [v.numpy() for v in model.non_trainable_variables]
    before = [v.numpy() for v in model.weights]
    with tf.GradientTape() as tape:
        tape.watch(tv)
        out, new, losses = model.stateless_call(tv, ntv, x, training=True, return_losses=True)
        total = tf.reduce_sum(out)
    np.testing.assert_allclose(out.numpy(), [[2.4616718e-05] * 2, [1.9999752] * 2], rtol=1e-4)
    np.testing.assert_allclose(new[0].numpy(), [0.085, 0.085], rtol=1e-5)
    np.testing.assert_allclose(new[1].numpy(), [1.1925, 1.1925], rtol=1e-5)
    assert len(losses) == 1
    np.testing.assert_allclose(losses[0].numpy(), 1.85, rtol=1e-6)
    assert all(g is not None for g in tape.gradient(total, tv))  # flows to the values given
    for v, b in zip(model.weights, before):
        np.testing.assert_array_equal(v.numpy(), b)
    assert model.losses == [] or all(float(loss) == 0 for loss in model.losses)


def test_stateless_call_of_batch_normalization_returns_the_moving_statistics():
    bn = K.layers.BatchNormalization()
    bn(np.ones((2, 3), "float32"))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    out, (mean, var) = bn.stateless_call(bn.trainable_variables, bn.non_trainable_variables, x,
                                         training=True)
    np.testing.assert_allclose(out.numpy(), [[-0.99977785] * 3, [0.99977785] * 3], rtol=1e-5)
    np.testing.assert_allclose(mean.numpy(), [0.015, 0.025, 0.035], rtol=1e-5)
    np.testing.assert_allclose(var.numpy(), [1.0125] * 3, rtol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), [0, 0, 0])


def test_stateless_call_errors():
    x = np.ones((2, 3), "float32")
    with pytest.raises(ValueError, match="must be built"):
        K.layers.Dense(2).stateless_call([], [], x)
    with pytest.raises(ValueError, match="expected 4 variables"):
        _model().stateless_call([], [], x)


def test_stateless_scope_reads_and_collects_assigns():
    v = K.Variable(np.ones((2,), "float32"))
    with K.StatelessScope([(v, np.zeros(2, "float32"))]) as scope:
        np.testing.assert_array_equal((v + 1).numpy(), [1, 1])
        v.assign_add(np.array([3.0, 4.0], "float32"))
        np.testing.assert_array_equal(v.numpy(), [3, 4])
    np.testing.assert_array_equal(v.numpy(), [1, 1])
    np.testing.assert_array_equal(scope.get_current_value(v).numpy(), [3, 4])
    with pytest.raises(ValueError, match="shape that matches"):
        K.StatelessScope([(v, np.zeros(3))])


class _ArgMax(K.layers.Layer):
    def call(self, x):
        return tf.argmax(x, -1), x * 2


def test_compute_output_spec_from_shapes_and_from_a_probe():
    spec = K.layers.Dense(2).compute_output_spec(K.KerasTensor((None, 3)))
    assert isinstance(spec, K.KerasTensor) and spec.shape.as_list() == [None, 2]
    assert spec.dtype.name == "float32"
    index, doubled = _ArgMax().compute_output_spec(K.KerasTensor((None, 5, 3)))
    assert index.shape.as_list() == [None, 5] and index.dtype.name == "int64"
    assert doubled.shape.as_list() == [None, 5, 3] and doubled.dtype.name == "float32"
    assert _model().compute_output_spec(K.KerasTensor((None, 3))).shape.as_list() == [None, 2]


def test_symbolic_call_records_a_node():
    dense = K.layers.Dense(2)
    out = dense.symbolic_call(K.KerasTensor((None, 3)))
    assert out.shape.as_list() == [None, 2] and dense.built
    assert out._keras_history[0] is dense


def test_rematerialized_call_without_a_remat_mode_is_the_call_itself():
    f = lambda x: x + 1  # noqa: E731
    assert K.layers.ReLU().rematerialized_call(f, 1.0) is f


def test_quantization_hooks_refuse():
    dense = K.layers.Dense(2)
    dense.build((None, 3))
    with pytest.raises(NotImplementedError, match="quantize\\(mode='int8'\\) is not implemented"):
        dense.quantize("int8")
    with pytest.raises(ValueError, match="Invalid quantization mode"):
        dense.quantize("int2")
    with pytest.raises(ValueError, match="isn't yet built"):
        K.layers.Dense(2).quantize("int8")
    relu = K.layers.ReLU()
    with pytest.raises(NotImplementedError, match="does not have a `quantize` method"):
        relu.quantize("int8")
    with pytest.raises(NotImplementedError, match="does not have a `quantized_build` method"):
        relu.quantized_build((2, 3), "int8")
    with pytest.raises(NotImplementedError, match="quantization_mode=None"):
        relu.quantized_call(np.ones((2, 3)))
