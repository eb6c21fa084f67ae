"""Op-table rows for ops/random/seeded.py: random draws and dropout, checked against NumPy's
Generator with the same seeds.

Each row resets the seeds first (`set_seed(None)`) and gives an op seed, so the op runs with the
pair (87654321, op seed), TensorFlow's default global seed, whose numbers NumPy reproduces with
`default_rng([87654321, op seed])`. Gradients reach mean/stddev and minval/maxval through the
Mul and Add ops (as in TensorFlow), and dropout's input through its mask."""
import numpy as np

from wengert.ops.random import seeded
from wengert.ops.nn import dropout as nn_dropout
from op_table import OpInfo, Sample, positive, rand

DEFAULT = seeded.DEFAULT_GRAPH_SEED
SHAPE = (3, 4)
NOTE = ("float32 draws come from NumPy's float32 generator (different numbers); the dtype is "
        "checked in tests/test_random.py")


def _rng(seed):
    return np.random.default_rng([DEFAULT, seed])


def _normal(mean, stddev):
    seeded.set_seed(None)
    return seeded.normal(SHAPE, mean, stddev, dtype=mean.dtype, seed=7)


def _truncated(mean, stddev):
    seeded.set_seed(None)
    return seeded.truncated_normal(SHAPE, mean, stddev, dtype=mean.dtype, seed=8)


def _truncated_ref(mean, stddev):
    rng = _rng(8)
    out = rng.standard_normal(SHAPE)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out * stddev + mean


def _uniform(minval, maxval):
    seeded.set_seed(None)
    return seeded.uniform(SHAPE, minval, maxval, dtype=minval.dtype, seed=9)


def _uniform_int():
    seeded.set_seed(None)
    return seeded.uniform(SHAPE, 3, 11, dtype="int32", seed=10)


def _dropout(x, rate, noise_shape=None):
    seeded.set_seed(None)
    return nn_dropout.dropout(x, rate, noise_shape=noise_shape, seed=11)


def _dropout_ref(x, rate, noise_shape=None):
    shape = x.shape if noise_shape is None else noise_shape
    keep = _rng(11).random(shape) >= rate
    return x * keep / (1 - rate)


ROWS = [
    OpInfo("random.normal", _normal,
           lambda m, s: _rng(7).standard_normal(SHAPE) * s + m, [
               Sample((rand(), positive()), name="scalar"),
               Sample((rand(4), positive(4)), name="per-column"),
           ], float32=False, notes=NOTE),
    OpInfo("random.truncated_normal", _truncated, _truncated_ref, [
        Sample((rand(), positive()), name="scalar"),
    ], float32=False, notes=NOTE),
    OpInfo("random.uniform", _uniform,
           lambda lo, hi: _rng(9).random(SHAPE) * (hi - lo) + lo, [
               Sample((rand(), rand(low=3, high=4)), name="scalar"),
           ], float32=False, notes=NOTE),
    OpInfo("random.uniform.int", _uniform_int,
           lambda: _rng(10).integers(3, 11, SHAPE, np.int32), [Sample(())],
           grad=False, float32=False, notes="integer draws have no gradient"),
    OpInfo("nn.dropout", _dropout, _dropout_ref, [
        Sample((rand(4, 5), 0.5), name="half"),
        Sample((rand(4, 5), 0.2), {"noise_shape": (4, 1)}, name="noise_shape"),
        Sample((rand(2, 3, 4), 0.0), name="rate0"),
    ], float32=True),
]
