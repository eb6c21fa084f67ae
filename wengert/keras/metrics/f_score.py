"""The F-scores of `keras.metrics`, as Keras 3 (TensorFlow 2.21) computes them.

FBetaScore / F1Score count, per class, with predictions binarized (p > threshold, or the row's
maxima when threshold is None):
    P = TP / (TP + FP + eps),  R = TP / (TP + FN + eps),  F = (1 + b^2) P R / (b^2 P + R + eps)
averaged per `average` (None: per class; micro: from pooled counts; macro: mean; weighted:
weighted by each class's true count).
"""
from ...ops.math_ops import cast, greater, greater_equal, logical_and
from ...ops.reduce_ops import reduce_max, reduce_mean, reduce_sum
from ...ops.reshape_ops import reshape
from ...ops.unary_ops import abs as abs_
from .. import backend
from .metric import Metric, _tensor

__all__ = ["FBetaScore", "F1Score"]


class FBetaScore(Metric):
    """F-beta score per class, or averaged ("micro", "macro", "weighted")."""

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("FBetaScore: invalid `average`; expected one of None, 'micro', "
                             f"'macro', 'weighted'. Received: average={average!r}")
        if not isinstance(beta, float) or beta <= 0.0:
            raise ValueError(f"FBetaScore: `beta` must be a Python float > 0. Received: {beta!r}")
        if threshold is not None and (not isinstance(threshold, float)
                                      or not 0.0 < threshold <= 1.0):
            raise ValueError("FBetaScore: `threshold` must be a Python float with "
                             f"0 < threshold <= 1. Received: {threshold!r}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, true_shape, pred_shape):
        if len(pred_shape) != 2 or len(true_shape) != 2 or pred_shape[-1] is None:
            raise ValueError("FBetaScore expects 2D inputs with shape (batch_size, output_dim)."
                             f" Received y_pred.shape={pred_shape}, y_true.shape={true_shape}.")
        shape = () if self.average == "micro" else (pred_shape[-1],)
        for n in ("true_positives", "false_positives", "false_negatives",
                  "intermediate_weights"):
            setattr(self, n, self.add_weight(n, shape=shape))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = cast(_tensor(y_true), self._dtype)
        y_pred = cast(_tensor(y_pred), self._dtype)
        if not self._built:
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        if self.threshold is None:
            top = reduce_max(y_pred, -1, keepdims=True)
            y_pred = logical_and(greater_equal(y_pred, top),
                                 greater(abs_(y_pred), cast(1e-9, self._dtype)))
        else:
            y_pred = greater(y_pred, cast(self.threshold, self._dtype))
        y_pred = cast(y_pred, self._dtype)
        weights = None if sample_weight is None else reshape(
            cast(_tensor(sample_weight), self._dtype), [-1, 1])

        def weighted_sum(value):
            return reduce_sum(value if weights is None else value * weights, self.axis)

        self.true_positives.assign_add(weighted_sum(y_pred * y_true))
        self.false_positives.assign_add(weighted_sum(y_pred * (1.0 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1.0 - y_pred) * y_true))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        if not self._built:
            return cast(0.0, self._dtype)
        eps = backend.epsilon()
        tp = self.true_positives.read_value()
        precision = tp / (tp + self.false_positives.read_value() + eps)
        recall = tp / (tp + self.false_negatives.read_value() + eps)
        b2 = self.beta ** 2
        f = precision * recall / (b2 * precision + recall + eps) * (1.0 + b2)
        if self.average == "weighted":
            w = self.intermediate_weights.read_value()
            return reduce_sum(f * (w / (reduce_sum(w) + eps)))
        if self.average is not None:
            return reduce_mean(f)
        return f

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """FBetaScore with beta = 1."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
