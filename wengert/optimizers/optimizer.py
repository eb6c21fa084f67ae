"""`Optimizer`: the base of the TensorFlow 2 / Keras optimizers (SGD, Adam, RMSprop, ...).

    opt = SGD(learning_rate=0.1, momentum=0.9)
    with GradientTape() as tape:
        loss = ...
    grads = tape.gradient(loss, model_vars)
    opt.apply_gradients(zip(grads, model_vars))

`apply_gradients` does, in order (as Keras 3 does):
1. checks every pair before anything changes: a None gradient is dropped with a warning naming
   its variable (all None is a ValueError listing the variables); a gradient whose shape differs
   from its variable's is a ValueError naming both; gradients are cast to the variable's dtype;
2. clips the gradients (clipnorm, global_clipnorm or clipvalue; see clipping.py);
3. creates the slot variables (momentum, Adam's m and v, ...) of variables it sees for the first
   time, initialized by the subclass (zeros unless it says otherwise);
4. evaluates the learning rate: a float is kept in a float32 variable (so changing
   `opt.learning_rate` takes effect inside traced functions), a schedule is called with
   `iterations`; it is cast to each variable's dtype;
5. applies decoupled weight decay, v <- v - v * weight_decay * lr, when `weight_decay` is set;
6. calls the subclass's `_update_step(gradient, variable, lr)` for each pair, which updates the
   variable and its slots with `assign`/`assign_add`/`assign_sub` (in place when nothing else
   refers to the array);
7. increments `iterations`.

Under tf.distribute, in a replica context (inside `strategy.run`, or Keras's fit under
`strategy.scope()`), the gradients are first summed across replicas (distribute/strategy.py),
as Keras does; a None gradient counts as zeros there, so every replica takes part.

Sparse gradients (`IndexedSlices`, the gradient of gather / embedding_lookup) are applied as
Keras does: duplicate indices are summed first (so every row appears once), and the subclass's
`_update_step_sparse(slices, variable, lr)` updates only the touched rows of the variable with
scatter updates (`_scatter_add`); slots such as momentum or Adam's moments are decayed densely
and then receive the new gradient rows by scatter, exactly the dense update's result. A subclass
without a sparse step gets the dense gradient. Inside a traced function sparse gradients are
densified (graph variables have no scatter updates).

It runs eagerly or inside a traced `function`: there the assignments become stateful graph ops
run in program order, and slot variables created during the first trace are lifted out of the
graph (ordinary variables, initialized once), as in TensorFlow. For TensorFlow 1 graphs and
Sessions use `compat.v1.train`'s optimizers.

Checkpoints: `_checkpoint_children()` gives {"iterations": ..., "slots/<i>/<slot>": ...}, where i
numbers the variables in the order this optimizer first saw them. Values restored before the
slots exist wait in `_pending_restores` (same keys) and initialize the slots when they are
created.
"""
import collections
import warnings

import numpy as np

from ..autodiff.explain import describe_missing
from ..autodiff.tape import GradientTape
from ..distribute.strategy import all_reduce_sum_gradients
from ..framework.context import state
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import array_of, convert_to_tensor
from ..framework.variables import Variable
from ..ops.math_ops import cast
from . import schedules
from .clipping import check_clip_options, clip_gradients

__all__ = ["Optimizer"]


class _VariableList(list):
    """A list of variables that can also be called: `opt.variables` (Keras 3) and
    `opt.variables()` (TensorFlow 2) both work."""

    def __call__(self):
        return self


def _base_name(var):
    return var.name.rsplit(":", 1)[0]


class Optimizer:
    """Base class of the TF2 optimizers. Subclasses define `_slot_names` (with `_slot_initial`
    for a non-zero start) and `_update_step(gradient, variable, lr)`."""

    _slot_names = ()

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, name=None, **kwargs):
        if "lr" in kwargs:  # the old Keras spelling
            learning_rate = kwargs.pop("lr")
        if kwargs:
            raise TypeError(f"{type(self).__name__}: unexpected arguments {sorted(kwargs)}.")
        check_clip_options(clipnorm, clipvalue, global_clipnorm)
        self.name = name or type(self).__name__.lower()
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self._iterations = Variable(np.int64(0), trainable=False, name=f"{self.name}/iteration")
        self._learning_rate = self._make_learning_rate(learning_rate)
        self._slots = {}            # id(variable) -> {slot name: slot variable}
        self._seen = []             # variables in the order first seen (slot keys use the index)
        self._index = {}            # id(variable) -> its index in _seen
        self._pending_restores = {}  # checkpoint key -> value for slots not created yet
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
        """The learning-rate variable (float32), or the schedule the optimizer was given."""
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        current = self._learning_rate
        if _is_schedule(value):
            self._learning_rate = value
        elif isinstance(current, Variable) and not isinstance(value, Variable):
            current.assign(np.float32(np.asarray(value)))
        elif isinstance(current, schedules.LearningRateSchedule):
            raise TypeError("This optimizer was created with a LearningRateSchedule as its "
                            "learning_rate, so its learning rate cannot be set to a number; "
                            "create a new optimizer (or give it a float learning rate).")
        else:
            self._learning_rate = self._make_learning_rate(value)

    lr = learning_rate

    def _current_learning_rate(self):
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            return convert_to_tensor(lr(self._iterations))
        if callable(lr) and not isinstance(lr, Variable):
            return convert_to_tensor(lr())
        return convert_to_tensor(lr)

    # -- state --------------------------------------------------------------------------------
    @property
    def iterations(self):
        """The number of updates applied so far (an int64 variable)."""
        return self._iterations

    @property
    def variables(self):
        """This optimizer's own variables: iterations, then the slots by variable."""
        out = _VariableList([self._iterations])
        for var in self._seen:
            out.extend(self._slots.get(id(var), {}).values())
        return out

    def get_slot_names(self):
        return list(self._slot_names)

    def get_slot(self, var, slot_name):
        try:
            return self._slots[id(var)][slot_name]
        except KeyError:
            raise KeyError(f"{type(self).__name__} has no slot {slot_name!r} for variable "
                           f"'{var.name}' (slots: {self.get_slot_names()}; they are created by "
                           "the first apply_gradients that updates the variable).") from None

    def build(self, var_list):
        """Create the slots of `var_list` now (apply_gradients does it when needed)."""
        for var in var_list:
            self._track(var)

    def _track(self, var):
        """Note `var` (first time: give it an index and create its slots)."""
        if id(var) in self._index:
            return
        index = len(self._seen)
        slots = {}
        for slot_name in self._slot_names:
            slots[slot_name] = self._create_slot(var, index, slot_name)
        self._index[id(var)] = index
        self._seen.append(var)
        self._slots[id(var)] = slots

    def _slot_initial(self, var, slot_name):
        return np.zeros(var.shape.as_list(), var.dtype.as_numpy_dtype)

    def _create_slot(self, var, index, slot_name):
        initial = self._slot_initial(var, slot_name)
        pending = self._pending_restores.pop(f"slots/{index}/{slot_name}", None)
        if pending is not None:
            pending = np.asarray(pending)
            if pending.shape != initial.shape or pending.dtype != initial.dtype:
                raise ValueError(
                    f"{type(self).__name__}: the checkpointed slot 'slots/{index}/{slot_name}' "
                    f"has shape {pending.shape} and dtype {pending.dtype}, but variable "
                    f"'{var.name}' needs shape {initial.shape} and dtype {initial.dtype}.")
            initial = pending
        return Variable(initial, trainable=False, name=f"{_base_name(var)}/{slot_name}")

    def _checkpoint_children(self):
        """{name: variable} for train.Checkpoint: iterations and "slots/<i>/<slot name>"."""
        children = collections.OrderedDict(iterations=self._iterations)
        for index, var in enumerate(self._seen):
            for slot_name, slot in self._slots[id(var)].items():
                children[f"slots/{index}/{slot_name}"] = slot
        return children

    def _defer_restore(self, values):
        """Keep checkpointed slot values (key -> array) until their slots are created."""
        self._pending_restores.update(values)

    # -- weight decay ---------------------------------------------------------------------------
    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Do not decay these variables (or variables whose name contains one of var_names)."""
        self._decay_excluded_ids.update(id(v) for v in var_list or ())
        self._decay_excluded_names = tuple(self._decay_excluded_names) + tuple(var_names or ())

    def _use_weight_decay(self, var):
        if id(var) in self._decay_excluded_ids:
            return False
        return not any(part in var.name for part in self._decay_excluded_names)

    # -- applying -------------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, name=None, **_ignored):
        """Update each variable from its gradient; returns `iterations` after the increment."""
        graph = state.graph
        if graph is not None and not getattr(graph, "lifts_variables", False):
            raise RuntimeError(
                f"{type(self).__name__} (a TF2 optimizer) runs eagerly or inside "
                "wengert.function, not in a TF1 graph; use compat.v1.train."
                "GradientDescentOptimizer (or Momentum/Adam/RMSProp) with a Session.")
        if _ignored.get("experimental_aggregate_gradients", True) and not _ignored.get(
                "skip_gradients_aggregation", False):  # tf.distribute: sum across replicas
            grads_and_vars = all_reduce_sum_gradients(grads_and_vars)
        grads, variables = _checked_pairs(grads_and_vars)
        grads = clip_gradients(grads, self.clipnorm, self.clipvalue, self.global_clipnorm)
        for var in variables:
            self._track(var)
        lr = self._current_learning_rate()
        lr_by_dtype = {}
        for var in variables:
            if var.dtype not in lr_by_dtype:
                lr_by_dtype[var.dtype] = lr if lr.dtype is var.dtype else cast(lr, var.dtype)
        if self.weight_decay:
            for var in variables:
                if self._use_weight_decay(var):
                    var.assign_sub(var * self.weight_decay * lr_by_dtype[var.dtype],
                                   read_value=False)
        self._step_constants = {dtype: self._prepare_step(dtype, lr)
                                for dtype, lr in lr_by_dtype.items()}
        for grad, var in zip(grads, variables):
            if type(grad) is IndexedSlices:
                self._apply_sparse(grad, var, lr_by_dtype[var.dtype])
            else:
                self._update_step(grad, var, lr_by_dtype[var.dtype])
        self._step_constants = None
        for var in variables:  # Keras's weight constraints (kernel_constraint=...)
            constraint = getattr(var, "constraint", None)
            if constraint is not None:
                var.assign(constraint(var))
        return self._iterations.assign_add(1)

    def _prepare_step(self, dtype, lr):
        """Values shared by all variables of `dtype` in this step (e.g. Adam's bias-corrected
        learning rate), computed once; `_update_step` finds them in `_step_constants[dtype]`."""
        return None

    def _update_step(self, gradient, variable, lr):
        raise NotImplementedError(f"{type(self).__name__} must implement _update_step.")

    def _apply_sparse(self, slices, variable, lr):
        """Eagerly: the subclass's sparse step on de-duplicated rows; else the dense step."""
        step = getattr(self, "_update_step_sparse", None)
        if step is None or state.graph is not None:
            self._update_step(slices._dense(), variable, lr)
        else:
            step(deduplicate(slices), variable, lr)

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

    # -- configuration ------------------------------------------------------------------------
    def get_config(self):
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            lr = schedules.serialize(lr)
        elif isinstance(lr, Variable):
            lr = float(lr.numpy())
        return {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                "clipvalue": self.clipvalue}

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


def _checked_pairs(grads_and_vars):
    """(gradients, variables) with None gradients dropped (with a warning), each gradient a
    tensor of its variable's dtype and shape; raises before any change on a mismatch."""
    pairs = list(grads_and_vars)
    if not pairs:
        raise ValueError("apply_gradients: no (gradient, variable) pairs were given.")
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"apply_gradients expects (gradient, variable) pairs, e.g. "
                            f"zip(grads, variables); got {pair!r}.")
        if not isinstance(pair[1], Variable):
            raise TypeError(f"apply_gradients: {pair[1]!r} is not a Variable; only variables "
                            "can be updated.")
    missing_vars = [v for g, v in pairs if g is None]
    missing = [v.name for v in missing_vars]
    if len(missing) == len(pairs):
        raise ValueError(f"No gradients provided for any variable: {missing}. Check that the "
                         "loss depends on the variables through differentiable ops, computed "
                         "inside the GradientTape.\n" + describe_missing(missing_vars))
    if missing:
        warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the "
                      "loss; they are not updated. If using `model.compile()`, did you forget "
                      "to provide a `loss` argument?\n" + describe_missing(missing_vars),
                      stacklevel=3)
    grads, variables = [], []
    for grad, var in pairs:
        if grad is None:
            continue
        if type(grad) is not IndexedSlices:
            grad = convert_to_tensor(grad)
        if not var.shape.is_compatible_with(grad.shape):
            raise ValueError(f"apply_gradients: the gradient for variable '{var.name}' has "
                             f"shape {grad.shape}, but the variable has shape {var.shape}; "
                             "no variable was updated.")
        if grad.dtype is not var.dtype:
            numeric = grad.dtype.is_floating or grad.dtype.is_integer
            if not (numeric and var.dtype.is_floating):  # integers cast, as Keras does
                raise TypeError(f"apply_gradients: the gradient for variable '{var.name}' has "
                                f"dtype {grad.dtype.name}, but the variable is "
                                f"{var.dtype.name}; no variable was updated.")
            grad = (grad, var.dtype)  # cast below, once everything is checked
        grads.append(grad)
        variables.append(var)
    grads = [_cast(*g) if isinstance(g, tuple) else g for g in grads]
    return grads, variables


def _cast(grad, dtype):
    if type(grad) is IndexedSlices:
        return IndexedSlices._of(cast(grad.values, dtype), grad.indices, grad._static, grad._like)
    return cast(grad, dtype)


# -- sparse updates ---------------------------------------------------------------------------
def deduplicate(slices):
    """IndexedSlices with each index once, the values of repeated indices summed (eager)."""
    indices = np.asarray(array_of(slices.indices)).reshape(-1)
    unique, position = np.unique(indices, return_inverse=True)
    if len(unique) == len(indices):
        return slices
    values = array_of(slices.values)
    summed = np.zeros((len(unique),) + values.shape[1:], values.dtype)
    np.add.at(summed, position.reshape(-1), values)
    return IndexedSlices._of(convert_to_tensor(summed), convert_to_tensor(unique),
                             slices._static, slices._like)


def scatter_add(var, slices):
    """var[indices] += values for the rows of de-duplicated IndexedSlices only (eager), in
    place unless a tensor shares the variable's array (then on a copy: tensors never change)."""
    var._scatter_add_rows(array_of(slices.indices), array_of(slices.values))
