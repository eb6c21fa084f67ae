"""keras.layers: lazy building, weights, Dense/Flatten/Dropout/Activation, initializers."""
import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.autodiff.checker import check_grads
from wengert.keras import initializers, layers


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)


def test_dense_builds_lazily_from_first_input():
    dense = layers.Dense(3)
    assert not dense.built and dense.weights == []
    out = dense(np.ones((2, 5), np.float32))
    assert dense.built and out.shape == (2, 3)
    assert [v.name for v in dense.weights] == ["kernel", "bias"]  # Keras 3's bare names
    assert [v.path for v in dense.weights] == ["dense/kernel", "dense/bias"]
    assert dense.kernel.shape == (5, 3) and dense.bias.shape == (3,)
    np.testing.assert_array_equal(dense.bias.numpy(), np.zeros(3))
    assert dense.count_params() == 18
    assert dense.input_shape == (2, 5) and dense.output_shape == (None, 3)


def test_dense_forward_matches_numpy():
    dense = layers.Dense(4, activation="relu")
    x = np.random.default_rng(1).standard_normal((6, 3)).astype(np.float32)
    dense(x)
    k = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    b = np.array([0.1, -0.2, 0.3, 0.0], np.float32)
    dense.set_weights([k, b])
    np.testing.assert_allclose(dense(x).numpy(), np.maximum(x @ k + b, 0), rtol=1e-6)
    x3 = np.random.default_rng(3).standard_normal((2, 5, 3)).astype(np.float32)
    np.testing.assert_allclose(dense(x3).numpy(), np.maximum(x3 @ k + b, 0), rtol=1e-5,
                               atol=1e-6)


def test_dense_casts_inputs_and_keeps_float32():
    dense = layers.Dense(2)
    out = dense(np.ones((1, 3)))  # float64 NumPy input
    assert out.dtype == tf.float32 and dense.kernel.dtype == tf.float32
    assert layers.Dense(2)(np.ones((1, 3), np.int32)).dtype == tf.float32
    d64 = layers.Dense(2, dtype="float64")
    assert d64(np.ones((1, 3), np.float32)).dtype == tf.float64


def test_dense_errors():
    with pytest.raises(ValueError, match="units"):
        layers.Dense(0)
    with pytest.raises(TypeError, match="not understood"):
        layers.Dense(3, bogus=1)


def test_dense_gradient_against_finite_differences():
    dense = layers.Dense(3, activation="tanh", dtype="float64")
    x = np.random.default_rng(4).standard_normal((4, 5))
    dense(x)
    check_grads(lambda t: dense(t), [x], order=2)


def test_add_weight_trainable_flags_and_freezing():
    class Scale(layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", (input_shape[-1],), initializer="ones")
            self.steps = self.add_weight("steps", (), initializer="zeros", trainable=False)

        def call(self, x):
            return x * self.w

    layer = Scale()
    layer(np.ones((2, 3), np.float32))
    assert [v.path for v in layer.trainable_variables] == ["scale/w"]
    assert [v.path for v in layer.non_trainable_variables] == ["scale/steps"]
    assert len(layer.variables) == 2
    layer.trainable = False
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 2
    assert list(layer._checkpoint_children()) == ["w", "steps"]


def test_set_weights_checks_everything_first():
    dense = layers.Dense(2)
    dense(np.ones((1, 3), np.float32))
    before = dense.get_weights()
    with pytest.raises(ValueError, match=r"\(3, 2\).*\(2, 3\)"):
        dense.set_weights([np.zeros((2, 3)), np.zeros(2)])
    with pytest.raises(ValueError, match="expects 2"):
        dense.set_weights([np.zeros((3, 2))])
    for a, b in zip(before, dense.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_flatten_and_reshape_shapes():
    x = np.zeros((4, 2, 3, 5), np.float32)
    assert layers.Flatten()(x).shape == (4, 30)
    assert layers.Flatten().compute_output_shape((None, 2, 3, 5)) == (None, 30)
    assert layers.Reshape((6, 5))(x).shape == (4, 6, 5)
    assert layers.Reshape((-1, 5)).compute_output_shape((None, 2, 3, 5)) == (None, 6, 5)


def test_dropout_identity_at_inference():
    drop = layers.Dropout(0.5, seed=3)
    x = np.random.default_rng(0).standard_normal((10, 10)).astype(np.float32)
    np.testing.assert_array_equal(drop(x).numpy(), x)
    np.testing.assert_array_equal(drop(x, training=False).numpy(), x)


def test_dropout_statistics_and_gradient():
    rate = 0.3
    drop = layers.Dropout(rate, seed=7)
    x = tf.constant(np.ones((200, 100), np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = drop(x, training=True)
    out = y.numpy()
    zeros = np.mean(out == 0)
    assert abs(zeros - rate) < 0.02
    np.testing.assert_allclose(out[out != 0], 1 / (1 - rate), rtol=1e-6)
    assert abs(out.mean() - 1.0) < 0.03
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), out)  # d(x*m)/dx = m


def test_dropout_seeded_masks_repeat_and_rate_checked():
    x = np.ones((5, 8), np.float32)
    a = layers.Dropout(0.5, seed=11)(x, training=True).numpy()
    b = layers.Dropout(0.5, seed=11)(x, training=True).numpy()
    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="rate"):
        layers.Dropout(1.0)


def test_activation_layer():
    x = np.linspace(-2, 2, 12).reshape(3, 4).astype(np.float32)
    np.testing.assert_allclose(layers.Activation("relu")(x).numpy(), np.maximum(x, 0))
    np.testing.assert_allclose(layers.Activation("tanh")(x).numpy(), np.tanh(x), rtol=1e-6)
    np.testing.assert_allclose(layers.Activation("sigmoid")(x).numpy(), 1 / (1 + np.exp(-x)),
                               rtol=1e-6)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(layers.Activation("softmax")(x).numpy(),
                               e / e.sum(1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(layers.Activation(lambda t: t * 2)(x).numpy(), 2 * x)
    with pytest.raises(ValueError, match="Unknown activation"):
        layers.Activation("nope")


def test_training_flag_reaches_nested_layers():
    seen = []

    class Probe(layers.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Outer(layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Probe()

        def call(self, x):
            return self.inner(x)

    outer = Outer()
    outer(np.ones((1, 1), np.float32), training=True)
    outer(np.ones((1, 1), np.float32))
    assert seen == [True, None]
    assert outer._sublayers == [outer.inner]


def test_initializers():
    glorot = initializers.GlorotUniform(seed=1)((100, 50)).numpy()
    limit = np.sqrt(6 / 150)
    assert glorot.dtype == np.float32 and np.abs(glorot).max() <= limit
    assert abs(glorot.std() - limit / np.sqrt(3)) < 0.01
    np.testing.assert_array_equal(glorot, initializers.GlorotUniform(seed=1)((100, 50)).numpy())
    he = initializers.HeNormal(seed=2)((400, 300)).numpy()
    assert abs(he.std() - np.sqrt(2 / 400)) < 0.005
    assert np.abs(he).max() <= 2 * np.sqrt(2 / 400) / 0.87962566103423978 + 1e-6
    normal = initializers.RandomNormal(mean=1.0, stddev=0.5, seed=3)((1000,), "float64").numpy()
    assert normal.dtype == np.float64 and abs(normal.mean() - 1) < 0.05
    assert not initializers.Zeros()((2, 2)).numpy().any()
    assert isinstance(initializers.get("he_normal"), initializers.HeNormal)
    dense = layers.Dense(2, kernel_initializer="ones", bias_initializer=initializers.Constant(3))
    dense(np.zeros((1, 2), np.float32))
    np.testing.assert_array_equal(dense.kernel.numpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(dense.bias.numpy(), [3, 3])


def test_one_initializer_base_for_keras_and_tensorflow():
    """keras.initializers and tf.zeros_initializer & co. share one Initializer base."""
    assert initializers.Initializer is tf.zeros_initializer.__mro__[1]
    assert isinstance(initializers.GlorotUniform(seed=1), initializers.Initializer)
    assert isinstance(tf.random_normal_initializer(seed=1), initializers.Initializer)
    assert isinstance(initializers.get(tf.ones_initializer), tf.ones_initializer)
    config = {"seed": 4, "dtype": "float32"}
    assert initializers.HeNormal.from_config(config).seed == 4 and "dtype" in config
    dense = layers.Dense(2, kernel_initializer=tf.ones_initializer())
    dense(np.zeros((1, 3), np.float32))
    np.testing.assert_array_equal(dense.kernel.numpy(), np.ones((3, 2)))


def test_seeded_runs_repeat():
    keras.utils.set_random_seed(5)
    a = layers.Dense(3)
    a(np.ones((1, 4), np.float32))
    keras.utils.set_random_seed(5)
    b = layers.Dense(3)
    b(np.ones((1, 4), np.float32))
    np.testing.assert_array_equal(a.kernel.numpy(), b.kernel.numpy())


def test_functional_input_and_shapes():
    inputs = keras.Input(shape=(8,))
    assert inputs.shape == (None, 8)
    hidden = layers.Dense(4, activation="relu")(inputs)
    assert isinstance(hidden, layers.KerasTensor) and hidden.shape == (None, 4)
    out = layers.Flatten()(layers.Reshape((2, 2))(hidden))
    assert out.shape == (None, 4)
    with pytest.raises(TypeError, match="Arithmetic"):
        hidden + 1
