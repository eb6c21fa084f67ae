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
