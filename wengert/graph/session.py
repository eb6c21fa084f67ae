"""`Session`: runs the parts of a graph that fetches need, holding its own variable values.

`run(fetches, feed_dict)` accepts a tensor, an op, a variable, a tensor or op name, or any
list/tuple/dict nesting of them, and returns NumPy values in the same structure (None for ops).
Feeds are checked against the fed tensor's static shape and dtype before anything runs. The plan
for each (fetches, feeds) combination is compiled once and cached (see executor.py).
"""
import threading

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.operation import Operation
from ..framework.tensor import Tensor, to_array
from ..framework.variables import Variable
from ..util import nest
from .executor import compile_plan, uninitialized
from .graph import get_default_graph
from .variables import GraphVariable

__all__ = ["Session", "get_default_session", "InteractiveSession"]

_local = threading.local()


def get_default_session():
    stack = getattr(_local, "stack", [])
    if not stack:
        raise ValueError("No default session: use `with Session() as sess:` or pass "
                         "session= explicitly.")
    return stack[-1]


class _Store:
    """Variable values as one session sees them: graph variables here, eager ones live."""

    def __init__(self):
        self.values = {}

    def read(self, var):
        if isinstance(var, GraphVariable):
            try:
                return self.values[id(var)]
            except KeyError:
                raise uninitialized(var) from None
        return var._value

    def write(self, var, value):
        value = np.asarray(value, dtype=var.dtype.as_numpy_dtype)
        if isinstance(var, GraphVariable):
            self.values[id(var)] = value
        else:
            var._value = value


class Session:
    """Runs graph ops (TensorFlow 1's `tf.compat.v1.Session`)."""

    def __init__(self, target="", graph=None, config=None, optimize=True):
        self.graph = graph if graph is not None else get_default_graph()
        self._store = _Store()
        self._plans = {}
        self._optimize = optimize
        self._closed = False
        self._graph_ctx = None

    def __enter__(self):
        _local.stack = getattr(_local, "stack", []) + [self]
        self._graph_ctx = self.graph.as_default()
        self._graph_ctx.__enter__()
        return self

    def __exit__(self, *exc):
        self._graph_ctx.__exit__(*exc)
        _local.stack = [s for s in _local.stack if s is not self]
        self.close()
        return False

    def close(self):
        self._closed = True
        self._store = _Store()
        self._plans = {}

    def as_default(self):
        return _DefaultSession(self)

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        leaves = nest.flatten(fetches)
        resolved = [self._fetch(f) for f in leaves]
        feeds = self._feeds(feed_dict or {})
        tensors = [r for r in resolved if isinstance(r, Tensor)]
        ops = [r for r in resolved if isinstance(r, Operation)]
        key = (tuple(map(id, tensors)), tuple(map(id, ops)), tuple(id(t) for t, _ in feeds))
        plan = self._plans.get(key)
        if plan is None:
            plan = compile_plan(self.graph, tensors, ops, [t for t, _ in feeds], self._optimize)
            self._plans[key] = plan
        values = iter(plan.run([v for _, v in feeds], self._store))
        results = [_as_result(next(values)) if isinstance(r, Tensor) else None for r in resolved]
        return nest.pack_sequence_as(fetches, results) if nest.is_nested(fetches) else results[0]

    def _fetch(self, item):
        graph = self.graph
        if isinstance(item, str):
            return graph.get_tensor_by_name(item) if ":" in item else \
                graph.get_operation_by_name(item)
        if isinstance(item, GraphVariable):
            return item._snapshot
        if isinstance(item, Variable):
            with graph.as_default():
                return graph.capture_variable(item)
        if isinstance(item, Tensor):
            if getattr(item, "graph", None) is not graph:
                raise ValueError(f"Fetch {item!r} is not an element of this session's graph.")
            return item
        if isinstance(item, Operation):
            return item
        raise TypeError(f"Fetch argument {item!r} has invalid type {type(item).__name__}; fetch "
                        "tensors, operations, variables or their names.")

    def _feeds(self, feed_dict):
        feeds = []
        for key, value in feed_dict.items():
            tensor = self.graph.get_tensor_by_name(key) if isinstance(key, str) else key
            if not isinstance(tensor, Tensor) or getattr(tensor, "graph", None) is not self.graph:
                raise ValueError(f"Cannot feed {key!r}: feed_dict keys must be tensors of this "
                                 "session's graph (or their names).")
            feeds.append((tensor, _checked_feed(tensor, value)))
        return feeds


class InteractiveSession(Session):
    """A Session that makes itself the default when created."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.__enter__()


class _DefaultSession:
    def __init__(self, session):
        self.session = session

    def __enter__(self):
        _local.stack = getattr(_local, "stack", []) + [self.session]
        return self.session

    def __exit__(self, *exc):
        _local.stack = [s for s in _local.stack if s is not self.session]
        return False


def _checked_feed(tensor, value):
    if isinstance(value, Tensor) and not hasattr(value, "_shape"):
        value = value._value
    try:
        array = to_array(value, tensor.dtype)
    except TypeError as err:
        raise TypeError(f"Cannot feed a value to '{tensor.name}' (dtype "
                        f"{tensor.dtype.name}): {err}") from None
    if not tensor.shape.is_compatible_with(array.shape):
        raise InvalidArgumentError(f"Cannot feed a value of shape {array.shape} for tensor "
                                   f"'{tensor.name}', which has shape {tensor.shape}.")
    return array


def _as_result(value):
    value = np.asarray(value) if not isinstance(value, np.ndarray) else value
    return value[()] if value.ndim == 0 else value
