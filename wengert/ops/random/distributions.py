"""More seeded random ops: `tf.random.categorical`, `shuffle`, `gamma`, `poisson` and
`uniform_candidate_sampler`, with the seed rules of seeded.py (global seed, op seed).

categorical draws class indices from softmax(logits) row by row (inverse CDF, categorical.py) and
shuffle permutes the first dimension (shuffle.py), both from the op's Philox stream as
TensorFlow's kernels draw them (seeded.py); poisson draws counts (not differentiable, as in TensorFlow). gamma draws
Gamma(alpha, 1) samples by inverting the CDF and divides by beta, so the samples are
differentiable in alpha through TensorFlow's reparameterized gradient (RandomGammaGrad, see
stateless.py) and in beta through the division.

uniform_candidate_sampler picks `num_sampled` classes uniformly from [0, range_max) for sampled
losses, with their expected counts: p = 1 / range_max per draw, so num_sampled * p when drawing
with replacement; without (`unique=True`), draws repeat until `num_sampled` distinct classes came
up, and a class's expected count is the probability it came up in those n tries,
1 - (1 - p)^n, as TensorFlow computes it.
"""

import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.op_dtype_constraints import check_fixed_argument
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..math_ops import divide
from .categorical import categorical_kernel
from .seeded import _generator, _seed_attrs, reserve, run_raw
from .shuffle import shuffle_rows
from .seeded import _shape as sample_shape
from .stateless import (broadcast_params, gamma_alpha_grad,
                                   gamma_alpha_jvp, gamma_kernel, gamma_shape)

__all__ = ["categorical", "multinomial", "shuffle", "gamma", "poisson"]


# -- categorical --------------------------------------------------------------------------------
def _multinomial_kernel(logits, *, num_samples, dtype, seed, seed2, stream):
    rounded = -(-num_samples // 4) * 8  # TensorFlow reserves 2 words per sample, in fours
    key, counter = reserve("Multinomial", np.dtype(dtype), seed, seed2, stream,
                           256 * logits.shape[0] * rounded)
    return categorical_kernel(key, counter, logits, num_samples, dtype)


def _multinomial_rule(logits, *, num_samples, dtype, **_):
    if logits.shape.rank is not None and logits.shape.rank != 2:
        raise InvalidArgumentError(f"logits must be a matrix [batch_size, num_classes], got "
                                   f"shape {logits.shape}.")
    if not logits.dtype.is_floating:
        raise InvalidArgumentError(f"logits must be floating-point, got {logits.dtype.name}.")
    batch = logits.shape[0] if logits.shape.rank is not None else None
    return TensorShape([batch, num_samples]), dtypes.as_dtype(dtype)


MULTINOMIAL = defop("Multinomial", _multinomial_kernel, shape=_multinomial_rule, grad=None,
                    pure=False, raw=lambda logits, num_samples, seed=0, seed2=0,
                    output_dtype=dtypes.int64, name=None: run_raw(
                        MULTINOMIAL, (logits,), {"num_samples": int(num_samples),
                                                 "dtype": dtypes.as_dtype(output_dtype)._np},
                        seed, seed2, name))


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`num_samples` class indices per row of `logits` [batch, classes] (int64 by default),
    drawn with probabilities softmax(logits)."""
    dtype = dtypes.as_dtype(dtype or dtypes.int64)
    check_fixed_argument("Multinomial", "num_samples", num_samples)  # int32 only, as in TF
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"random.categorical: dtype must be int32 or int64, not {dtype.name}.")
    attrs = {"num_samples": int(num_samples), "dtype": dtype._np}
    attrs.update(_seed_attrs(seed))
    return execute(MULTINOMIAL, (convert_to_tensor(logits),), attrs, name)


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """TF 1's name for `categorical`."""
    return categorical(logits, num_samples, output_dtype, seed, name)


# -- shuffle --------------------------------------------------------------------------------------
def _shuffle_kernel(value, *, seed, seed2, stream):
    if value.size <= 1 or value.shape[0] <= 1:
        return value.copy()
    key, counter = reserve("RandomShuffle", value.dtype, seed, seed2, stream,
                           -(-(value.shape[0] - 1) // 4))
    return shuffle_rows(value, key, counter)


RANDOM_SHUFFLE = defop("RandomShuffle", _shuffle_kernel,
                       shape=lambda value, **_: (value.shape, value.dtype), grad=None, pure=False,
                       raw=lambda value, seed=0, seed2=0, name=None: run_raw(
                           RANDOM_SHUFFLE, (value,), {}, seed, seed2, name))


def shuffle(value, seed=None, name=None):
    """`value` with its first dimension randomly permuted."""
    return execute(RANDOM_SHUFFLE, (convert_to_tensor(value),), _seed_attrs(seed), name)


# -- gamma -----------------------------------------------------------------------------------------
def _gamma_kernel(alpha, *, shape, seed, seed2, stream):
    return gamma_kernel(_generator(seed, seed2, stream), alpha, shape)


def _gamma_rule(alpha, *, shape, **_):
    return gamma_shape(alpha, shape)


def _gamma_grad(op, grad):
    return gamma_alpha_grad(op, grad, 0, len(op.get_attr("shape")))


def _gamma_jvp(primals, tangents, outputs, **_):
    if tangents[0] is None:
        return None
    return gamma_alpha_jvp(primals[0], tangents[0], outputs[0])


RANDOM_GAMMA = defop("RandomGamma", _gamma_kernel, shape=_gamma_rule, grad=_gamma_grad,
                     jvp=_gamma_jvp, pure=False,
                     raw=lambda shape, alpha, seed=0, seed2=0, name=None: run_raw(
                         RANDOM_GAMMA, (alpha,), {"shape": sample_shape(shape, "RandomGamma")},
                         seed, seed2, name))


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Gamma(alpha, beta) draws of shape `shape` + broadcast(alpha, beta).shape (beta is the
    rate; the mean is alpha / beta). Differentiable in alpha (TensorFlow's reparameterized
    gradient) and in beta."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"random.gamma: dtype must be a floating-point type, got {dtype.name}.")
    alpha = convert_to_tensor(alpha, dtype=dtype)
    beta = None if beta is None else convert_to_tensor(beta, dtype=dtype)
    alpha, _ = broadcast_params(alpha, beta)
    attrs = {"shape": sample_shape(shape, "random.gamma")}
    attrs.update(_seed_attrs(seed))
    sample = execute(RANDOM_GAMMA, (alpha,), attrs, name)
    return sample if beta is None else divide(sample, beta)


# -- poisson --------------------------------------------------------------------------------------
def _poisson_kernel(lam, *, shape, dtype, seed, seed2, stream):
    draws = _generator(seed, seed2, stream).poisson(lam, tuple(shape) + lam.shape)
    return draws.astype(dtype)


def _poisson_rule(lam, *, shape, dtype, **_):
    if lam.shape.rank is None:
        return TensorShape(None), dtypes.as_dtype(dtype)
    return TensorShape(tuple(shape) + tuple(lam.shape.as_list())), dtypes.as_dtype(dtype)


# TensorFlow registers nothing for RandomPoissonV2 (a LookupError if a gradient is needed).
RANDOM_POISSON = defop("RandomPoissonV2", _poisson_kernel, shape=_poisson_rule, pure=False,
                       raw=lambda shape, rate, seed=0, seed2=0, dtype=dtypes.int64, name=None:
                       run_raw(RANDOM_POISSON, (rate,), {
                           "shape": sample_shape(shape, "RandomPoissonV2"),
                           "dtype": dtypes.as_dtype(dtype)._np}, seed, seed2, name))


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Poisson(lam) draws of shape `shape` + lam.shape (counts, in `dtype`)."""
    attrs = {"shape": sample_shape(shape, "random.poisson"),
             "dtype": dtypes.as_dtype(dtype)._np}
    attrs.update(_seed_attrs(seed))
    return execute(RANDOM_POISSON, (convert_to_tensor(lam),), attrs, name)
