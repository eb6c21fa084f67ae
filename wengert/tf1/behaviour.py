"""TensorFlow 1's switches and scopes that have nothing to switch in wengert, kept so that the
programs calling them run: control flow is always one op holding its branches (TensorFlow's
"control flow v2"; `disable_control_flow_v2` changes no result, and `control_flow_v2_enabled`
reports what was asked), variables are always resource variables, and there is one device, so
`colocate_with` and `container` scope nothing (`disable_resource_variables` is accepted; tensors
compare elementwise with `==`, TensorFlow 2's tensor equality, which
`disable_tensor_equality` cannot switch off). The traceback-filtering and device-placement
logging switches of `tf.debugging` are recorded and reported back: wengert's errors name the
user's call without filtering, and its one device needs no placement log. Also `executing_eagerly_outside_functions`
(whether ops run eagerly once outside every `tf.function`), `op_scope` (TensorFlow 1's oldest
name scope) and `tables_initializer` (the group of the table initializers in the graph's
TABLE_INITIALIZERS collection)."""
import contextlib

from ..framework.context import state
from ..graph.collections import GraphKeys, get_collection
from ..graph.graph import name_scope
from ..graph.grouping import group
from ..tracing.func_graph import FuncGraph

__all__ = ["colocate_with", "container", "control_flow_v2_enabled", "disable_control_flow_v2",
           "enable_control_flow_v2", "executing_eagerly_outside_functions",
           "initialize_all_tables", "op_scope", "tables_initializer",
           "disable_resource_variables", "enable_tensor_equality", "disable_tensor_equality",
           "enable_traceback_filtering", "disable_traceback_filtering",
           "is_traceback_filtering_enabled", "set_log_device_placement",
           "get_log_device_placement"]


class _ControlFlow:
    v2 = True


class _Switches:
    traceback_filtering = True
    log_device_placement = False


def enable_control_flow_v2():
    """Control flow as single ops with sub-graphs (always so in wengert)."""
    _ControlFlow.v2 = True


def disable_control_flow_v2():
    """Accepted: wengert's control flow is the same either way; `control_flow_v2_enabled()`
    reports False afterwards, as TensorFlow's does."""
    _ControlFlow.v2 = False


def control_flow_v2_enabled():
    """Whether TensorFlow 2's control flow was asked for (the default)."""
    return _ControlFlow.v2


def executing_eagerly_outside_functions():
    """True when ops created outside every traced function run eagerly (False while a
    `Graph` is being built, or eager execution is disabled)."""
    graph = state.graph
    while isinstance(graph, FuncGraph):
        graph = graph.outer
    return graph is None


@contextlib.contextmanager
def op_scope(values, name, default_name=None):
    """TensorFlow 1's `op_scope(values, name, default_name)`: a `name_scope`."""
    with name_scope(name, default_name, values) as scope:
        yield scope


@contextlib.contextmanager
def colocate_with(op, ignore_existing=False):
    """Place ops with `op` (an op, tensor or variable; None clears, with ignore_existing=True):
    one device here, so the placement changes nothing."""
    if op is None and not ignore_existing:
        raise ValueError("colocate_with(None) needs ignore_existing=True (it clears the "
                         "colocation of the enclosing scopes).")
    yield


@contextlib.contextmanager
def container(container_name):
    """Stateful ops' resource container: one per process here; yields the name."""
    yield container_name


def tables_initializer(name="init_all_tables"):
    """One op running every lookup table's initializer in the graph."""
    return group(*get_collection(GraphKeys.TABLE_INITIALIZERS), name=name)


initialize_all_tables = tables_initializer


def disable_resource_variables():
    """Accepted: TensorFlow 1's reference variables read and update as resource variables do
    in every program wengert runs."""


def enable_tensor_equality():
    """`==` compares tensors elementwise and tensors are unhashable (always so here)."""


def disable_tensor_equality():
    """TensorFlow 1's `==` by identity and hashable tensors: not available."""
    raise NotImplementedError("tf.compat.v1.disable_tensor_equality: wengert's tensors always "
                              "compare elementwise with == (TensorFlow 2's rule); key "
                              "dictionaries by tensor.ref() and compare with `is`.")


def enable_traceback_filtering():
    """Record that tracebacks should hide TensorFlow's frames (the default)."""
    _Switches.traceback_filtering = True


def disable_traceback_filtering():
    """Record that tracebacks should show every frame."""
    _Switches.traceback_filtering = False


def is_traceback_filtering_enabled():
    """Whether traceback filtering was left on."""
    return _Switches.traceback_filtering


def set_log_device_placement(enabled):
    """Record whether to log the device of each op (one device here: nothing to log)."""
    _Switches.log_device_placement = bool(enabled)


def get_log_device_placement():
    """What set_log_device_placement recorded (False by default)."""
    return _Switches.log_device_placement
