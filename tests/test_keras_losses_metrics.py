"""keras.losses against their NumPy formulas (Keras's clipping included), keras.metrics, how
compile resolves "accuracy", and which names the two namespaces hold."""
import inspect

import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.autodiff.checker import check_grads
from wengert.keras import losses, metrics

EPS = 1e-7
RNG = np.random.default_rng(0)


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


LOGITS = RNG.standard_normal((6, 4))
PROBS = _softmax(LOGITS)
LABELS = np.array([0, 3, 1, 2, 3, 0])
ONEHOT = np.eye(4)[LABELS]


def _cce(y, p):
    p = np.clip(p / p.sum(-1, keepdims=True), EPS, 1 - EPS)
    return -(y * np.log(p)).sum(-1)


def test_categorical_crossentropy_matches_numpy():
    loss = losses.CategoricalCrossentropy()
    np.testing.assert_allclose(float(loss(ONEHOT, PROBS)), _cce(ONEHOT, PROBS).mean(), rtol=1e-6)
    hard = np.array([[0.0, 1.0, 0.0]])
    np.testing.assert_allclose(float(loss([[1.0, 0.0, 0.0]], hard)), -np.log(EPS), rtol=1e-6)
    logits_loss = losses.CategoricalCrossentropy(from_logits=True)(ONEHOT, LOGITS)
    np.testing.assert_allclose(float(logits_loss), _cce(ONEHOT, PROBS).mean(), rtol=1e-6)
    smooth = losses.CategoricalCrossentropy(label_smoothing=0.2)(ONEHOT, PROBS)
    np.testing.assert_allclose(float(smooth), _cce(ONEHOT * 0.8 + 0.05, PROBS).mean(),
                               rtol=1e-6)
    assert loss(ONEHOT.astype(np.float32), PROBS.astype(np.float32)).dtype == tf.float32


def test_sparse_categorical_crossentropy_matches_numpy():
    expected = -np.log(np.clip(PROBS[np.arange(6), LABELS], EPS, 1 - EPS)).mean()
    np.testing.assert_allclose(float(losses.SparseCategoricalCrossentropy()(LABELS, PROBS)),
                               expected, rtol=1e-6)
    np.testing.assert_allclose(float(losses.SparseCategoricalCrossentropy(from_logits=True)(
        LABELS[:, None], LOGITS)), expected, rtol=1e-6)
    np.testing.assert_allclose(float(losses.sparse_categorical_crossentropy(
        LABELS.astype(np.float32), PROBS).numpy().mean()), expected, rtol=1e-6)


def test_binary_crossentropy_matches_numpy():
    y = RNG.integers(0, 2, (5, 3)).astype(np.float64)
    z = RNG.standard_normal((5, 3))
    p = 1 / (1 + np.exp(-z))
    pc = np.clip(p, EPS, 1 - EPS)
    expected = -(y * np.log(pc + EPS) + (1 - y) * np.log(1 - pc + EPS)).mean()
    np.testing.assert_allclose(float(losses.BinaryCrossentropy()(y, p)), expected, rtol=1e-6)
    exact = -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()
    np.testing.assert_allclose(float(losses.BinaryCrossentropy(from_logits=True)(y, z)), exact,
                               rtol=1e-9)
    # labels [batch] against predictions [batch, 1] (squeezed, not broadcast to [batch, batch])
    col = losses.BinaryCrossentropy()(y[:, 0], p[:, :1])
    np.testing.assert_allclose(float(col), -(y[:, 0] * np.log(pc[:, 0] + EPS) + (1 - y[:, 0])
                                             * np.log(1 - pc[:, 0] + EPS)).mean(), rtol=1e-6)
    smooth = losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1)(y, z)
    ys = y * 0.9 + 0.05
    np.testing.assert_allclose(float(smooth), -(ys * np.log(p) + (1 - ys) * np.log(1 - p)).mean(),
                               rtol=1e-9)


def test_mean_squared_error_reductions_and_weights():
    y, p = RNG.standard_normal((4, 3)), RNG.standard_normal((4, 3))
    per_sample = ((y - p) ** 2).mean(-1)
    np.testing.assert_allclose(float(losses.MeanSquaredError()(y, p)), per_sample.mean())
    none = losses.MeanSquaredError(reduction="none")(y, p)
    np.testing.assert_allclose(none.numpy(), per_sample)
    np.testing.assert_allclose(float(losses.MeanSquaredError(reduction="sum")(y, p)),
                               per_sample.sum())
    w = np.array([1.0, 0.0, 2.0, 0.5])
    np.testing.assert_allclose(float(losses.MeanSquaredError()(y, p, sample_weight=w)),
                               (per_sample * w).sum() / 4)
    np.testing.assert_allclose(float(losses.MeanSquaredError()(y[:, 0], p[:, :1])),
                               ((y[:, 0] - p[:, 0]) ** 2).mean())
    np.testing.assert_allclose(float(losses.MeanAbsoluteError()(y, p)), np.abs(y - p).mean())
    with pytest.raises(ValueError, match="Reduction"):
        losses.MeanSquaredError(reduction="mean")


def test_loss_gradients_against_finite_differences():
    y = ONEHOT
    for loss in (losses.CategoricalCrossentropy(from_logits=True),
                 losses.CategoricalCrossentropy(),
                 losses.BinaryCrossentropy(from_logits=True),
                 losses.MeanSquaredError()):
        check_grads(lambda p, loss=loss: loss(y, p), [PROBS * 0.9 + 0.02], order=1)
    check_grads(lambda z: losses.SparseCategoricalCrossentropy(from_logits=True)(LABELS, z),
                [LOGITS], order=2)


def test_loss_lookup_by_name():
    assert losses.get("categorical_crossentropy") is losses.categorical_crossentropy
    assert losses.get("mse") is losses.mean_squared_error
    assert isinstance(losses.get("BinaryCrossentropy"), losses.BinaryCrossentropy)
    with pytest.raises(ValueError, match="Unknown loss"):
        losses.get("hinge-ish")


def test_accuracy_metrics_match_numpy():
    acc = metrics.SparseCategoricalAccuracy()
    acc.update_state(LABELS, PROBS)
    expected = np.mean(PROBS.argmax(-1) == LABELS)
    np.testing.assert_allclose(float(acc.result()), expected)
    cat = metrics.CategoricalAccuracy()
    np.testing.assert_allclose(float(cat(ONEHOT, PROBS)), expected)
    binary = metrics.BinaryAccuracy()
    np.testing.assert_allclose(float(binary([1, 0, 1, 1], [0.7, 0.6, 0.2, 0.9])), 0.5)
    assert float(metrics.Accuracy()([1, 2, 3, 4], [1, 2, 0, 4])) == 0.75


def test_metrics_accumulate_weight_and_reset():
    mean = metrics.Mean()
    mean.update_state([1.0, 2.0, 3.0])
    mean.update_state([10.0], sample_weight=[3.0])
    np.testing.assert_allclose(float(mean.result()), (6 + 30) / 6)
    mean.reset_state()
    assert float(mean.result()) == 0.0
    acc = metrics.SparseCategoricalAccuracy()
    acc.update_state([0, 1], [[0.9, 0.1], [0.8, 0.2]])
    acc.update_state([1, 1], [[0.1, 0.9], [0.3, 0.7]])
    assert float(acc.result()) == 0.75
    assert [v.path for v in acc.variables] == ["sparse_categorical_accuracy/total",
                                               "sparse_categorical_accuracy/count"]
    assert not any(v.trainable for v in acc.variables)


@pytest.mark.parametrize("loss, y, units, expected", [
    ("sparse_categorical_crossentropy", np.array([0, 1, 2, 1]), 3, "SparseCategoricalAccuracy"),
    ("categorical_crossentropy", np.eye(3)[[0, 1, 2, 1]], 3, "CategoricalAccuracy"),
    ("binary_crossentropy", np.array([[0.0], [1.0], [1.0], [0.0]]), 1, "BinaryAccuracy"),
])
def test_compile_resolves_accuracy_from_the_loss(loss, y, units, expected):
    keras.backend.clear_session()
    activation = "sigmoid" if units == 1 else "softmax"
    model = keras.Sequential([keras.layers.Dense(units, activation=activation,
                                                 input_shape=(2,))])
    model.compile(optimizer="sgd", loss=loss, metrics=["accuracy"])
    model.evaluate(np.ones((4, 2), np.float32), y, verbose=0)
    # Keras 3's model.metrics: the loss tracker, then one tracker over the compiled metrics
    assert [m.name for m in model.metrics] == ["loss", "compile_metrics"]
    accuracy = model.metrics[1].metrics[0]
    assert type(accuracy).__name__ == expected and accuracy.name == "accuracy"


def test_metric_lookup():
    assert isinstance(metrics.get("mse"), metrics.MeanSquaredError)
    assert metrics.get("mse").name == "mean_squared_error"  # Keras 3: the class's own name
    wrapped = metrics.get(lambda y, p: tf.abs(tf.constant(y) - p))
    wrapped.update_state(np.array([1.0, 2.0]), tf.constant([0.0, 0.0], tf.float64))
    assert float(wrapped.result()) == 1.5
    with pytest.raises(ValueError, match="Unknown metric"):
        metrics.get("nope")

# -- the namespaces ----------------------------------------------------------------------------
# Public names of TensorFlow 2.21's tf.keras.losses / tf.keras.metrics (dir() without dunders)
TF_LOSSES = {"BinaryCrossentropy", "BinaryFocalCrossentropy", "CTC", "CategoricalCrossentropy",
             "CategoricalFocalCrossentropy", "CategoricalGeneralizedCrossEntropy",
             "CategoricalHinge", "Circle", "CosineSimilarity", "Dice", "Hinge", "Huber", "KLD",
             "KLDivergence", "LogCosh", "Loss", "MAE", "MAPE", "MSE", "MSLE", "MeanAbsoluteError",
             "MeanAbsolutePercentageError", "MeanSquaredError", "MeanSquaredLogarithmicError",
             "Poisson", "Reduction", "SparseCategoricalCrossentropy", "SquaredHinge", "Tversky",
             "binary_crossentropy", "binary_focal_crossentropy", "categorical_crossentropy",
             "categorical_focal_crossentropy", "categorical_generalized_cross_entropy",
             "categorical_hinge", "circle", "cosine_similarity", "ctc", "deserialize", "dice",
             "get", "hinge", "huber", "kld", "kullback_leibler_divergence", "logcosh", "mae",
             "mape", "mse", "msle", "poisson", "serialize", "sparse_categorical_crossentropy",
             "squared_hinge", "tversky"}
TF_METRICS = {"AUC", "Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "BinaryIoU",
              "CategoricalAccuracy", "CategoricalCrossentropy", "CategoricalHinge",
              "ConcordanceCorrelation", "CosineSimilarity", "F1Score", "FBetaScore",
              "FalseNegatives", "FalsePositives", "Hinge", "IoU", "KLD", "KLDivergence",
              "LogCoshError", "MAE", "MAPE", "MSE", "MSLE", "Mean", "MeanAbsoluteError",
              "MeanAbsolutePercentageError", "MeanIoU", "MeanMetricWrapper", "MeanSquaredError",
              "MeanSquaredLogarithmicError", "Metric", "OneHotIoU", "OneHotMeanIoU",
              "PearsonCorrelation", "Poisson", "Precision", "PrecisionAtRecall", "R2Score",
              "Recall", "RecallAtPrecision", "RootMeanSquaredError", "SensitivityAtSpecificity",
              "SparseCategoricalAccuracy", "SparseCategoricalCrossentropy",
              "SparseTopKCategoricalAccuracy", "SpecificityAtSensitivity", "SquaredHinge", "Sum",
              "TopKCategoricalAccuracy", "TrueNegatives", "TruePositives", "binary_accuracy",
              "binary_crossentropy", "binary_focal_crossentropy", "categorical_accuracy",
              "categorical_crossentropy", "categorical_focal_crossentropy", "categorical_hinge",
              "concordance_correlation", "deserialize", "get", "hinge", "huber", "kld",
              "kullback_leibler_divergence", "logcosh", "mae", "mape", "mse", "msle",
              "pearson_correlation", "poisson", "serialize", "sparse_categorical_accuracy",
              "sparse_categorical_crossentropy", "sparse_top_k_categorical_accuracy",
              "squared_hinge", "top_k_categorical_accuracy"}
# Keras 3's keras.losses and keras.metrics also have these long names of the loss functions
KERAS3_LOSS_FUNCTIONS = {"kl_divergence", "log_cosh", "mean_absolute_error",
                         "mean_absolute_percentage_error", "mean_squared_error",
                         "mean_squared_logarithmic_error"}


@pytest.mark.parametrize("namespace, keras_names", [
    (losses, TF_LOSSES | KERAS3_LOSS_FUNCTIONS), (metrics, TF_METRICS | KERAS3_LOSS_FUNCTIONS)])
def test_namespaces_hold_keras_names_only(namespace, keras_names):
    """keras.losses / keras.metrics have every name TensorFlow's have, and besides Keras's names
    only the modules of their families (losses/regression.py, metrics/confusion.py, ...)."""
    public = {n for n in dir(namespace) if not n.startswith("_")}
    family_modules = {n for n in public if inspect.ismodule(getattr(namespace, n))}
    assert family_modules == {n for n in family_modules
                              if getattr(namespace, n).__name__ == f"{namespace.__name__}.{n}"}
    assert public - family_modules == keras_names
    assert set(namespace.__all__) == keras_names
