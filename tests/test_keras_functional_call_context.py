"""Functional models as Keras 3 runs them: the `training` of the model's call overrides the one
a node was built with (Keras propagates its call context), and a dict of outputs or inputs is
flattened by sorted key, so layers, weights and output names come in Keras's order. Expected
values are TensorFlow 2.21's Keras 3.15.1."""
import numpy as np

import wengert as tf

keras = tf.keras


def _frozen_call_model():
    i = keras.Input((3,))
    base = keras.Model(i, keras.layers.BatchNormalization(name="bn")(i))
    j = keras.Input((3,))
    model = keras.Model(j, keras.layers.Dense(1)(base(j, training=False)))
    return base, model


def test_the_calls_training_overrides_the_nodes():
    base, model = _frozen_call_model()
    model.compile("sgd", "mse")
    x = np.random.default_rng(0).normal(size=(16, 3)).astype("float32") + 5
    model.fit(x, np.zeros((16, 1)), verbose=0, epochs=1)
    moving_mean = base.get_layer("bn").moving_mean.numpy()
    np.testing.assert_allclose(moving_mean, [0.05023407, 0.0498517, 0.05199739], rtol=1e-5)


def test_without_a_training_argument_the_node_keeps_its_own():
    i = keras.Input((4,))
    inner = keras.Model(i, keras.layers.Dropout(0.99)(i))
    j = keras.Input((4,))
    model = keras.Model(j, inner(j, training=True))
    x = np.ones((1, 4), "float32")
    assert not np.allclose(model(x).numpy(), x)  # the node's training=True: dropout drops
    np.testing.assert_array_equal(model(x, training=False).numpy(), x)  # the call's wins


def test_a_frozen_layer_infers_even_when_the_call_trains():
    base, model = _frozen_call_model()
    base.trainable = False
    model.compile("sgd", "mse")
    x = np.full((8, 3), 5.0, "float32")
    model.fit(x, np.zeros((8, 1)), verbose=0, epochs=1)
    np.testing.assert_array_equal(base.get_layer("bn").moving_mean.numpy(), np.zeros(3))


def test_dict_outputs_come_in_sorted_key_order():
    i = keras.Input((4,))
    model = keras.Model(i, {"zeta": keras.layers.Dense(1, name="zeta")(i),
                            "alpha": keras.layers.Dense(2, name="alpha")(i)})
    assert model.output_names == ["alpha", "zeta"]
    assert [layer.name for layer in model.layers][1:] == ["alpha", "zeta"]
    assert [w.shape for w in model.get_weights()] == [(4, 2), (2,), (4, 1), (1,)]
    assert list(model(np.ones((1, 4), "float32"))) == ["alpha", "zeta"]
