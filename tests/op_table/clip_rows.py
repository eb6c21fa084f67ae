"""Op-table rows for ops/nn/clip.py: clip_by_value, clip_by_norm, global_norm and friends."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand, rand_away


def _clip_by_norm(t, clip_norm, axes=None):
    axes = None if axes is None else tuple(axes)
    norm = np.sqrt(np.sum(t * t, axis=axes, keepdims=True))
    return t * clip_norm / np.maximum(norm, clip_norm)


def _global_norm(*ts):
    return np.sqrt(sum(np.sum(t * t) for t in ts))


def _clip_by_global_norm(a, b, clip_norm):
    norm = _global_norm(a, b)
    scale = clip_norm / max(norm, clip_norm)
    return a * scale, b * scale, norm


def _clip_sample():
    """Values at least 0.1 away from the bounds -1 and 1, some inside and some outside."""
    return rand_away(3, 4, low=-3, high=3, points=(-1.0, 1.0))


ROWS = [
    OpInfo("clip_by_value", tf.clip_by_value,
           lambda t, lo, hi: np.maximum(np.minimum(t, hi), lo),
           [Sample((_clip_sample(), np.array(-1.0), np.array(1.0)), name="scalar_bounds"),
            Sample((_clip_sample(), np.full(4, -1.0), np.array([1.0, 1.0, 1.5, 2.0])),
                   name="vector_bounds"),
            Sample((_clip_sample(), -1.0, 1.0), name="python_bounds")]),
    OpInfo("clip_by_norm", tf.clip_by_norm, _clip_by_norm,
           [Sample((rand(3, 4), 1.0), name="clipped"),
            Sample((rand(3, 4) * 0.1, 1.0), name="inside"),
            Sample((rand(3, 4), 1.0), {"axes": [1]}, name="rows"),
            Sample((rand(3, 4), np.array(1.5)), name="tensor_norm")]),
    OpInfo("global_norm", lambda a, b: tf.global_norm([a, None, b]), _global_norm,
           [Sample((rand(3, 4), rand(5)))]),
    OpInfo("clip_by_global_norm",
           lambda a, b, c: (lambda out: (*out[0], out[1]))(tf.clip_by_global_norm([a, b], c)),
           _clip_by_global_norm,
           [Sample((rand(3, 4), rand(5), np.array(1.0)), name="clipped"),
            Sample((rand(3, 4) * 0.1, rand(5) * 0.1, np.array(1.0)), name="inside")]),
]
