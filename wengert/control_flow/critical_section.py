"""`tf.CriticalSection`: run a function under a lock, so that executions on one section never
overlap (TensorFlow's critical_section_ops.py).

    MutexV2()                   the section's mutex, a scalar variant holding it (TensorFlow's
                                handle is a resource; wengert has no resource dtype)
    MutexLock(mutex) -> lock    waits for the mutex and holds it; the lock is a scalar variant
    ConsumeMutexLock(lock)      releases it (no outputs)

`execute(fn)` locks, calls `fn()` with its ops after the lock, and releases the lock once fn's
outputs are computed; it returns `identity` of each output (Python values become tensors, None
stays None eagerly), built after the release. Eagerly the three ops run at once; in a graph (a
traced tf.function or a TF 1 Session) the plan runs ops in creation order, so fn's ops run
between MutexLock and ConsumeMutexLock, and two threads running the same section serialize.
A lock whose ConsumeMutexLock never runs (a failed step) is released when its value is freed,
as TensorFlow's lock is released when its tensor is destroyed.

TensorFlow's checks, with its messages: a nested `execute` on the section one is already
running in (a per-thread stack of signatures: container, shared name or the handle's id,
device) is a ValueError before anything is locked; building a graph, the variables that fn's ops
use are the execution's resources, and a variable used by executions of two sections, either of
which asked for exclusive_resource_access, is a ValueError. Eagerly `name` is TensorFlow's
AttributeError (an eager tensor has no op).
"""
import collections
import threading

from ..framework import dtypes
from ..framework.context import state
from ..framework.execute import execute
from ..framework.operation import Operation
from ..framework.registry import defop
from ..framework.tensor import Tensor, array_of
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..graph.graph import NO_OP, control_dependencies, name_scope
from ..ops import array_ops
from ..tracing.func_graph import init_scope
from ..util import nest

__all__ = ["CriticalSection", "MUTEX", "MUTEX_LOCK", "CONSUME_MUTEX_LOCK"]

CRITICAL_SECTIONS = "critical_sections"
CRITICAL_SECTION_EXECUTIONS = "critical_section_executions"
_EAGER_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


class _Mutex:
    """The lock a MutexV2 op hands out (one per section)."""

    def __init__(self, name):
        self.name = name
        self.lock = threading.Lock()

    def __repr__(self):
        return f"<Mutex {self.name!r}>"


class _Held:
    """A held mutex: releasing it (ConsumeMutexLock, or freeing the value) unlocks, once."""

    __slots__ = ("_lock",)

    def __init__(self, lock):
        self._lock = lock

    def release(self):
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.release()

    __del__ = release


def _mutex(store, *, mutex, shared_name=""):
    return dtypes.variant_array(mutex)


def _lock(store, handle):
    mutex = dtypes.variant_object(handle)
    mutex.lock.acquire()
    return dtypes.variant_array(_Held(mutex.lock))


def _consume(store, lock):
    dtypes.variant_object(lock).release()


def _variant_scalar(*inputs, **attrs):
    return TensorShape([]), dtypes.variant


def _no_outputs(*inputs, **attrs):
    return []


MUTEX = defop("MutexV2", _mutex, shape=_variant_scalar, grad=None, stateful=True,
              raw=lambda container="", shared_name="", name=None:
              CriticalSection(name=name, shared_name=shared_name or None)._handle)
MUTEX_LOCK = defop("MutexLock", _lock, shape=_variant_scalar, grad=None, stateful=True,
                   raw=lambda mutex, name=None: _run(MUTEX_LOCK, mutex, name))
CONSUME_MUTEX_LOCK = defop("ConsumeMutexLock", _consume, shape=_no_outputs, grad=None,
                           num_outputs=0, stateful=True,
                           raw=lambda mutex_lock, name=None: _run(CONSUME_MUTEX_LOCK,
                                                                  mutex_lock, name))


def _run(op_def, handle, name):
    """One mutex op: added to the graph being built, or run now."""
    if state.graph is not None:
        return execute(op_def, (handle,), {}, name)
    out = op_def.kernel(None, array_of(handle))
    return None if out is None else Tensor(out)


_STACK = threading.local()


def _stack():
    if not hasattr(_STACK, "value"):
        _STACK.value = []
    return _STACK.value


class _ExecutionSignature(collections.namedtuple(
        "_ExecutionSignature", ("op", "handle", "resources", "exclusive_resource_access"))):
    """One execution built into a graph: its lock op, section handle and variables."""


class CriticalSection:
    """A section whose `execute(fn)` calls never overlap (see the module docstring)."""

    def __init__(self, name=None, shared_name=None, critical_section_def=None,
                 import_scope=None):
        if critical_section_def and name is not None:
            raise ValueError(f"Arguments critical_section_def={critical_section_def} and "
                             f"shared_name={shared_name} are mutually exclusive. Please only "
                             "specify one of them.")
        if critical_section_def:
            raise ValueError("Argument `critical_section_def` is not supported.")
        del import_scope  # TensorFlow reads it only with a critical_section_def, refused above
        graph = state.graph
        if graph is not None and getattr(graph, "lifts_variables", False):
            with init_scope():  # a section made inside tf.function is made once, eagerly
                self._make(name, shared_name)
            return
        self._make(name, shared_name)

    def _make(self, name, shared_name):
        graph = state.graph
        with name_scope(name, "CriticalSection") as scope:
            mutex = _Mutex(scope.rstrip("/") or "CriticalSection")
            # eagerly TensorFlow's v1 name scope is "", so the default shared name is too
            default = scope if graph is not None else ""  # "cs1/", as TensorFlow's
            shared = shared_name if shared_name is not None else default
            attrs = {"mutex": mutex, "shared_name": shared}
            if graph is None:
                self._handle = Tensor(_mutex(None, **attrs))
                device = _EAGER_DEVICE
            else:
                self._handle = execute(MUTEX, (), attrs, scope)
                device = None  # no device or colocation set
        self._signature = ("", shared or id(self._handle), device)
        if graph is not None:
            graph.add_to_collection(CRITICAL_SECTIONS, self)

    @property
    def name(self):
        if state.graph is None and self._handle.op is None:
            raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
        return self._handle.op.name

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """`fn()`'s outputs, computed while this section's lock is held."""
        with name_scope(name, "critical_section_execute"):
            stack = _stack()
            if self._signature in stack:
                raise ValueError(
                    f"Attempting to lock a CriticalSection (signature={self._signature}) in "
                    "which we are already running. This is illegal and may cause deadlocks.")
            stack.append(self._signature)
            try:
                if state.graph is None:
                    return self._execute_eagerly(fn)
                return self._execute_in_graph(fn, exclusive_resource_access)
            finally:
                stack.pop()

    def _execute_eagerly(self, fn):
        lock = _run(MUTEX_LOCK, self._handle, None)
        try:
            r = fn()
        finally:
            _run(CONSUME_MUTEX_LOCK, lock, None)
        return nest.map_structure(lambda x: None if x is None else array_ops.identity(x), r)

    def _execute_in_graph(self, fn, exclusive_resource_access):
        graph = state.graph
        lock = execute(MUTEX_LOCK, (self._handle,), {}, "MutexLock")
        before = len(graph.get_operations())
        with control_dependencies([lock]):
            r = fn()
        created = graph.get_operations()[before:]
        resources = _resources(created)
        self._check_multiple_access_to_resources(graph, resources, exclusive_resource_access)
        flat = [_identity(x) for x in nest.flatten(r)]
        with control_dependencies([x for x in flat if x is not None]):
            consumed = execute(CONSUME_MUTEX_LOCK, (lock,), {}, "ConsumeMutexLock")
        with control_dependencies([consumed]):
            outputs = nest.pack_sequence_as(r, [_identity(x) for x in flat])
        graph.add_to_collection(CRITICAL_SECTION_EXECUTIONS, _ExecutionSignature(
            lock.op, self._handle, list(resources.values()), exclusive_resource_access))
        return outputs

    def _check_multiple_access_to_resources(self, graph, resources, exclusive_resource_access):
        for sg in graph.get_collection(CRITICAL_SECTION_EXECUTIONS):
            if sg.handle is self._handle:
                continue  # other executions in the same section are allowed
            if not (exclusive_resource_access or sg.exclusive_resource_access):
                continue
            shared = [r for r in sg.resources if id(r) in resources]
            if shared:
                raise ValueError(
                    f"This execution would access resources: {shared}. Either this lock "
                    f"(CriticalSection: {self._handle}) or lock '{sg}' (CriticalSection: "
                    f"{sg.handle}) requested exclusive resource access of this resource. Did "
                    "you mean to call execute with keyword argument "
                    "exclusive_resource_access=False?")


def _resources(ops):
    """id -> variable for every variable an op in `ops` takes as an input."""
    return {id(x): x for op in ops for x in op.inputs if isinstance(x, Variable)}


def _identity(x):
    """TensorFlow's identity of an execute output: an op becomes a grouping of it."""
    if x is None:
        return None
    if isinstance(x, Operation):
        with control_dependencies([x]):
            return execute(NO_OP, (), {}, "group_deps")
    return array_ops.identity(x)

