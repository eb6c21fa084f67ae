"""Op-table rows for the stateless random ops (ops/random/stateless.py, shuffle.py) and the seeded
distributions of ops/random/distributions.py, checked against the generators behind them:
TensorFlow's Philox draws (ops/random/philox_draws.py; tests/test_random_tf.py compares them with
TensorFlow's) for normal, uniform, integers, categorical and shuffle, keyed by the seed for
stateless ops and by (87654321, op seed) for seeded ones; NumPy's Philox keyed by the seed, or
`default_rng([87654321, op seed])`, for binomial, Poisson and gamma, whose samplers are NumPy's.

Gamma samples are differentiable in alpha (TensorFlow's reparameterized gradient, checked against
finite differences of the inverse-CDF sampler, whose uniforms stay fixed) and in beta; the
gradient of RandomGammaGrad is not defined (as in TensorFlow), so second order is not checked."""
import numpy as np
from scipy.special import gammaincinv

from wengert.ops.random import candidate_sampling, distributions, seeded, stateless as rs
from wengert.ops.random import philox_draws as draws
from wengert.ops.random.categorical import categorical_kernel
from wengert.ops.random.philox import stateless_key_counter
from wengert.ops.random.shuffle import shuffle_rows, stateless_shuffle
from op_table import OpInfo, Sample, positive, rand

DEFAULT = seeded.DEFAULT_GRAPH_SEED
SEED = np.array([3, 4], np.int32)
NOTE = "float64 draws; float32's are compared with TensorFlow's in tests/test_random_tf.py"
KEY, COUNTER = stateless_key_counter(3, 4)


def _philox():
    return np.random.Generator(np.random.Philox(key=SEED.astype(np.uint64)))


def _rng(seed):
    return np.random.default_rng([DEFAULT, seed])


def _seeded(fn, *args, **kwargs):
    seeded.set_seed(None)
    return fn(*args, **kwargs)


def _gamma_ref(gen, shape, alpha, beta=None):
    x = gammaincinv(alpha, gen.random(tuple(shape) + np.shape(alpha)))
    return x if beta is None else x / beta


def _uniform_ref(lo, hi):
    return draws.uniform_floats(KEY, COUNTER, 6, np.float64).reshape(3, 2) * (hi - lo) + lo


LOGITS = np.log(np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]))

ROWS = [
    OpInfo("random.stateless_normal", lambda m, s: rs.stateless_normal((3, 2), SEED, m, s,
                                                                       dtype=m.dtype),
           lambda m, s: draws.normals(KEY, COUNTER, 6, np.float64).reshape(3, 2) * s + m,
           [Sample((rand(), positive()))], float32=False, notes=NOTE),
    OpInfo("random.stateless_truncated_normal",
           lambda m: rs.stateless_truncated_normal((50,), SEED, m, dtype=m.dtype),
           lambda m: _truncated_ref() + m, [Sample((rand(),))], float32=False, notes=NOTE),
    OpInfo("random.stateless_uniform",
           lambda lo, hi: rs.stateless_uniform((3, 2), SEED, lo, hi, dtype=lo.dtype),
           _uniform_ref, [Sample((rand(), rand(low=3, high=4)))], float32=False, notes=NOTE),
    OpInfo("random.stateless_uniform.int",
           lambda: rs.stateless_uniform((3, 2), SEED, 2, 9, dtype="int32"),
           lambda: draws.uniform_ints(KEY, COUNTER, 6, np.int32, 2, 9).reshape(3, 2),
           [Sample(())], grad=False,
           float32=False),
    OpInfo("random.stateless_categorical",
           lambda lg: rs.stateless_categorical(lg, 6, SEED),
           lambda lg: categorical_kernel(KEY, COUNTER, lg, 6, np.int64),
           [Sample((LOGITS,))], grad=False, float32=False),
    OpInfo("random.stateless_binomial",
           lambda c, p: rs.stateless_binomial((4,), SEED, c, p),
           lambda c, p: _philox().binomial(np.broadcast_to(c, 4).astype(np.int64),
                                           np.broadcast_to(p, 4), 4).astype(np.int32),
           [Sample((np.array(10.0), np.array([0.1, 0.5, 0.9, 0.3])))], grad=False,
           float32=False),
    OpInfo("random.stateless_poisson",
           lambda lam: rs.stateless_poisson((3,), SEED, lam, dtype="float64"),
           lambda lam: _philox().poisson(lam, (3,) + lam.shape).astype(np.float64),
           [Sample((np.array([1.0, 4.0]),))], grad=False, float32=False),
    OpInfo("random.stateless_gamma",
           lambda a: rs.stateless_gamma((5, 3), SEED, a, dtype=a.dtype),
           lambda a: _gamma_ref(_philox(), (5,), a),
           [Sample((positive(3, low=0.8, high=3.0),), name="alpha")],
           grad2=False, rtol=1e-4, atol=1e-6, fwd_rtol=1e-6),
    OpInfo("random.stateless_gamma.beta",
           lambda a, b: rs.stateless_gamma((4, 2), SEED, a, b, dtype=a.dtype),
           lambda a, b: _gamma_ref(_philox(), (4,), np.broadcast_to(a, (2,)), b),
           [Sample((positive(2, low=1.0, high=2.0), positive(2)), name="rate")],
           grad2=False, rtol=1e-4, fwd_rtol=1e-6),
    OpInfo("random.gamma", lambda a: _seeded(distributions.gamma, (4,), a, dtype=a.dtype,
                                             seed=21),
           lambda a: _gamma_ref(_rng(21), (4,), a),
           [Sample((positive(2, 3, low=0.8, high=3.0),))], grad2=False, rtol=1e-4,
           fwd_rtol=1e-6),
    OpInfo("random.gamma_grad",
           lambda a, x: rs.random_gamma_grad(a, x),
           lambda a, x: _gamma_grad_ref(a, x), [Sample((positive(3), positive(2, 3)))],
           grad=False, fwd_rtol=1e-5),
    OpInfo("random.categorical",
           lambda lg: _seeded(distributions.categorical, lg, 5, seed=22),
           lambda lg: categorical_kernel(DEFAULT, 22 << 64, lg, 5, np.int64), [Sample((LOGITS,))],
           grad=False,
           float32=False),
    OpInfo("random.shuffle", lambda x: _seeded(distributions.shuffle, x, seed=23),
           lambda x: shuffle_rows(x, DEFAULT, 23 << 64), [Sample((rand(5, 2),))], grad=False),
    OpInfo("random.experimental.stateless_shuffle", lambda x: stateless_shuffle(x, SEED),
           lambda x: shuffle_rows(x, KEY, COUNTER), [Sample((rand(6, 2),))], grad=False),
    OpInfo("random.poisson",
           lambda lam: _seeded(distributions.poisson, (2,), lam, dtype="float64", seed=24),
           lambda lam: _rng(24).poisson(lam, (2,) + lam.shape).astype(np.float64),
           [Sample((np.array([0.5, 3.0, 8.0]),))], grad=False, float32=False),
    OpInfo("random.uniform_candidate_sampler",
           lambda t: _seeded(candidate_sampling.uniform_candidate_sampler, t, 1, 3, False, 7,
                             seed=25)[0],
           lambda t: _rng(25).integers(0, 7, 3).astype(np.int64),
           [Sample((np.array([[1], [2]], np.int64),))], grad=False, float32=False),
]


def _truncated_ref():
    return draws.truncated_normals(KEY, COUNTER, 50, np.float64)


def _gamma_grad_ref(a, x):
    """d x / d alpha at fixed u = P(alpha, x), by central differences of the inverse CDF."""
    from scipy.special import gammainc
    u = gammainc(a, x)
    h = 1e-6
    return (gammaincinv(a + h, u) - gammaincinv(a - h, u)) / (2 * h)
