"""TensorFlow 1's checks on a graph's values, run when a Session runs them:

    verify_tensor_all_finite(t, msg)   t, after CheckNumerics(t) found no NaN or infinity (an
                                       InvalidArgumentError naming `msg` otherwise)
    add_check_numerics_ops()           one op running CheckNumerics on every floating-point
                                       output of every op built so far
    assert_variables_initialized(vs)   the rank of each variable (a stacked vector for several);
                                       as in TensorFlow 2.21, whose variables are resource
                                       variables, the rank comes from the shape without reading
                                       the value, so an uninitialized variable passes
"""
import numpy as np

from ..debugging.numerics import check_numerics
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from ..graph.graph import control_dependencies, get_default_graph, name_scope
from ..graph.grouping import group
from ..graph.variables import global_variables, local_variables
from ..ops.array_ops import identity, stack
from ..ops.query_ops import rank

__all__ = ["verify_tensor_all_finite", "add_check_numerics_ops", "assert_variables_initialized"]


def _one_of(name, value, old_name, old_value):
    if value is not None and old_value is not None:
        raise ValueError(f"tf.compat.v1.verify_tensor_all_finite: give '{name}' or "
                         f"'{old_name}', not both.")
    return value if value is not None else old_value


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """`t` once CheckNumerics passed on it; `x` and `message` are the later names of t and
    msg."""
    t, msg = _one_of("x", x, "t", t), _one_of("message", message, "msg", msg)
    if t is None or msg is None:
        raise ValueError("tf.compat.v1.verify_tensor_all_finite: give the tensor (x or t) and "
                         "the message (message or msg).")
    with name_scope(name, "VerifyFinite", [t]):
        checked = check_numerics(t, message=msg)
        with control_dependencies([checked]):
            return identity(t)


def add_check_numerics_ops():
    """A group op checking every floating-point tensor of the default graph for NaN and
    infinity, each with the message "<op name>:<output index>"."""
    if state.graph is None:
        raise RuntimeError("add_check_numerics_ops() is not compatible with eager execution. "
                           "To check for Inf's and NaN's under eager execution, call "
                           "tf.debugging.enable_check_numerics() once before executing the "
                           "checked operations.")
    graph = get_default_graph()
    checks = []
    for op in list(graph.get_operations()):
        for index, output in enumerate(op.outputs):
            if output.dtype.is_floating:
                with control_dependencies(checks[-1:]):
                    checks.append(check_numerics(output, f"{op.name}:{index}"))
    return group(*checks)


def assert_variables_initialized(var_list=None):
    """The ranks of var_list's variables (default: the global and local ones); None without
    variables."""
    if var_list is None:
        var_list = global_variables() + local_variables()
    if not var_list:
        return None
    ranks = [rank(v) if v.shape.rank is None else convert_to_tensor(np.int32(v.shape.rank))
             for v in var_list]
    return ranks[0] if len(ranks) == 1 else stack(ranks)
