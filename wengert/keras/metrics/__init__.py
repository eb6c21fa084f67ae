"""`keras.metrics`: running means (and other running statistics) of predictions, by family.

metric.py holds the base (Metric, Mean, Sum, MeanMetricWrapper); accuracy.py the accuracies
(plain, binary, categorical, sparse, top-k); probabilistic.py the cross-entropies,
Kullback-Leibler and Poisson; regression.py the errors, cosine similarity and R2; margin.py the
hinges; confusion.py the confusion counts, precision, recall, AUC and the operating points on
their curves; iou.py the intersection-over-union metrics; f_score.py the F-scores;
correlation.py Pearson and concordance correlation; registry.py `get`, `serialize` and
`deserialize`. This namespace holds Keras's public names only: those of TensorFlow 2.21's
`tf.keras.metrics` (which also re-exports loss functions such as `mse` and `hinge`) and Keras
3's `keras.metrics`.
"""
from ..losses import (KLD, MAE, MAPE, MSE, MSLE, binary_crossentropy, binary_focal_crossentropy,
                      categorical_crossentropy, categorical_focal_crossentropy, categorical_hinge,
                      hinge, huber, kl_divergence, kld, kullback_leibler_divergence, log_cosh,
                      logcosh, mae, mape, mean_absolute_error, mean_absolute_percentage_error,
                      mean_squared_error, mean_squared_logarithmic_error, mse, msle, poisson,
                      sparse_categorical_crossentropy, squared_hinge)
from .accuracy import (Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
                       SparseTopKCategoricalAccuracy, TopKCategoricalAccuracy, binary_accuracy,
                       categorical_accuracy, sparse_categorical_accuracy,
                       sparse_top_k_categorical_accuracy, top_k_categorical_accuracy)
from .confusion import (AUC, FalseNegatives, FalsePositives, Precision, PrecisionAtRecall, Recall,
                        RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity,
                        TrueNegatives, TruePositives)
from .correlation import (ConcordanceCorrelation, PearsonCorrelation, concordance_correlation,
                          pearson_correlation)
from .f_score import F1Score, FBetaScore
from .iou import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from .margin import CategoricalHinge, Hinge, SquaredHinge
from .metric import Mean, MeanMetricWrapper, Metric, Sum
from .probabilistic import (BinaryCrossentropy, CategoricalCrossentropy, KLDivergence, Poisson,
                            SparseCategoricalCrossentropy)
from .registry import deserialize, get, serialize
from .regression import (CosineSimilarity, LogCoshError, MeanAbsoluteError,
                         MeanAbsolutePercentageError, MeanSquaredError,
                         MeanSquaredLogarithmicError, R2Score, RootMeanSquaredError)

__all__ = ["AUC", "Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "BinaryIoU",
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
           "concordance_correlation", "deserialize", "get", "hinge", "huber", "kl_divergence",
           "kld", "kullback_leibler_divergence", "log_cosh", "logcosh", "mae", "mape",
           "mean_absolute_error", "mean_absolute_percentage_error", "mean_squared_error",
           "mean_squared_logarithmic_error", "mse", "msle", "pearson_correlation", "poisson",
           "serialize", "sparse_categorical_accuracy", "sparse_categorical_crossentropy",
           "sparse_top_k_categorical_accuracy", "squared_hinge", "top_k_categorical_accuracy"]
