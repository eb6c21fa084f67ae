"""`Variable`: mutable state that models train, and how tapes see variable reads.

A Variable holds an ndarray. Reading it (`read_value()`, or using it in an op) makes a Tensor of
the current value; each active tape that watches the variable records that read as a
`ReadVariableOp` whose input is the Variable itself. Gradients with respect to the variable are the
sum of the gradients of all its reads. A tape watches a variable when it is read if the variable is
trainable and the tape has `watch_accessed_variables=True`, or when `tape.watch(var)` was called.

Assignments replace the stored array after checking shape and dtype, so an invalid assign raises
and leaves the value untouched, and values a tape saved from earlier reads stay as they were.

A variable owns its buffer, without counting references: `assign_add`/`assign_sub` write into
the array in place only while the variable made it, holds it (`_owned`), and has not lent it.
A read lends it as a view the variable watches through a weak reference (made from a buffer
export, so every tensor, view or array derived from the read keeps that view alive); once all of
them are gone, the weak reference is dead and the next update writes in place again. Anything
else that takes the array (an op given the variable itself, a plan's fetched value) disowns it:
the next update writes a new array (copy on first write), which the variable owns again.
In a graph or a traced function, reads and assignments are ops declared here (ReadVariableOp,
AssignVariableOp, AssignAddVariableOp, AssignSubVariableOp); their kernels reach the values
through the store the executor hands them.

`aggregation` and `synchronization` are kept as given (VariableAggregation.NONE and
VariableSynchronization.AUTO when not given; anything but their members is TensorFlow's
ValueError) for tf.distribute:
inside a replica of a strategy whose replicas are threads of this process, that strategy routes
each assignment (`replica_update_scope`; distribute/values.py says how it combines them).
"""
import contextlib
import threading
import weakref

import numpy as np

from . import dtypes
from .context import state
from .errors import InvalidArgumentError
from .execute import record_op
from .registry import defop
from .tensor import Tensor, TensorLike, _array_repr, to_array
from .tensor_shape import TensorShape
from .variable_creators import VariableMeta
from .variable_enums import VariableAggregation, VariableSynchronization
from .variable_v1_members import V1Members

__all__ = ["Variable", "variable_op_name", "replica_update_scope"]


class _ReplicaRoute(threading.local):
    update = None  # in a replica thread: fn(var, kind, value, read_value, apply) -> result


_ROUTE = _ReplicaRoute()


@contextlib.contextmanager
def replica_update_scope(route):
    """Inside the block (in this thread), `assign`/`assign_add`/`assign_sub` call
    route(var, kind, value, read_value, apply) instead of updating the variable; `apply(value,
    read_value)` is the update itself (run with no route). None: no route."""
    saved, _ROUTE.update = _ROUTE.update, route
    try:
        yield
    finally:
        _ROUTE.update = saved


def _read_grad(op, grad):
    return grad


READ_VARIABLE = defop("ReadVariableOp", lambda value: value, grad=_read_grad,
                      shape=lambda var: (var.shape, var.dtype), batch="safe",
                      pure=False, passes_sparse=True, returns_view=True,
                      onnx="Identity",  # exporters store the variable's value
                      raw=lambda resource, dtype, name=None: _raw_read(resource, dtype))


def _raw_read(resource, dtype):
    """tf.raw_ops.ReadVariableOp: the value of the Variable `resource`, of dtype `dtype`."""
    if dtypes.as_dtype(dtype) != resource.dtype:
        raise InvalidArgumentError(f"ReadVariableOp: variable '{resource.name}' holds "
                                   f"{resource.dtype.name}, not the dtype asked for, "
                                   f"{dtypes.as_dtype(dtype).name}.")
    return resource.read_value()


# A read of a variable inside a cond branch or loop body of a traced function: it reads the
# variable when it runs (so it sees assignments made earlier in the branch, or by earlier
# iterations), and its gradient goes to `proxy`, the read of the enclosing graph that the
# control-flow op takes as an input (so gradients reach the variable from outside the op too).
def _read_in_control_flow_grad(op, grad):
    return grad, grad


READ_IN_CONTROL_FLOW = defop(
    "ReadVariableInControlFlow", lambda store, var, proxy: store.read(var),
    grad=_read_in_control_flow_grad, shape=lambda var, proxy: (var.shape, var.dtype),
    stateful=True, returns_view=True)


# -- assignments in graphs and traced functions: stateful ops whose kernel gets the store --------
def _assign_rule(var, value):
    if value.dtype != var.dtype:
        raise InvalidArgumentError(f"cannot assign a {value.dtype.name} value to variable "
                                   f"'{var.name}' of dtype {var.dtype.name}; cast it first.")
    if not var.shape.is_compatible_with(value.shape):
        raise InvalidArgumentError(f"cannot assign a value of shape {value.shape} to variable "
                                   f"'{var.name}' of shape {var.shape}.")
    return var.shape, var.dtype


def _stateful(op_type, kernel, inplace=None, raw=None):
    return defop(op_type, kernel, shape=_assign_rule, grad=None, stateful=True, inplace=inplace,
                 raw=raw)


def _check_value_shape(store, var, value, op_type):
    """A value known only when the graph runs must have the variable's shape: NumPy would
    broadcast it (and an assignment would change the variable's shape), TensorFlow refuses."""
    expected = var.shape
    if expected.rank is None or None in expected:
        if op_type == "AssignVariableOp":
            return  # a variable of unspecified shape (validate_shape=False) takes any shape
        expected = np.shape(store.read(var))
    if np.shape(value) != tuple(expected):
        raise InvalidArgumentError(
            f"{op_type}: cannot assign a value of shape {np.shape(value)} to variable "
            f"'{var.name}' of shape {tuple(expected)}; the shapes must match (nothing was "
            "changed).")


def _assign_kernel(store, var, value):
    _check_value_shape(store, var, value, "AssignVariableOp")
    store.write(var, value)
    return store.read(var)


def _update_kernel(op_type, ufunc, inplace):
    def kernel(store, var, value):
        _check_value_shape(store, var, value, op_type)
        return store.update(var, ufunc, value, inplace) if inplace else \
            store.update(var, ufunc, value)
    return kernel


# `store.update` (runtime/session.py, runtime/variable_store.py) replaces the variable's array with a new
# one; the in-place forms may change it in place, which a plan uses when none of its live slots
# holds the array (the store then checks that nothing outside the plan does).
# (raw: tf.raw_ops' arguments; `resource` is the Variable itself, TensorFlow's handle to it)
ASSIGN = _stateful("AssignVariableOp", _assign_kernel,
                   raw=lambda resource, value, validate_shape=False, name=None: resource.assign(
                       value, name=name, read_value=False))
ASSIGN_ADD = _stateful("AssignAddVariableOp",
                       _update_kernel("AssignAddVariableOp", np.add, False),
                       _update_kernel("AssignAddVariableOp", np.add, True),
                       raw=lambda resource, value, name=None: resource.assign_add(
                           value, name=name, read_value=False))
ASSIGN_SUB = _stateful("AssignSubVariableOp",
                       _update_kernel("AssignSubVariableOp", np.subtract, False),
                       _update_kernel("AssignSubVariableOp", np.subtract, True),
                       raw=lambda resource, value, name=None: resource.assign_sub(
                           value, name=name, read_value=False))


def checked_constraint(constraint):
    """A Variable's `constraint` argument: None or a callable (TensorFlow's ValueError else)."""
    if constraint is not None and not callable(constraint):
        raise ValueError(f"Variable: argument `constraint` must be None or a callable, got a "
                         f"{type(constraint).__name__}: {constraint!r}. Pass a function of the "
                         "variable that returns its projected value.")
    return constraint


def _checked_enum(value, enum_class, what, name):
    """`value` if it is one of `enum_class`'s members, else TensorFlow's ValueError."""
    if not isinstance(value, enum_class):
        raise ValueError(f"Invalid variable {what} mode: {value} for variable: {name}")
    return value


class Variable(V1Members, TensorLike, metaclass=VariableMeta):
    """A mutable tensor-valued state, e.g. a weight matrix."""

    __hash__ = object.__hash__  # identity; `ref()` is the TF 2 spelling
    _owned = None  # the array the variable made and alone holds (see the module docstring)
    _loan = None   # a weak reference to the view reads were given, or None
    constraint = None  # fn(variable) -> projected value, applied after each optimizer update
    aggregation = VariableAggregation.NONE  # as given (tf.distribute reads them)
    synchronization = VariableSynchronization.AUTO

    def __new__(cls, *args, **kwargs):
        graph = state.graph
        if cls is Variable and graph is not None:
            cls = graph.variable_class  # the graph being built says what Variable(...) makes
        return object.__new__(cls)

    def __init__(self, initial_value=None, trainable=True, validate_shape=True, name=None,
                 dtype=None, shape=None, constraint=None, synchronization=None,
                 aggregation=None, **_ignored):
        if initial_value is None:
            raise ValueError("Variable: initial_value must be given.")
        self.constraint = checked_constraint(constraint)
        if aggregation is not None:
            self.aggregation = _checked_enum(aggregation, VariableAggregation, "aggregation", name)
        if synchronization is not None:
            self.synchronization = _checked_enum(synchronization, VariableSynchronization,
                                                 "synchronization", name)
        graph = state.graph
        if graph is not None:  # only graphs that lift variables (traced functions) get here
            initial_value = graph.lift_initial_value(initial_value, name)
            graph.created_variables.append(self)
        if callable(initial_value):
            initial_value = initial_value()
        if isinstance(initial_value, Tensor):
            initial_value = initial_value._value
        elif isinstance(initial_value, Variable):
            initial_value = initial_value._value
        self._own(to_array(initial_value, dtype).copy())
        self._trainable = bool(trainable)
        self._name = (name or "Variable")
        if graph is None and state.scope_name:  # tf.name_scope eagerly names variables
            self._name = state.scope_name + self._name
        self._shape = TensorShape(self._value.shape if shape is None or validate_shape else shape)
        if state.variable_hooks:
            for hook in state.variable_hooks:
                hook(self)

    # -- the buffer (see the module docstring) -----------------------------------------------------
    def _own(self, array):
        """Hold `array`, a new array nothing else refers to, as the value."""
        self._value = self._owned = array
        self._loan = None

    def _owns_value(self):
        """True when the variable may write its array in place: it made the array, holds it,
        and no tensor, view or array from a read of it is left."""
        return self._value is self._owned and (self._loan is None or self._loan() is None)

    def _lend(self):
        """The value for a tensor that reads the variable: while the variable owns its array, a
        view of it the variable watches (one per batch of reads); the array itself otherwise."""
        value = self._value
        if value is not self._owned:
            return value
        loan = self._loan() if self._loan is not None else None
        if loan is None:
            try:  # a view whose views keep it alive (their base is it, not the array)
                loan = np.asarray(memoryview(value))
            except (TypeError, ValueError, BufferError):  # no buffer export (object dtype)
                self._owned = None
                return value
            self._loan = weakref.ref(loan)
        return loan

    def _is_read(self, array):
        """Whether `array` is this variable's current value as a read gave it out."""
        return array is self._value or (self._loan is not None and array is self._loan())

    def _disown(self):
        """Something outside the variable's view may now hold its array: no more in-place
        writes into it (the next update writes a new array)."""
        self._owned = None

    # -- what it is ------------------------------------------------------------------------------
    @property
    def name(self):
        return self._name + ":0"

    @property
    def trainable(self):
        return self._trainable

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return dtypes.FROM_NUMPY[self._value.dtype]

    @property
    def ndim(self):
        return self._value.ndim  # (TensorLike.ndim without building a TensorShape)

    def numpy(self):
        if state.graph is not None and getattr(state.graph, "lifts_variables", False):
            raise NotImplementedError(
                f"Variable '{self.name}'.numpy() is not available inside a traced function: "
                "it would give the value at tracing time. Use the variable as a tensor (or "
                "v.read_value()) and return it from the function.")
        value = self._value
        return value[()] if value.ndim == 0 else value.copy()

    def __array__(self, dtype=None, copy=None):
        return np.array(self._value, dtype=dtype, copy=True)

    def __len__(self):
        return len(self._value)

    def __bool__(self):
        return bool(self.read_value())

    def __float__(self):
        return float(self.read_value())

    def __int__(self):
        return int(self.read_value())

    def __repr__(self):
        return (f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_array_repr(self._value)}>")

    def __reduce__(self):
        raise TypeError("Variables are not picklable; use train.Checkpoint to save them.")

    # -- reading ------------------------------------------------------------------------------------
    def read_value(self):
        """The current value as a Tensor (recorded by tapes that watch this variable)."""
        if state.graph is not None:  # building a graph: a read node, evaluated when it runs
            return state.graph.capture_variable(self)
        out = Tensor(self._lend())
        if state.tapes:
            record_read(self, out)
        if state.observers:  # forward-mode accumulators see reads as ops
            for hook in state.observers:
                hook(READ_VARIABLE, (self,), (out,), {}, None)
        return out

    def value(self):
        return self.read_value()

    def _as_tensor(self, dtype=None):
        if dtype is not None and dtypes.as_dtype(dtype) is not self.dtype:
            raise ValueError(f"Variable '{self.name}' has dtype {self.dtype.name}, but "
                             f"{dtypes.as_dtype(dtype).name} was requested; use cast.")
        if state.graph is not None:
            return state.graph.capture_variable(self)
        return self.read_value()

    # -- writing ------------------------------------------------------------------------------------
    def _checked(self, value, what):
        """`value` as an array of this variable's dtype and shape, or an error naming both.

        A tensor's array is used as is (tensors are immutable); anything else is copied, so a
        caller who later changes their NumPy array does not change the variable."""
        if isinstance(value, TensorLike):
            array = getattr(value, "_value", None)
            if array is not None and array.dtype != self._value.dtype:
                raise TypeError(f"Variable '{self.name}'.{what}: value has dtype "
                                f"{value.dtype.name} but the variable is {self.dtype.name}; "
                                f"cast the value with cast(value, {self.dtype.name}).")
        else:
            array = None
        if array is None:
            try:
                array = to_array(value, self.dtype)
            except TypeError as err:
                raise TypeError(f"Variable '{self.name}'.{what}: {err}") from None
        if array.shape != self._value.shape:
            raise ValueError(f"Variable '{self.name}'.{what}: value has shape {array.shape} but "
                             f"the variable has shape {self._value.shape}; reshape the value "
                             "or create a new Variable.")
        return array

    def _graph_update(self, kind, value, name, read_value):
        """In a traced function, an assignment is a stateful op that runs with the graph."""
        op_def = {"assign": ASSIGN, "assign_add": ASSIGN_ADD, "assign_sub": ASSIGN_SUB}[kind]
        return state.graph.update_variable(self, op_def, value, name, read_value)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Replace the value; raises (leaving the value unchanged) on a shape or dtype mismatch."""
        if _ROUTE.update is not None:
            return self._routed("assign", value, name, read_value)
        return self._assign(value, name, read_value)

    def _routed(self, kind, value, name, read_value):
        """An assignment inside a replica: the strategy's route decides (replica_update_scope)."""
        def apply(value, read_value):
            with replica_update_scope(None):
                return getattr(self, kind)(value, name=name, read_value=read_value)
        return _ROUTE.update(self, kind, value, read_value, apply)

    def _assign(self, value, name, read_value):
        if state.graph is not None and getattr(state.graph, "lifts_variables", False):
            return self._graph_update("assign", value, name, read_value)
        array = self._checked(value, "assign")
        with self._update_lock():
            if isinstance(value, Variable):
                self._own(array.copy())
            else:
                self._value = array  # a tensor's array (or a copy the caller cannot see): not owned
        return self if read_value else None

    def _update_lock(self):
        """This variable's lock: updates from several threads are each whole (a read-modify-
        write never interleaves with another). Made on first use; dict.setdefault is atomic, so
        two threads asking at once get the same lock. Uncontended it costs about 0.1 us."""
        lock = self.__dict__.get("_lock")
        return lock if lock is not None else self.__dict__.setdefault("_lock", threading.Lock())

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(np.add, "assign_add", delta, name, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(np.subtract, "assign_sub", delta, name, read_value)

    def _update(self, ufunc, kind, delta, name, read_value):
        """value = ufunc(value, delta): in place while the variable owns its array, else into a
        new array that it then owns."""
        if _ROUTE.update is not None:
            return self._routed(kind, delta, name, read_value)
        if state.graph is not None and getattr(state.graph, "lifts_variables", False):
            return self._graph_update(kind, delta, name, read_value)
        delta = self._checked(delta, kind)
        with self._update_lock():
            if self._owns_value():
                ufunc(self._value, delta, out=self._value)
            else:  # (np.asarray: a 0-d result is a NumPy scalar)
                self._own(np.asarray(ufunc(self._value, delta)))
        return self if read_value else None

    def _scatter_add_rows(self, rows, values):
        """value[rows] += values for distinct integer `rows` (an array), eagerly: in place unless
        a tensor shares the variable's array (then on a copy: tensors never change). The sparse
        updates of the optimizers (IndexedSlices gradients) use it."""
        if values.dtype != self._value.dtype or values.shape[1:] != self._value.shape[1:]:
            raise ValueError(f"scatter_add: rows of shape {values.shape[1:]} and dtype "
                             f"{values.dtype} do not fit variable '{self.name}' of shape "
                             f"{self._value.shape} and dtype {self._value.dtype}.")
        with self._update_lock():
            if not self._owns_value():
                self._own(self._value.copy())
            self._value[rows] += values

    def __getitem__(self, key):
        if state.tapes and state.graph is None:
            # Under a tape, slice the variable itself: one recorded op (StridedSlice, or a read
            # for advanced indices) instead of a read and a slice. StridedSlice's gradient uses
            # only its input's shape, so recording the variable rather than a snapshot of its
            # value stays exact if it is assigned before gradient() is called.
            watch_on_read(self)
            self._disown()  # the slice's kernel gets the array
            return Tensor.__getitem__(self, key)
        return self.read_value()[key]

    def __iter__(self):
        return iter(self.read_value())


# Types whose `_value` is the array itself (an eager tensor, or a variable's current value).
EAGER_TYPES = (Tensor, Variable)


def watch_on_read(var):
    """Tapes that watch accessed variables start watching a trainable variable when it is read."""
    key = id(var)
    for tape in state.tapes:
        if key not in tape._watched and tape._watch_accessed and var._trainable:
            tape._watch_variable(var)


def record_read(var, tensor):
    """Record `tensor = read(var)` on each active tape that watches (or now watches) `var`."""
    watch_on_read(var)
    record_op(state.tapes, READ_VARIABLE, (var,), (tensor,), {})


def variable_op_name(var):
    """The name `var` has in graphs, checkpoints and SavedModels: its full name without ":0"
    ("dense/kernel"). A Keras 3 layer weight reports a bare `name` ("kernel") but keeps this one,
    as the tf.Variable under a Keras variable does in TensorFlow."""
    return var._name


def is_variable(x):
    return isinstance(x, Variable)


