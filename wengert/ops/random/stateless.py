"""Stateless random numbers: `tf.random.stateless_*`, pure functions of a seed tensor.

A stateless op draws from a counter-based generator (NumPy's Philox) whose 128-bit key is the
op's `seed` input, a tensor of two integers: the same seed gives the same numbers, on every call,
eagerly, in graphs and in `tf.function` (so the ops are pure: executors may fold and merge them).
Because the seed is an input, a data pipeline or a traced function can pass a different seed per
element or step (`Generator.make_seeds`, `stateless_split`, `stateless_fold_in`). The guarantee is
TensorFlow's (determinism given the seed), not TensorFlow's bit streams.

Distributions. Normal (standard normals), uniform in [0, 1) scaled to [minval, maxval) with
ordinary ops (so gradients reach minval and maxval), integers in [minval, maxval), truncated
normal (redrawn outside two standard deviations), categorical (inverse CDF of softmax(logits):
for u ~ U[0, 1), the class is the first k with cdf_k > u), binomial and Poisson (NumPy's
samplers).

Gamma, differentiable in alpha. A Gamma(alpha, 1) sample is drawn by inverting its CDF,
x = P^-1(alpha, u) with P the regularized lower incomplete gamma function and u ~ U[0, 1). Holding
u fixed, x is a smooth function of alpha, and implicit differentiation of P(alpha, x) = u gives
the reparameterized gradient TensorFlow defines (`RandomGammaGrad`):

    dx/dalpha = -(dP/dalpha)(alpha, x) / p(x; alpha),   p(x; alpha) = x^(alpha-1) e^-x / Gamma(alpha)

(the derivative of the CDF in alpha over the density). Samples of rate beta are x / beta, so the
gradient in beta flows through the division. The sample op's rule sums g * dx/dalpha over the
sample dimensions; RandomGammaGrad itself has no gradient, as in TensorFlow.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.op_dtype_constraints import check_fixed_value
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..array_ops import stack
from ..broadcast_ops import broadcast_to
from ..math_ops import add, cast, divide, multiply, subtract
from . import philox_draws as draws
from .categorical import categorical_kernel
from .philox import stateless_key_counter
from .seeded import _shape as sample_shape, int_bound
from ..reduce_ops import reduce_sum
from ..shape_rules import resolve_shape, shape_arg, static_shape_arg
from ..special_math_ops import _igamma_grad_a_kernel

__all__ = ["stateless_normal", "stateless_uniform", "stateless_truncated_normal",
           "stateless_categorical", "stateless_binomial", "stateless_gamma", "stateless_poisson",
           "stateless_split", "stateless_fold_in", "random_gamma_grad", "broadcast_params"]


# -- the generators behind the kernels ------------------------------------------------------------
def philox(seed):
    """NumPy's Philox generator keyed by the two integers of `seed` (binomial, Poisson and gamma
    samples, whose algorithms are NumPy's, not TensorFlow's)."""
    key = np.asarray(seed).astype(np.int64).astype(np.uint64)
    return np.random.Generator(np.random.Philox(key=key[:2]))


def key_counter(seed, state):
    """TensorFlow's Philox (key, counter) for a kernel's seed input: the scrambled seed pair of
    the stateless ops, or (state=True, tf.random.Generator's draws) the int64 [3] state itself,
    (counter low, counter high, key)."""
    words = np.asarray(seed).reshape(-1)
    if state:
        words = words.astype(np.int64).astype(np.uint64)
        return int(words[2]), int(words[0]) | (int(words[1]) << 64)
    return stateless_key_counter(int(words[0]), int(words[1]))


def _check_seed(seed, what, state=False):
    if not seed.dtype.is_integer:
        raise InvalidArgumentError(f"{what}: seed must be an integer tensor of shape [2], got "
                                   f"dtype {seed.dtype.name}.")
    size = 3 if state else 2
    if seed.shape.rank is not None and seed.shape.as_list() not in ([size], [None]):
        raise InvalidArgumentError(f"{what}: seed must have shape [{size}], not {seed.shape} "
                                   "(two integers, e.g. seed=[1, 2]).")


# -- kernels ---------------------------------------------------------------------------------------
def philox_fill(draw, seed, extra, shape, state, *args):
    """`draw(key, counter, n, *args)` for the n elements of `shape`, reshaped."""
    shape = tuple(resolve_shape(shape, extra) if extra else shape)
    key, counter = key_counter(seed, state)
    return draw(key, counter, int(np.prod(shape, dtype=np.int64)), *args).reshape(shape)


def _normal_kernel(seed, *extra, shape, dtype, state=False):
    return philox_fill(draws.normals, seed, extra, shape, state, dtype)


def _uniform_kernel(seed, *extra, shape, dtype, state=False):
    return philox_fill(draws.uniform_floats, seed, extra, shape, state, dtype)


def _truncated_kernel(seed, *extra, shape, dtype, state=False):
    return philox_fill(draws.truncated_normals, seed, extra, shape, state, dtype)


def _uniform_int_kernel(seed, *extra, shape, dtype, minval, maxval, state=False):
    if minval is None:  # the full range of the dtype
        return philox_fill(draws.full_ints, seed, extra, shape, state, dtype)
    return philox_fill(draws.uniform_ints, seed, extra, shape, state, dtype, minval, maxval)


def _categorical_kernel(logits, seed, *, num_samples, dtype):
    key, counter = key_counter(seed, False)
    return categorical_kernel(key, counter, logits, num_samples, dtype)


def _binomial_kernel(seed, counts, probs, *, shape, dtype):
    counts, probs = np.broadcast_arrays(counts, probs)
    return philox(seed).binomial(np.broadcast_to(counts, shape).astype(np.int64),
                                 np.broadcast_to(probs, shape), shape).astype(dtype)


def _poisson_kernel(seed, lam, *, shape, dtype):
    return philox(seed).poisson(lam, tuple(shape) + lam.shape).astype(dtype)


def gamma_kernel(gen, alpha, shape):
    """Gamma(alpha, 1) samples of shape `shape` + alpha.shape, by inverting the CDF."""
    from scipy.special import gammaincinv  # imported when first needed
    u = gen.random(tuple(shape) + alpha.shape)
    x = gammaincinv(alpha.astype(np.float64), u)
    return np.maximum(x, np.finfo(alpha.dtype).tiny).astype(alpha.dtype)


def _gamma_kernel(seed, alpha, *, shape):
    return gamma_kernel(philox(seed), alpha, shape)


# -- shape rules -------------------------------------------------------------------------------------
def _samples_rule(seed, *extra, shape, dtype, state=False):
    _check_seed(seed, "stateless random op", state)
    return static_shape_arg(shape, extra), dtypes.as_dtype(dtype)


def _int_rule(seed, *extra, shape, dtype, minval, maxval, state=False):
    _check_seed(seed, "stateless_uniform", state)
    if minval is not None and minval >= maxval:
        raise InvalidArgumentError(f"stateless_uniform: need minval < maxval, got "
                                   f"minval={minval}, maxval={maxval}.")
    return static_shape_arg(shape, extra), dtypes.as_dtype(dtype)


def _categorical_rule(logits, seed, *, num_samples, dtype):
    _check_seed(seed, "stateless_categorical")
    if logits.shape.rank is not None and logits.shape.rank != 2:
        raise InvalidArgumentError(f"logits must be a matrix [batch_size, num_classes], got "
                                   f"shape {logits.shape}.")
    batch = logits.shape[0] if logits.shape.rank is not None else None
    return TensorShape([batch, num_samples]), dtypes.as_dtype(dtype)


def _binomial_rule(seed, counts, probs, *, shape, dtype):
    _check_seed(seed, "stateless_binomial")
    for what, t in (("counts", counts), ("probs", probs)):
        if not _broadcasts_to(t.shape, shape):
            raise InvalidArgumentError(f"{what} (shape {t.shape}) must broadcast to the sample "
                                       f"shape {list(shape)}.")
    return TensorShape(shape), dtypes.as_dtype(dtype)


def _broadcasts_to(shape, target):
    """False when `shape` (dimensions may be unknown) certainly cannot broadcast to `target`."""
    if shape.rank is None:
        return True
    if shape.rank > len(target):
        return False
    return all(d is None or d in (1, t) for d, t in zip(reversed(shape.as_list()),
                                                         reversed(target)))


def _poisson_rule(seed, lam, *, shape, dtype):
    _check_seed(seed, "stateless_poisson")
    if lam.shape.rank is None:
        return TensorShape(None), dtypes.as_dtype(dtype)
    return TensorShape(tuple(shape) + tuple(lam.shape.as_list())), dtypes.as_dtype(dtype)


def _gamma_rule(seed, alpha, *, shape):
    _check_seed(seed, "stateless_gamma")
    return gamma_shape(alpha, shape)


def gamma_shape(alpha, shape):
    if not alpha.dtype.is_floating:
        raise InvalidArgumentError(f"alpha must be a floating-point tensor, got "
                                   f"{alpha.dtype.name}.")
    if alpha.shape.rank is None:
        return TensorShape(None), alpha.dtype
    return TensorShape(tuple(shape) + tuple(alpha.shape.as_list())), alpha.dtype


# -- the gamma sample's gradient in alpha ------------------------------------------------------------
def _gamma_grad_kernel(alpha, sample):
    """dx/dalpha = -dP/dalpha(alpha, x) / p(x; alpha) (see the module docstring)."""
    from scipy.special import gammaln  # imported when first needed
    a = np.broadcast_to(alpha, np.broadcast_shapes(alpha.shape, sample.shape)).astype(np.float64)
    x = sample.astype(np.float64)
    log_density = -x + (a - 1.0) * np.log(x) - gammaln(a)
    out = -_igamma_grad_a_kernel(a, x) / np.exp(log_density)
    return out.astype(sample.dtype)


def _gamma_grad_rule(alpha, sample):
    return sample.shape, sample.dtype


# TensorFlow registers no gradient for RandomGammaGrad: a second derivative in alpha is a
# LookupError there and here.
RANDOM_GAMMA_GRAD = defop("RandomGammaGrad", _gamma_grad_kernel, shape=_gamma_grad_rule,
                          args=("alpha", "sample"))


def random_gamma_grad(alpha, sample, name=None):
    """d sample / d alpha of Gamma(alpha, 1) samples, elementwise (alpha broadcasts)."""
    return execute(RANDOM_GAMMA_GRAD, (convert_to_tensor(alpha),
                                       convert_to_tensor(sample)), name=name)


def gamma_alpha_grad(op, grad, alpha_index, num_sample_dims):
    """sum over the sample dimensions of g * dx/dalpha: the gradient for the alpha input."""
    alpha, sample = op.inputs[alpha_index], op.outputs[0]
    partial = random_gamma_grad(alpha, sample)
    return reduce_sum(multiply(grad, partial), axis=list(range(num_sample_dims)))


def gamma_alpha_jvp(alpha, tangent, sample):
    """The tangent of the samples for a tangent of alpha (broadcast over sample dims)."""
    return multiply(random_gamma_grad(alpha, sample), tangent)


def _stateless_gamma_grad(op, grad):
    return None, gamma_alpha_grad(op, grad, 1, len(op.get_attr("shape")))


def _stateless_gamma_jvp(primals, tangents, outputs, *, shape):
    if tangents[1] is None:
        return None
    return gamma_alpha_jvp(primals[1], tangents[1], outputs[0])


# -- the ops ------------------------------------------------------------------------------------------
# (raw: tf.raw_ops' arguments, onto the public functions)
STATELESS_NORMAL = defop("StatelessRandomNormal", _normal_kernel, shape=_samples_rule, grad=None,
                         raw=lambda shape, seed, dtype=dtypes.float32, name=None:
                         stateless_normal(shape, seed, dtype=dtype, name=name))
STATELESS_UNIFORM = defop("StatelessRandomUniform", _uniform_kernel, shape=_samples_rule,
                          grad=None, raw=lambda shape, seed, dtype=dtypes.float32, name=None:
                          stateless_uniform(shape, seed, dtype=dtype, name=name))
STATELESS_UNIFORM_INT = defop("StatelessRandomUniformInt", _uniform_int_kernel, shape=_int_rule,
                              grad=None, raw=lambda shape, seed, minval, maxval, name=None:
                              stateless_uniform(shape, seed, minval, maxval,
                                                convert_to_tensor(minval).dtype, name))
STATELESS_TRUNCATED = defop("StatelessTruncatedNormal", _truncated_kernel, shape=_samples_rule,
                            grad=None, raw=lambda shape, seed, dtype=dtypes.float32, name=None:
                            stateless_truncated_normal(shape, seed, dtype=dtype, name=name))
STATELESS_MULTINOMIAL = defop("StatelessMultinomial", _categorical_kernel,
                              shape=_categorical_rule, grad=None,
                              raw=lambda logits, num_samples, seed, output_dtype=dtypes.int64,
                              name=None: stateless_categorical(logits, num_samples, seed,
                                                               output_dtype, name))
STATELESS_BINOMIAL = defop("StatelessRandomBinomial", _binomial_kernel, shape=_binomial_rule,
                           grad=None, raw=lambda shape, seed, counts, probs, dtype=dtypes.int64,
                           name=None: stateless_binomial(shape, seed, counts, probs, dtype, name))
STATELESS_POISSON = defop("StatelessRandomPoisson", _poisson_kernel, shape=_poisson_rule,
                          grad=None, raw=lambda shape, seed, lam, dtype, name=None:
                          _raw_poisson(shape, seed, lam, dtype, name))
STATELESS_GAMMA = defop("StatelessRandomGammaV2", _gamma_kernel, shape=_gamma_rule,
                        grad=_stateless_gamma_grad, jvp=_stateless_gamma_jvp,
                        raw=lambda shape, seed, alpha, name=None: stateless_gamma(
                            shape, seed, alpha, dtype=convert_to_tensor(alpha).dtype, name=name))


# -- public functions -----------------------------------------------------------------------------
def _seed(seed, what):
    seed = convert_to_tensor(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        if seed.dtype.is_integer:
            seed = cast(seed, dtypes.int64)
        else:
            raise InvalidArgumentError(f"{what}: seed must be a shape [2] integer tensor, got "
                                       f"dtype {seed.dtype.name}.")
    _check_seed(seed, what)
    return seed


def _float_dtype(dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{what}: dtype must be a floating-point type, got {dtype.name}.")
    return dtype


def scaled_draw(rnd, scale, shift, dtype):
    """rnd * scale + shift, skipping the identity steps (a Python 1 and 0)."""
    if not (type(scale) in (int, float) and scale == 1):
        rnd = multiply(rnd, convert_to_tensor(scale, dtype=dtype))
    if not (type(shift) in (int, float) and shift == 0):
        rnd = add(rnd, convert_to_tensor(shift, dtype=dtype))
    return rnd


def uniform_span(rnd, minval, maxval, dtype):
    """Uniform draws in [0, 1) moved to [minval, maxval): rnd * (maxval - minval) + minval."""
    if type(minval) in (int, float) and minval == 0 and type(maxval) in (int, float) \
            and maxval == 1:
        return rnd
    minval = convert_to_tensor(minval, dtype=dtype)
    return add(multiply(rnd, subtract(convert_to_tensor(maxval, dtype=dtype), minval)), minval)


def generator_draw(kind, shape, state, dtype, minval=None, maxval=None, name=None):
    """A draw of tf.random.Generator from its int64 [3] `state` (counter, key), read before the
    draw advanced it: `kind` is normal, uniform, truncated (standard draws) or int (minval and
    maxval, both None for the full range)."""
    dtype = dtypes.as_dtype(dtype)
    op_def = {"normal": STATELESS_NORMAL, "uniform": STATELESS_UNIFORM,
              "truncated": STATELESS_TRUNCATED, "int": STATELESS_UNIFORM_INT}[kind]
    what = f"Generator.{kind}"
    if kind != "int":
        dtype = _float_dtype(dtype, what)
    shape, extra = shape_arg(shape, f"{what}: shape")
    attrs = {"shape": shape, "dtype": dtype._np, "state": True}
    if kind == "int":
        attrs["minval"] = None if minval is None else int_bound(minval, f"{what}: minval")
        attrs["maxval"] = None if maxval is None else int_bound(maxval, f"{what}: maxval")
    return execute(op_def, (convert_to_tensor(state),) + extra, attrs, name)


_SAME_DRAWS = ("philox", "auto_select", 1, 3, None)  # TensorFlow's CPU draws Philox for both


def _check_alg(alg, what):
    """TensorFlow's `alg`: philox and auto_select give the same draws (auto_select is Philox on
    a CPU); its CPU kernels refuse threefry, and any other value is its ValueError."""
    key = alg.lower() if isinstance(alg, str) else getattr(alg, "value", alg)
    if key in _SAME_DRAWS:
        return
    if key in ("threefry", 2):
        raise InvalidArgumentError(f"{what}: alg={alg!r} (ThreeFry) has no CPU kernel in "
                                   "TensorFlow nor in wengert; use 'philox' or 'auto_select'.")
    raise ValueError(f"{what}: argument `alg` got unsupported value {alg!r}. Supported values "
                     "are philox for the Philox algorithm, threefry for the ThreeFry algorithm, "
                     "and auto_select for auto-selection.")


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg="auto_select"):
    """Normal draws of `shape`, a pure function of `seed` (shape [2] integers)."""
    dtype = _float_dtype(dtype, "stateless_normal")
    _check_alg(alg, "stateless_normal")
    shape, extra = shape_arg(shape, "stateless_normal: shape")
    rnd = execute(STATELESS_NORMAL, (_seed(seed, "stateless_normal"),) + extra,
                  {"shape": shape, "dtype": dtype._np}, name)
    return scaled_draw(rnd, stddev, mean, dtype)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select"):
    """Normal draws within two standard deviations, a pure function of `seed`."""
    dtype = _float_dtype(dtype, "stateless_truncated_normal")
    _check_alg(alg, "stateless_truncated_normal")
    shape, extra = shape_arg(shape, "stateless_truncated_normal: shape")
    rnd = execute(STATELESS_TRUNCATED, (_seed(seed, "stateless_truncated_normal"),) + extra,
                  {"shape": shape, "dtype": dtype._np}, name)
    return scaled_draw(rnd, stddev, mean, dtype)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg="auto_select"):
    """Uniform draws in [minval, maxval), a pure function of `seed`. Integer dtypes need both
    bounds, or neither (the dtype's full range)."""
    dtype = dtypes.as_dtype(dtype)
    seed = _seed(seed, "stateless_uniform")
    _check_alg(alg, "stateless_uniform")
    shape, extra = shape_arg(shape, "stateless_uniform: shape")
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"stateless_uniform: for integer dtype {dtype.name}, minval and "
                             f"maxval must be both None or both given; got minval={minval} "
                             f"and maxval={maxval}.")
        attrs = {"shape": shape, "dtype": dtype._np, "minval": None, "maxval": None}
        if minval is not None:  # (and so maxval)
            attrs["minval"] = int_bound(minval, "stateless_uniform: minval")
            attrs["maxval"] = int_bound(maxval, "stateless_uniform: maxval")
        return execute(STATELESS_UNIFORM_INT, (seed,) + extra, attrs, name)
    dtype = _float_dtype(dtype, "stateless_uniform")
    rnd = execute(STATELESS_UNIFORM, (seed,) + extra, {"shape": shape, "dtype": dtype._np}, name)
    return uniform_span(rnd, minval, 1 if maxval is None else maxval, dtype)


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """`num_samples` class indices per row of `logits` [batch, classes], drawn with
    probabilities softmax(logits), a pure function of `seed`."""
    logits = convert_to_tensor(logits)
    check_fixed_value(num_samples, "int32", "stateless_categorical: num_samples")  # as TF's
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"stateless_categorical: dtype must be int32 or int64, not {dtype.name}.")
    return execute(STATELESS_MULTINOMIAL, (logits, _seed(seed, "stateless_categorical")),
                   {"num_samples": int(num_samples), "dtype": dtype._np}, name)


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial(counts, probs) draws of `shape` (counts and probs broadcast to it)."""
    shape = sample_shape(shape, "stateless_binomial")
    probs = convert_to_tensor(probs, dtype_hint=dtypes.float32)  # TensorFlow's conversions:
    counts = convert_to_tensor(counts, dtype_hint=probs.dtype)   # counts share probs' dtype
    return execute(STATELESS_BINOMIAL, (_seed(seed, "stateless_binomial"), counts, probs),
                   {"shape": shape, "dtype": dtypes.as_dtype(output_dtype)._np}, name)


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Poisson(lam) draws of shape `shape` + lam.shape, a pure function of `seed`."""
    return execute(STATELESS_POISSON, (_seed(seed, "stateless_poisson"), convert_to_tensor(lam)),
                   {"shape": sample_shape(shape, "stateless_poisson"),
                    "dtype": dtypes.as_dtype(dtype)._np}, name)


def _raw_poisson(shape, seed, lam, dtype, name):
    """tf.raw_ops.StatelessRandomPoisson: `shape` is the whole output's, lam broadcast to its
    trailing dimensions (stateless_poisson appends lam's shape to `shape` instead)."""
    full, lam = sample_shape(shape, "StatelessRandomPoisson"), convert_to_tensor(lam)
    lead = full[:len(full) - (lam.shape.rank or 0)]
    return execute(STATELESS_POISSON, (_seed(seed, "StatelessRandomPoisson"),
                                       broadcast_to(lam, full[len(lead):])),
                   {"shape": lead, "dtype": dtypes.as_dtype(dtype)._np}, name)


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma(alpha, beta) draws of `shape` (which must end with the broadcast shape of alpha and
    beta), a pure function of `seed`; differentiable in alpha (reparameterized) and beta."""
    dtype = _float_dtype(dtype, "stateless_gamma")
    shape = sample_shape(shape, "stateless_gamma")
    alpha = convert_to_tensor(alpha, dtype=dtype)
    beta = None if beta is None else convert_to_tensor(beta, dtype=dtype)
    if alpha.shape.rank is None:  # then it broadcasts against the whole sample shape
        alpha = broadcast_to(alpha, shape)
    if beta is not None and beta.shape.rank is None:
        beta = broadcast_to(beta, shape)
    alpha, params = broadcast_params(alpha, beta)
    if params is not None and tuple(shape[len(shape) - len(params):]) != tuple(params):
        raise ValueError(f"stateless_gamma: shape {list(shape)} must end with the broadcast "
                         f"shape of alpha and beta, {list(params)}.")
    rank = len(params) if params is not None else alpha.shape.rank or 0
    sample = execute(STATELESS_GAMMA, (_seed(seed, "stateless_gamma"), alpha),
                     {"shape": shape[:len(shape) - rank]}, name)
    return sample if beta is None else divide(sample, beta)


def broadcast_params(alpha, beta):
    """(alpha broadcast against beta, their static shape), or (alpha, None) when a dimension is
    unknown (then alpha must already have the parameters' shape)."""
    shapes = [alpha.shape] + ([] if beta is None else [beta.shape])
    if any(s.rank is None or None in s.as_list() for s in shapes):
        return alpha, None
    try:
        params = np.broadcast_shapes(*(tuple(s.as_list()) for s in shapes))
    except ValueError:
        raise InvalidArgumentError(f"alpha (shape {alpha.shape}) and beta (shape {beta.shape}) "
                                   "do not broadcast together.") from None
    if tuple(alpha.shape.as_list()) != tuple(params):
        alpha = broadcast_to(alpha, params)
    return alpha, params


# -- seeds from seeds ---------------------------------------------------------------------------
def stateless_split(seed, num=2, alg="auto_select"):
    """`num` new seeds ([num, 2], the seed's dtype) derived from `seed`: full-range integers drawn
    with it, as TensorFlow's tf.random.split."""
    _check_alg(alg, "stateless_split")
    seed = _seed(seed, "stateless_split")
    return stateless_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype)


def stateless_fold_in(seed, data, alg="auto_select"):
    """A new seed [2] from `seed` and an integer `data` (e.g. a step number): one full-range
    integer of data's dtype drawn with `seed`, then `data` itself (TensorFlow's fold_in)."""
    _check_alg(alg, "stateless_fold_in")
    data = convert_to_tensor(data)
    drawn = stateless_uniform([], seed, minval=None, maxval=None, dtype=data.dtype)
    return stack([drawn, data])
