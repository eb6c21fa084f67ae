"""`tf.compat.v1.metrics`: TensorFlow 1's streaming metrics, each a pair (value, update_op) over
local variables of a graph (wengert/tf1/metric_variables.py explains them)."""
from ...tf1.metrics_counts import (false_negatives, false_positives, precision, recall,
                                   true_negatives, true_positives)
from ...tf1.metrics_curves import auc, sensitivity_at_specificity, specificity_at_sensitivity
from ...tf1.metrics_means import (accuracy, mean, mean_absolute_error, mean_cosine_distance,
                                  mean_relative_error, mean_squared_error, mean_tensor,
                                  percentage_below, root_mean_squared_error)
from ...tf1.metrics_per_class import mean_iou, mean_per_class_accuracy
from ...tf1.metrics_top_k import (average_precision_at_k, precision_at_k, precision_at_top_k,
                                  recall_at_k, recall_at_top_k, sparse_average_precision_at_k,
                                  sparse_precision_at_k)
from ...tf1.metrics_thresholds import (false_negatives_at_thresholds,
                                       false_positives_at_thresholds, precision_at_thresholds,
                                       recall_at_thresholds, true_negatives_at_thresholds,
                                       true_positives_at_thresholds)

__all__ = ["accuracy", "auc", "average_precision_at_k", "false_negatives",
           "false_negatives_at_thresholds", "false_positives",
           "false_positives_at_thresholds", "mean", "mean_absolute_error",
           "mean_cosine_distance", "mean_iou", "mean_per_class_accuracy",
           "mean_relative_error", "mean_squared_error", "mean_tensor",
           "percentage_below", "precision", "precision_at_k", "precision_at_thresholds",
           "precision_at_top_k", "recall", "recall_at_k", "recall_at_thresholds",
           "recall_at_top_k", "root_mean_squared_error", "sensitivity_at_specificity",
           "sparse_average_precision_at_k", "sparse_precision_at_k",
           "specificity_at_sensitivity", "true_negatives",
           "true_negatives_at_thresholds", "true_positives",
           "true_positives_at_thresholds"]
