"""`keras.random`: Keras 3's random draws, each a stateless op (random/stateless.py) keyed by a
seed that seed_generator.py derives from `seed=` (an int: the same numbers every call; a
SeedGenerator: the next numbers of its sequence; None: the process-wide generator).

The distributions, with Keras 3's arguments and defaults (dtype None means `floatx()`):
- `normal(shape, mean=0, stddev=1)`: mean + stddev z, z standard normal;
- `truncated_normal(shape, mean=0, stddev=1)`: the same, with |z| <= 2 (draws beyond are redrawn);
- `uniform(shape, minval=0, maxval=1)`: minval + (maxval - minval) u, u in [0, 1); float dtypes;
- `randint(shape, minval, maxval, dtype="int32")`: integers in [minval, maxval);
- `categorical(logits, num_samples, dtype="int32")`: for each row of the 2-D logits,
  num_samples classes k drawn with probability softmax(logits)_k;
- `gamma(shape, alpha)`: Gamma(alpha, 1), density x^(alpha-1) e^-x / Gamma(alpha);
- `beta(shape, alpha, beta)`: X / (X + Y) for X ~ Gamma(alpha), Y ~ Gamma(beta), drawn from the
  seed s and from s + 12 (Keras's rule for two independent streams from one seed);
- `binomial(shape, counts, probabilities)`: the number of successes in `counts` trials, as
  floats by default;
- `dropout(inputs, rate, noise_shape=None)`: each entry zeroed with probability rate, the rest
  scaled by 1 / (1 - rate) (rate 0 returns inputs, rate 1 zeros); None entries of noise_shape
  take the input's size;
- `shuffle(x, axis=0)`: x permuted along axis by the order of uniform draws (argsort).

The numbers are TensorFlow's Keras's for the same seed: both draw with the stateless ops, whose
Philox streams and conversions wengert reproduces (ops/random/philox.py), except gamma, beta and
binomial, whose samplers are NumPy's (same seed, same numbers, the same distributions).
"""
from ..framework import dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops.array_ops import stack
from ..ops.broadcast_ops import broadcast_to, zeros_like
from ..ops.cast_ops import cast
from ..ops.indexing_ops import gather
from ..ops.math_ops import add, divide
from ..ops.nn.dropout import stateless_dropout
from ..ops.query_ops import shape as shape_of
from ..ops.random.stateless import (stateless_binomial, stateless_categorical, stateless_gamma,
                                    stateless_normal, stateless_truncated_normal,
                                    stateless_uniform)
from ..ops.sort_ops import argsort
from . import backend
from .seed_generator import SeedGenerator, draw_seed

__all__ = ["SeedGenerator", "normal", "uniform", "truncated_normal", "categorical", "randint",
           "dropout", "shuffle", "gamma", "beta", "binomial"]


def _dtype(dtype, what, kind="float"):
    """dtype (floatx() when None) as a DType, checked to be a float (or an integer) type."""
    dtype = dtypes.as_dtype(backend.floatx() if dtype is None else dtype)
    if kind == "float" and not dtype.is_floating:
        raise ValueError(f"`keras.random.{what}` requires a floating point `dtype`. Received: "
                         f"dtype={dtype.name}; pass e.g. dtype=\"float32\".")
    if kind == "int" and not dtype.is_integer:
        raise ValueError(f"`keras.random.{what}` requires an integer `dtype`. Received: "
                         f"dtype={dtype.name}; pass e.g. dtype=\"int32\".")
    return dtype


def _computed_in(dtype):
    """The dtype the gamma and binomial kernels draw in: float32 for the half-precision types."""
    return dtype if dtype in (dtypes.float32, dtypes.float64) else dtypes.float32


def _bound(value, dtype):
    """A Python number as is (the stateless op skips the identity scaling), a tensor cast."""
    if isinstance(value, (int, float)):
        return value
    return cast(convert_to_tensor(value), dtype)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws of `shape`: mean + stddev * z."""
    dtype = _dtype(dtype, "normal")
    return stateless_normal(shape, draw_seed(seed, "keras.random.normal"), mean=mean,
                            stddev=stddev, dtype=dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws within two standard deviations of the mean."""
    dtype = _dtype(dtype, "truncated_normal")
    return stateless_truncated_normal(shape, draw_seed(seed, "keras.random.truncated_normal"),
                                      mean=mean, stddev=stddev, dtype=dtype)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform draws in [minval, maxval), of a floating point dtype."""
    dtype = _dtype(dtype, "uniform")
    return stateless_uniform(shape, draw_seed(seed, "keras.random.uniform"),
                             minval=_bound(minval, dtype), maxval=_bound(maxval, dtype),
                             dtype=dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers drawn uniformly from [minval, maxval)."""
    dtype = _dtype(dtype, "randint", kind="int")
    drawn_as = dtype if dtype in (dtypes.int32, dtypes.int64) else dtypes.int64
    out = stateless_uniform(shape, draw_seed(seed, "keras.random.randint"), minval=minval,
                            maxval=maxval, dtype=drawn_as)
    return out if drawn_as == dtype else cast(out, dtype)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """[batch, num_samples] class indices drawn with probabilities softmax(logits) per row."""
    logits = convert_to_tensor(logits)
    if logits.shape.rank != 2:
        raise ValueError("`logits` should be a 2-D tensor with shape [batch_size, num_classes]. "
                         f"Received: logits of shape {logits.shape}; reshape it to "
                         "[batch_size, num_classes].")
    out = stateless_categorical(logits, num_samples, draw_seed(seed, "keras.random.categorical"),
                                dtype=dtypes.int64)
    return cast(out, dtype)


def _noise_shape(inputs, noise_shape):
    """noise_shape with its None entries taken from the input's size (dynamic if unknown)."""
    if noise_shape is None:
        return None
    sizes = inputs.shape.as_list() if inputs.shape.rank is not None else [None] * len(noise_shape)
    if all(n is not None or s is not None for n, s in zip(noise_shape, sizes)):
        return [s if n is None else n for n, s in zip(noise_shape, sizes)]
    dynamic = shape_of(inputs)
    return stack([dynamic[i] if n is None else convert_to_tensor(n, dtype=dynamic.dtype)
                  for i, n in enumerate(noise_shape)])


def dropout(inputs, rate, noise_shape=None, seed=None):
    """inputs with each entry zeroed with probability `rate` and the rest scaled by
    1 / (1 - rate)."""
    if not isinstance(rate, Tensor) and rate == 1.0:
        return zeros_like(inputs)
    if not isinstance(rate, Tensor) and rate == 0.0:
        return inputs
    inputs = convert_to_tensor(inputs)
    return stateless_dropout(inputs, rate=rate, seed=draw_seed(seed, "keras.random.dropout"),
                             noise_shape=_noise_shape(inputs, noise_shape))


def shuffle(x, axis=0, seed=None):
    """x with its slices along `axis` in a random order."""
    x = convert_to_tensor(x)
    size = x.shape[axis] if x.shape.rank is not None else None
    if size is None:
        size = shape_of(x)[axis]
    keys = stateless_uniform(stack([size]) if isinstance(size, Tensor) else [size],
                             draw_seed(seed, "keras.random.shuffle"))
    return gather(x, argsort(keys), axis=axis)


def gamma(shape, alpha, dtype=None, seed=None):
    """Gamma(alpha, 1) draws of `shape`."""
    dtype = _dtype(dtype, "gamma")
    out = stateless_gamma(shape, draw_seed(seed, "keras.random.gamma"), alpha=alpha,
                          dtype=_computed_in(dtype))
    return cast(out, dtype)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Binomial(counts, probabilities) draws of `shape`, as floats by default."""
    dtype = dtypes.as_dtype(backend.floatx() if dtype is None else dtype)
    drawn_as = _computed_in(dtype) if dtype.is_floating else dtype
    out = stateless_binomial(shape, draw_seed(seed, "keras.random.binomial"), counts,
                             probabilities, output_dtype=drawn_as)
    return cast(out, dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Beta(alpha, beta) draws of `shape`: X / (X + Y) for X ~ Gamma(alpha), Y ~ Gamma(beta)."""
    dtype = _dtype(dtype, "beta")
    first = draw_seed(seed, "keras.random.beta")
    second = add(first, convert_to_tensor(12, dtype=first.dtype))
    inner = _computed_in(dtype)
    alpha = broadcast_to(convert_to_tensor(alpha, dtype=inner), shape)
    beta = broadcast_to(convert_to_tensor(beta, dtype=inner), shape)
    x = stateless_gamma(shape, first, alpha=alpha, dtype=inner)
    y = stateless_gamma(shape, second, alpha=beta, dtype=inner)
    return cast(divide(x, add(x, y)), dtype)
