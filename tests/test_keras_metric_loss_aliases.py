"""Keras's short metric and loss names (mse, mae, mape, msle, kld, kl_divergence, logcosh,
binary_focal_crossentropy, "ce", ...) as functions of keras.losses / keras.metrics and as strings
in compile, against TensorFlow 2.21's Keras 3: the values of each, the History keys a fit logs,
and `metrics_names` of single- and multi-output models. Without TensorFlow: the aliases are the
functions they abbreviate, and "ce" picks the cross-entropy the shapes call for."""
import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval

keras = tf.keras
RNG = np.random.default_rng(2753)
Y = RNG.uniform(0.05, 1.0, (6, 3))
P = RNG.uniform(0.05, 1.0, (6, 3))
PROBS = P / P.sum(-1, keepdims=True)
ONE_HOT = np.eye(3)[RNG.integers(0, 3, 6)]
LOSS_NAMES = ("mse", "mae", "mape", "msle", "kld", "kl_divergence", "log_cosh", "huber",
              "binary_focal_crossentropy", "categorical_focal_crossentropy", "poisson",
              "cosine_similarity", "binary_crossentropy", "categorical_crossentropy", "hinge",
              "squared_hinge", "categorical_hinge", "mean_squared_error",
              "mean_absolute_percentage_error")
METRIC_NAMES = ("mse", "mae", "mape", "msle", "MSE", "MAE", "MAPE", "MSLE", "bce", "BCE",
                "kl_divergence", "poisson", "cosine_similarity", "hinge", "squared_hinge",
                "categorical_hinge", "mean_squared_error", "binary_crossentropy",
                "categorical_crossentropy", "auc", "r2_score", "binary_accuracy")
def _split(results, kind):
    return {k.split("/", 1)[1]: v for k, v in results.items() if k.startswith(kind + "/")}


def test_loss_values_match_keras():
    want = _split(tf_eval(f"""
for n in {LOSS_NAMES!r}:
    out["loss/" + n] = keras.losses.get(n)(A["y"], A["p"])
""", {"y": ONE_HOT, "p": PROBS}), "loss")
    for name in LOSS_NAMES:
        got = keras.losses.get(name)(ONE_HOT, tf.constant(PROBS))
        np.testing.assert_allclose(np.asarray(got), want[name], rtol=1e-6, atol=1e-7,
                                   err_msg=name)


def test_metric_values_and_names_match_keras():
    results = tf_eval(f"""
for n in {METRIC_NAMES!r}:
    m = keras.metrics.get(n)
    m.update_state(A["y"], A["p"])
    out["metric/" + n] = m.result()
    out["name/" + n] = np.array(m.name.rsplit("_", 1)[0] if m.name[-1].isdigit() else m.name)
""", {"y": ONE_HOT, "p": PROBS})
    values, names = _split(results, "metric"), _split(results, "name")
    for name in METRIC_NAMES:
        metric = keras.metrics.get(name)
        metric.update_state(ONE_HOT, tf.constant(PROBS))
        np.testing.assert_allclose(float(metric.result()), values[name], rtol=1e-5,
                                   err_msg=name)
        assert metric.name == str(names[name]), name


_HISTORY = """
x, y = A["x"].astype("float32"), A["y"].astype("float32")
for i, n in enumerate({names!r}):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer="sgd", loss={loss!r}, metrics=[n])
    h = model.fit(x, y, epochs=1, batch_size=3, verbose=0, shuffle=False)
    out[f"keys/{{i}}"] = np.array(sorted(h.history))
    out[f"names/{{i}}"] = np.array(model.metrics_names)
"""


@pytest.mark.parametrize("loss", ["mse", "ce", "crossentropy", "kl_divergence"])
def test_history_keys_and_metrics_names_match_keras(loss):
    names = ("mse", "mae", "mape", "msle", "MSE", "kl_divergence", "accuracy", "acc", "bce",
             "auc", "AUC", "mean_squared_error", "categorical_crossentropy", "poisson")
    results = tf_eval(_HISTORY.format(names=names, loss=loss), {"x": P, "y": ONE_HOT})
    for i, name in enumerate(names):
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer="sgd", loss=loss, metrics=[name])
        history = model.fit(P.astype("float32"), ONE_HOT.astype("float32"), epochs=1,
                            batch_size=3, verbose=0, shuffle=False)
        assert sorted(history.history) == list(results[f"keys/{i}"]), name
        assert model.metrics_names == list(results[f"names/{i}"]), name


_MULTI = """
x, y = A["x"].astype("float32"), A["y"].astype("float32")
inp = keras.Input((3,))
a = keras.layers.Dense(3, name="out_a")(inp)
b = keras.layers.Dense(3, name="out_b")(inp)
model = keras.Model(inp, [a, b])
out["uncompiled"] = np.array(model.metrics_names, dtype=str)
model.compile("sgd", loss=["mse", "mae"], metrics=[["mae"], ["mse", "accuracy"]])
h = model.fit(x, [y, y], epochs=1, verbose=0)
out["fit"] = np.array(model.metrics_names)
out["keys"] = np.array(sorted(h.history))
single = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
single.compile("sgd", loss="mse")
single.fit(x, y[:, :2], epochs=1, verbose=0)
out["single"] = np.array(single.metrics_names)
"""


def test_multi_output_metrics_names_match_keras():
    want = tf_eval(_MULTI, {"x": P, "y": ONE_HOT})
    inp = keras.Input((3,))
    model = keras.Model(inp, [keras.layers.Dense(3, name="out_a")(inp),
                              keras.layers.Dense(3, name="out_b")(inp)])
    assert model.metrics_names == list(want["uncompiled"])
    model.compile("sgd", loss=["mse", "mae"], metrics=[["mae"], ["mse", "accuracy"]])
    history = model.fit(P.astype("float32"), [ONE_HOT.astype("float32")] * 2, epochs=1,
                        verbose=0)
    assert model.metrics_names == list(want["fit"])
    assert sorted(history.history) == list(want["keys"])
    single = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    single.compile("sgd", loss="mse")
    single.fit(P.astype("float32"), ONE_HOT[:, :2].astype("float32"), epochs=1, verbose=0)
    assert single.metrics_names == list(want["single"])


@pytest.mark.parametrize("alias,full", [
    ("mse", "mean_squared_error"), ("mae", "mean_absolute_error"),
    ("mape", "mean_absolute_percentage_error"), ("msle", "mean_squared_logarithmic_error"),
    ("kld", "kl_divergence"), ("logcosh", "log_cosh"), ("MSE", "mean_squared_error")])
def test_aliases_are_the_functions_they_abbreviate(alias, full):
    assert getattr(keras.losses, alias) is getattr(keras.losses, full)
    assert getattr(keras.metrics, alias) is getattr(keras.losses, full)
    assert keras.losses.get(alias) is getattr(keras.losses, full)


@pytest.mark.parametrize("y,p,full", [
    (ONE_HOT, PROBS, "categorical_crossentropy"),
    (np.argmax(ONE_HOT, -1), PROBS, "sparse_categorical_crossentropy"),
    (np.argmax(ONE_HOT, -1)[:, None], PROBS, "sparse_categorical_crossentropy"),
    (ONE_HOT[:, :1], PROBS[:, :1], "binary_crossentropy")])
def test_ce_picks_the_crossentropy_of_the_shapes(y, p, full):
    for name in ("ce", "crossentropy"):
        got = keras.losses.get(name)(tf.constant(y), tf.constant(p))
        np.testing.assert_allclose(got.numpy(), getattr(keras.losses, full)(
            tf.constant(y), tf.constant(p)).numpy(), rtol=1e-12)


def test_loss_functions_as_metric_strings_log_their_running_mean():
    metric = keras.metrics.registry.named("binary_focal_crossentropy")
    assert metric.name == "binary_focal_crossentropy"
    metric.update_state(ONE_HOT, tf.constant(PROBS))
    want = np.mean(keras.losses.binary_focal_crossentropy(ONE_HOT, tf.constant(PROBS)).numpy())
    np.testing.assert_allclose(float(metric.result()), want, rtol=1e-6)
