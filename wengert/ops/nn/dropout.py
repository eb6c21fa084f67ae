"""Dropout: `tf.nn.dropout`, seeded as the random ops are (random/seeded.py), and
`tf.nn.experimental.stateless_dropout` and `general_dropout`, whose keep/drop flags come from a
given random source (a stateless seed, or any uniform sampler).

Dropout is one fused op, `Dropout(x) -> (y, mask)`: the mask holds 0 where an element is dropped
(probability `rate`, uniform draws u < rate) and 1 / (1 - rate) where it is kept, so
y = x * mask keeps the expected value of each element. Its gradient is the same mask,
dx = g * mask (the mask is an output of the op, so the reverse pass sees the mask that was drawn);
it is piecewise constant in x, so the mask output contributes no gradient. `noise_shape` draws one
decision per entry of a smaller shape, broadcast over the rest (None entries take x's size).

The experimental two are composed of other ops as in TensorFlow (its `nn_ops._dropout`).

With drop probability p, uniform draws u of `noise_shape` (x's shape by default; a shape with
size-1 axes shares one decision along them, by broadcasting):

    y = where(u >= p, x / (1 - p), 0)

so E[y] = x. The gradient is the same mask scaled by 1 / (1 - p): dy/dx = [u >= p] / (1 - p),
and where p is a tensor, dy/dp = [u >= p] x / (1 - p)^2 (the mask itself has no gradient). p must
be in [0, 1); p = 0 given as a number returns x itself, without drawing. The seed of
stateless_dropout is a shape [2] integer tensor: the same seed gives the same mask.
"""
import numbers

import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.context import op_scope
from ..array_ops import where
from ..cast_ops import cast
from ..creation_ops import constant_value
from ..math_ops import divide, greater_equal, multiply, subtract
from ..query_ops import shape as shape_of
from ..random.seeded import _seed_attrs, _shape, seeded_uniform
from ..random.stateless import stateless_uniform

__all__ = ["dropout", "stateless_dropout", "general_dropout"]


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
    with op_scope(name, "dropout"):
        alg = "auto_select" if rng_alg is None else rng_alg

        def sampler(shape, dtype):
            return stateless_uniform(shape, seed=seed, dtype=dtype, alg=alg)
        return _dropout("nn.experimental.stateless_dropout", x, rate, noise_shape, sampler)


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """Dropout with flags from `uniform_sampler(shape, dtype)`, any callable giving Uniform[0, 1)
    draws of that shape and dtype (e.g. a `tf.random.Generator`'s `uniform`)."""
    with op_scope(name, "dropout"):
        if not callable(uniform_sampler):
            raise TypeError(f"nn.experimental.general_dropout: uniform_sampler must be a callable "
                            f"(shape, dtype) -> Tensor, got {type(uniform_sampler).__name__}.")
        return _dropout("nn.experimental.general_dropout", x, rate, noise_shape, uniform_sampler)


def _mask_shape(x_shape, noise_shape):
    if noise_shape is None:
        return tuple(x_shape)
    return tuple(d if n is None else n for n, d in zip(noise_shape, x_shape))


def _dropout_kernel(x, *, rate, noise_shape, seed, seed2, stream):
    shape = _mask_shape(x.shape, noise_shape)
    keep = seeded_uniform(shape, x.dtype, seed, seed2, stream) >= rate
    mask = keep.astype(x.dtype) * x.dtype.type(1.0 / (1.0 - rate))
    return x * mask, mask


def _dropout_rule(x, *, rate, noise_shape, **_):
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"x must be a floating-point tensor, got {x.dtype.name}; "
                                   "cast it first.")
    if noise_shape is None:
        return [(x.shape, x.dtype), (x.shape, x.dtype)]
    if x.shape.rank is not None and x.shape.rank != len(noise_shape):
        raise InvalidArgumentError(f"noise_shape {list(noise_shape)} must have the rank of x "
                                   f"(shape {x.shape}).")
    dims = x.shape.as_list() if x.shape.rank is not None else [None] * len(noise_shape)
    for n, d in zip(noise_shape, dims):
        if n is not None and d is not None and n not in (1, d):
            raise InvalidArgumentError(f"noise_shape {list(noise_shape)} does not broadcast to "
                                       f"x's shape {x.shape}: each entry must be 1 or x's size.")
    return [(x.shape, x.dtype), (TensorShape(_mask_shape(dims, noise_shape)), x.dtype)]


def _dropout_grad(op, grad, grad_mask):
    return multiply(grad, op.outputs[1])  # the mask is piecewise constant: grad_mask adds 0


def _dropout_jvp(primals, tangents, outputs, **_):
    return multiply(tangents[0], outputs[1]), None


DROPOUT = defop("Dropout", _dropout_kernel, shape=_dropout_rule, grad=_dropout_grad,
                jvp=_dropout_jvp, num_outputs=2, batch="safe", pure=False)


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element of `x` with probability `rate`, scaling the kept ones by
    1 / (1 - rate) so the expected value is unchanged. `noise_shape` (broadcastable to x's
    shape; None entries mean x's size) shares one decision along its size-1 axes."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"nn.dropout: x must be a floating-point tensor, got {x.dtype.name} "
                         f"(shape {x.shape}); cast it first.")
    if isinstance(rate, Tensor) or hasattr(rate, "_as_tensor"):
        rate = _constant_rate(rate)
    if not isinstance(rate, (int, float, np.floating, np.integer)) or not 0 <= rate < 1:
        raise ValueError(f"nn.dropout: rate must be a scalar in [0, 1), got {rate!r} (the "
                         "probability that each element is dropped).")
    if noise_shape is not None:
        noise_shape = tuple(None if d is None else int(d) for d in _shape_list(noise_shape))
    attrs = {"rate": float(rate), "noise_shape": noise_shape}
    attrs.update(_seed_attrs(seed))
    return execute(DROPOUT, (x,), attrs, name)[0]


def _shape_list(noise_shape):
    if isinstance(noise_shape, Tensor):
        return _shape(noise_shape, "nn.dropout: noise_shape")
    return list(noise_shape)


def _constant_rate(rate):
    value = constant_value(convert_to_tensor(rate))
    if value is None:
        raise ValueError("nn.dropout: rate must be known when the op is created (a number, or "
                         "a constant tensor).")
    return float(value)
