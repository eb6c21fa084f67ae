"""`tf.nn.experimental.stateless_dropout` and `general_dropout`: dropout whose keep/drop flags
come from a given random source (a stateless seed, or any uniform sampler), composed of other
ops as in TensorFlow (its `nn_ops._dropout`).

With drop probability p, uniform draws u of `noise_shape` (x's shape by default; a shape with
size-1 axes shares one decision along them, by broadcasting):

    y = where(u >= p, x / (1 - p), 0)

so E[y] = x. The gradient is the same mask scaled by 1 / (1 - p): dy/dx = [u >= p] / (1 - p),
and where p is a tensor, dy/dp = [u >= p] x / (1 - p)^2 (the mask itself has no gradient). p must
be in [0, 1); p = 0 given as a number returns x itself, without drawing. The seed of
stateless_dropout is a shape [2] integer tensor: the same seed gives the same mask.
"""
import numbers

from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .array_core import cast
from .array_ops import where
from .math_ops import divide, greater_equal, multiply, subtract
from .query_ops import shape as shape_of
from .random_stateless_ops import stateless_uniform

__all__ = ["stateless_dropout", "general_dropout"]


def _noise_shape(x, noise_shape):
    """TensorFlow's _get_noise_shape: x's shape, or noise_shape with its None entries filled
    from x's known sizes."""
    if noise_shape is None:
        return list(x.shape) if x.shape.is_fully_defined() else shape_of(x)
    if isinstance(noise_shape, Tensor) or hasattr(noise_shape, "_as_tensor"):
        return noise_shape
    try:
        dims = TensorShape(noise_shape).as_list() if not isinstance(noise_shape, TensorShape) \
            else noise_shape.as_list()
    except (TypeError, ValueError):
        return noise_shape
    if x.shape.rank is not None and x.shape.rank == len(dims):
        dims = [x.shape[i] if d is None else d for i, d in enumerate(dims)]
    return dims


def _scaled(fn, x, rate):
    """x / (1 - rate), checking rate and x as TensorFlow does; (scaled x, rate as x's dtype)."""
    if not x.dtype.is_floating:
        raise ValueError(f"{fn}: x must be a floating-point tensor as it will be scaled, got "
                         f"{x.dtype.name} (shape {x.shape}); cast it first.")
    if not (isinstance(rate, Tensor) or hasattr(rate, "_as_tensor")):
        if not isinstance(rate, numbers.Real):
            raise ValueError(f"{fn}: rate must be a scalar or scalar tensor, got {rate!r}.")
        return multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype)), rate
    rate = convert_to_tensor(rate)
    if rate.shape.rank not in (0, None):
        raise ValueError(f"{fn}: rate must be a scalar tensor, got shape {rate.shape}.")
    if rate.dtype != x.dtype:
        if not rate.dtype.is_floating:
            raise ValueError(f"{fn}: rate's dtype {rate.dtype.name} is not compatible with x's "
                             f"{x.dtype.name}; give a float rate.")
        rate = cast(rate, x.dtype)
    return divide(x, subtract(convert_to_tensor(1, dtype=x.dtype), rate)), rate


def _dropout(fn, x, rate, noise_shape, uniform_sampler):
    if isinstance(rate, numbers.Real) and not 0 <= rate < 1:
        raise ValueError(f"{fn}: rate must be a scalar tensor or a float in the range [0, 1) "
                         f"(the probability that each element is dropped), got rate={rate}.")
    x = convert_to_tensor(x, name="x")
    if isinstance(rate, numbers.Real) and rate == 0 and x.dtype.is_floating:
        return x
    scaled, rate = _scaled(fn, x, rate)
    uniform = uniform_sampler(shape=_noise_shape(x, noise_shape), dtype=x.dtype)
    keep = greater_equal(uniform, rate)
    return where(keep, scaled, convert_to_tensor(0, dtype=x.dtype))


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """Dropout with flags drawn by `tf.random.stateless_uniform` from `seed` (shape [2]
    integers): each element is zeroed with probability `rate`, the rest scaled by
    1 / (1 - rate); the same seed gives the same result."""
    alg = "auto_select" if rng_alg is None else rng_alg

    def sampler(shape, dtype):
        return stateless_uniform(shape, seed=seed, dtype=dtype, alg=alg)
    return _dropout("nn.experimental.stateless_dropout", x, rate, noise_shape, sampler)


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """Dropout with flags from `uniform_sampler(shape, dtype)`, any callable giving Uniform[0, 1)
    draws of that shape and dtype (e.g. a `tf.random.Generator`'s `uniform`)."""
    if not callable(uniform_sampler):
        raise TypeError(f"nn.experimental.general_dropout: uniform_sampler must be a callable "
                        f"(shape, dtype) -> Tensor, got {type(uniform_sampler).__name__}.")
    return _dropout("nn.experimental.general_dropout", x, rate, noise_shape, uniform_sampler)

