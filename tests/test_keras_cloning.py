"""keras.models.clone_model, Model.to_json / model_from_json and keras.saving's weights
functions (tests/programs/keras_clone_and_json.py checks a whole program against TensorFlow's
Keras)."""
import numpy as np
import pytest

import wengert as tf

keras = tf.keras
L = keras.layers


def _functional():
    x = keras.Input((3,), name="x")
    shared = L.Dense(3, name="shared")
    y = L.Dense(2, name="out")(shared(shared(x)))
    return keras.Model(x, y, name="net")


def test_a_shared_layer_is_cloned_once_and_weights_are_new():
    model = _functional()
    clone = keras.models.clone_model(model)
    assert [layer.name for layer in clone.layers] == ["x", "shared", "out"]
    assert len(clone.weights) == len(model.weights) == 4
    assert not any(a is b for a, b in zip(model.weights, clone.weights))
    clone.set_weights(model.get_weights())
    x = np.random.default_rng(0).normal(size=(4, 3)).astype("float32")
    np.testing.assert_allclose(clone(x).numpy(), model(x).numpy(), rtol=1e-6)


def test_input_tensors_and_call_function():
    model = _functional()
    calls = []

    def call(layer, *args, **kwargs):
        calls.append(layer.name)
        return layer(*args, **kwargs)
    new_input = keras.Input((3,), name="fresh")
    clone = keras.models.clone_model(model, input_tensors=new_input, call_function=call)
    assert calls == ["shared", "shared", "out"]
    assert clone.inputs[0] is new_input
    with pytest.raises(ValueError, match="KerasTensor"):
        keras.models.clone_model(model, input_tensors=[new_input, new_input])


def test_recursive_cloning_reaches_nested_models():
    inner = keras.Sequential([keras.Input((2,)), L.Dense(2, name="d")], name="inner")
    x = keras.Input((2,))
    outer = keras.Model(x, inner(x))
    shallow = keras.models.clone_model(outer)
    deep = keras.models.clone_model(outer, recursive=True)
    assert type(shallow.layers[1]) is keras.Sequential
    assert deep.layers[1] is not inner and deep.layers[1].layers[0] is not inner.layers[0]


def test_clone_refusals_name_the_argument():
    seq = keras.Sequential([keras.Input((2,)), L.Dense(1)])
    with pytest.raises(ValueError, match="call_function"):
        keras.models.clone_model(seq, call_function=lambda layer, *a, **k: layer(*a, **k))

    class Sub(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.d = L.Dense(1)

        def call(self, x):
            return self.d(x)
    with pytest.raises(ValueError, match="subclassed"):
        keras.models.clone_model(Sub(), clone_function=lambda layer: layer)
    with pytest.raises(ValueError, match="unexpected keyword"):
        keras.models.clone_model(seq, colour="red")
    assert isinstance(keras.models.clone_model(Sub()), Sub)


def test_a_compiled_model_gives_a_compiled_clone():
    model = _functional()
    model.compile(optimizer=keras.optimizers.SGD(0.25), loss="mse", metrics=["mae"])
    clone = keras.models.clone_model(model)
    assert type(clone.optimizer).__name__ == "SGD"
    assert float(clone.optimizer.learning_rate) == 0.25
    clone.fit(np.ones((4, 3), "float32"), np.ones((4, 2), "float32"), verbose=0)


def test_json_round_trip_and_bad_text():
    model = _functional()
    back = keras.models.model_from_json(model.to_json(indent=1))
    assert [layer.name for layer in back.layers] == ["x", "shared", "out"]
    assert back.count_params() == model.count_params()
    with pytest.raises(ValueError, match="not JSON"):
        keras.models.model_from_json("{not json")


def test_saving_weights_functions(tmp_path):
    pytest.importorskip("h5py")
    model = _functional()
    path = str(tmp_path / "m.weights.h5")
    keras.saving.save_weights(model, path)
    other = _functional()
    keras.saving.load_weights(other, path)
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="sharded"):
        keras.saving.save_weights(model, path, max_shard_size=1)


def test_own_variables_hooks_and_the_default_store(tmp_path):
    pytest.importorskip("h5py")
    dense = L.Dense(2)
    dense.build((None, 3))
    store = {}
    dense.save_own_variables(store)
    assert sorted(store) == ["0", "1"] and store["0"].shape == (3, 2)
    other = L.Dense(2)
    other.build((None, 3))
    other.load_own_variables(store)
    np.testing.assert_array_equal(other.kernel.numpy(), dense.kernel.numpy())
    before = other.kernel.numpy()
    with pytest.raises(ValueError, match="expected 2 variables, but received 1"):
        other.load_own_variables({"0": store["0"]})
    with pytest.raises(ValueError, match="not compatible"):
        other.load_own_variables({"0": store["0"], "1": np.zeros(5)})
    np.testing.assert_array_equal(other.kernel.numpy(), before)  # nothing changed

    class Failing(L.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(1,), initializer="zeros", name="w")

        def call(self, x):
            return x + self.w

        def load_own_variables(self, store):
            raise ValueError("refused by the layer")

    x = keras.Input((1,))
    model = keras.Model(x, L.Dense(1, name="d")(Failing()(x)))
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    kernel = model.get_layer("d").kernel
    kernel.assign(kernel + 1.0)
    changed = kernel.numpy()
    with pytest.raises(ValueError, match="refused by the layer"):
        model.load_weights(path)
    np.testing.assert_array_equal(kernel.numpy(), changed)  # the other layers kept theirs
