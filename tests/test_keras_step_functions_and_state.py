"""A model's step functions (step_functions.py) and whole state (model_state.py), as Keras 3.15
on TensorFlow 2.21 gives them for the same programs (the literal values are its answers)."""
import warnings

import numpy as np
import pytest

import wengert as tf

K = tf.keras
X = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
Y = np.array([[1.0], [2.0]], "float32")


def _model(cls=None):
    model = (cls or K.Sequential)([K.Input((2,)), K.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=K.optimizers.SGD(0.1), loss="mse")
    return model


def test_train_test_and_predict_functions_run_the_models_steps():
    model = _model()
    assert model.loss == "mse"
    model.make_train_function()
    logs = model.train_function(iter([(X, Y)]))
    np.testing.assert_allclose(float(logs["loss"]), 14.5, rtol=1e-6)
    np.testing.assert_allclose(model.layers[0].kernel.numpy().ravel(), [-0.7, -1.4], rtol=1e-6)
    model.make_test_function()
    np.testing.assert_allclose(float(model.test_function(iter([(X, Y)]))["loss"]), 41.05,
                               rtol=1e-6)
    model.make_predict_function()
    np.testing.assert_allclose(np.asarray(model.predict_function([(X,)])), [[-4.2], [-8.4]],
                               rtol=1e-6)
    assert model.make_train_function() is model.train_function
    assert model.make_train_function(force=True) is not None
    with pytest.raises(StopIteration):
        model.train_function(iter([]))


def test_fit_runs_an_overridden_train_function_once_made_per_fit():
    calls = []

    class Wrapping(K.Sequential):
        def make_train_function(self, force=False):
            super().make_train_function(force)
            inner = self.train_function

            def wrapped(iterator):
                calls.append(1)
                return inner(iterator)
            self.train_function = wrapped
            return wrapped

    model = _model(Wrapping)
    model.fit(X, Y, batch_size=1, epochs=2, verbose=0)
    assert len(calls) == 4  # Keras: one make per fit, one call per batch


def test_a_new_model_has_no_loss_and_loss_method_is_deprecated():
    assert K.Sequential([K.layers.Dense(1)]).loss is None
    model = _model()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = K.Model.loss(model, Y, np.zeros_like(Y))
    assert any("deprecated" in str(w.message) for w in caught)
    np.testing.assert_allclose(float(value), 2.5, rtol=1e-6)


def test_state_tree_round_trip():
    model = K.Sequential([K.Input((1,), name="my_input"),
                          K.layers.Dense(1, activation="sigmoid", name="my_dense")],
                         name="my_sequential")
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    model.fit(np.array([[1.0]]), np.array([[1.0]]), verbose=0)
    tree = model.get_state_tree("numpy_array")
    assert set(tree) == {"trainable_variables", "non_trainable_variables",
                         "optimizer_variables", "metrics_variables"}
    dense = tree["trainable_variables"]["my_sequential"]["my_dense"]
    assert set(dense) == {"kernel", "bias"} and tree["non_trainable_variables"] == {}
    assert int(tree["optimizer_variables"]["adam"]["iteration"]) == 1
    assert float(tree["metrics_variables"]["loss"]["count"]) == 1.0
    dense["kernel"] = np.array([[0.25]], "float32")
    model.set_state_tree({"trainable_variables": tree["trainable_variables"]})
    np.testing.assert_array_equal(model.layers[0].kernel.numpy(), [[0.25]])
    with pytest.raises(ValueError, match="Unknown variable name"):
        model.set_state_tree({"weights": {}})
    with pytest.raises(ValueError, match="value_format"):
        model.get_state_tree("lists")


def test_stateless_compute_loss():
    model = K.Sequential([K.Input((1,)), K.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    model.fit(np.array([[1.0]]), np.array([[1.0]]), verbose=0)
    loss, (tv, ntv, mv) = model.stateless_compute_loss(
        model.trainable_variables, model.non_trainable_variables, model.metrics_variables,
        x=np.array([[1.0]], "float32"), y=np.array([[0.5]], "float32"),
        y_pred=np.array([[0.25]], "float32"))
    np.testing.assert_allclose(float(loss), 0.0625, rtol=1e-6)
    assert ntv == [] and len(mv) == len(model.metrics_variables)


def test_model_quantize_refuses_and_names_no_structure():
    model = _model()
    with pytest.raises(NotImplementedError, match="quantize\\(mode='int8'\\)"):
        model.quantize("int8")
    with pytest.raises(ValueError, match="Invalid quantization mode"):
        model.quantize("int3")
    model.quantize("int8", filters="nothing_matches")  # no layer selected: nothing to do
    assert model.get_quantization_layer_structure("gptq") is None


def test_compile_forgets_the_step_functions():
    model = _model()
    model.make_train_function()
    model.train_function = lambda iterator: {"loss": 0.0}
    model.compile(optimizer=K.optimizers.SGD(0.1), loss="mse")
    assert model.train_function is None and model.test_function is None
    history = model.fit(X, Y, epochs=1, verbose=0)
    np.testing.assert_allclose(history.history["loss"][0], 14.5, rtol=1e-6)
