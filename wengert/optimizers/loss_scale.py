"""`LossScaleOptimizer`: dynamic loss scaling around another optimizer, as Keras 3 does it for
mixed-precision training.

The loss is multiplied by a scale S before differentiation (`scale_loss(loss)`), so small
float16 gradients do not underflow; the optimizer then sees S-times larger gradients. Each step:
- if every gradient is finite: the gradients are divided by S and handed to the inner
  optimizer; after `dynamic_growth_steps` finite steps in a row S doubles (the counter restarts);
- otherwise (an inf or NaN, the sign of overflow) nothing is updated, S halves and the counter
  restarts.
S starts at `initial_scale` (2^15) and lives in the float32 variable `dynamic_scale`, beside the
int64 `step_counter`. `iterations`, `learning_rate` and `finalize_variable_values` are the inner
optimizer's. The inner optimizer's own `loss_scale_factor` is switched off (gradients would be
unscaled twice). Inside a traced function the finite / overflow choice is a `cond`.
"""
from ..control_flow.cond import cond
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import constant
from ..ops.math_ops import equal, logical_and
from ..ops.reduce_ops import reduce_all
from ..ops.rounding_ops import is_finite
from .gradient_pairs import check_pair_types, checked_pairs
from .optimizer import Optimizer, _scaled

__all__ = ["LossScaleOptimizer"]

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None,
                  "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
                  "ema_overwrite_frequency": None, "loss_scale_factor": None,
                  "gradient_accumulation_steps": None, "learning_rate": None}


class LossScaleOptimizer(Optimizer):
    """Dynamic loss scaling around `inner_optimizer`."""

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000,
                 name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`; set "
                             "`loss_scale_factor` on the inner optimizer instead.")
        for arg, default in _BASE_DEFAULTS.items():
            if arg in kwargs and kwargs.pop(arg) not in (default,) and arg != "learning_rate":
                raise ValueError(f"LossScaleOptimizer does not support `{arg}`; set it on the "
                                 "`inner_optimizer` instead.")
        if kwargs:
            raise ValueError(f"LossScaleOptimizer: argument(s) not recognized: {sorted(kwargs)}; "
                             "it takes inner_optimizer, initial_scale, dynamic_growth_steps and "
                             "name.")
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError(f"LossScaleOptimizer: `inner_optimizer` must be an Optimizer, got "
                            f"{inner_optimizer!r}.")
        super().__init__(0.0, name=name or "loss_scale_optimizer")
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.inner_optimizer.loss_scale_factor = None
        self.step_counter = None
        self.dynamic_scale = None

    def build(self, variables):
        variables = list(variables)
        if self.step_counter is None:
            self.step_counter = self.add_variable((), dtype="int64", name="step_counter")
            self.dynamic_scale = self.add_variable((), initializer=self.initial_scale,
                                                   dtype="float32", name="dynamic_scale")
        self.inner_optimizer.build(variables)
        super().build(variables)

    @property
    def variables(self):
        return type(super().variables)(super().variables + self.inner_optimizer.variables)

    def _apply(self, pairs):
        self._require_init("apply_gradients")
        self._check_context()
        check_pair_types(pairs)
        grads, variables = checked_pairs(pairs)
        if not self.built:
            self.build([v for _, v in pairs])
        cond(_all_finite(grads), lambda: self._finite_step(grads, variables), self._overflow_step)
        return self.iterations

    def _finite_step(self, grads, variables):
        scale = self.dynamic_scale
        unscaled = [_divided(g, scale) for g in grads]
        self.inner_optimizer._apply(list(zip(unscaled, variables)))
        cond(equal(self.step_counter, self.dynamic_growth_steps - 1), self._grow,
             self._count)
        return constant(True)

    def _grow(self):
        self.step_counter.assign(0, read_value=False)
        self.dynamic_scale.assign(self.dynamic_scale * 2.0, read_value=False)
        return constant(True)

    def _count(self):
        self.step_counter.assign_add(1, read_value=False)
        return constant(True)

    def _overflow_step(self):
        self.step_counter.assign(0, read_value=False)
        self.dynamic_scale.assign(self.dynamic_scale * 0.5, read_value=False)
        return constant(False)

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def check_finite(self, grads):
        """A bool scalar: whether every gradient is finite (no inf, no NaN)."""
        return _all_finite(list(grads))

    def scale_loss(self, loss):
        """loss * S (the current dynamic scale; initial_scale before the first step)."""
        return loss * (self.dynamic_scale if self.built else self.initial_scale)

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self):
        return {"name": self.name,
                "inner_optimizer": {"class_name": type(self.inner_optimizer).__name__,
                                    "config": self.inner_optimizer.get_config()},
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from_name = config_classes(custom_objects)
        config = dict(config)
        inner = config.pop("inner_optimizer")
        if isinstance(inner, dict):
            inner_cls = from_name(inner.get("class_name"))
            inner = inner_cls.from_config(inner.get("config", {}), custom_objects)
        return cls(inner, **config)


def _all_finite(grads):
    finite = None
    for grad in grads:
        values = grad.values if type(grad) is IndexedSlices else grad
        ok = reduce_all(is_finite(values))
        finite = ok if finite is None else logical_and(finite, ok)
    return finite


def _divided(grad, scale):
    if type(grad) is IndexedSlices:
        return _scaled(grad, 1.0 / scale)
    return grad / scale


def config_classes(custom_objects=None):
    """A function finding an optimizer class by name among Optimizer's subclasses and
    `custom_objects` (any case)."""
    classes, stack = {}, [Optimizer]
    while stack:
        cls = stack.pop()
        classes.setdefault(cls.__name__.lower(), cls)
        stack.extend(cls.__subclasses__())
    classes.update({k.lower(): v for k, v in (custom_objects or {}).items()})

    def find(name):
        found = classes.get(str(name).lower())
        if found is None:
            raise ValueError(f"LossScaleOptimizer.from_config: unknown inner optimizer {name!r} "
                             "(pass custom_objects for your own).")
        return found
    return find
