"""Keras 3's variable model: `keras.Variable` (bare `name`, scoped `path`, an initializer or a
value, Keras's dtype rules) and the `path` of every layer weight, as the names of the layers
building or calling when it was made ("sequential/dense/kernel"), compared with TensorFlow
2.21's Keras (stored answers without it)."""
import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval

keras = tf.keras
L = keras.layers

_MODELS = '''
def models(keras, np):
    L = keras.layers
    yield "sequential", keras.Sequential([keras.Input((8, 8, 1)), L.Conv2D(2, 3, name="c"),
                                          L.BatchNormalization(name="bn"), L.Flatten(name="f"),
                                          L.Dense(3, name="d")], name="seq")
    i = keras.Input((3,))
    yield "functional", keras.Model(i, L.Dense(2, name="fd")(i), name="fm")
    class Sub(keras.Model):
        def __init__(self):
            super().__init__(name="sub")
            self.inner = L.Dense(2, name="inner")
        def call(self, x):
            return self.inner(x)
    sub = Sub()
    sub(np.ones((1, 3), "float32"))
    yield "subclassed", sub
    alone = L.Dense(2, name="alone")
    alone.build((None, 3))
    yield "alone", alone
    rec = L.LSTM(2, name="rec")
    rec.build((None, 4, 3))
    yield "recurrent", rec
    lazy = keras.Sequential([L.Dense(2, name="lazy")], name="lz")
    lazy(np.ones((1, 3), "float32"))
    yield "lazy", lazy
    yield "nested", keras.Sequential([keras.Input((3,)), keras.Sequential(
        [L.Dense(2, name="nd")], name="inner_seq")], name="outer")
'''


def _models():
    scope = {}
    exec(_MODELS, scope)  # the same code TensorFlow's side runs
    return list(scope["models"](keras, np))


@pytest.fixture(scope="module")
def tf_paths():
    return tf_eval(_MODELS + '''
for name, model in models(keras, np):
    out[name] = np.frombuffer(";".join(v.path for v in model.weights).encode(), np.uint8)
''')


@pytest.mark.parametrize("index", range(7))
def test_weight_paths_as_tensorflow_gives_them(tf_paths, index):
    name, model = _models()[index]
    assert ";".join(v.path for v in model.weights) == bytes(tf_paths[name]).decode(), name


def test_keras_variable_from_an_initializer_or_a_value():
    v = keras.Variable(keras.initializers.Ones(), shape=(2, 3), name="w")
    assert (v.name, v.path, v.dtype.name, tuple(v.shape), v.trainable) == \
        ("w", "w", "float32", (2, 3), True)
    np.testing.assert_array_equal(v.numpy(), np.ones((2, 3)))
    z = keras.Variable("zeros", shape=(2,), dtype="float64", trainable=False)
    assert z.dtype.name == "float64" and not z.trainable and z.name.startswith("variable")
    assert keras.Variable([1, 2]).dtype.name == "int32"
    assert keras.Variable(2.5).dtype.name == "float32"
    assert keras.Variable(np.zeros(3)).dtype.name == "float64"
    assert keras.Variable(tf.constant([1.0, 2.0]), dtype="float64").dtype.name == "float64"
    assert isinstance(v, tf.Variable) and repr(v).startswith("<Variable path=w, shape=(2, 3)")


def test_keras_variable_is_assigned_and_differentiated():
    v = keras.Variable(np.array([1.0, 2.0], np.float32), name="v")
    v.assign([3.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [6.0, 8.0])
    v.assign_add([1.0, 1.0])
    np.testing.assert_allclose(v.numpy(), [4.0, 5.0])


def test_keras_variable_made_in_a_layer_is_tracked_with_its_path():
    class Scale(L.Layer):
        def build(self, input_shape):
            self.scale = keras.Variable("ones", shape=(input_shape[-1],), name="scale")

        def call(self, x):
            return x * self.scale

    layer = Scale(name="scaler")
    out = layer(np.full((1, 2), 3.0, np.float32))
    np.testing.assert_array_equal(np.asarray(out), [[3.0, 3.0]])
    assert [(v.name, v.path) for v in layer.weights] == [("scale", "scaler/scale")]


@pytest.mark.parametrize("kwargs, match", [
    (dict(initializer="zeros"), "needs `shape`"),
    (dict(initializer=np.zeros(3), shape=(2,)), "must agree"),
    (dict(initializer=1.0, name="a/b"), "without '/'"),
    (dict(initializer=1.0, aggregation="max"), "aggregation"),
    (dict(initializer=1.0, synchronization="never"), "synchronization"),
])
def test_bad_variables_are_refused_with_the_fix(kwargs, match):
    with pytest.raises(ValueError, match=match):
        keras.Variable(**kwargs)


def test_add_variable_on_layers_and_metrics_as_keras_3_names_them():
    class Counter(keras.metrics.Metric):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.s = self.add_variable(shape=(2,), initializer="ones", name="s")
            self.t = self.add_weight(name="t", initializer="zeros")

        def update_state(self, x):
            self.s.assign_add(x)

        def result(self):
            return self.s

    metric = Counter(name="mine")
    assert [(v.name, v.path, v.trainable, v.aggregation) for v in metric.variables] == [
        ("s", "mine/s", False, "sum"), ("t", "mine/t", False, "sum")]  # TF 2.21's Keras
    metric.update_state(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(metric.result().numpy(), [2.0, 3.0])
    metric.reset_state()
    np.testing.assert_array_equal(metric.s.numpy(), [0.0, 0.0])
    with pytest.raises(ValueError, match="aggregation"):
        metric.add_variable((), "zeros", aggregation="max")

    class Affine(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_variable((input_shape[-1], 2), "ones", autocast=False, name="w")

        def call(self, x):
            return x @ self.w

    layer = Affine(name="affine")
    layer(np.ones((1, 3), np.float32))
    assert (layer.w.name, layer.w.path, layer.w.autocast) == ("w", "affine/w", False)


def test_add_metric_is_removed_as_in_keras_3():
    with pytest.raises(NotImplementedError, match=r"Model.compile\(metrics="):
        L.Dense(1).add_metric(1.0, name="m")
