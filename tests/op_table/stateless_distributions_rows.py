"""Op-table rows for the stateless random ops (ops/random/stateless.py) and the seeded
distributions of ops/random/distributions.py, checked against NumPy with the same generators: Philox
keyed by the seed for stateless ops, `default_rng([87654321, op seed])` for seeded ones.

Gamma samples are differentiable in alpha (TensorFlow's reparameterized gradient, checked against
finite differences of the inverse-CDF sampler, whose uniforms stay fixed) and in beta; the
gradient of RandomGammaGrad is not defined (as in TensorFlow), so second order is not checked."""
import numpy as np
from scipy.special import gammaincinv

from wengert.ops.random import candidate_sampling, distributions, seeded, stateless as rs
from op_table import OpInfo, Sample, positive, rand

DEFAULT = seeded.DEFAULT_GRAPH_SEED
SEED = np.array([3, 4], np.int32)
NOTE = "float32 draws come from NumPy's float32 generator (different numbers)"


def _philox():
    return np.random.Generator(np.random.Philox(key=SEED.astype(np.uint64)))


def _rng(seed):
    return np.random.default_rng([DEFAULT, seed])


def _seeded(fn, *args, **kwargs):
    seeded.set_seed(None)
    return fn(*args, **kwargs)


def _cat_ref(gen, logits, n):
    p = np.exp(logits - logits.max(1, keepdims=True))
    cdf = np.cumsum(p, 1)
    u = gen.random((logits.shape[0], n)) * cdf[:, -1:]
    return np.stack([np.minimum(np.searchsorted(c, r, side="right"), logits.shape[1] - 1)
                     for c, r in zip(cdf, u)]).astype(np.int64)


def _gamma_ref(gen, shape, alpha, beta=None):
    x = gammaincinv(alpha, gen.random(tuple(shape) + np.shape(alpha)))
    return x if beta is None else x / beta


def _uniform_ref(lo, hi):
    return _philox().random((3, 2)) * (hi - lo) + lo


LOGITS = np.log(np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]))

ROWS = [
    OpInfo("random.stateless_normal", lambda m, s: rs.stateless_normal((3, 2), SEED, m, s,
                                                                       dtype=m.dtype),
           lambda m, s: _philox().standard_normal((3, 2)) * s + m,
           [Sample((rand(), positive()))], float32=False, notes=NOTE),
    OpInfo("random.stateless_truncated_normal",
           lambda m: rs.stateless_truncated_normal((50,), SEED, m, dtype=m.dtype),
           lambda m: _truncated_ref() + m, [Sample((rand(),))], float32=False, notes=NOTE),
    OpInfo("random.stateless_uniform",
           lambda lo, hi: rs.stateless_uniform((3, 2), SEED, lo, hi, dtype=lo.dtype),
           _uniform_ref, [Sample((rand(), rand(low=3, high=4)))], float32=False, notes=NOTE),
    OpInfo("random.stateless_uniform.int",
           lambda: rs.stateless_uniform((3, 2), SEED, 2, 9, dtype="int32"),
           lambda: _philox().integers(2, 9, (3, 2), np.int32), [Sample(())], grad=False,
           float32=False),
    OpInfo("random.stateless_categorical",
           lambda lg: rs.stateless_categorical(lg, 6, SEED), lambda lg: _cat_ref(_philox(), lg, 6),
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
           lambda lg: _cat_ref(_rng(22), lg, 5), [Sample((LOGITS,))], grad=False,
           float32=False),
    OpInfo("random.shuffle", lambda x: _seeded(distributions.shuffle, x, seed=23),
           lambda x: x[_rng(23).permutation(len(x))], [Sample((rand(5, 2),))], grad=False),
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
    gen = _philox()
    out = gen.standard_normal(50)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out


def _gamma_grad_ref(a, x):
    """d x / d alpha at fixed u = P(alpha, x), by central differences of the inverse CDF."""
    from scipy.special import gammainc
    u = gammainc(a, x)
    h = 1e-6
    return (gammaincinv(a + h, u) - gammaincinv(a - h, u)) / (2 * h)
