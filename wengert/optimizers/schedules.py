"""Learning-rate schedules: the learning rate as a function of the optimizer's step.

An optimizer given a schedule calls it with its `iterations` (the number of updates already
applied: 0 for the first) before each update. The value is computed with wengert ops on that
step, so inside a traced `function` it changes from call to call (the step is a variable read,
not a constant baked in at tracing time). Values are float32, as in Keras.

- ExponentialDecay: lr(step) = lr0 * decay_rate ** (step / decay_steps), the exponent rounded
  down to an integer when `staircase=True` (the rate then drops every `decay_steps` steps).
- PiecewiseConstantDecay: values[0] while step <= boundaries[0], values[i] while
  boundaries[i-1] < step <= boundaries[i], values[-1] after the last boundary.
- InverseTimeDecay: lr(step) = lr0 / (1 + decay_rate * step / decay_steps), the quotient
  step / decay_steps rounded down when `staircase=True`.
- PolynomialDecay: with t = min(step, decay_steps) / decay_steps,
  lr(step) = (lr0 - end) * (1 - t) ** power + end. With `cycle=True` the step is not capped;
  instead the decay length grows to decay_steps * ceil(step / decay_steps) (1 at step 0), so the
  rate jumps back up and decays again each cycle.
- CosineDecay: with t = min(step, decay_steps) / decay_steps,
  lr(step) = lr0 * ((1 - alpha) * 0.5 * (1 + cos(pi t)) + alpha), so it falls from lr0 to
  alpha * lr0 along half a cosine and stays there. With `warmup_target` it first rises linearly
  from lr0 to warmup_target over `warmup_steps`, then decays from warmup_target.
- CosineDecayRestarts (SGDR, Loshchilov and Hutter): cosine decays that restart. The i-th
  period lasts first_decay_steps * t_mul^i steps and starts from lr0 * m_mul^i. With
  f = step / first_decay_steps, the period is i = floor(log(1 - f (1 - t_mul)) / log t_mul)
  (i = floor(f) when t_mul = 1) and the fraction done in it
  t = (f - (1 - t_mul^i) / (1 - t_mul)) / t_mul^i; then
  lr(step) = lr0 * ((1 - alpha) * 0.5 * m_mul^i * (1 + cos(pi t)) + alpha).

A custom schedule subclasses `LearningRateSchedule` and defines `__call__(step)` and
`get_config()`; `serialize` / `deserialize` (with custom_objects) round-trip any of them.
"""
import math

from ..framework import dtypes
from ..framework.tensor import constant, convert_to_tensor
from ..ops.array_ops import where
from ..ops.math_ops import cast, equal, floordiv, less, less_equal, minimum, pow as _pow
from ..ops.rounding_ops import ceil, floor
from ..ops.unary_ops import cos, log

__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay", "CosineDecay",
           "CosineDecayRestarts", "InverseTimeDecay", "PolynomialDecay", "serialize",
           "deserialize"]

_FLOAT = dtypes.float32


def _step(step, dtype=_FLOAT):
    """The step (an int, a tensor or a variable such as `optimizer.iterations`) as `dtype`."""
    step = convert_to_tensor(step)
    return step if step.dtype is dtype else cast(step, dtype)


def _positive(name, value):
    if value is None or value <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}.")
    return value


class LearningRateSchedule:
    """Base class: a schedule is called with the step and returns the learning rate."""

    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(step).")

    def get_config(self):
        raise NotImplementedError(f"{type(self).__name__} must implement get_config().")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ** (step / decay_steps) (integer exponent when
    staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="ExponentialDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive("ExponentialDecay: decay_steps", decay_steps)
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        step = _step(step)
        decay_steps = constant(self.decay_steps, _FLOAT)
        p = floordiv(step, decay_steps) if self.staircase else step / decay_steps
        return constant(self.initial_learning_rate, _FLOAT) * _pow(
            constant(self.decay_rate, _FLOAT), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    """initial_learning_rate / (1 + decay_rate * step / decay_steps) (the quotient rounded
    down when staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="InverseTimeDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive("InverseTimeDecay: decay_steps", decay_steps)
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        p = _step(step) / constant(self.decay_steps, _FLOAT)
        if self.staircase:
            p = floor(p)
        return constant(self.initial_learning_rate, _FLOAT) / (
            1.0 + constant(self.decay_rate, _FLOAT) * p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """(initial - end) * (1 - step / decay_steps) ** power + end, held at `end` after
    decay_steps, or restarting with longer cycles when `cycle`."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name="PolynomialDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive("PolynomialDecay: decay_steps", decay_steps)
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step):
        step = _step(step)
        decay_steps = constant(self.decay_steps, _FLOAT)
        if self.cycle:
            cycles = where(equal(step, 0.0), constant(1.0, _FLOAT), ceil(step / decay_steps))
            decay_steps = decay_steps * cycles
        else:
            step = minimum(step, decay_steps)
        end = constant(self.end_learning_rate, _FLOAT)
        remaining = _pow(1.0 - step / decay_steps, constant(self.power, _FLOAT))
        return (constant(self.initial_learning_rate, _FLOAT) - end) * remaining + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[i] for boundaries[i-1] < step <= boundaries[i] (values has one more entry)."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        boundaries, values = list(boundaries), list(values)
        if len(values) != len(boundaries) + 1:
            raise ValueError(f"PiecewiseConstantDecay: the length of boundaries should be 1 less "
                             f"than the length of values; got {len(boundaries)} boundaries and "
                             f"{len(values)} values.")
        if any(b > a for b, a in zip(boundaries, boundaries[1:])):
            raise ValueError(f"PiecewiseConstantDecay: boundaries must increase, got "
                             f"{boundaries}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        step = _step(step, dtypes.float64)
        out = constant(self.values[-1], _FLOAT)
        for boundary, value in zip(reversed(self.boundaries), reversed(self.values[:-1])):
            out = where(less_equal(step, constant(boundary, dtypes.float64)),
                        constant(value, _FLOAT), out)
        return out

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Half a cosine from initial_learning_rate down to alpha * initial_learning_rate over
    decay_steps (after an optional linear warmup to warmup_target)."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive("CosineDecay: decay_steps", decay_steps)
        self.alpha = alpha
        self.name = name
        self.warmup_target = warmup_target
        self.warmup_steps = warmup_steps
        if warmup_steps < 0:
            raise ValueError(f"CosineDecay: warmup_steps must be >= 0, got {warmup_steps}.")

    def _decay(self, step, decay_from):
        fraction = step / constant(self.decay_steps, _FLOAT)
        cosine = 0.5 * (1.0 + cos(constant(math.pi, _FLOAT) * fraction))
        return constant(decay_from, _FLOAT) * ((1.0 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        step = _step(step)
        if self.warmup_target is None:
            return self._decay(minimum(step, constant(self.decay_steps, _FLOAT)),
                               self.initial_learning_rate)
        warmup = constant(self.warmup_steps, _FLOAT)
        step = minimum(step, constant(self.decay_steps + self.warmup_steps, _FLOAT))
        decayed = self._decay(step - warmup, self.warmup_target)
        if not self.warmup_steps:
            return decayed
        rise = (self.warmup_target - self.initial_learning_rate) * (step / warmup)
        warming = rise + constant(self.initial_learning_rate, _FLOAT)
        return where(less(step, warmup), warming, decayed)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decays restarting every period, the periods growing by t_mul and their peaks
    shrinking by m_mul (SGDR)."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name="SGDRDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = _positive("CosineDecayRestarts: first_decay_steps",
                                           first_decay_steps)
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def _period(self, fraction):
        """(i, fraction of period i done) for `fraction` = step / first_decay_steps."""
        if self._t_mul == 1.0:
            period = floor(fraction)
            return period, fraction - period
        t_mul = constant(self._t_mul, _FLOAT)
        period = floor(log(1.0 - fraction * (1.0 - t_mul)) / log(t_mul))
        done_before = (1.0 - _pow(t_mul, period)) / (1.0 - t_mul)
        return period, (fraction - done_before) / _pow(t_mul, period)

    def __call__(self, step):
        fraction = _step(step) / constant(self.first_decay_steps, _FLOAT)
        period, fraction = self._period(fraction)
        peak = _pow(constant(self._m_mul, _FLOAT), period)
        cosine = 0.5 * peak * (1.0 + cos(constant(math.pi, _FLOAT) * fraction))
        return constant(self.initial_learning_rate, _FLOAT) * (
            (1.0 - self.alpha) * cosine + self.alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


_SCHEDULES = {cls.__name__: cls for cls in (ExponentialDecay, InverseTimeDecay, PolynomialDecay,
                                             PiecewiseConstantDecay, CosineDecay,
                                             CosineDecayRestarts)}


def serialize(schedule):
    """{"class_name": ..., "config": ...} for a schedule."""
    return {"class_name": type(schedule).__name__, "config": schedule.get_config()}


def deserialize(config, custom_objects=None):
    """The schedule described by `serialize`'s output."""
    classes = {**_SCHEDULES, **(custom_objects or {})}
    try:
        cls = classes[config["class_name"]]
    except KeyError:
        raise ValueError(f"Unknown learning rate schedule {config.get('class_name')!r}; known: "
                         f"{sorted(classes)} (pass custom_objects for your own).") from None
    return cls.from_config(config["config"])
