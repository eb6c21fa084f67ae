"""tf.compat.v1.losses against TensorFlow 2.21: every loss under every reduction, with weights
of several ranks, values and gradients; and in graphs, the LOSSES collection, get_total_loss
with regularization losses, and the errors TensorFlow raises."""
import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(28)
LABELS = RNG.uniform(0.05, 0.95, (4, 3)).astype(np.float32)
PREDICTIONS = RNG.uniform(0.05, 0.95, (4, 3)).astype(np.float32)
LOGITS = RNG.standard_normal((4, 3)).astype(np.float32)
ONEHOT = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]
CLASSES = np.array([0, 2, 1, 2], np.int32)
WEIGHTS = {"scalar": np.float32(2.), "rows": np.array([[1.], [0.], [2.], [1.]], np.float32),
           "full": (RNG.uniform(size=(4, 3)) > 0.4).astype(np.float32)}
REDUCTIONS = ["none", "weighted_sum", "weighted_mean", "weighted_sum_over_batch_size",
              "weighted_sum_by_nonzero_weights"]


def _case(name, call, inputs, wrt):
    return TFCase(name, f"tf.compat.v1.losses.{call}",
                  lambda *xs, call=call: eval(f"v1.losses.{call}",  # noqa: S307 (test's own text)
                                              {"v1": v1, **{f"x{i}": x for i, x in
                                                            enumerate(xs)}}),
                  inputs, wrt=wrt)


def _cases():
    cases = []
    pairs = {"absolute_difference": (LABELS, PREDICTIONS), "mean_squared_error":
             (LABELS, PREDICTIONS), "huber_loss": (LABELS * 3, PREDICTIONS * 2),
             "log_loss": (np.round(LABELS), PREDICTIONS), "hinge_loss": (np.round(LABELS), LOGITS),
             "sigmoid_cross_entropy": (LABELS, LOGITS), "softmax_cross_entropy": (ONEHOT, LOGITS)}
    for loss, (labels, second) in pairs.items():
        for wname, weights in WEIGHTS.items():
            if loss == "softmax_cross_entropy" and wname == "full":
                continue
            w = weights[:, 0] if loss == "softmax_cross_entropy" and wname == "rows" else weights
            for reduction in REDUCTIONS:
                cases.append(_case(f"{loss}_{wname}_{reduction}",
                                   f"{loss}(x0, x1, weights=x2, reduction={reduction!r})",
                                   [labels, second, w], wrt=(1,)))
    cases += [
        _case("huber_delta", "huber_loss(x0, x1, delta=0.3)", [LABELS * 3, PREDICTIONS], (1,)),
        _case("log_loss_epsilon", "log_loss(x0, x1, epsilon=1e-3)", [LABELS, PREDICTIONS],
              (1,)),
        _case("sigmoid_smoothing", "sigmoid_cross_entropy(x0, x1, label_smoothing=0.2)",
              [np.round(LABELS), LOGITS], (1,)),
        _case("softmax_smoothing", "softmax_cross_entropy(x0, x1, label_smoothing=0.1)",
              [ONEHOT, LOGITS], (1,)),
        _case("sparse_softmax", "sparse_softmax_cross_entropy(x0, x1)", [CLASSES, LOGITS], (1,)),
        _case("sparse_softmax_weights", "sparse_softmax_cross_entropy(x0, x1, weights=x2)",
              [CLASSES[:, None], LOGITS, WEIGHTS["rows"]], (1,)),
        _case("cosine_distance", "cosine_distance(x0, x1, axis=1)",
              [ONEHOT, LOGITS / np.linalg.norm(LOGITS, axis=1, keepdims=True)], (1,)),
        _case("cosine_distance_dim", "cosine_distance(x0, x1, dim=0, weights=x2)",
              [ONEHOT, LOGITS, np.float32(0.5)], (1,)),
        _case("pairwise", "mean_pairwise_squared_error(x0, x1)", [LABELS, PREDICTIONS], (1,)),
        _case("pairwise_weights", "mean_pairwise_squared_error(x0, x1, weights=x2)",
              [LABELS, PREDICTIONS, WEIGHTS["rows"]], (1,)),
        _case("weighted_loss_zero_weights",
              "compute_weighted_loss(x0, weights=x1 * 0.)", [LABELS, WEIGHTS["full"]], (0,)),
        _case("weighted_loss_float64", "compute_weighted_loss(x0, reduction='weighted_sum')",
              [LABELS.astype(np.float64)], (0,)),
    ]
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=2e-5, atol=1e-6)


def test_graph_losses_gather_in_the_collection_with_regularization():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 2])
        with v1.variable_scope("model"):
            w = v1.get_variable("w", initializer=[[1.], [2.]],
                                regularizer=lambda v: 0.5 * tf.reduce_sum(v * v))
        first = v1.losses.mean_squared_error([[1.], [1.]], tf.matmul(x, w), scope="mse")
        second = v1.losses.absolute_difference([[0.], [0.]], tf.matmul(x, w))
        assert v1.losses.get_losses() == [first, second]
        assert v1.losses.get_losses(scope="mse") == [first]
        total = v1.losses.get_total_loss()
        data_only = v1.losses.get_total_loss(add_regularization_losses=False)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            feed = {x: [[1., 0.], [0., 1.]]}
            assert sess.run(first, feed) == pytest.approx(0.5)
            assert sess.run(second, feed) == pytest.approx(1.5)
            assert sess.run(data_only, feed) == pytest.approx(2.0)
            assert sess.run(total, feed) == pytest.approx(4.5)
            assert sess.run(v1.losses.get_regularization_loss()) == pytest.approx(2.5)


def test_pairwise_counts_as_tensorflow_does_in_each_mode():
    eager = v1.losses.mean_pairwise_squared_error(LABELS, PREDICTIONS)
    graph = tf.Graph()
    with graph.as_default():
        built = v1.losses.mean_pairwise_squared_error(LABELS, PREDICTIONS)
        with v1.Session() as sess:
            per_sample = sess.run(built)
    d = PREDICTIONS - LABELS
    n = d.shape[1]
    expected = np.sum(2 * (d ** 2).sum(1) / (n - 1) - 2 * d.sum(1) ** 2 / (n * (n - 1)))
    assert per_sample == pytest.approx(expected, rel=1e-5)
    n = d.size
    expected = np.sum(2 * (d ** 2).sum(1) / (n - 1) - 2 * d.sum(1) ** 2 / (n * (n - 1)))
    assert float(eager) == pytest.approx(expected, rel=1e-5)


def test_eager_losses_join_no_collection():
    v1.losses.mean_squared_error([1.], [2.])
    assert v1.losses.get_losses() == []
    v1.losses.add_loss(tf.constant(1.))
    assert v1.losses.get_losses() == []


def test_bad_arguments_raise_tensorflows_errors():
    with pytest.raises(ValueError, match="Argument `labels` must not be None"):
        v1.losses.mean_squared_error(None, [1.])
    with pytest.raises(ValueError, match="Invalid Reduction Key sum"):
        v1.losses.compute_weighted_loss([1.], reduction="sum")
    with pytest.raises(ValueError, match="specify argument `axis`"):
        v1.losses.cosine_distance([[1.]], [[1.]])
    with pytest.raises(ValueError, match="not compatible"):
        v1.losses.absolute_difference(np.zeros((2, 3)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="weights can not be broadcast to values. values.rank=1"):
        v1.losses.softmax_cross_entropy(np.eye(3)[:2], np.zeros((2, 3)), weights=[[1.], [2.]])
    graph = tf.Graph()
    with graph.as_default(), pytest.raises(ValueError, match="No losses found"):
        v1.losses.get_total_loss()
    assert v1.losses.Reduction.SUM_OVER_NONZERO_WEIGHTS == "weighted_sum_by_nonzero_weights"
