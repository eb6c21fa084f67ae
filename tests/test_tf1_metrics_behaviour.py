"""tf.compat.v1.metrics without TensorFlow: values against NumPy, the variables a metric makes,
the collections it fills, and TensorFlow's errors for bad input (raised before anything is
built where TensorFlow raises while building)."""
import logging

import numpy as np
import pytest

import wengert.compat.v1 as tf
from wengert.framework.errors import FailedPreconditionError, InvalidArgumentError
from wengert.util import tf_logging


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def _run(update, value, batches):
    """[(update result, value)] after each batch of feeds."""
    out = []
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        for feed in batches:
            out.append((sess.run(update, feed), sess.run(value)))
    return out


def test_all_33_names():
    assert len(tf.metrics.__all__) == 33
    assert all(callable(getattr(tf.metrics, n)) for n in tf.metrics.__all__)


@pytest.mark.parametrize("metric", ["accuracy", "auc", "recall", "precision_at_k"])
def test_eager_call_raises_tensorflows_runtime_error(metric):
    fn = getattr(tf.metrics, metric)
    args = ([1, 0], [0.5, 0.2]) + ((1,) if metric == "precision_at_k" else ())
    with pytest.raises(RuntimeError, match="is not supported when eager execution is enabled"):
        fn(*args)


def test_variables_are_local_metric_and_untrainable(graph):
    labels = tf.placeholder(tf.int32, [None])
    value, update = tf.metrics.accuracy(labels, labels)
    local = tf.local_variables()
    assert [v.name for v in local] == ["accuracy/total:0", "accuracy/count:0"]
    assert tf.get_collection(tf.GraphKeys.METRIC_VARIABLES) == local
    assert not tf.global_variables() and not tf.trainable_variables()
    assert value.name == "accuracy/value:0" and update.name == "accuracy/update_op:0"
    again, _ = tf.metrics.accuracy(labels, labels)
    assert again.name == "accuracy_1/value:0"
    named, _ = tf.metrics.mean(tf.cast(labels, tf.float32), name="my_mean")
    assert named.name == "my_mean/value:0"


def test_collections_are_honoured(graph):
    values = tf.placeholder(tf.float32, [None])
    value, update = tf.metrics.mean(values, metrics_collections=["m"],
                                    updates_collections=["u", tf.GraphKeys.UPDATE_OPS])
    assert tf.get_collection("m") == [value]
    assert tf.get_collection("u") == [update]
    assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == [update]
    auc, auc_update = tf.metrics.auc(tf.cast(values > 0.5, tf.int32), values,
                                     metrics_collections="m")
    assert tf.get_collection("m") == [value, auc]


def test_value_before_initialization_fails_naming_the_variable(graph):
    values = tf.placeholder(tf.float32, [None])
    value, _ = tf.metrics.mean(values)
    with tf.Session() as sess:
        with pytest.raises(FailedPreconditionError, match="mean/"):
            sess.run(value)


def test_mean_and_accuracy_against_numpy(graph):
    rng = np.random.default_rng(0)
    batches = [rng.normal(size=(5, 2)).astype(np.float32) for _ in range(3)]
    weights = [rng.uniform(size=(5, 1)).astype(np.float32) for _ in range(3)]
    x, w = tf.placeholder(tf.float32, [None, 2]), tf.placeholder(tf.float32, [None, 1])
    value, update = tf.metrics.mean(x, weights=w)
    results = _run(update, value, [{x: b, w: c} for b, c in zip(batches, weights)])
    for i, (updated, read) in enumerate(results):
        xs, ws = np.concatenate(batches[:i + 1]), np.concatenate(weights[:i + 1])
        want = (xs * ws).sum() / np.broadcast_to(ws, xs.shape).sum()
        np.testing.assert_allclose([updated, read], [want, want], rtol=1e-5)


def test_precision_recall_and_roc_auc_against_numpy(graph):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, size=40)
    scores = np.clip(y * 0.3 + rng.uniform(size=40) * 0.7, 0, 1).astype(np.float32)
    labels, predictions = tf.constant(y), tf.constant(scores)
    prec, prec_update = tf.metrics.precision(labels, predictions > 0.5)
    rec, rec_update = tf.metrics.recall(labels, predictions > 0.5)
    auc, auc_update = tf.metrics.auc(labels, predictions, num_thresholds=50)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([prec_update, rec_update, auc_update])
        got = sess.run([prec, rec, auc])
    p = scores > 0.5
    tp = np.sum(p & (y == 1))
    thresholds = np.r_[-1e-7, np.arange(1, 49) / 49, 1 + 1e-7]
    above = scores[None, :] > thresholds[:, None]
    tpr = ((above & (y == 1)).sum(1) + 1e-6) / ((y == 1).sum() + 1e-6)
    fpr = (above & (y == 0)).sum(1) / ((y == 0).sum() + 1e-6)
    area = np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2)
    np.testing.assert_allclose(got, [tp / p.sum(), tp / (y == 1).sum(), area], rtol=1e-5)


def test_scores_outside_unit_interval_fail_when_run(graph):
    scores, labels = tf.placeholder(tf.float32, [None]), tf.placeholder(tf.int32, [None])
    value, update = tf.metrics.auc(labels, scores)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        with pytest.raises(InvalidArgumentError, match=r"predictions must be in \[0, 1\]"):
            sess.run(update, {scores: [0.5, 1.5], labels: [0, 1]})
        assert sess.run(value) == 0.0


@pytest.mark.parametrize("build", [
    lambda: tf.metrics.accuracy(tf.zeros([3], tf.int32), tf.zeros([4], tf.int32)),
    lambda: tf.metrics.mean_squared_error(tf.zeros([3, 2]), tf.zeros([3, 5])),
    lambda: tf.metrics.mean_iou(tf.zeros([3], tf.int32), tf.zeros([4], tf.int32), 2),
    lambda: tf.metrics.mean_per_class_accuracy(tf.zeros([3], tf.int32),
                                               tf.zeros([2], tf.int32), 2),
], ids=["accuracy", "mean_squared_error", "mean_iou", "mean_per_class_accuracy"])
def test_mismatched_shapes_name_both_before_any_variable(graph, build):
    with pytest.raises(ValueError, match=r"Shapes \([\d, ]+\) and \([\d, ]+\) are "
                                         r"incompatible"):
        build()
    assert not tf.local_variables()


def test_weights_that_do_not_broadcast(graph):
    with pytest.raises(ValueError, match=r"weights can not be broadcast to values\. Mismatch "
                                         r"at dim 1"):
        tf.metrics.mean(tf.zeros([3, 2]), weights=tf.ones([3, 3]))
    assert not tf.local_variables()


@pytest.mark.parametrize("build, message", [
    (lambda s: tf.metrics.auc(s > 0.5, s, curve="XX"), "Curve must be either ROC or PR"),
    (lambda s: tf.metrics.auc(s > 0.5, s, summation_method="simpson"),
     "Invalid summation_method: simpson"),
    (lambda s: tf.metrics.sensitivity_at_specificity(s > 0.5, s, 1.5),
     r"`specificity` must be in the range \[0, 1\]"),
    (lambda s: tf.metrics.specificity_at_sensitivity(s > 0.5, s, -0.1),
     r"`sensitivity` must be in the range \[0, 1\]"),
    (lambda s: tf.metrics.average_precision_at_k(tf.zeros([4], tf.int64),
                                                 tf.zeros([4, 3]), 0), "Invalid k=0"),
    (lambda s: tf.metrics.recall_at_k(tf.zeros([3, 2, 2], tf.int64), tf.zeros([3, 5]), 2),
     r"Unexpected labels shape \(3, 2, 2\) for predictions shape \(3, 2\)"),
], ids=["curve", "summation", "specificity", "sensitivity", "k", "labels_rank"])
def test_bad_arguments_raise_tensorflows_value_errors(graph, build, message):
    scores = tf.placeholder(tf.float32, [None])
    with pytest.raises(ValueError, match=message):
        build(scores)
    assert not tf.local_variables()


def test_top_k_sets_count_repeated_labels_once(graph):
    labels = tf.constant([[1, 1, 2], [0, -1, -1]], tf.int64)
    idx = tf.constant([[1, 3], [0, 2]], tf.int64)
    prec, prec_update = tf.metrics.precision_at_top_k(labels, idx)
    rec, rec_update = tf.metrics.recall_at_top_k(labels, idx)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        got = sess.run([prec_update, rec_update])
    # row 0: P={1,3}, Y={1,2}; row 1: P={0,2}, Y={0,-1}: tp 2, fp 2, fn 2 (-1 counts as a label)
    np.testing.assert_allclose(got, [0.5, 0.5])


@pytest.mark.parametrize("metric", ["mean_iou", "mean_per_class_accuracy"])
def test_labels_outside_the_classes_fail_when_run_and_change_nothing(graph, metric):
    labels, predictions = tf.placeholder(tf.int64, [None]), tf.placeholder(tf.int64, [None])
    value, update = getattr(tf.metrics, metric)(labels, predictions, 3)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        for bad in ([0, 5], [0, -1]):
            with pytest.raises(InvalidArgumentError):
                sess.run(update, {labels: bad, predictions: [0, 1]})
        assert sess.run(value) == 0.0
        assert all(not np.any(sess.run(v)) for v in tf.local_variables())


def test_trapezoidal_pr_auc_logs_tensorflows_warning(graph):
    scores = tf.placeholder(tf.float32, [None])
    logger = tf_logging.get_logger()
    seen = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger.addHandler(handler)
    try:
        tf.metrics.auc(scores > 0.5, scores, curve="PR")
        tf.metrics.auc(scores > 0.5, scores, curve="PR", summation_method="careful_interpolation")
    finally:
        logger.removeHandler(handler)
    assert len(seen) == 1 and "Trapezoidal rule is known to produce incorrect PR-AUCs" in seen[0]
