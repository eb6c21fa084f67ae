"""`Session`: runs the parts of a graph that fetches need, holding its own variable values.

`run(fetches, feed_dict)` accepts a tensor, an op, a variable, a tensor or op name, or any
list/tuple/dict nesting of them, and returns NumPy values in the same structure (None for ops).
Feeds are checked against the fed tensor's static shape and dtype before anything runs. The plan
for each (fetches, feeds) combination is compiled once and cached (see executor.py).

A Session also holds the resources its ops make (TF 1's queues and readers: `_Store.resources`);
closing it cancels their waiting calls. `RunOptions(timeout_in_ms=)` (or the config's
`operation_timeout_in_ms`) sets this thread's run deadline, which blocking kernels honour with
DeadlineExceededError. A plan keeps its state in the call's locals, so several threads may run
one Session at once (queue runners do).
"""
import time

import numpy as np

from ..framework.context import default_session, state
from ..framework.errors import InvalidArgumentError, UnimplementedError
from ..framework.operation import Operation
from ..framework.tensor import Tensor, array_of, is_eager_tensor, to_array
from ..framework.variables import Variable, variable_op_name
from ..framework.protos.session_config import ConfigProto, RunMetadata, RunOptions
from ..graph.graph import get_default_graph
from ..graph.variables import GraphVariable
from ..util import nest
from . import composite_fetches, partial_run
from .executor import compile_plan, uninitialized
from .variable_store import LIVE_VARIABLES

__all__ = ["Session", "get_default_session", "InteractiveSession"]

get_default_session = default_session  # the stack lives in framework.context.state
_PLAIN_FETCHES = (Tensor, Operation, str)  # fetches that are one value each, never a structure


class _Store:
    """Variable values as one session sees them: graph variables here, eager ones live.

    A graph variable's value is a read-only view of an array; plans and fetches get the view
    (fetches are copied for the caller), so the store alone writes the array. `owned` names the
    variables whose array the store made itself and has not lent to a stateful op."""

    def __init__(self):
        self.values = {}
        self.owned = set()
        self.resources = {}  # the session's queues and readers, by their spec

    def close(self):
        """Cancel the resources' waiting calls (a dequeue blocked on an empty queue)."""
        for resource in list(self.resources.values()):
            resource.end()

    def read(self, var):
        if isinstance(var, GraphVariable):
            try:
                return self.values[id(var)]
            except KeyError:
                raise uninitialized(var) from None
        return LIVE_VARIABLES.read(var)

    def write(self, var, value):
        value = np.asarray(value, dtype=var.dtype.as_numpy_dtype)
        if not var.shape.is_compatible_with(value.shape):
            raise InvalidArgumentError(
                f"Cannot assign a value of shape {value.shape} to variable "
                f"'{variable_op_name(var)}' of shape {var.shape}.")
        if isinstance(var, GraphVariable):
            self.owned.discard(id(var))
            if value.flags.writeable:  # an array the caller or a fetch may hold: keep a copy
                value = value.copy()
                self.owned.add(id(var))
            self.values[id(var)] = _read_only(value)
        else:
            LIVE_VARIABLES.write(var, value)

    def update(self, var, ufunc, value, in_place=False):
        """`var = ufunc(var, value)` (the AssignAdd/AssignSub kernels); returns the new value.
        With `in_place` (the plan holds no other reference to the variable's value) the store
        changes its own array when it made it."""
        if not isinstance(var, GraphVariable):
            return LIVE_VARIABLES.update(var, ufunc, value, in_place)
        key = id(var)
        current = self.values.get(key)
        if current is None:
            raise uninitialized(var)
        base = current.base
        if (in_place and key in self.owned and value.dtype == base.dtype
                and base.shape == current.shape and (value.shape == base.shape or not value.ndim)):
            ufunc(base, value, out=base)
            return current
        self.values[key] = _read_only(ufunc(current, value))
        self.owned.add(key)
        return self.values[key]

    def lend(self, var):
        """A fetched value or a stateful op may keep the variable's array."""
        if isinstance(var, GraphVariable):
            self.owned.discard(id(var))
        else:
            var._disown()


def _read_only(array):
    """A read-only view of `array`: plans and fetches may hold it; only the store writes."""
    view = np.asarray(array).view()  # ufuncs give 0-d results as NumPy scalars
    view.flags.writeable = False
    return view


def _check_proto(where, name, value, cls):
    """TypeError unless `value` is None or a `cls` message (TensorFlow's message for config)."""
    if value is not None and not isinstance(value, cls):
        raise TypeError(f"Argument `{name}` of {where} must be a tf.{cls.__name__}, but got "
                        f"\"{type(value).__name__}\"")


class Session:
    """Runs graph ops (TensorFlow 1's `tf.compat.v1.Session`)."""

    def __init__(self, target="", graph=None, config=None, optimize=True):
        _check_proto("Session", "config", config, ConfigProto)
        if target not in ("", b"", None):  # TensorFlow: a server's address, e.g. grpc://...
            raise UnimplementedError(
                f"Session: target={target!r} names a TensorFlow server to run the "
                "graph on; wengert runs graphs in this process only. Leave target='' (the "
                "default).")
        self.graph = graph if graph is not None else get_default_graph()
        self._store = _Store()
        self._plans = {}
        self._optimize = optimize
        self._timeout_ms = config.operation_timeout_in_ms if config is not None else 0
        self._closed = False
        self._graph_ctx = None

    def __enter__(self):
        state.sessions += (self,)
        self._graph_ctx = self.graph.as_default()
        self._graph_ctx.__enter__()
        return self

    def __exit__(self, *exc):
        self._graph_ctx.__exit__(*exc)
        state.sessions = tuple(s for s in state.sessions if s is not self)
        self.close()
        return False

    def close(self):
        self._closed = True
        self._store.close()
        self._store = _Store()
        self._plans = {}

    def as_default(self):
        return _DefaultSession(self)

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Values of `fetches` (same structure; None for ops) after feeding `feed_dict`."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        _check_proto("Session.run", "options", options, RunOptions)
        _check_proto("Session.run", "run_metadata", run_metadata, RunMetadata)
        nested = nest.is_nested(fetches)
        as_list = type(fetches) is list and all(isinstance(f, _PLAIN_FETCHES) for f in fetches)
        if as_list:  # a flat list: no structure to walk and rebuild
            flat, nested = fetches, False
        else:
            flat = nest.flatten(fetches) if nested else [fetches]
        rebuild = None
        if composite_fetches.has_composites(flat):
            flat, rebuild = composite_fetches.expand(flat)
        resolved = [self._fetch(f) for f in flat]
        fed, values = self._feeds(feed_dict) if feed_dict else ((), ())
        key = (tuple(map(id, resolved)), tuple(map(id, fed)))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._compile(resolved, fed)
        results = _results(plan, self._run_plan(plan, values, options))
        if rebuild is not None:
            results = rebuild(results)
        if nested:
            return nest.pack_sequence_as(fetches, results)
        return results if as_list else results[0]

    def partial_run_setup(self, fetches, feeds=None):
        """A handle for running `fetches` in steps fed from `feeds` (partial_run.py)."""
        return partial_run.setup(self, fetches, feeds)

    def partial_run(self, handle, fetches, feed_dict=None):
        """One step of the partial run `handle`: feed `feed_dict`, return `fetches`."""
        return partial_run.run_step(self, handle, fetches, feed_dict)

    def _run_plan(self, plan, values, options):
        """Run `plan` under this run's deadline (RunOptions or the config's timeout)."""
        timeout = options.timeout_in_ms if options is not None and options.timeout_in_ms \
            else self._timeout_ms
        if not timeout or timeout <= 0:
            return plan.run(values, self._store)
        saved = state.run_deadline
        state.run_deadline = time.monotonic() + timeout / 1000
        try:
            return plan.run(values, self._store)
        finally:
            state.run_deadline = saved

    def _compile(self, resolved, fed):
        tensors = [r for r in resolved if isinstance(r, Tensor)]
        ops = [r for r in resolved if isinstance(r, Operation)]
        plan = compile_plan(self.graph, tensors, ops, list(fed), self._optimize)
        plan.fetch_is_tensor = [isinstance(r, Tensor) for r in resolved]
        return plan

    def make_callable(self, fetches, feed_list=None):
        """A function running `fetches` with positional feeds for `feed_list` (faster than
        `run`: the plan and the fetch structure are resolved once)."""
        feeds = [self._fetch(f) for f in (feed_list or [])]
        nested = nest.is_nested(fetches)
        plan = self._compile([self._fetch(f) for f in (nest.flatten(fetches) if nested
                                                       else (fetches,))], feeds)

        def run(*values):
            if self._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            if len(values) != len(feeds):
                raise ValueError(f"This callable takes {len(feeds)} feeds, got {len(values)}.")
            arrays = [_checked_feed(t, v) for t, v in zip(feeds, values)]
            results = _results(plan, plan.run(arrays, self._store))
            return nest.pack_sequence_as(fetches, results) if nested else results[0]
        return run

    def _fetch(self, item):
        graph = self.graph
        if isinstance(item, str):
            try:
                return graph.get_tensor_by_name(item) if ":" in item else \
                    graph.get_operation_by_name(item)
            except KeyError as err:  # TensorFlow: a fetch that names nothing is a ValueError
                raise ValueError(f"Argument `fetch` = {item} cannot be interpreted as a Tensor "
                                 f"or Operation: {err.args[0]}") from None
        if isinstance(item, GraphVariable):
            return item._snapshot
        if isinstance(item, Variable):
            with graph.as_default():
                return graph.capture_variable(item)
        if isinstance(item, (Tensor, Operation)):
            if getattr(item, "graph", None) is not graph:
                raise ValueError(f"Fetch {item!r} is not an element of this session's graph.")
            graph.check_fetchable(item)  # prevent_fetching
            return item
        raise TypeError(f"Fetch argument {item!r} has invalid type {type(item).__name__}; fetch "
                        "tensors, operations, variables or their names.")

    def _feeds(self, feed_dict):
        """The fed tensors and their checked values, as two tuples."""
        tensors, values = [], []
        if composite_fetches.has_composites(feed_dict):
            feed_dict = composite_fetches.expand_feeds(feed_dict)
        for key, value in feed_dict.items():
            try:
                tensor = self.graph.get_tensor_by_name(key) if isinstance(key, str) else key
            except KeyError as err:
                raise ValueError(f"Cannot feed {key!r}: {err.args[0]}") from None
            if not isinstance(tensor, Tensor) or getattr(tensor, "graph", None) is not self.graph:
                raise ValueError(f"Cannot feed {key!r}: feed_dict keys must be tensors of this "
                                 "session's graph (or their names).")
            self.graph.check_feedable(tensor)  # prevent_feeding
            tensors.append(tensor)
            values.append(_checked_feed(tensor, value))
        return tensors, values


class InteractiveSession(Session):
    """A Session that makes itself the default when created."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.__enter__()


class _DefaultSession:
    def __init__(self, session):
        self.session = session

    def __enter__(self):
        state.sessions += (self.session,)
        return self.session

    def __exit__(self, *exc):
        state.sessions = tuple(s for s in state.sessions if s is not self.session)
        return False


def _checked_feed(tensor, value):
    """`value` as a new array of the tensor's dtype, or an error naming the tensor."""
    dtype = tensor.dtype
    if type(value) is np.ndarray and value.dtype == dtype._np:
        array = value.copy()  # the run owns its inputs (an assign may keep one)
    else:
        if isinstance(value, Tensor):
            if not is_eager_tensor(value):
                raise TypeError(f"Cannot feed the symbolic tensor {value!r} to "
                                f"'{tensor.name}': feed values must be NumPy arrays, Python "
                                "values or eager tensors.")
            value = array_of(value)
        try:
            array = to_array(value, dtype)
        except TypeError as err:
            array = _cast_feed(value, dtype, tensor, err)
    shape = tensor.shape
    if shape.rank is not None and (len(shape) != array.ndim or any(
            d is not None and d != n for d, n in zip(shape, array.shape))):
        raise InvalidArgumentError(f"Cannot feed a value of shape {array.shape} for tensor "
                                   f"'{tensor.name}', which has shape {shape}.")
    return array


def _cast_feed(value, dtype, tensor, err):
    """TensorFlow 1's Session converts a fed value as np.asarray(value).astype(dtype) does:
    floats fed to an integer placeholder truncate, numeric strings parse, and a string that is
    no number is NumPy's ValueError. A string placeholder takes only strings (`err`)."""
    where = f"Cannot feed a value to '{tensor.name}' (dtype {dtype.name})"
    if dtype.name != "string":
        try:
            return np.asarray(value).astype(dtype._np)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        except TypeError:
            pass
    raise TypeError(f"{where}: {err}") from None


def _results(plan, values):
    """The caller's values: None for fetched ops; 0-d arrays as NumPy scalars."""
    values = iter(values)
    return [_as_result(next(values)) if t else None for t in plan.fetch_is_tensor]


def _as_result(value):
    """A fetched value for the caller: 0-d as a NumPy scalar; arrays the plan or a variable
    keep (read-only) are copied, so changing a result changes nothing else."""
    if not isinstance(value, np.ndarray):
        value = np.asarray(value)
    if value.ndim == 0:
        return value[()]
    return value if value.flags.writeable else value.copy()
