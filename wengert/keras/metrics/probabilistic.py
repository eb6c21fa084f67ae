"""The probabilistic metrics of `keras.metrics`: running means of the per-sample
cross-entropies (categorical, sparse categorical, binary), Kullback-Leibler divergence and
Poisson loss, each computed by the loss function of the same name (losses/probabilistic.py).
"""
from ..losses.probabilistic import (binary_crossentropy, categorical_crossentropy, kl_divergence,
                                    poisson, sparse_categorical_crossentropy)
from .metric import _wrapper

__all__ = ["CategoricalCrossentropy", "SparseCategoricalCrossentropy", "BinaryCrossentropy",
           "KLDivergence", "Poisson"]


CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy,
                                   "categorical_crossentropy")
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy",
                                         sparse_categorical_crossentropy,
                                         "sparse_categorical_crossentropy")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy")
KLDivergence = _wrapper("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _wrapper("Poisson", poisson, "poisson")
