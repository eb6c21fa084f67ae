"""`Optimizer`: the base of the Keras 3 optimizers (SGD, Adam, RMSprop, ...), also the base class
users subclass to write their own.

    opt = SGD(learning_rate=0.1, momentum=0.9)
    with GradientTape() as tape:
        loss = ...
    grads = tape.gradient(loss, model_vars)
    opt.apply_gradients(zip(grads, model_vars))      # or opt.apply(grads, model_vars)

One step (`apply_gradients`, or Keras 3's `apply(grads, trainable_variables=None)`) does, in
Keras 3's order:
1. checks every pair before anything changes (gradient_pairs.py): a None gradient is dropped
   with a warning naming its variable, a shape mismatch is a ValueError naming both, gradients
   are cast to their variable's dtype;
2. builds the optimizer on the first call (`build(variables)`: numbering the variables and
   creating their slots); a variable first seen later gets its slots then, unless the class
   writes its own `update_step` (Keras 3 then raises: such classes build once);
3. divides the gradients by `loss_scale_factor` when it is set;
4. with `gradient_accumulation_steps=n`, adds the gradients to per-variable accumulators and
   updates only every n-th call, with the mean of the n gradients (gradient_accumulation.py);
5. clips the gradients (clipnorm, global_clipnorm or clipvalue; clipping.py);
6. evaluates the learning rate: a float is kept in a float32 variable (so setting
   `opt.learning_rate` takes effect inside traced functions), a schedule is called with the
   number of calls so far;
7. applies decoupled weight decay before the update, v <- v - v * weight_decay * lr, to the
   variables not excluded with `exclude_from_weight_decay`;
8. updates each variable: a class that overrides Keras 3's public `update_step(gradient,
   variable, learning_rate)` is called through it, with the float32 learning rate; wengert's
   own optimizers implement the private `_update_step(gradient, variable, lr)` with the rate
   already cast to the variable's dtype and per-step constants (`_prepare_step`) computed once
   per dtype, and a sparse step `_update_step_sparse` (sparse_updates.py);
9. with `use_ema`, updates the moving averages of the weights and overwrites the weights with
   them every `ema_overwrite_frequency` steps (weight_averaging.py);
10. applies the variables' constraints and increments `iterations`.

Under tf.distribute, in a replica context, the gradients are first summed across replicas
(distribute/strategy.py), as Keras does. It runs eagerly or inside a traced `function`: there
the assignments become stateful graph ops in program order, and slot variables created during
the first trace are lifted out of the graph, as in TensorFlow. For TensorFlow 1 graphs and
Sessions use `compat.v1.train`'s optimizers. The variables an optimizer owns, Keras 3's
`build` / `add_variable` API and checkpointing are in optimizer_variables.py.
"""
import re
import warnings

import numpy as np

from ..autodiff.tape import GradientTape
from ..distribute.strategy import apply_in_replica_context
from ..framework.context import state
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import array_of, convert_to_tensor
from ..framework.variables import Variable
from ..ops.math_ops import cast, floordiv
from . import schedules, stateless
from .clipping import check_clip_options, clip_gradients
from .gradient_accumulation import accumulate_or_update, check_accumulation
from .gradient_pairs import check_pair_types, checked_pairs
from .optimizer_variables import OptimizerVariables
from .sparse_updates import deduplicate, scatter_add, squared_rows
from .weight_averaging import check_ema_options, update_moving_averages

__all__ = ["Optimizer", "deduplicate", "scatter_add"]

_OPTIONS = ("learning_rate", "weight_decay", "clipnorm", "clipvalue", "global_clipnorm",
            "use_ema", "ema_momentum", "ema_overwrite_frequency", "loss_scale_factor",
            "gradient_accumulation_steps", "name")


class Optimizer(OptimizerVariables):
    """Base class of the Keras 3 optimizers. Users subclass it as in Keras 3 (override `build`
    and `update_step`); wengert's own optimizers define `_slot_names` (with `_slot_initial`
    for a non-zero start) and `_update_step(gradient, variable, lr)`."""

    # True where `_update_step` takes `square=`: the summed squares of a sparse gradient's pieces
    _squares_sparse_values = False

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if "lr" in kwargs:  # the old Keras spelling
            learning_rate = kwargs.pop("lr")
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.",
                          stacklevel=2)
        if kwargs:
            raise ValueError(f"{type(self).__name__}: argument(s) not recognized: "
                             f"{sorted(kwargs)}. Every optimizer takes {', '.join(_OPTIONS)}, "
                             "plus its own (see its signature).")
        check_clip_options(clipnorm, clipvalue, global_clipnorm)
        check_ema_options(use_ema, ema_momentum, ema_overwrite_frequency)
        check_accumulation(gradient_accumulation_steps)
        if loss_scale_factor is not None and not loss_scale_factor > 0:
            raise ValueError(f"{type(self).__name__}: `loss_scale_factor` must be a positive "
                             f"number or None, got {loss_scale_factor!r}.")
        self.name = name or type(self).__name__.lower()
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema = bool(use_ema)
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._init_variables()
        self._iterations = Variable(np.int64(0), trainable=False, name=f"{self.name}/iteration")
        self._learning_rate = self._make_learning_rate(learning_rate)
        self._decay_excluded_ids = set()
        self._decay_excluded_names = ()
        self._step_constants = None

    # -- learning rate ----------------------------------------------------------------------------
    def _make_learning_rate(self, value):
        if _is_schedule(value) or isinstance(value, Variable):
            return value
        return Variable(np.float32(np.asarray(value)), trainable=False,
                        name=f"{self.name}/learning_rate")

    @property
    def learning_rate(self):
        """The learning rate now: the float32 variable, or the schedule's value at the current
        step (Keras 3); set it to a number, a schedule or a callable."""
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            return lr(self._iterations)
        if callable(lr) and not isinstance(lr, Variable):
            return lr()
        return lr

    @learning_rate.setter
    def learning_rate(self, value):
        current = self._learning_rate
        if _is_schedule(value):
            self._learning_rate = value
        elif isinstance(current, schedules.LearningRateSchedule):
            raise TypeError("This optimizer was created with a LearningRateSchedule as its "
                            "learning_rate, so its learning rate cannot be set to a number; "
                            "create a new optimizer (or give it a float learning rate).")
        elif isinstance(current, Variable) and not isinstance(value, Variable):
            current.assign(np.float32(np.asarray(value)))
        else:
            self._learning_rate = self._make_learning_rate(value)

    lr = learning_rate

    def _current_learning_rate(self):
        return convert_to_tensor(self.learning_rate)

    @property
    def iterations(self):
        """The number of updates applied so far (int64); with gradient accumulation, the number
        of real updates (calls // gradient_accumulation_steps), as in Keras 3."""
        if self.gradient_accumulation_steps:
            return floordiv(self._iterations, self.gradient_accumulation_steps)
        return self._iterations

    def _option_slot_names(self):
        return (("average",) if self.use_ema else ()) + (
            ("gradient_accumulator",) if self.gradient_accumulation_steps else ())

    # -- weight decay ---------------------------------------------------------------------------
    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Do not decay these variables, nor those whose name matches one of the regular
        expressions `var_names` anywhere (re.search on the bare name, "kernel", as Keras 3)."""
        self._decay_excluded_ids.update(id(v) for v in var_list or ())
        self._decay_excluded_names = tuple(self._decay_excluded_names) + tuple(var_names or ())

    def _use_weight_decay(self, var):
        if id(var) in self._decay_excluded_ids:
            return False
        return not any(re.search(pattern, var.name) for pattern in self._decay_excluded_names)

    def _apply_weight_decay(self, variables, lr_by_dtype):
        if self.weight_decay is None:
            return
        for var in variables:
            if self._use_weight_decay(var):
                var.assign_sub(var * self.weight_decay * lr_by_dtype[var.dtype],
                               read_value=False)

    # -- applying -------------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, name=None, **options):
        """Update each variable from its gradient; returns `iterations` after the increment."""
        pairs = list(grads_and_vars)
        if options.get("experimental_aggregate_gradients", True) and not options.get(
                "skip_gradients_aggregation", False):  # tf.distribute: sum across replicas
            return apply_in_replica_context(pairs, lambda summed: self._apply(list(summed)))
        return self._apply(list(pairs))

    def apply(self, grads, trainable_variables=None):
        """Keras 3's form: `grads` in the order of `trainable_variables`, or of the variables
        the optimizer was built with when those are not given."""
        grads = list(grads)
        if not grads:
            return self._iterations
        if trainable_variables is None:
            if not self.built:
                raise ValueError(f"{type(self).__name__}.apply: when `grads` come without "
                                 "`trainable_variables`, the optimizer must already be built; "
                                 "call optimizer.build(trainable_variables) first.")
            if len(grads) != len(self._seen):
                raise ValueError(f"{type(self).__name__}.apply: got {len(grads)} gradients for "
                                 f"the {len(self._seen)} variables the optimizer was built "
                                 "with; pass one per variable, in order.")
            trainable_variables = self._seen
        return self.apply_gradients(zip(grads, list(trainable_variables)))

    def _apply(self, pairs):
        self._require_init("apply_gradients")
        self._check_context()
        check_pair_types(pairs)
        grads, variables = checked_pairs(pairs)
        self._ensure_built([v for _, v in pairs])
        if self.loss_scale_factor is not None:
            grads = [_scaled(g, 1.0 / self.loss_scale_factor) for g in grads]
        if self.gradient_accumulation_steps:
            accumulate_or_update(self, grads, variables, self._clip_decay_update)
        else:
            self._clip_decay_update(grads, variables)
        if self.use_ema:
            update_moving_averages(self)
        for var in variables:  # Keras's weight constraints (kernel_constraint=...)
            constraint = getattr(var, "constraint", None)
            if constraint is not None:
                var.assign(constraint(var))
        return self._iterations.assign_add(1)

    def _check_context(self):
        graph = state.graph
        if graph is not None and not getattr(graph, "lifts_variables", False):
            raise RuntimeError(
                f"{type(self).__name__} (a TF2 optimizer) runs eagerly or inside "
                "wengert.function, not in a TF1 graph; use compat.v1.train."
                "GradientDescentOptimizer (or Momentum/Adam/RMSProp) with a Session.")

    def _ensure_built(self, variables):
        """Build on the first call; give variables first seen later their slots, unless the
        class has its own update_step (built once, as Keras 3 requires)."""
        if not self.built:
            self.build(variables)
            self.built = True
        unknown = [v for v in variables if id(v) not in self._index]
        if not unknown:
            return
        if self._uses_public_step():
            raise ValueError(f"{type(self).__name__}: unknown variable(s) "
                             f"{[v.name for v in unknown]}. This optimizer can only be called "
                             "for the variables it was built with; create a new optimizer "
                             "instance for a new set of variables.")
        self._track_all(unknown)

    def _uses_public_step(self):
        return type(self).update_step is not Optimizer.update_step

    def _clip_decay_update(self, grads, variables):
        """Clip, decay and update: the step proper, once per (accumulated) update."""
        grads = clip_gradients(grads, self.clipnorm, self.clipvalue, self.global_clipnorm)
        lr = self._current_learning_rate()
        lr_by_dtype = {}
        for var in variables:
            if var.dtype not in lr_by_dtype:
                lr_by_dtype[var.dtype] = lr if lr.dtype is var.dtype else cast(lr, var.dtype)
        self._apply_weight_decay(variables, lr_by_dtype)
        self._before_updates()
        self._step_constants = {dtype: self._prepare_step(dtype, rate)
                                for dtype, rate in lr_by_dtype.items()}
        if self._uses_public_step():
            for grad, var in zip(grads, variables):
                self.update_step(_dense(grad), var, lr)
        else:
            for grad, var in zip(grads, variables):
                if type(grad) is IndexedSlices:
                    self._apply_sparse(grad, var, lr_by_dtype[var.dtype])
                else:
                    self._update_step(grad, var, lr_by_dtype[var.dtype])
        self._step_constants = None

    def _prepare_step(self, dtype, lr):
        """Values shared by all variables of `dtype` in this step (e.g. Adam's bias-corrected
        learning rate), computed once; `_update_step` finds them in `_step_constants[dtype]`."""
        return None

    def _before_updates(self):
        """State updated once per step before the variables are (Nadam's momentum product)."""

    def update_step(self, gradient, variable, learning_rate):
        """Keras 3's hook: update `variable` (and its slots) from `gradient`. Subclasses
        override it; here it runs wengert's own `_update_step`."""
        if type(self)._update_step is Optimizer._update_step:
            raise NotImplementedError(f"{type(self).__name__} must implement "
                                      "update_step(gradient, variable, learning_rate).")
        lr = convert_to_tensor(learning_rate)
        lr = lr if lr.dtype is variable.dtype else cast(lr, variable.dtype)
        if self._step_constants is None or variable.dtype not in self._step_constants:
            self._step_constants = {**(self._step_constants or {}),
                                    variable.dtype: self._prepare_step(variable.dtype, lr)}
        self._update_step(_dense(gradient), variable, lr)

    def _update_step(self, gradient, variable, lr):
        raise NotImplementedError(f"{type(self).__name__} must implement update_step.")

    def _apply_sparse(self, slices, variable, lr):
        """Eagerly: the subclass's sparse step on the gradient's rows as they come (repeated
        rows included: the step sums what Keras sums, see sparse_updates); else the dense step,
        given the summed squares of the gradient's pieces where the optimizer squares the
        gradient (Keras 3 squares an IndexedSlices gradient before its rows are summed)."""
        step = getattr(self, "_update_step_sparse", None)
        if step is not None and state.graph is None:
            step(slices, variable, lr)
        elif self._squares_sparse_values:
            self._update_step(slices._dense(), variable, lr, square=squared_rows(slices))
        else:
            self._update_step(slices._dense(), variable, lr)

    def minimize(self, loss, var_list, tape=None):
        """Compute the gradients of `loss` and apply them. `loss` is a zero-argument callable,
        or a tensor computed under `tape`; `var_list` a list of variables or a callable giving
        one (called after `loss`, so it may list variables the loss created)."""
        if not callable(loss) and tape is None:
            raise ValueError("minimize: `tape` is required when a Tensor loss is passed; pass "
                             "the GradientTape that computed it, or pass the loss as a "
                             "zero-argument callable.")
        if callable(loss):
            tape = tape if tape is not None else GradientTape()
            with tape:
                if not callable(var_list):
                    tape.watch(list(var_list))
                loss = loss()
        if callable(var_list):
            var_list = var_list()
        var_list = list(var_list)
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def stateless_apply(self, optimizer_variables, grads, trainable_variables):
        """Keras 3's step on given values (stateless.py): (new trainable values, new optimizer
        values); the variables keep theirs."""
        return stateless.stateless_apply(self, optimizer_variables, grads, trainable_variables)

    def scale_loss(self, loss):
        """`loss * loss_scale_factor` (the loss unchanged when no factor is set)."""
        return loss if self.loss_scale_factor is None else loss * self.loss_scale_factor

    def finalize_variable_values(self, var_list):
        """With use_ema, overwrite the variables with their moving averages (fit does it
        after the last epoch)."""
        if not self.use_ema:
            return
        for var in var_list:
            average = self._slots.get(id(var), {}).get("average")
            if average is None:
                raise ValueError(f"{type(self).__name__}.finalize_variable_values: variable "
                                 f"'{var.name}' has no moving average in this optimizer.")
            var.assign(average)

    # -- configuration ------------------------------------------------------------------------
    def get_config(self):
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            lr = schedules.serialize(lr)
        elif isinstance(lr, Variable):
            lr = float(lr.numpy())
        return {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                "clipvalue": self.clipvalue, "use_ema": self.use_ema,
                "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        lr = config.get("learning_rate")
        if isinstance(lr, dict):
            config["learning_rate"] = schedules.deserialize(lr, custom_objects)
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} '{self.name}' iterations={array_of(self._iterations)}>"


def _is_schedule(value):
    """A LearningRateSchedule, or a zero-argument callable giving the learning rate."""
    return isinstance(value, schedules.LearningRateSchedule) or (
        callable(value) and not isinstance(value, Variable))


def _dense(grad):
    return grad._dense() if type(grad) is IndexedSlices else grad


def _scaled(grad, factor):
    if type(grad) is IndexedSlices:
        return IndexedSlices._of(grad.values * factor, grad.indices, grad._static, grad._like)
    return grad * factor
