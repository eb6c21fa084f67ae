"""tf.compat.v1.metrics against TensorFlow 2.21's, in graph mode: each case builds one metric
over placeholders, runs its update op on a few batches and reads its value after each
(tests/tf1_metrics_programs.py runs the same program under both); values, the update ops'
results, tensor names and the local variables must equal TensorFlow's (stored in
tests/references/test_tf1_metrics.npz for runs without TensorFlow)."""
import os

import numpy as np
import pytest

import reference_store
import wengert.compat.v1 as v1
from tf1_metrics_programs import run_case
from tf_reference import tf_python

RUNNER = os.path.join(os.path.dirname(__file__), "tf1_metrics_runner.py")
SIZES = (6, 8, 5)


def _scores(rng, n, shape=()):
    return rng.uniform(0, 1, size=(n,) + shape).astype(np.float32)


def _binary(rng, n, shape=()):
    return rng.integers(0, 2, size=(n,) + shape).astype(np.int32)


def _feeds(rng, draw):
    """One batch per size: {arg: array} from draw(rng, n)."""
    return [draw(rng, n) for n in SIZES]


def _case(name, metric, draw, kwargs=None, **options):
    return dict(name=name, metric=metric, draw=draw, kwargs=kwargs or {}, **options)


def _pair(labels, predictions, weights=None):
    def draw(rng, n):
        out = {"labels": labels(rng, n), "predictions": predictions(rng, n)}
        if weights is not None:
            out["weights"] = weights(rng, n)
        return out
    return draw


def _classes(k, shape=()):
    return lambda rng, n: rng.integers(0, k, size=(n,) + shape).astype(np.int64)


def _floats(shape=()):
    return lambda rng, n: rng.normal(size=(n,) + shape).astype(np.float32)


def _weights(shape=()):
    return lambda rng, n: rng.uniform(0, 2, size=(n,) + shape).astype(np.float32)


def _unit(rng, n):
    v = rng.normal(size=(n, 3)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


# mean_iou's value comes from TensorFlow 1's where, a "Select" op ("mean_iou/Select_1:0"); here
# it is "SelectV2": its names are left out of the comparison.
SCORES = _pair(_binary, _scores, _weights())
SCORES_UNWEIGHTED = _pair(_binary, _scores)
COMMON = [
    _case("mean", "mean", lambda rng, n: {"values": _floats()(rng, n)}),
    _case("mean_weighted", "mean", lambda rng, n: {"values": _floats((2,))(rng, n),
                                                     "weights": _weights((1,))(rng, n)}),
    _case("mean_tensor", "mean_tensor",
          lambda rng, n: {"values": _floats((3,))(rng, 2), "weights": _weights((3,))(rng, 2)},
          static=True),
    _case("accuracy", "accuracy", _pair(_classes(3), _classes(3))),
    _case("accuracy_weighted", "accuracy", _pair(_classes(3), _classes(3), _weights())),
    _case("accuracy_column", "accuracy", _pair(_classes(3, (1,)), _classes(3))),
    _case("mean_absolute_error", "mean_absolute_error", _pair(_floats(), _floats(), _weights())),
    _case("mean_squared_error", "mean_squared_error", _pair(_floats((2,)), _floats((2,)))),
    _case("root_mean_squared_error", "root_mean_squared_error",
          _pair(_floats(), _floats(), _weights())),
    _case("mean_relative_error", "mean_relative_error",
          lambda rng, n: {"labels": _floats()(rng, n), "predictions": _floats()(rng, n),
                          "normalizer": np.where(rng.uniform(size=n) < 0.3, 0,
                                                 _weights()(rng, n)).astype(np.float32)}),
    _case("mean_cosine_distance", "mean_cosine_distance", _pair(_unit, _unit, _weights((1,))),
          kwargs={"dim": 1}),
    _case("percentage_below", "percentage_below",
          lambda rng, n: {"values": _floats()(rng, n)}, kwargs={"threshold": 0.25}),
    _case("true_positives", "true_positives", _pair(_binary, _binary, _weights())),
    _case("false_positives", "false_positives", _pair(_binary, _binary)),
    _case("true_negatives", "true_negatives", _pair(_binary, _binary, _weights())),
    _case("false_negatives", "false_negatives", _pair(_binary, _binary)),
    _case("precision", "precision", _pair(_binary, _binary, _weights())),
    _case("recall", "recall", _pair(_binary, _binary)),
    _case("mean_per_class_accuracy", "mean_per_class_accuracy",
          _pair(_classes(4), _classes(4), _weights()), kwargs={"num_classes": 4}),
    _case("mean_iou", "mean_iou", _pair(_classes(4), _classes(4)), kwargs={"num_classes": 4},
          unmatched=["names"]),
    _case("mean_iou_weighted", "mean_iou", _pair(_classes(3, (2,)), _classes(3, (2,)),
                                                 _weights((2,))), kwargs={"num_classes": 3},
          unmatched=["names"]),
]
THRESHOLDS = [0.2, 0.5, 0.8]
CURVES = [
    _case(f"{m}_at_thresholds", f"{m}_at_thresholds", SCORES, kwargs={"thresholds": THRESHOLDS})
    for m in ("true_positives", "false_positives", "true_negatives", "false_negatives",
              "precision", "recall")] + [
    _case("auc_roc", "auc", SCORES_UNWEIGHTED),
    _case("auc_roc_weighted", "auc", SCORES, kwargs={"num_thresholds": 20}),
    _case("auc_pr", "auc", SCORES, kwargs={"curve": "PR", "num_thresholds": 30}),
    _case("auc_pr_careful", "auc", SCORES,
          kwargs={"curve": "PR", "summation_method": "careful_interpolation"}),
    _case("auc_roc_minoring", "auc", SCORES, kwargs={"summation_method": "minoring"}),
    _case("auc_pr_majoring", "auc", SCORES_UNWEIGHTED,
          kwargs={"curve": "PR", "summation_method": "majoring", "num_thresholds": 7}),
    _case("auc_thresholds", "auc", SCORES, kwargs={"thresholds": [0.7, 0.1, 0.4]}),
    _case("sensitivity_at_specificity", "sensitivity_at_specificity", SCORES,
          kwargs={"specificity": 0.6, "num_thresholds": 50}),
    _case("specificity_at_sensitivity", "specificity_at_sensitivity", SCORES_UNWEIGHTED,
          kwargs={"sensitivity": 0.4}),
]


def _label_sets(width, classes, pad):
    """[n, width] int64 class ids, some entries -1 (pad) or >= classes (out of range)."""
    def draw(rng, n):
        ids = rng.integers(0, classes + 1, size=(n, width))
        return np.where(rng.uniform(size=(n, width)) < pad, -1, ids).astype(np.int64)
    return draw


def _sparse_labels(width, classes):
    def draw(rng, n):
        dense = rng.integers(0, classes, size=(n, width)).astype(np.int64)
        mask = rng.uniform(size=(n, width)) < 0.6
        mask[:, 0] = True
        return {"labels_indices": np.argwhere(mask).astype(np.int64),
                "labels_values": dense[mask], "labels_shape": np.array([n, width], np.int64)}
    return draw


def _ranked(width, classes):
    return lambda rng, n: np.stack([rng.permutation(classes)[:width]
                                    for _ in range(n)]).astype(np.int32)


def _with(draw, **more):
    def combined(rng, n):
        out = dict(draw(rng, n))
        for key, extra in more.items():
            out[key] = extra(rng, n)
        return out
    return combined


def _sparse_case(name, metric, kwargs, **options):
    draw = _with(_sparse_labels(3, 5), predictions=_floats((5,)))
    return _case(name, metric, lambda rng, n: draw(rng, n), kwargs, sparse=["labels"],
                 **options)


# TensorFlow names the average precision's count "max_1" (after an op "Max" it builds first
# and names case-insensitively unique): the variables' names are left out of the comparison.
AP_NAMES = ["variables"]


TOP_K = [
    _case("precision_at_k", "precision_at_k", _pair(_label_sets(2, 4, 0.2), _floats((5,))),
          kwargs={"k": 2}),
    _case("precision_at_k_class", "precision_at_k",
          _pair(_label_sets(2, 4, 0.2), _floats((5,)), _weights()),
          kwargs={"k": 3, "class_id": 1}),
    _case("sparse_precision_at_k", "sparse_precision_at_k",
          _pair(_label_sets(2, 4, 0.0), _floats((5,))), kwargs={"k": 1}),
    _case("recall_at_k", "recall_at_k", _pair(_classes(5), _floats((5,))), kwargs={"k": 3}),
    _case("recall_at_k_class", "recall_at_k",
          _pair(_label_sets(3, 4, 0.3), _floats((5,)), _weights()),
          kwargs={"k": 2, "class_id": 2}),
    _case("precision_at_top_k", "precision_at_top_k",
          lambda rng, n: {"labels": _label_sets(2, 5, 0.2)(rng, n),
                          "predictions_idx": _ranked(3, 6)(rng, n)}, kwargs={"k": 3}),
    _case("recall_at_top_k", "recall_at_top_k",
          lambda rng, n: {"labels": _label_sets(3, 5, 0.2)(rng, n),
                          "predictions_idx": _ranked(2, 6)(rng, n),
                          "weights": _weights()(rng, n)}),
    _case("average_precision_at_k", "average_precision_at_k",
          _pair(_label_sets(3, 5, 0.25), _floats((5,))), kwargs={"k": 3}, unmatched=AP_NAMES),
    _case("average_precision_at_k_weighted", "average_precision_at_k",
          _pair(_label_sets(2, 3, 0.0), _floats((5,)), _weights()), kwargs={"k": 2},
          unmatched=AP_NAMES),
    _case("sparse_average_precision_at_k", "sparse_average_precision_at_k",
          _pair(_classes(5), _floats((5,))), kwargs={"k": 4}, unmatched=AP_NAMES),
    _sparse_case("precision_at_k_sparse", "precision_at_k", {"k": 2}),
    _sparse_case("recall_at_k_sparse", "recall_at_k", {"k": 2, "class_id": 3}),
    _sparse_case("average_precision_at_k_sparse", "average_precision_at_k", {"k": 3},
                 unmatched=AP_NAMES),
]
UNKNOWN_RANK = [
    _case("accuracy_unknown_rank", "accuracy", _pair(_classes(3, (1,)), _classes(3), _weights()),
          static="unknown_rank"),
    _case("mean_unknown_rank", "mean", lambda rng, n: {"values": _floats((2,))(rng, n),
                                                     "weights": _weights()(rng, n)},
          static="unknown_rank"),
    _case("precision_unknown_rank", "precision",
          _pair(_binary, lambda rng, n: _binary(rng, n, (1,)), _weights((1,))),
          static="unknown_rank"),
    _case("mean_squared_error_unknown_rank", "mean_squared_error",
          _pair(_floats(), _floats((1,)), _weights((1,))), static="unknown_rank"),
    _case("auc_unknown_rank", "auc", _pair(_binary, _scores, _weights((1,))),
          kwargs={"num_thresholds": 10}, static="unknown_rank"),
]
CASES = COMMON + CURVES + TOP_K + UNKNOWN_RANK


def _request():
    request, arrays = [], {}
    for i, case in enumerate(CASES):
        rng = np.random.default_rng(1000 + i)
        batches = _feeds(rng, case["draw"])
        entry = {k: v for k, v in case.items() if k != "draw"}
        fed = sorted({key.split("_")[0] if key.startswith("labels_") else key
                      for key in batches[0]})
        entry.update(fed=fed, batches=len(batches))
        request.append(entry)
        for b, batch in enumerate(batches):
            for key, value in batch.items():
                arrays[f"{case['name']}/{key}{b}"] = value
    return request, arrays


REQUEST, ARRAYS = _request()


@pytest.fixture(scope="module")
def tf_answers():
    return reference_store.answers(REQUEST, ARRAYS, tf_python(), RUNNER)


@pytest.mark.parametrize("entry", REQUEST, ids=[e["name"] for e in REQUEST])
def test_metric_equals_tensorflow(entry, tf_answers):
    ours = run_case(v1, entry, ARRAYS)
    name = entry["name"]
    unmatched = {f"{name}/{key}" for key in entry.get("unmatched", ())}
    theirs = {k: v for k, v in tf_answers.items()
              if k.startswith(name + "/") and k not in unmatched}
    ours = {k: v for k, v in ours.items() if k not in unmatched}
    assert sorted(ours) == sorted(theirs)
    for key, want in theirs.items():
        got = ours[key]
        if want.dtype.kind in "fc":
            assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
            np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6, err_msg=key)
        else:
            assert got.tolist() == want.tolist(), key
