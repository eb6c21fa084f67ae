"""The variables an optimizer owns, and how they are created, listed, saved and restored.

`OptimizerVariables` is the part of the `Optimizer` base class that keeps state: the step
counter `iterations`, the learning-rate variable, and the per-variable slots (SGD's momentum,
Adam's m and v, the moving averages of `use_ema`, the accumulators of
`gradient_accumulation_steps`). It offers Keras 3's public API for optimizer writers:

- `build(variables)` numbers the model variables (`_get_variable_index(var)` is the position of
  `var` in that list) and creates their slots; a subclass that overrides it calls
  `super().build(variables)` first, then creates its own state with
- `add_variable(shape, initializer="zeros", dtype=None, name=None)` for a free-standing variable,
  `add_variable_from_reference(var, name, initializer="zeros")` for one shaped like `var`, and
  `add_optimizer_variables(vars, names, initializer)` for one (or one per name) per variable.

An initializer is "zeros", "ones", a number, or a callable `init(shape, dtype=...)` (a Keras
initializer). `variables` lists iterations, the learning rate (when it is a variable), then every
other variable in creation order, as Keras 3 does; `set_weights`, `save_own_variables` and
`load_own_variables` use that order.

Checkpoints: `_checkpoint_children()` gives {"iterations": ..., "slots/<i>/<slot>": ...,
"variables/<k>": ...}, where i numbers the model variables in the order this optimizer first saw
them and k the free-standing variables in creation order. Values restored before the slots exist
wait in `_pending_restores` (same keys) and initialize the slots when they are created.
"""
import collections
import warnings

import numpy as np

from ..framework import dtypes
from ..framework.variables import Variable, variable_op_name

__all__ = ["OptimizerVariables"]


class _VariableList(list):
    """A list of variables that can also be called: `opt.variables` (Keras 3) and
    `opt.variables()` (TensorFlow 2) both work."""

    def __call__(self):
        return self


def _initial_value(initializer, shape, dtype, where):
    """The array an initializer gives for `shape` and `dtype` (a numpy dtype)."""
    if isinstance(initializer, str) and initializer.lower() in ("zeros", "ones"):
        fill = 0 if initializer.lower() == "zeros" else 1
        return np.full(shape, fill, dtype)
    if isinstance(initializer, (int, float, np.number)) and not isinstance(initializer, bool):
        return np.full(shape, initializer, dtype)
    if callable(initializer):
        value = initializer(shape, dtype=dtypes.as_dtype(dtype))
        return np.asarray(getattr(value, "numpy", lambda: value)(), dtype).reshape(shape)
    raise ValueError(f"{where}: `initializer` must be 'zeros', 'ones', a number or a callable "
                     f"init(shape, dtype=...), got {initializer!r}.")


class OptimizerVariables:
    """Creation, listing and checkpointing of an optimizer's variables (see the module doc)."""

    _slot_names = ()

    def _init_variables(self):
        self.built = False
        self._slots = {}            # id(variable) -> {slot name: slot variable}
        self._seen = []             # model variables in the order first seen (slot keys use it)
        self._index = {}            # id(variable) -> its index in _seen
        self._own = []              # every variable created here, in creation order
        self._free = []             # variables of add_variable without a reference
        self._pending_restores = {}  # checkpoint key -> value for slots not created yet

    # -- Keras 3's public API ------------------------------------------------------------------
    def build(self, variables):
        """Number `variables` and create their slots (apply does it on the first call); a
        subclass overriding it calls `super().build(variables)` before adding its own."""
        self._track_all(list(variables))
        self.built = True

    @property
    def _trainable_variables(self):
        return list(self._seen)

    @property
    def _trainable_variables_indices(self):
        return self._index

    def _var_key(self, variable):
        return id(variable)

    def _get_variable_index(self, variable):
        try:
            return self._index[id(variable)]
        except KeyError:
            raise ValueError(f"{type(self).__name__}: variable '{variable.name}' is not one this "
                             "optimizer was built with; call build(variables) with it, or use "
                             "a new optimizer for a new set of variables.") from None

    def add_variable(self, shape, initializer="zeros", dtype=None, aggregation="none",
                     layout=None, name=None):
        """A new non-trainable variable of this optimizer (float32 unless `dtype` says)."""
        self._require_init("add_variable")
        dtype = dtypes.as_dtype(dtype or "float32").as_numpy_dtype
        shape = [int(d) for d in (shape.as_list() if hasattr(shape, "as_list") else shape)]
        value = _initial_value(initializer, shape, dtype, f"{type(self).__name__}.add_variable")
        key = f"variables/{len(self._free)}"
        value = self._restored(key, value)
        variable = Variable(value, trainable=False, name=f"{self.name}/{name or 'variable'}")
        self._free.append(variable)
        self._own.append(variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A variable shaped and typed like `reference_variable`, named
        "<reference>_<name>"; it is this optimizer's slot `name` of that variable."""
        self._require_init("add_variable_from_reference")
        name = name or "var"
        index = self._index.get(id(reference_variable))
        if index is None:
            self._track_all([reference_variable])
            index = self._index[id(reference_variable)]
        dtype = reference_variable.dtype.as_numpy_dtype
        value = _initial_value(initializer, reference_variable.shape.as_list(), dtype,
                               f"{type(self).__name__}.add_variable_from_reference")
        return self._new_slot(reference_variable, index, name, value)

    def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        """One variable per model variable (a list), or with a list of names a tuple of such
        lists, created variable by variable as Keras 3 does."""
        names = [name] if isinstance(name, str) else list(name)
        inits = initializer if isinstance(initializer, (list, tuple)) else [initializer] * len(
            names)
        if len(inits) != len(names):
            raise ValueError(f"{type(self).__name__}.add_optimizer_variables: {len(names)} names "
                             f"but {len(inits)} initializers; give one initializer, or one per "
                             "name.")
        lists = tuple([] for _ in names)
        for var in trainable_variables:
            for out, slot_name, init in zip(lists, names, inits):
                out.append(self.add_variable_from_reference(var, slot_name, init))
        return lists[0] if isinstance(name, str) else lists

    def assign(self, variable, value):
        variable.assign(value, read_value=False)

    def assign_add(self, variable, value):
        variable.assign_add(value, read_value=False)

    def assign_sub(self, variable, value):
        variable.assign_sub(value, read_value=False)

    @property
    def variables(self):
        """iterations, the learning rate (when a variable), then the rest in creation order."""
        out = _VariableList([self._iterations])
        if isinstance(self._learning_rate, Variable):
            out.append(self._learning_rate)
        out.extend(self._own)
        return out

    def set_weights(self, weights):
        """Assign `weights` (arrays in `variables` order) to this optimizer's variables."""
        variables, weights = self.variables, list(weights)
        if len(weights) != len(variables):
            raise ValueError(f"{type(self).__name__}.set_weights: got {len(weights)} arrays for "
                             f"{len(variables)} variables (build the optimizer first).")
        for variable, weight in zip(variables, weights):
            if tuple(variable.shape.as_list()) != np.shape(weight):
                raise ValueError(f"{type(self).__name__}.set_weights: variable "
                                 f"'{variable.name}' has shape {variable.shape}, the array "
                                 f"{np.shape(weight)}.")
        for variable, weight in zip(variables, weights):
            variable.assign(weight)

    def save_own_variables(self, store):
        for i, variable in enumerate(self.variables):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        if len(store.keys()) != len(self.variables):
            warnings.warn(f"Skipping variable loading for optimizer '{self.name}', because it "
                          f"has {len(self.variables)} variables whereas the saved optimizer has "
                          f"{len(store.keys())} variables.", stacklevel=2)
            return
        for i, variable in enumerate(self.variables):
            variable.assign(store[str(i)])

    # -- slots --------------------------------------------------------------------------------
    def get_slot_names(self):
        return list(self._slot_names)

    def get_slot(self, var, slot_name):
        try:
            return self._slots[id(var)][slot_name]
        except KeyError:
            raise KeyError(f"{type(self).__name__} has no slot {slot_name!r} for variable "
                           f"'{var.name}' (slots: {self.get_slot_names()}; they are created by "
                           "the first apply_gradients that updates the variable).") from None

    def _track_all(self, variables):
        """Number the variables not seen yet, then create their slots grouped as Keras 3 does:
        the moving averages of all, the gradient accumulators of all, then each one's slots."""
        new = []
        for var in variables:
            if id(var) not in self._index:
                self._index[id(var)] = len(self._seen)
                self._seen.append(var)
                self._slots[id(var)] = {}
                new.append(var)
        for slot_name in self._option_slot_names():
            for var in new:
                self._new_slot(var, self._index[id(var)], slot_name, self._zeros_like(var))
        for var in new:
            for slot_name in self._slot_names:
                self._new_slot(var, self._index[id(var)], slot_name,
                               self._slot_initial(var, slot_name))

    def _option_slot_names(self):
        return ()

    def _zeros_like(self, var):
        return np.zeros(var.shape.as_list(), var.dtype.as_numpy_dtype)

    def _slot_initial(self, var, slot_name):
        return self._zeros_like(var)

    def _new_slot(self, var, index, slot_name, initial):
        initial = self._restored(f"slots/{index}/{slot_name}", initial, var.name)
        slot = Variable(initial, trainable=False, name=f"{variable_op_name(var)}/{slot_name}")
        self._slots[id(var)][slot_name] = slot
        self._own.append(slot)
        return slot

    def _restored(self, key, initial, for_name=None):
        """`initial`, or the checkpointed value waiting under `key` (checked first)."""
        pending = self._pending_restores.pop(key, None)
        if pending is None:
            return initial
        pending = np.asarray(pending)
        if pending.shape != initial.shape or pending.dtype != initial.dtype:
            target = f"variable '{for_name}'" if for_name else "it"
            raise ValueError(
                f"{type(self).__name__}: the checkpointed '{key}' has shape {pending.shape} and "
                f"dtype {pending.dtype}, but {target} needs shape {initial.shape} and dtype "
                f"{initial.dtype}.")
        return pending

    def _checkpoint_children(self):
        """{name: variable} for train.Checkpoint: iterations, "slots/<i>/<slot name>", and
        "variables/<k>" for the variables of add_variable."""
        children = collections.OrderedDict(iterations=self._iterations)
        for index, var in enumerate(self._seen):
            for slot_name, slot in self._slots[id(var)].items():
                children[f"slots/{index}/{slot_name}"] = slot
        for k, variable in enumerate(self._free):
            children[f"variables/{k}"] = variable
        return children

    def _defer_restore(self, values):
        """Keep checkpointed slot values (key -> array) until their slots are created."""
        self._pending_restores.update(values)

    def _require_init(self, where):
        if "_slots" not in self.__dict__:
            raise RuntimeError(f"{type(self).__name__}.{where}: the optimizer's __init__ did not "
                               "call super().__init__(learning_rate, ...); call it first.")
