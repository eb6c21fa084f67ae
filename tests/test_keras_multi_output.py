"""Multi-input, multi-output Keras models as Keras 3 trains them (issue 27 item 4).

Per-output losses (a list or a dict keyed by output name), loss_weights, per-output metrics, the
History's `out_a_loss` / `out_b_accuracy` keys, functional models whose inputs and outputs are
dicts, fit on dicts keyed by input and output name, `Model.input/output/inputs/outputs`,
`Layer.output` feature extractors and `Sequential.inputs/outputs`.

The programs are deterministic (fixed initial weights, SGD, no shuffling) and run unchanged
under TensorFlow 2.21's Keras; the `TF_*` literals were produced by running this file there:

    /work/tfvenv/bin/python tests/test_keras_multi_output.py
"""
import sys

import numpy as np

if __name__ == "__main__":  # the reference run, under TensorFlow (see the module docstring)
    import tensorflow as tf
else:
    import pytest

    import wengert as tf
keras = tf.keras
layers = keras.layers


def _data():
    rng = np.random.default_rng(0)
    x1 = rng.standard_normal((32, 3)).astype("float32")
    x2 = rng.standard_normal((32, 2)).astype("float32")
    ya = rng.standard_normal((32, 1)).astype("float32")
    yb = rng.integers(0, 3, 32).astype("int32")
    return x1, x2, ya, yb


def _weights(model, seed=1):
    rng = np.random.default_rng(seed)
    model.set_weights([(0.3 * rng.standard_normal(w.shape)).astype("float32")
                       for w in model.get_weights()])


def _two_by_two(dict_io=False):
    a = keras.Input(shape=(3,), name="in_a")
    b = keras.Input(shape=(2,), name="in_b")
    h = layers.Dense(4, activation="tanh", name="hidden")(layers.Concatenate()([a, b]))
    out_a = layers.Dense(1, name="out_a")(h)
    out_b = layers.Dense(3, name="out_b")(h)
    if dict_io:
        model = keras.Model({"in_a": a, "in_b": b}, {"out_a": out_a, "out_b": out_b})
    else:
        model = keras.Model([a, b], [out_a, out_b])
    _weights(model)
    return model


def _sparse():
    return keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def list_program():
    x1, x2, ya, yb = _data()
    model = _two_by_two()
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss=["mse", _sparse()],
                  loss_weights=[1.0, 0.5], metrics=[["mae"], ["accuracy"]])
    history = model.fit([x1, x2], [ya, yb], batch_size=8, epochs=2, shuffle=False, verbose=0)
    return {**history.history, "evaluate": model.evaluate([x1, x2], [ya, yb], verbose=0)}


def dict_program():
    x1, x2, ya, yb = _data()
    model = _two_by_two()
    model.compile(optimizer=keras.optimizers.SGD(0.05),
                  loss={"out_a": "mse", "out_b": _sparse()},
                  loss_weights={"out_a": 1.0, "out_b": 0.5},
                  metrics={"out_a": "mae", "out_b": ["accuracy"]})
    history = model.fit({"in_a": x1, "in_b": x2}, {"out_a": ya, "out_b": yb}, batch_size=8,
                        epochs=2, shuffle=False, verbose=0)
    return history.history


def dict_io_program():
    x1, x2, ya, yb = _data()
    model = _two_by_two(dict_io=True)
    model.compile(optimizer=keras.optimizers.SGD(0.05),
                  loss={"out_a": "mse", "out_b": _sparse()}, metrics={"out_b": ["accuracy"]})
    history = model.fit({"in_a": x1, "in_b": x2}, {"out_a": ya, "out_b": yb}, batch_size=8,
                        epochs=2, shuffle=False, verbose=0)
    predictions = model.predict({"in_a": x1, "in_b": x2}, verbose=0)
    return {**history.history, "predict_sum_out_b": [float(np.sum(predictions["out_b"]))]}


def feature_program():
    x1, _, _, _ = _data()
    model = keras.Sequential([keras.Input(shape=(3,)), layers.Dense(4, activation="relu"),
                              layers.Dense(2)])
    _weights(model)
    extractor = keras.Model(inputs=model.inputs,
                            outputs=[layer.output for layer in model.layers])
    features = extractor(x1)
    return {"shapes": [float(f.shape[-1]) for f in features],
            "sums": [float(np.sum(np.asarray(f))) for f in features]}


PROGRAMS = {"list": list_program, "dict": dict_program, "dict_io": dict_io_program,
            "feature": feature_program}


def _numbers(result):
    return {k: [float(v) for v in np.atleast_1d(vals)] for k, vals in result.items()}


if __name__ == "__main__":  # print TensorFlow's numbers; the tests below need pytest
    for name, program in PROGRAMS.items():
        print(name, _numbers(program()))
    sys.exit(0)

# -- TensorFlow's numbers (see the module docstring for how they were produced) ----------------
TF_RESULTS = {
    "list": {"loss": [1.3976123332977295, 1.3855698108673096],
             "out_a_loss": [0.844196081161499, 0.8328072428703308],
             "out_a_mae": [0.7750668525695801, 0.7778105139732361],
             "out_b_accuracy": [0.34375, 0.34375],
             "out_b_loss": [1.10683274269104, 1.1055248975753784],
             "evaluate": [1.3224382400512695, 0.7674990296363831, 1.1098783016204834,
                          0.7465641498565674, 0.34375]},
    "dict": {"loss": [1.3976123332977295, 1.3855698108673096],
             "out_a_loss": [0.844196081161499, 0.8328072428703308],
             "out_a_mae": [0.7750668525695801, 0.7778105139732361],
             "out_b_accuracy": [0.34375, 0.34375],
             "out_b_loss": [1.10683274269104, 1.1055248975753784]},
    "dict_io": {"loss": [1.9530402421951294, 1.9362146854400635],
                "out_a_loss": [0.8468629717826843, 0.8375087976455688],
                "out_b_accuracy": [0.34375, 0.34375],
                "out_b_loss": [1.1061772108078003, 1.098705768585205],
                "predict_sum_out_b": [-23.281517028808594]},
    "feature": {"shapes": [4.0, 2.0], "sums": [18.398298263549805, -37.4692268371582]},
}


@pytest.mark.parametrize("name", sorted(TF_RESULTS))
def test_programs_match_tensorflow(name):
    keras.backend.clear_session()
    result = _numbers(PROGRAMS[name]())
    expected = TF_RESULTS[name]
    assert set(result) == set(expected)
    for key, values in expected.items():
        np.testing.assert_allclose(result[key], values, rtol=1e-5, atol=1e-5,
                                   err_msg=f"{name}: {key}")


@pytest.mark.parametrize("loss, match", [
    ({"out_a": "mse", "out_c": "mse"}, r"unknown: \['out_c'\]"),
    ({"out_a": "mse"}, r"missing: \['out_b'\]"),
    (["mse"], "has 1 entries but the model has 2 outputs"),
])
def test_a_loss_that_does_not_fit_the_outputs_is_refused_by_compile(loss, match):
    model = _two_by_two()
    with pytest.raises(ValueError, match=match):
        model.compile(optimizer="sgd", loss=loss)


def test_an_output_may_go_without_a_loss():
    x1, x2, ya, yb = _data()
    model = _two_by_two()
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss={"out_a": "mse", "out_b": None})
    before = model.get_layer("out_b").get_weights()
    history = model.fit([x1, x2], {"out_a": ya, "out_b": yb}, batch_size=8, epochs=2,
                        shuffle=False, verbose=0)
    assert set(history.history) == {"loss", "out_a_loss"}
    np.testing.assert_allclose(history.history["loss"], history.history["out_a_loss"])
    for a, b in zip(before, model.get_layer("out_b").get_weights()):
        np.testing.assert_array_equal(a, b)


def test_symbolic_inputs_and_outputs():
    model = _two_by_two()
    assert [t.name for t in model.inputs] == ["in_a", "in_b"]
    assert isinstance(model.input, list) and len(model.output) == 2
    assert model.output_names == ["out_a", "out_b"] and model.input_names == ["in_a", "in_b"]
    assert model.get_layer("hidden").output.shape.as_list() == [None, 4]
    dict_model = _two_by_two(dict_io=True)
    assert set(dict_model.output) == {"out_a", "out_b"}
    single = keras.Sequential([keras.Input(shape=(3,)), layers.Dense(2)])
    assert single.input.shape.as_list() == [None, 3] and len(single.outputs) == 1
    assert single.layers[0].output is single.output
    with pytest.raises(AttributeError, match="no defined output"):
        layers.Dense(3).output  # noqa: B018 - the property raises
    with pytest.raises(AttributeError, match="no defined inputs"):
        keras.Sequential([layers.Dense(2)]).inputs  # noqa: B018


def test_dict_inputs_by_name_reach_a_list_input_model():
    x1, x2, _, _ = _data()
    model = _two_by_two()
    by_list = model.predict([x1, x2], verbose=0)
    by_name = model.predict({"in_b": x2, "in_a": x1}, verbose=0)
    for a, b in zip(by_list, by_name):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    with pytest.raises(ValueError, match=r"lacks \['in_b'\]"):
        model({"in_a": x1})


def test_fit_on_a_dataset_of_dicts_matches_fit_on_arrays():
    x1, x2, ya, yb = _data()
    histories = []
    for use_dataset in (False, True):
        model = _two_by_two(dict_io=True)
        model.compile(optimizer=keras.optimizers.SGD(0.05),
                      loss={"out_b": _sparse(), "out_a": "mse"})
        inputs, targets = {"in_b": x2, "in_a": x1}, {"out_b": yb, "out_a": ya}
        if use_dataset:
            data = tf.data.Dataset.from_tensor_slices((inputs, targets)).batch(8)
            histories.append(model.fit(data, epochs=2, verbose=0).history)
        else:
            histories.append(model.fit(inputs, targets, batch_size=8, epochs=2, shuffle=False,
                                       verbose=0).history)
    for key in histories[0]:
        np.testing.assert_allclose(histories[0][key], histories[1][key], rtol=1e-5)
    np.testing.assert_allclose(histories[0]["loss"], TF_RESULTS["dict_io"]["loss"], rtol=1e-5)
