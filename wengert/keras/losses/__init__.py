"""`keras.losses`: per-sample losses reduced to a mean over the batch, by family.

loss.py holds the base (Loss, Reduction and the reductions); probabilistic.py the
cross-entropies, Kullback-Leibler, Poisson and CTC; regression.py the squared, absolute,
percentage, logarithmic, Huber, log-cosh and cosine losses; margin.py the hinges;
segmentation.py Dice and Tversky; similarity.py the circle loss of embeddings; registry.py
`get`, `serialize` and `deserialize`. This namespace holds Keras's public names only: those of
TensorFlow 2.21's `tf.keras.losses` and Keras 3's `keras.losses`.
"""
from .loss import Loss, Reduction
from .margin import CategoricalHinge, Hinge, SquaredHinge, categorical_hinge, hinge, squared_hinge
from .probabilistic import (CTC, KLD, BinaryCrossentropy, BinaryFocalCrossentropy,
                            CategoricalCrossentropy, CategoricalFocalCrossentropy,
                            CategoricalGeneralizedCrossEntropy, KLDivergence, Poisson,
                            SparseCategoricalCrossentropy, binary_crossentropy,
                            binary_focal_crossentropy, categorical_crossentropy,
                            categorical_focal_crossentropy, categorical_generalized_cross_entropy,
                            ctc, kl_divergence, kld, kullback_leibler_divergence, poisson,
                            sparse_categorical_crossentropy)
from .registry import deserialize, get, serialize
from .regression import (MAE, MAPE, MSE, MSLE, CosineSimilarity, Huber, LogCosh, MeanAbsoluteError,
                         MeanAbsolutePercentageError, MeanSquaredError,
                         MeanSquaredLogarithmicError, cosine_similarity, huber, log_cosh, logcosh,
                         mae, mape, mean_absolute_error, mean_absolute_percentage_error,
                         mean_squared_error, mean_squared_logarithmic_error, mse, msle)
from .segmentation import Dice, Tversky, dice, tversky
from .similarity import Circle, circle

__all__ = ["BinaryCrossentropy", "BinaryFocalCrossentropy", "CTC", "CategoricalCrossentropy",
           "CategoricalFocalCrossentropy", "CategoricalGeneralizedCrossEntropy",
           "CategoricalHinge", "Circle", "CosineSimilarity", "Dice", "Hinge", "Huber", "KLD",
           "KLDivergence", "LogCosh", "Loss", "MAE", "MAPE", "MSE", "MSLE", "MeanAbsoluteError",
           "MeanAbsolutePercentageError", "MeanSquaredError", "MeanSquaredLogarithmicError",
           "Poisson", "Reduction", "SparseCategoricalCrossentropy", "SquaredHinge", "Tversky",
           "binary_crossentropy", "binary_focal_crossentropy", "categorical_crossentropy",
           "categorical_focal_crossentropy", "categorical_generalized_cross_entropy",
           "categorical_hinge", "circle", "cosine_similarity", "ctc", "deserialize", "dice",
           "get", "hinge", "huber", "kl_divergence", "kld", "kullback_leibler_divergence",
           "log_cosh", "logcosh", "mae", "mape", "mean_absolute_error",
           "mean_absolute_percentage_error", "mean_squared_error",
           "mean_squared_logarithmic_error", "mse", "msle", "poisson", "serialize",
           "sparse_categorical_crossentropy", "squared_hinge", "tversky"]
