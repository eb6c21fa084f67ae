"""`wengert.compat.v1`: the TensorFlow 1 style names (placeholders, Session, initializers).

Everything at wengert's top level is here too, so `import wengert.compat.v1 as tf` runs TF 1 code:
wengert/__init__.py adds its names when it has defined them all (`_include_top_level`), so this
module never imports the package that imports it.
"""
import builtins  # (the top level's names join this module's globals: tf.tuple, tf.abs, ...)

from ..framework.context import state
from ..graph import graph as _graph_module
from ..graph.graph import PLACEHOLDER, get_default_graph, reset_default_graph  # noqa: F401
from ..runtime.session import InteractiveSession, Session, get_default_session  # noqa: F401
from ..graph.variables import (global_variables, global_variables_initializer,  # noqa: F401
                               trainable_variables, variables_initializer)
from .. import train  # noqa: F401,E402  (compat.v1.train: the TF 1 optimizers)
from ..summary import v1 as summary  # noqa: F401  (compat.v1.summary.FileWriter)
from . import v1_nn as nn  # noqa: F401  (compat.v1.nn: tf.nn plus TF 1's extra names)
from ..ops.image import v1 as image  # noqa: F401  (compat.v1.image: TF 1's resize ops)
from ..framework import dtypes as _dtypes


def placeholder(dtype, shape=None, name=None):
    """A graph input that must be fed: `x = placeholder(tf.float32, [None, 784])`."""
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.compat.v1.placeholder() is not compatible with eager execution: "
                           "call tf.compat.v1.disable_eager_execution() first, or build inside "
                           "`with tf.Graph().as_default():`.")
    dtype = _dtypes.as_dtype(dtype)
    if shape is not None and getattr(shape, "rank", 0) is None:  # TensorShape(None)
        shape = None
    shape = None if shape is None else builtins.tuple(None if d is None else int(d) for d in (
        [shape] if isinstance(shape, int) else shape))
    return graph.create_op(PLACEHOLDER, (), {"dtype": dtype.as_numpy_dtype, "shape": shape},
                           name or "Placeholder")


def disable_eager_execution():
    """Build graphs from now on (in every thread), as TensorFlow 1 did: ops go to the default
    graph, and `Session` runs them."""
    type(state).graph = _graph_module.get_default_graph()
    type(state).eager_disabled = True
    state.graph = type(state).graph


disable_v2_behavior = disable_eager_execution


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Run ops immediately again (the TensorFlow 2 default)."""
    type(state).graph = None
    type(state).eager_disabled = False
    state.graph = None
    state.eager_disabled = False


enable_v2_behavior = enable_eager_execution


def executing_eagerly():
    return state.graph is None


def _include_top_level(namespace):
    """Add wengert's public top-level names (`namespace`: wengert/__init__.py's globals) that
    this module does not define itself. They shadow Python's builtins of the same name (tuple,
    abs, range, round...) in this module: its code spells those `builtins.x`."""
    here = globals()
    for name, value in namespace.items():
        if not name.startswith("_") and name not in here:
            here[name] = value
