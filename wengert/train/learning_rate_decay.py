"""TensorFlow 1's learning-rate decay functions (`compat.v1.train.exponential_decay` and the
rest): the learning rate as a function of the global step.

    step = tf.compat.v1.train.get_or_create_global_step()
    lr = tf.compat.v1.train.exponential_decay(0.1, step, decay_steps=1000, decay_rate=0.96)
    train = tf.compat.v1.train.GradientDescentOptimizer(lr).minimize(loss, global_step=step)

While a graph is being built each returns the rate as a tensor of that graph (it changes as the
step variable does); eagerly it returns a function of no arguments that reads the step when
called, which the TF 1 optimizers accept as a learning rate. The formulas are the Keras
schedules' (optimizers/schedules.py), which compute in float32: a learning rate given as a
tensor of another float dtype scales the schedule of a unit rate (every formula is linear in it,
the polynomial one after subtracting its end value) and the result is cast to that dtype.
Two formulas are TensorFlow 1's own: with t = min(step, decay_steps) / decay_steps,
- linear_cosine_decay: lr ((alpha + 1 - t) * 0.5 (1 + cos(2 pi num_periods t)) + beta);
- noisy_linear_cosine_decay: the same with 1 - t plus Gaussian noise of variance
  initial_variance / (1 + step)^variance_decay.
natural_exp_decay is exponential_decay with decay rate exp(-decay_rate).
"""
import functools
import math

import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.tensor import TensorLike, constant, convert_to_tensor
from ..ops.math_ops import cast, minimum, pow as _pow
from ..ops.random.seeded import normal
from ..ops.unary_ops import cos, sqrt
from ..optimizers.schedules import (CosineDecay, CosineDecayRestarts, ExponentialDecay,
                                    InverseTimeDecay, PiecewiseConstantDecay, PolynomialDecay)

__all__ = ["exponential_decay", "piecewise_constant", "piecewise_constant_decay",
           "polynomial_decay", "natural_exp_decay", "inverse_time_decay", "cosine_decay",
           "cosine_decay_restarts", "linear_cosine_decay", "noisy_linear_cosine_decay"]

_FLOAT = dtypes.float32


def _decayed(function, name, global_step, rate):
    """`rate()` in the graph being built (under `name`), or `rate` itself eagerly."""
    if global_step is None:
        raise ValueError(f"global_step is required for {function}.")
    graph = state.graph
    if graph is None:
        return rate
    with graph.name_scope(name):
        return rate()


def _scaled(schedule_of, learning_rate, global_step, end=0.0):
    """schedule_of(initial rate)(step), for a number or (scaled, then cast) a tensor rate."""
    if not isinstance(learning_rate, TensorLike):
        return schedule_of(float(learning_rate))(global_step)
    rate = convert_to_tensor(learning_rate)
    unit = schedule_of(1.0)(global_step)
    if rate.dtype is not _FLOAT:
        unit = cast(unit, rate.dtype)
    return (rate - end) * unit + end


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps) (floored when staircase)."""
    return _decayed("exponential_decay", name or "ExponentialDecay", global_step,
                    lambda: _scaled(lambda lr: ExponentialDecay(lr, decay_steps, decay_rate,
                                                                staircase), learning_rate,
                                    global_step))


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps) (floored when staircase)."""
    def rate():
        natural = float(np.exp(-np.float32(decay_rate), dtype=np.float32))
        return _scaled(lambda lr: ExponentialDecay(lr, decay_steps, natural, staircase),
                       learning_rate, global_step)
    return _decayed("natural_exp_decay", name or "NaturalExpDecay", global_step, rate)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps) (floored when
    staircase)."""
    return _decayed("inverse_time_decay", name or "InverseTimeDecay", global_step,
                    lambda: _scaled(lambda lr: InverseTimeDecay(lr, decay_steps, decay_rate,
                                                                staircase), learning_rate,
                                    global_step))


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
    """(learning_rate - end) (1 - step / decay_steps)^power + end; with `cycle` the decay
    restarts with decay_steps multiplied by ceil(step / decay_steps)."""
    def rate():
        if not isinstance(learning_rate, TensorLike):
            return PolynomialDecay(float(learning_rate), decay_steps, end_learning_rate, power,
                                   cycle)(global_step)
        return _scaled(lambda lr: PolynomialDecay(lr, decay_steps, 0.0, power, cycle),
                       learning_rate, global_step, end=end_learning_rate)
    return _decayed("polynomial_decay", name or "PolynomialDecay", global_step, rate)


def piecewise_constant(x, boundaries, values, name=None):
    """values[0] while x <= boundaries[0], values[i] while boundaries[i-1] < x <= boundaries[i],
    values[-1] after the last boundary (integer values give an int32 rate)."""
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    kinds = {isinstance(v, (int, np.integer)) for v in values}
    if len(kinds) > 1:
        raise ValueError(f"Values must have elements all with the same dtype: {values}.")

    def rate():
        out = PiecewiseConstantDecay(boundaries, [float(v) for v in values])(x)
        return cast(out, dtypes.int32) if kinds == {True} else out
    return _decayed("piecewise_constant", name or "PiecewiseConstant", x, rate)


piecewise_constant_decay = piecewise_constant


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """learning_rate ((1 - alpha) 0.5 (1 + cos(pi t)) + alpha), t = min(step, decay_steps) /
    decay_steps."""
    return _decayed("cosine_decay", name or "CosineDecay", global_step,
                    lambda: _scaled(lambda lr: CosineDecay(lr, decay_steps, alpha),
                                    learning_rate, global_step))


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0,
                          alpha=0.0, name=None):
    """Cosine decays restarting after first_decay_steps, t_mul times longer and m_mul times
    lower each time (SGDR)."""
    return _decayed("cosine_decay_restarts", name or "SGDRDecay", global_step,
                    lambda: _scaled(lambda lr: CosineDecayRestarts(lr, first_decay_steps, t_mul,
                                                                   m_mul, alpha),
                                    learning_rate, global_step))


def _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta,
                   noise=None):
    rate = convert_to_tensor(learning_rate, dtype=None if isinstance(learning_rate, TensorLike)
                             else _FLOAT)
    dtype = rate.dtype
    total = constant(decay_steps, dtype) if not isinstance(decay_steps, TensorLike) \
        else cast(decay_steps, dtype)
    step = minimum(cast(convert_to_tensor(global_step), dtype), total)
    linear = (total - step) / total
    if noise is not None:
        variance = noise[0] / _pow(step + 1.0, constant(noise[1], dtype))
        linear = linear + normal([], stddev=sqrt(variance), dtype=dtype)
    fraction = step / total * (2.0 * num_periods)
    cosine = (cos(constant(math.pi, dtype) * fraction) + 1.0) * 0.5
    return rate * ((linear + alpha) * cosine + beta)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0,
                        beta=0.001, name=None):
    """A cosine decay times a linear one (Bello et al. 2017, "Neural Optimizer Search")."""
    return _decayed("linear_cosine_decay", name or "LinearCosineDecay", global_step,
                    functools.partial(_linear_cosine, learning_rate, global_step, decay_steps,
                                      num_periods, alpha, beta))


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0,
                              variance_decay=0.55, num_periods=0.5, alpha=0.0, beta=0.001,
                              name=None):
    """linear_cosine_decay with Gaussian noise on its linear part, fading with the step."""
    return _decayed("noisy_linear_cosine_decay", name or "NoisyLinearCosineDecay", global_step,
                    functools.partial(_linear_cosine, learning_rate, global_step, decay_steps,
                                      num_periods, alpha, beta,
                                      (initial_variance, variance_decay)))
