"""Which variables a Session has initialized: `is_variable_initialized(v)` (a bool tensor) and
`report_uninitialized_variables(var_list)` (the names, as strings without ":0", of those in
`var_list` whose value the running session does not hold yet; by default every global and local
variable). Both are computed when the session runs them, by the VarIsInitializedOp op, which
asks the session's variable store; an eager variable is always initialized."""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import FailedPreconditionError
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import stack
from ..ops.indexing_ops import boolean_mask
from ..ops.math_ops import logical_not
from .graph import get_default_graph, name_scope, variable_op_name
from .variables import global_variables, local_variables

__all__ = ["is_variable_initialized", "report_uninitialized_variables"]


def _is_initialized_kernel(store, var):
    try:
        store.read(var)
    except FailedPreconditionError:
        return np.bool_(False)
    return np.bool_(True)


VAR_IS_INITIALIZED = defop(
    "VarIsInitializedOp", _is_initialized_kernel, grad=None, stateful=True,
    shape=lambda var: (TensorShape([]), dtypes.bool),
    raw=lambda *, resource, name=None: is_variable_initialized(resource, name))


def is_variable_initialized(variable, name=None):
    """A bool tensor: whether the running session holds a value for `variable`."""
    graph = state.graph
    if graph is None:
        return convert_to_tensor(True) if hasattr(variable, "numpy") else \
            _not_variable(variable)
    if not hasattr(variable, "initializer"):
        _not_variable(variable)
    return graph.create_op(VAR_IS_INITIALIZED, (variable,), {}, name or "VarIsInitializedOp")


def _not_variable(value):
    raise TypeError(f"is_variable_initialized: expected a variable, got "
                    f"{type(value).__name__}.")


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A string tensor of the names of the variables of `var_list` (default: all global and
    local variables) the running session has not initialized."""
    if var_list is None:
        var_list = global_variables() + local_variables()
    var_list = list(var_list)
    graph = get_default_graph()
    with graph.as_default(), name_scope(name):
        names = graph.constant(np.array([variable_op_name(v).encode() for v in var_list],
                                        dtype=object).reshape(-1), "Const")
        if not var_list:
            return names
        missing = logical_not(stack([is_variable_initialized(v) for v in var_list]))
        return boolean_mask(names, missing)
