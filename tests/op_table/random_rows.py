"""Op-table rows for ops/random/seeded.py: random draws and dropout, checked against the Philox
draws (ops/random/philox_draws.py) that TensorFlow's kernels make for the same seeds.

Each row resets the seeds first (`set_seed(None)`) and gives an op seed, so the op runs with the
pair (87654321, op seed), TensorFlow's default global seed: a Philox generator with key 87654321
and counter op_seed * 2^64 (tests/test_random_tf.py compares these numbers with TensorFlow's).
Gradients reach mean/stddev and minval/maxval through the Mul and Add ops (as in TensorFlow), and
dropout's input through its mask."""
import numpy as np

from wengert.ops.random import philox_draws as draws, seeded
from wengert.ops.nn import dropout as nn_dropout
from op_table import OpInfo, Sample, positive, rand

DEFAULT = seeded.DEFAULT_GRAPH_SEED
SHAPE = (3, 4)
NOTE = "float64 draws; float32's are compared with TensorFlow's in tests/test_random_tf.py"


def _draw(draw, seed, dtype=np.float64, shape=SHAPE, *args):
    """What the kernel seeded (87654321, seed) draws on its first call."""
    count = int(np.prod(shape))
    return draw(DEFAULT, seed << 64, count, dtype, *args).reshape(shape)


def _normal(mean, stddev):
    seeded.set_seed(None)
    return seeded.normal(SHAPE, mean, stddev, dtype=mean.dtype, seed=7)


def _truncated(mean, stddev):
    seeded.set_seed(None)
    return seeded.truncated_normal(SHAPE, mean, stddev, dtype=mean.dtype, seed=8)


def _truncated_ref(mean, stddev):
    return _draw(draws.truncated_normals, 8) * stddev + mean


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
    keep = _draw(draws.uniform_floats, 11, x.dtype, shape) >= rate
    return x * keep / (1 - rate)


ROWS = [
    OpInfo("random.normal", _normal,
           lambda m, s: _draw(draws.normals, 7) * s + m, [
               Sample((rand(), positive()), name="scalar"),
               Sample((rand(4), positive(4)), name="per-column"),
           ], float32=False, notes=NOTE),
    OpInfo("random.truncated_normal", _truncated, _truncated_ref, [
        Sample((rand(), positive()), name="scalar"),
    ], float32=False, notes=NOTE),
    OpInfo("random.uniform", _uniform,
           lambda lo, hi: _draw(draws.uniform_floats, 9) * (hi - lo) + lo, [
               Sample((rand(), rand(low=3, high=4)), name="scalar"),
           ], float32=False, notes=NOTE),
    OpInfo("random.uniform.int", _uniform_int,
           lambda: _draw(draws.uniform_ints, 10, np.int32, SHAPE, 3, 11), [Sample(())],
           grad=False, float32=False, notes="integer draws have no gradient"),
    OpInfo("nn.dropout", _dropout, _dropout_ref, [
        Sample((rand(4, 5), 0.5), name="half"),
        Sample((rand(4, 5), 0.2), {"noise_shape": (4, 1)}, name="noise_shape"),
        Sample((rand(2, 3, 4), 0.0), name="rate0"),
    ], float32=False, notes="the keep flags are uniform draws of x's dtype: float32 draws differ "
       "from float64's (compared with TensorFlow's in tests/test_random_tf.py)"),
]
