"""Variables created while building a graph (TensorFlow 1 style).

A graph variable is a name plus an initializer; its value lives in each Session separately, so two
sessions on one graph train independent copies. Its own op, `v.op`, is a VarHandleOp named as the
variable ("layer1/w", as TensorFlow names it; running it does nothing), created before the
initial value's ops under `<name>/`. Reading it is the graph's `<name>/read` node;
`assign`, `assign_add` and `assign_sub` are stateful ops that `Session.run` executes, checking shape
and dtype before writing. Reading a variable its session has not initialized is a
FailedPreconditionError that says to run the initializer.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import default_session, state
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import (ASSIGN, ASSIGN_ADD, ASSIGN_SUB, READ_VARIABLE, Variable,
                                   checked_constraint)
from .collections import GraphKeys
from .graph import NO_OP, Graph, check_scope_name, get_default_graph
from .symbolic import GraphValued

__all__ = ["GraphVariable", "global_variables", "trainable_variables", "local_variables",
           "model_variables", "variables_initializer", "global_variables_initializer",
           "local_variables_initializer", "moving_average_variables",
           "resource_variables_enabled", "enable_resource_variables"]


def _raw_var_handle(*, dtype, shape, container="", shared_name="", debug_name="",
                    allowed_devices=(), name=None):
    raise NotImplementedError(
        f"tf.raw_ops.VarHandleOp (dtype {dtype}, shape {shape}): wengert's variables are "
        "objects, not resource handles; make one with tf.Variable(...).")


VAR_HANDLE = defop("VarHandleOp", lambda dtype, shape: None, shape=lambda dtype, shape: [],
                   grad=None, num_outputs=0, pure=False, raw=_raw_var_handle)


class GraphVariable(GraphValued, Variable):
    """A variable of a graph; `Variable(...)` inside a graph context makes one."""

    def __init__(self, initial_value=None, trainable=True, validate_shape=True, name=None,
                 dtype=None, shape=None, constraint=None, collections=None, **_ignored):
        if initial_value is None:
            raise ValueError("Variable: initial_value must be given.")
        self.constraint = checked_constraint(constraint)
        graph = state.graph
        self._graph = graph
        with graph.control_dependencies(None):  # the variable's own op, TF's VarHandleOp
            handle = graph.create_op(VAR_HANDLE, (), {"dtype": None, "shape": None},
                                     check_scope_name(name or "Variable",
                                                      root=not graph._scope))
        self._handle, self._name = handle, handle.name
        with graph.name_scope(self._name + "/"), graph.control_dependencies(None):
            value = initial_value() if callable(initial_value) else initial_value
            self._initial_value = convert_to_tensor(value, dtype=dtype)
        self._trainable = True if trainable is None else bool(trainable)
        self._dtype = self._initial_value.dtype
        given = TensorShape(shape) if shape is not None else None
        self._shape = given if given is not None and not validate_shape else \
            self._initial_value.shape
        handle.attrs.update(dtype=self._dtype.as_numpy_dtype, shape=tuple(
            self._shape.as_list()) if self._shape.rank is not None else None)
        with graph.name_scope(self._name + "/"), graph.control_dependencies(None):
            self._initializer = graph.create_op(ASSIGN, (self, self._initial_value), {},
                                                "Assign").op
            self._snapshot = graph.create_op(READ_VARIABLE, (self,), {}, "read")
        collections = [GraphKeys.GLOBAL_VARIABLES] if collections is None else list(collections)
        if self._trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        graph.add_to_collections(collections, self)

    @property
    def graph(self):
        return self._graph

    @property
    def op(self):
        """The variable's own op, named as the variable ("layer1/w"), as in TensorFlow."""
        return self._handle

    @property
    def initializer(self):
        return self._initializer

    @property
    def initial_value(self):
        return self._initial_value

    def numpy(self):
        raise NotImplementedError(f"'{self.name}' is a graph variable: its value lives in a "
                                  "Session; use session.run(variable).")

    def __array__(self, dtype=None, copy=None):
        self.numpy()

    def __len__(self):
        return self._shape[0]

    def __repr__(self):
        return f"<tf.Variable '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def _in_graph(self, nested=False):
        """Raise unless the graph being built is this variable's (or, for reads, a control-flow
        sub-graph nested in it: the branch captures the read as an input)."""
        graph = state.graph
        while nested and graph is not None and graph is not self._graph:
            graph = getattr(graph, "outer", None)
        if graph is not self._graph:
            raise ValueError(f"Variable '{self.name}' belongs to another graph; use it inside "
                             "`with its_graph.as_default():`.")

    def read_value(self):
        """The variable's value as a tensor of its graph. Under `control_dependencies` this is a
        new read that runs after those ops (so it sees their assignments)."""
        self._in_graph(nested=True)
        if state.graph is not self._graph:  # a control-flow branch or loop body
            return state.graph.capture_variable(self)
        if self._graph._control_deps:
            return self._graph.capture_variable(self)
        return self._snapshot

    value = read_value

    def _as_tensor(self, dtype=None):
        if dtype is not None and dtypes.as_dtype(dtype) is not self._dtype:
            raise ValueError(f"Variable '{self.name}' has dtype {self._dtype.name}, but "
                             f"{dtypes.as_dtype(dtype).name} was requested; use cast.")
        return self.read_value()

    def _update(self, op_def, value, name):
        self._in_graph()
        value = convert_to_tensor(value, dtype=self._dtype)
        if not self._shape.is_compatible_with(value.shape):
            raise ValueError(f"Cannot assign value to variable ' {self.name}': Shape mismatch."
                             f"The variable shape {self._shape}, and the assigned value shape "
                             f"{value.shape} are incompatible.")
        return self._graph.create_op(op_def, (self, value), {}, name or op_def.type)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._update(ASSIGN, value, name)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(ASSIGN_ADD, delta, name)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(ASSIGN_SUB, delta, name)

    def eval(self, session=None):
        return (session or default_session()).run(self)

    def load(self, value, session=None):
        (session or default_session())._store.write(self, np.asarray(value))


Graph.variable_class = GraphVariable  # the graph layer's one install on a class below it


def global_variables(scope=None):
    """The default graph's GLOBAL_VARIABLES (those whose name matches `scope` at its start)."""
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def trainable_variables(scope=None):
    """The default graph's TRAINABLE_VARIABLES (those whose name matches `scope`)."""
    return get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope=None):
    """The default graph's LOCAL_VARIABLES (those whose name matches `scope`)."""
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope=None):
    """The default graph's MODEL_VARIABLES (those whose name matches `scope`)."""
    return get_default_graph().get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope=None):
    """The default graph's MOVING_AVERAGE_VARIABLES (those whose name matches `scope`)."""
    return get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def resource_variables_enabled():
    """True: graph variables behave as TensorFlow's resource variables (a read sees the
    assignments that ran before it)."""
    return True


def enable_resource_variables():
    """Nothing to do: graph variables are always resource variables here."""


def variables_initializer(var_list, name="init"):
    """One op that runs the initializers of `var_list`."""
    graph = get_default_graph()
    with graph.control_dependencies([v.initializer for v in var_list]):
        return graph.create_op(NO_OP, (), {}, name)


def global_variables_initializer():
    """One op that initializes every variable of GLOBAL_VARIABLES."""
    return variables_initializer(global_variables())


def local_variables_initializer():
    """One op that initializes every variable of LOCAL_VARIABLES."""
    return variables_initializer(local_variables(), name="init")
