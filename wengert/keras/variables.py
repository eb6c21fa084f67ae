"""Keras 3's variable model: `keras.Variable`, and the path every Keras variable has.

Keras 3 names a variable twice: `name` is the name it was given ("kernel", "variable"), and
`path` places it among the layers that made it: the names of the layers whose build or call was
running when it was created, then its name ("dense/kernel"; "sequential/dense/kernel" for a
Dense built by a Sequential model; "lstm/lstm_cell/kernel"). `name_scope(layer)` is how layers
enter that stack while they build and call (layers/base.py); `current_path(name)` reads it.

`KerasVariable(initializer, shape=None, dtype=None, trainable=True, name=None, ...)` is the class
`keras.Variable` names, and the class of every layer weight (`KerasVariable.layer_weight`): a
wengert Variable (so it is assigned, differentiated, checkpointed and traced like a tf.Variable)
whose `name` is the bare name and whose `path` is the scoped one. Graphs, checkpoints and
SavedModels see it under a full name (`variable_op_name`): its path for a `keras.Variable`,
"<layer>/<weight>" ("dense/kernel") for a layer's weight. The initial value is an initializer (a name such as
"zeros", a Keras initializer, or any callable `init(shape, dtype=...)`, which needs `shape`) or
a value (array, number, tensor), whose shape must then agree with `shape` when both are given.
Without `dtype` an initializer makes floatx variables and a value keeps its own dtype (Python
floats become floatx, Python ints int32), as Keras 3 standardizes them.

Inside a `keras.StatelessScope` (stateless_scope.py) a Keras variable reads the value the scope
maps it to, and its assigns are recorded in the scope instead of changing it.
"""
import contextlib
import itertools
import threading

import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from . import backend, initializers
from .stateless_scope import get_stateless_scope, scoped_value

__all__ = ["KerasVariable", "KerasNameScope", "name_scope", "current_path"]

_AGGREGATIONS = ("none", "mean", "sum", "only_first_replica")
_SYNCHRONIZATIONS = ("auto", "none", "on_read", "on_write")
_counter = itertools.count()


class _Scope(threading.local):
    stack = ()  # ((id(owner), name), ...) of the layers building or calling now


_scope = _Scope()


@contextlib.contextmanager
def name_scope(owner, name):
    """Enter `name` (the layer `owner`'s name) for variables created inside; entering the
    owner that is already innermost adds nothing."""
    previous = _scope.stack
    if not previous or previous[-1][0] != id(owner):
        _scope.stack = previous + ((id(owner), name),)
    try:
        yield
    finally:
        _scope.stack = previous


class KerasNameScope:
    """`keras.name_scope(name)`: variables created inside have paths under `name`
    (`with keras.name_scope("block"): keras.Variable(...)` has path "block/variable")."""

    def __init__(self, name, **kwargs):
        if not isinstance(name, str) or not name:
            raise ValueError(f"keras.name_scope: `name` must be a non-empty string, got "
                             f"{name!r}.")
        unknown = set(kwargs) - {"caller", "deduplicate", "override_parent"}
        if unknown:
            raise TypeError(f"keras.name_scope: unexpected arguments {sorted(unknown)}.")
        self.name, self._scope = name, None

    def __enter__(self):
        self._scope = name_scope(self, self.name)
        self._scope.__enter__()
        return self

    def __exit__(self, *exc):
        scope, self._scope = self._scope, None
        return scope.__exit__(*exc)


def current_path(name, owner=None):
    """"<scope>/.../<name>"; with `owner` (a layer adding a weight) its name is added when the
    owner is not the innermost scope already, as Keras's add_weight does."""
    names = [n for _, n in _scope.stack]
    if owner is not None and (not _scope.stack or _scope.stack[-1][0] != id(owner)):
        names.append(owner.name)
    return "/".join(names + [name])


def _initial_value(initializer, shape, dtype):
    """(the initial array or tensor, its dtype) from an initializer or a value."""
    if isinstance(initializer, str) or (callable(initializer) and not isinstance(
            initializer, (Tensor, np.ndarray))):
        if shape is None:
            raise ValueError("keras.Variable: an initializer needs `shape` (got "
                             f"initializer={initializer!r} and shape=None); pass shape=, or "
                             "pass a value instead of an initializer.")
        dtype = dtypes.as_dtype(dtype or backend.floatx())
        init = initializers.get(initializer)
        return (lambda: init(tuple(shape), dtype=dtype)), dtype
    if isinstance(initializer, Tensor):
        value = initializer.numpy()
    else:
        value = np.asarray(initializer)
        if value.dtype == np.float64 and not isinstance(initializer, np.ndarray):
            value = value.astype(backend.floatx())
        elif value.dtype == np.int64 and not isinstance(initializer, np.ndarray):
            value = value.astype(np.int32)
    if shape is not None and tuple(value.shape) != tuple(shape):
        raise ValueError(f"keras.Variable: the initial value has shape {value.shape}, but "
                         f"shape={tuple(shape)} was given; they must agree.")
    dtype = dtypes.as_dtype(dtype or value.dtype)
    return value.astype(dtype.as_numpy_dtype), dtype


class KerasVariable(Variable):
    """`keras.Variable`: a Variable with Keras 3's bare `name` and scoped `path`."""

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True,
                 aggregation="none", synchronization="auto", name=None, **kwargs):
        if aggregation not in _AGGREGATIONS:
            raise ValueError(f"keras.Variable: aggregation={aggregation!r} is not one of "
                             f"{list(_AGGREGATIONS)}.")
        if synchronization not in _SYNCHRONIZATIONS:
            raise ValueError(f"keras.Variable: synchronization={synchronization!r} is not one "
                             f"of {list(_SYNCHRONIZATIONS)}.")
        if name is not None and (not isinstance(name, str) or "/" in name):
            raise ValueError(f"keras.Variable: `name` must be a string without '/', got "
                             f"{name!r}.")
        if name is None:
            count = next(_counter)
            name = "variable" if count == 0 else f"variable_{count}"
        value, dtype = _initial_value(initializer, shape, dtype)
        path = current_path(name)
        self._keras_name, self._path = name, path  # before the creation hooks see it
        super().__init__(value, trainable=trainable, name=path, dtype=dtype, **kwargs)
        self.autocast, self.aggregation = bool(autocast), aggregation
        self.synchronization = synchronization

    @classmethod
    def layer_weight(cls, initial, *, name, path, op_name, trainable, dtype):
        """A layer's weight (Layer.add_weight): named `name` ("kernel"), placed at `path`
        ("sequential/dense/kernel"), and created as `op_name` ("dense/kernel") for graphs,
        checkpoints and SavedModels; `initial` is a value or a zero-argument callable."""
        weight = cls.__new__(cls)
        weight._keras_name, weight._path = name, path  # before the creation hooks see it
        Variable.__init__(weight, initial, trainable=trainable, name=op_name, dtype=dtype)
        weight.autocast, weight.aggregation, weight.synchronization = True, "none", "auto"
        return weight

    @property
    def name(self):
        return self._keras_name

    @property
    def path(self):
        return self._path

    # -- reads and writes inside a StatelessScope -----------------------------------------------
    def read_value(self):
        scoped = scoped_value(self)
        return super().read_value() if scoped is None else scoped

    def value(self):
        return self.read_value()

    def _as_tensor(self, dtype=None):
        scoped = scoped_value(self)
        return super()._as_tensor(dtype) if scoped is None else scoped

    def numpy(self):
        scoped = scoped_value(self)
        return super().numpy() if scoped is None else scoped.numpy()

    def __getitem__(self, key):
        scoped = scoped_value(self)
        return super().__getitem__(key) if scoped is None else scoped[key]

    def assign(self, value, use_locking=None, name=None, read_value=True):
        scope = get_stateless_scope()
        if scope is None:
            return super().assign(value, use_locking=use_locking, name=name,
                                  read_value=read_value)
        value = self._checked_scoped(value, "assign")
        scope.add_update((self, value))
        return value if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        if get_stateless_scope() is None:
            return super().assign_add(delta, use_locking=use_locking, name=name,
                                      read_value=read_value)
        return self.assign(self.read_value() + delta, read_value=read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        if get_stateless_scope() is None:
            return super().assign_sub(delta, use_locking=use_locking, name=name,
                                      read_value=read_value)
        return self.assign(self.read_value() - delta, read_value=read_value)

    def _checked_scoped(self, value, what):
        """`value` for an assign inside a StatelessScope: its shape must be the variable's."""
        shape = tuple(getattr(value, "shape", np.shape(value)))
        if shape != tuple(self.shape):
            raise ValueError(f"The shape of the target variable and the shape of the target "
                             f"value in `variable.{what}(value)` must match. "
                             f"variable.shape={tuple(self.shape)}, Received: value.shape="
                             f"{shape}. Target variable: {self}")
        return value

    def __repr__(self):
        try:
            value = f", value={self.numpy()}"
        except Exception:  # noqa: BLE001 - no value inside a traced function
            value = ""
        return f"<Variable path={self.path}, shape={tuple(self.shape)}, " \
               f"dtype={self.dtype.name}{value}>"
