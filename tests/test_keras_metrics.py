"""keras.metrics beyond accuracy and MSE/MAE: confusion-matrix metrics (TruePositives, ...,
Precision, Recall with thresholds / top_k / class_id, AUC with ROC / PR curves, every summation
method, multi_label and label_weights), F1Score / FBetaScore, IoU / MeanIoU, top-k accuracies,
RootMeanSquaredError and the loss-named metrics: values against NumPy and against TensorFlow
2.21's Keras (in a subprocess, skipped without it), state across batches and resets, and use in
model.compile / fit / evaluate by name."""
import json

import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.keras import metrics

from keras_tf_eval import tf_eval

RNG = np.random.default_rng(11)
N, C = 12, 4
LABELS = RNG.integers(0, 2, (N, C)).astype(np.float32)
SCORES = RNG.uniform(0, 1, (N, C)).astype(np.float32)
LABELS2 = RNG.integers(0, 2, (N, C)).astype(np.float32)
SCORES2 = RNG.uniform(0, 1, (N, C)).astype(np.float32)
W = RNG.uniform(0.1, 2.0, N).astype(np.float32)
CLASSES = RNG.integers(0, C, N)
CLASSES2 = RNG.integers(0, C, N)
ONEHOT = np.eye(C, dtype=np.float32)[CLASSES]
REG_Y = RNG.standard_normal((N, 3)).astype(np.float32)
REG_P = RNG.standard_normal((N, 3)).astype(np.float32)


def test_precision_recall_match_numpy():
    pred = SCORES > 0.5
    tp = (pred * LABELS).sum()
    p = metrics.Precision()
    p.update_state(LABELS, SCORES)
    np.testing.assert_allclose(float(p.result()), tp / pred.sum(), rtol=1e-6)
    r = metrics.Recall(thresholds=[0.3, 0.7])
    r.update_state(LABELS, SCORES, sample_weight=W)
    expected = [((SCORES > t) * LABELS * W[:, None]).sum() / (LABELS * W[:, None]).sum()
                for t in (0.3, 0.7)]
    np.testing.assert_allclose(r.result().numpy(), expected, rtol=1e-6)
    r.reset_state()
    assert float(r.result()[0]) == 0.0
    top = metrics.Precision(top_k=1)
    top.update_state(LABELS, SCORES)
    best = SCORES.argmax(-1)
    np.testing.assert_allclose(float(top.result()), LABELS[np.arange(N), best].mean(), rtol=1e-6)
    one = metrics.Recall(class_id=2)
    one.update_state(LABELS, SCORES)
    col = LABELS[:, 2] > 0
    np.testing.assert_allclose(float(one.result()), (SCORES[col, 2] > 0.5).mean(), rtol=1e-6)


def _roc_auc_numpy(y, s, num_thresholds=200):
    eps = 1e-7
    t = np.array([-eps] + [(i + 1) / (num_thresholds - 1)
                           for i in range(num_thresholds - 2)] + [1 + eps])
    pos = s.reshape(-1)[None, :] > t[:, None]
    y = y.reshape(-1)[None, :] > 0
    tp, fp = (pos & y).sum(1), (pos & ~y).sum(1)
    fn, tn = (~pos & y).sum(1), (~pos & ~y).sum(1)
    tpr, fpr = tp / (tp + fn), fp / (fp + tn)
    return np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2)


def test_auc_matches_numpy_and_accumulates():
    auc = metrics.AUC()
    auc.update_state(LABELS[:6], SCORES[:6])
    auc.update_state(LABELS[6:], SCORES[6:])
    np.testing.assert_allclose(float(auc.result()), _roc_auc_numpy(LABELS, SCORES), rtol=1e-5)
    auc.reset_state()
    assert float(auc.result()) == 0.0
    # Keras's documented example
    small = metrics.AUC(num_thresholds=3)
    small.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    np.testing.assert_allclose(float(small.result()), 0.75)


def test_f_scores_and_iou_match_numpy():
    f1 = metrics.F1Score(average="macro", threshold=0.5)
    f1.update_state(LABELS, SCORES)
    pred = (SCORES > 0.5).astype(np.float64)
    tp, fp = (pred * LABELS).sum(0), (pred * (1 - LABELS)).sum(0)
    fn = ((1 - pred) * LABELS).sum(0)
    prec, rec = tp / (tp + fp + 1e-7), tp / (tp + fn + 1e-7)
    np.testing.assert_allclose(float(f1.result()),
                               (2 * prec * rec / (prec + rec + 1e-7)).mean(), rtol=1e-5)
    iou = metrics.MeanIoU(num_classes=C)
    iou.update_state(CLASSES, CLASSES2)
    cm = np.zeros((C, C))
    np.add.at(cm, (CLASSES, CLASSES2), 1)
    inter = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - inter
    np.testing.assert_allclose(float(iou.result()), (inter / union)[union > 0].mean(), rtol=1e-5)


def test_lookup_by_name_and_config():
    for name, cls in [("auc", metrics.AUC), ("AUC", metrics.AUC),
                      ("precision", metrics.Precision), ("recall", metrics.Recall),
                      ("f1_score", metrics.F1Score), ("root_mean_squared_error",
                                                      metrics.RootMeanSquaredError),
                      ("top_k_categorical_accuracy", metrics.TopKCategoricalAccuracy),
                      ("kl_divergence", metrics.KLDivergence), ("logcosh",
                                                                metrics.LogCoshError),
                      ("mape", metrics.MeanAbsolutePercentageError),
                      ("hinge", metrics.Hinge), ("poisson", metrics.Poisson),
                      ("true_positives", metrics.TruePositives)]:
        metric = metrics.get(name)
        assert isinstance(metric, cls), name
        assert metric.name == cls().name  # Keras 3: the class's default name
    for metric in (metrics.BinaryAccuracy(threshold=0.7), metrics.CosineSimilarity(axis=0),
                   metrics.TopKCategoricalAccuracy(k=2), metrics.AUC(multi_label=True),
                   metrics.Recall(thresholds=[0.2, 0.4], class_id=1), metrics.R2Score(None),
                   metrics.SparseTopKCategoricalAccuracy(k=3, from_sorted_ids=True)):
        back = metrics.deserialize(metrics.serialize(metric))
        assert type(back) is type(metric) and back.get_config() == metric.get_config()
    auc = metrics.get({"class_name": "AUC", "config": {"curve": "PR", "name": "pr"}})
    assert isinstance(auc, metrics.AUC) and auc.curve == "PR" and auc.name == "pr"
    config = metrics.AUC(curve="PR", multi_label=True, num_labels=3).get_config()
    assert config["curve"] == "PR" and config["num_thresholds"] == 200
    assert metrics.Precision(thresholds=0.3, top_k=2).get_config()["top_k"] == 2
    assert metrics.F1Score().get_config()["average"] is None
    with pytest.raises(ValueError, match="curve"):
        metrics.AUC(curve="XY")
    with pytest.raises(ValueError, match="threshold"):
        metrics.Precision(thresholds=1.5)


def test_metrics_in_compile_fit_and_evaluate():
    keras.backend.clear_session()
    x = RNG.standard_normal((32, 3)).astype(np.float32)
    y = (x[:, :1] > 0).astype(np.float32)
    model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
    model.compile(optimizer="sgd", loss="binary_crossentropy",
                  metrics=["auc", "precision", "recall", keras.metrics.F1Score(threshold=0.5),
                           keras.metrics.TruePositives(name="tp")])
    history = model.fit(x, y, batch_size=8, epochs=2, verbose=0)
    assert {"auc", "precision", "recall", "f1_score", "tp"} <= set(history.history)
    logs = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    p = model.predict(x, verbose=0)
    auc, prec = metrics.AUC(), metrics.Precision()
    auc.update_state(y, p)
    prec.update_state(y, p)
    np.testing.assert_allclose(logs["auc"], float(auc.result()), rtol=1e-5)
    np.testing.assert_allclose(logs["precision"], float(prec.result()), rtol=1e-5)
    np.testing.assert_allclose(logs["tp"], float(((p > 0.5) & (y > 0)).sum()))


# -- against TensorFlow's Keras ---------------------------------------------------------------
BATCHES = [(LABELS[:6], SCORES[:6], None), (LABELS2[6:], SCORES2[6:], W[6:])]
IDS = [(CLASSES[:6], CLASSES2[:6], None), (CLASSES[6:], CLASSES2[6:], W[6:])]
ONEHOT_BATCHES = [(ONEHOT[:6], SCORES[:6], None), (ONEHOT[6:], SCORES2[6:], W[6:])]
REG = [(REG_Y[:6], REG_P[:6], None), (REG_Y[6:], REG_P[6:], W[6:])]
TF_CASES = [  # (case name, class name, kwargs, batches)
    ("tp", "TruePositives", {}, BATCHES), ("fp", "FalsePositives", {"thresholds": [0.2, 0.8]},
                                          BATCHES),
    ("tn", "TrueNegatives", {}, BATCHES), ("fn", "FalseNegatives", {}, BATCHES),
    ("precision", "Precision", {}, BATCHES),
    ("precision_thresholds", "Precision", {"thresholds": [0.1, 0.4, 0.65]}, BATCHES),
    ("precision_even", "Precision", {"thresholds": [0.0, 0.25, 0.5, 0.75, 1.0]}, BATCHES),
    ("precision_top2", "Precision", {"top_k": 2}, BATCHES),
    ("precision_class", "Precision", {"class_id": 1}, BATCHES),
    ("recall", "Recall", {}, BATCHES), ("recall_top1_class", "Recall",
                                        {"top_k": 1, "class_id": 3}, BATCHES),
    ("recall_thresholds", "Recall", {"thresholds": [0.3, 0.6]}, BATCHES),
    ("auc", "AUC", {}, BATCHES), ("auc_pr", "AUC", {"curve": "PR"}, BATCHES),
    ("auc_pr_minoring", "AUC", {"curve": "PR", "summation_method": "minoring"}, BATCHES),
    ("auc_majoring", "AUC", {"summation_method": "majoring", "num_thresholds": 17}, BATCHES),
    ("auc_thresholds", "AUC", {"thresholds": [0.2, 0.35, 0.9]}, BATCHES),
    ("auc_multi", "AUC", {"multi_label": True}, BATCHES),
    ("auc_multi_weighted", "AUC", {"multi_label": True, "curve": "PR",
                                   "label_weights": [0.1, 0.2, 0.3, 0.4]}, BATCHES),
    ("auc_label_weights", "AUC", {"label_weights": [0.5, 1.0, 2.0, 0.0]}, BATCHES),
    ("auc_logits", "AUC", {"from_logits": True}, [(y, p * 6 - 3, w) for y, p, w in BATCHES]),
    ("f1", "F1Score", {}, BATCHES), ("f1_micro", "F1Score", {"average": "micro",
                                                            "threshold": 0.4}, BATCHES),
    ("f1_macro", "F1Score", {"average": "macro"}, BATCHES),
    ("f1_weighted", "F1Score", {"average": "weighted", "threshold": 0.5}, BATCHES),
    ("fbeta", "FBetaScore", {"beta": 2.0, "average": "macro", "threshold": 0.6}, BATCHES),
    ("mean_iou", "MeanIoU", {"num_classes": C}, IDS),
    ("mean_iou_ignore", "MeanIoU", {"num_classes": C, "ignore_class": 0}, IDS),
    ("iou", "IoU", {"num_classes": C, "target_class_ids": [0, 2]}, IDS),
    ("top2", "TopKCategoricalAccuracy", {"k": 2}, ONEHOT_BATCHES),
    ("sparse_top2", "SparseTopKCategoricalAccuracy", {"k": 2},
     [(CLASSES[:6], SCORES[:6], None), (CLASSES[6:], SCORES2[6:], W[6:])]),
    ("rmse", "RootMeanSquaredError", {}, REG),
    ("kld", "KLDivergence", {}, [(y / 2 + 0.1, p, w) for y, p, w in BATCHES]),
    ("poisson", "Poisson", {}, [(np.abs(y), np.abs(p) + 0.1, w) for y, p, w in REG]),
    ("cosine", "CosineSimilarity", {}, REG), ("hinge", "Hinge", {}, BATCHES),
    ("squared_hinge", "SquaredHinge", {}, BATCHES),
    ("categorical_hinge", "CategoricalHinge", {}, ONEHOT_BATCHES),
    ("logcosh", "LogCoshError", {}, REG), ("mape", "MeanAbsolutePercentageError", {}, REG),
    ("msle", "MeanSquaredLogarithmicError", {}, REG),
    ("sens_at_spec", "SensitivityAtSpecificity", {"specificity": 0.6}, BATCHES),
    ("spec_at_sens", "SpecificityAtSensitivity", {"sensitivity": 0.7, "num_thresholds": 7},
     BATCHES),
    ("prec_at_rec", "PrecisionAtRecall", {"recall": 0.5, "class_id": 2}, BATCHES),
    ("rec_at_prec", "RecallAtPrecision", {"precision": 0.55}, BATCHES),
    ("rec_at_prec_one", "RecallAtPrecision", {"precision": 0.4, "num_thresholds": 1}, BATCHES),
    ("r2", "R2Score", {}, REG),
    ("r2_raw", "R2Score", {"class_aggregation": None}, REG),
    ("r2_variance_adjusted", "R2Score", {"class_aggregation": "variance_weighted_average",
                                         "num_regressors": 2}, REG),
    ("pearson", "PearsonCorrelation", {}, REG),
    ("concordance", "ConcordanceCorrelation", {}, REG),
    ("concordance_axis0", "ConcordanceCorrelation", {"axis": 0},
     [(REG_Y[:6], REG_P[:6], None), (REG_Y[6:], REG_P[6:], None)]),
    ("binary_iou", "BinaryIoU", {"threshold": 0.3},
     [(y[:, 0], p[:, 0], w) for y, p, w in BATCHES]),
    ("binary_iou_one", "BinaryIoU", {"target_class_ids": [1]},
     [(y, p, None) for y, p, _ in BATCHES]),
    ("one_hot_iou", "OneHotIoU", {"num_classes": C, "target_class_ids": [1, 3]}, ONEHOT_BATCHES),
    ("one_hot_mean_iou", "OneHotMeanIoU", {"num_classes": C}, ONEHOT_BATCHES),
]

_TF_SCRIPT = """
import json
for name, cls, kwargs, n in json.loads(A["cases"].item()):
    try:
        metric = getattr(keras.metrics, cls)(**kwargs)
        for i in range(n):
            metric.update_state(A[f"{name}/y{i}"], A[f"{name}/p{i}"],
                                sample_weight=A.get(f"{name}/w{i}"))
        out[name] = np.asarray(metric.result())
    except Exception as exc:
        out[name + "/error"] = np.asarray(repr(exc))
"""


@pytest.fixture(scope="module")
def tf_metrics():
    arrays = {"cases": np.asarray(json.dumps([[n, c, k, len(b)] for n, c, k, b in TF_CASES]))}
    for name, _, _, batches in TF_CASES:
        for i, (y, p, w) in enumerate(batches):
            arrays[f"{name}/y{i}"], arrays[f"{name}/p{i}"] = y, p
            if w is not None:
                arrays[f"{name}/w{i}"] = w
    return tf_eval(_TF_SCRIPT, arrays)


@pytest.mark.parametrize("name, cls, kwargs, batches", TF_CASES, ids=[c[0] for c in TF_CASES])
def test_metrics_match_tensorflow(tf_metrics, name, cls, kwargs, batches):
    assert name + "/error" not in tf_metrics, str(tf_metrics.get(name + "/error"))
    metric = getattr(metrics, cls)(**kwargs)
    for y, p, w in batches:
        metric.update_state(y, p, sample_weight=w)
    np.testing.assert_allclose(np.asarray(metric.result()), tf_metrics[name], rtol=2e-5,
                               atol=1e-6)


# Mean / Sum reduce values to one per sample first, as Keras 3 (sample weights of lower rank
# average the trailing axes; unweighted means count samples, not entries)
REDUCE_CASES = [  # (case name, class, [(values, sample_weight), ...])
    ("mean_2d", "Mean", [(REG_Y, None), (REG_P[:4, :1], None)]),
    ("mean_2d_w1d", "Mean", [(REG_Y, W), (REG_P, None)]),
    ("mean_2d_w2d", "Mean", [(REG_Y, np.abs(REG_P))]),
    ("mean_3d_w1d", "Mean", [(SCORES.reshape(N, 2, 2), W)]),
    ("mean_scalar", "Mean", [(np.float32(5.0), None), (np.float32(3.0), np.float32(2.0))]),
    ("sum_2d_w1d", "Sum", [(REG_Y, W), (REG_P, None)]),
    ("sum_col_weights", "Sum", [(REG_Y[:, 0], W[:, None])]),
]


@pytest.fixture(scope="module")
def tf_reductions():
    arrays = {"cases": np.asarray(json.dumps([[n, c, len(b)] for n, c, b in REDUCE_CASES]))}
    for name, _, batches in REDUCE_CASES:
        for i, (v, w) in enumerate(batches):
            arrays[f"{name}/v{i}"] = v
            if w is not None:
                arrays[f"{name}/w{i}"] = w
    return tf_eval("""
import json
for name, cls, n in json.loads(A["cases"].item()):
    metric = getattr(keras.metrics, cls)()
    for i in range(n):
        metric.update_state(A[f"{name}/v{i}"], sample_weight=A.get(f"{name}/w{i}"))
    out[name] = np.asarray(metric.result())
""", arrays)


@pytest.mark.parametrize("name, cls, batches", REDUCE_CASES, ids=[c[0] for c in REDUCE_CASES])
def test_mean_and_sum_match_tensorflow(tf_reductions, name, cls, batches):
    metric = getattr(metrics, cls)()
    for v, w in batches:
        metric.update_state(v, sample_weight=w)
    np.testing.assert_allclose(np.asarray(metric.result()), tf_reductions[name], rtol=2e-6)


def test_metrics_update_inside_traced_functions():
    def make():
        return [metrics.AUC(), metrics.Precision(top_k=2), metrics.F1Score(average="micro"),
                metrics.R2Score(num_regressors=1), metrics.SensitivityAtSpecificity(0.5),
                metrics.Recall(class_id=1)]
    eager, traced = make(), make()
    for m in eager:
        m.update_state(LABELS, SCORES, sample_weight=W)

    @tf.function(autograph=False)
    def step(y, p, w):
        for m in traced:
            m.update_state(y, p, sample_weight=w)
        return [m.result() for m in traced]

    results = step(tf.constant(LABELS), tf.constant(SCORES), tf.constant(W))
    for m, value in zip(eager, results):
        np.testing.assert_allclose(np.asarray(value), np.asarray(m.result()), rtol=1e-6,
                                   err_msg=m.name)
