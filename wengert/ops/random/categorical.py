"""Class indices drawn from logits as TensorFlow's Multinomial kernels draw them (the seeded
`tf.random.categorical` and `stateless_categorical`).

Per row b of logits [batch, classes]: m = the largest finite logit, the unnormalized cumulative
distribution cdf_j = sum over finite logits i <= j of exp(logit_i - m), in float64, and total = its
last value. Each of the row's samples takes the next double u in [0, 1) of the Philox stream (two
words each, rows one after another) and is the number of classes whose cdf is <= u * total (the
first class with cdf_j > u * total: std::upper_bound). All rows draw from one stream, as the CPU
kernel does when it runs the rows in a single shard.
"""
import numpy as np

from .philox_draws import random_doubles

__all__ = ["categorical_kernel"]


def categorical_kernel(key, counter, logits, num_samples, dtype):
    """`num_samples` classes per row of `logits`, drawn from the Philox generator (key, counter)."""
    batch, classes = logits.shape
    finite = np.isfinite(logits)
    top = np.max(np.where(finite, logits, -np.inf), axis=1, keepdims=True) if classes else \
        np.zeros((batch, 1))
    top = np.where(np.isfinite(top), top, np.finfo(logits.dtype).min).astype(np.float64)
    probs = np.where(finite, np.exp(logits.astype(np.float64) - top), 0.0)
    cdf = np.cumsum(probs, axis=1)
    totals = cdf[:, -1:] if classes else np.zeros((batch, 1))
    targets = random_doubles(key, counter, batch * num_samples).reshape(batch, num_samples)
    targets = targets * totals
    out = np.empty((batch, num_samples), dtype)
    for row in range(batch):  # one searchsorted per row
        out[row] = np.searchsorted(cdf[row], targets[row], side="right")
    return out
