"""`Graph`: ops recorded for later execution, with TensorFlow's names, scopes and collections.

Inside `with graph.as_default():` every op call (constants included) adds an Operation to the graph
instead of running: `execute` hands it to `Graph.create_op`, which runs the op's shape rule, so
shape and dtype errors surface when the node is built and name the op. The ops list is in creation
order, which is a topological order (an op's inputs exist before it), so the one reverse pass
(`autodiff.backprop.backward`) can walk it exactly as it walks a tape: that is how `gradients()`
extends a graph with gradient nodes.

Eager tensors used while building are captured as constants; variables are read through a
`ReadVariableOp` node whose input is the variable itself, so gradients with respect to variables
work the same way as on a tape.

Names follow TensorFlow's rules and are checked where they enter a graph: an op's full name
matches `[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*`, a scope opened at the root the same, a nested scope
`[A-Za-z0-9_.\\/>-]*`; anything else is a ValueError naming the name. (Names never enter the
executor's generated code; the check keeps graphs exportable and errors early, as in TF.)
Names made from an eager variable's or a function's name, which TF accepts freely, are mapped
onto the allowed characters (`valid_name`).
"""
import contextlib
import re
import threading

import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import InvalidArgumentError, OpError
from ..framework.execute import record_graph_op
from ..framework.op_dtype_constraints import check_input_dtypes
from ..framework.operation import Operation
from ..framework.registry import defop
from ..framework.runtime_options import eager_context_options
from ..framework.tensor import Tensor, array_of, to_array
from ..framework.tensor_shape import (TensorShape, disable_v2_tensorshape,
                                       enable_v2_tensorshape)
from ..framework.variables import READ_VARIABLE, variable_op_name
from ..ops.creation_ops import CONST
from .graph_elements import as_graph_element
from .placement_and_access import PlacementAndAccess
from .symbolic import SymbolicTensor, graph_of_tensors

__all__ = ["Graph", "get_default_graph", "reset_default_graph", "name_scope",
           "control_dependencies", "current_scope_name", "check_op_name", "check_scope_name",
           "valid_name"]

_OP_NAME = re.compile(r"[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*")
_SCOPE_NAME = re.compile(r"[A-Za-z0-9_.\\/>-]*")


def check_op_name(name):
    """`name` if it is a valid op (node) name, else ValueError naming it (TensorFlow's rule)."""
    if type(name) is not str or not _OP_NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a valid node name. Accepted names match "
                         f"^{_OP_NAME.pattern}$.")
    return name


def check_scope_name(name, root):
    """`name` if it is a valid name scope (`root`: opened outside any scope), else ValueError."""
    pattern = _OP_NAME if root else _SCOPE_NAME
    if type(name) is not str or not pattern.fullmatch(name):
        kind = "root scope name" if root else "scope name"
        raise ValueError(f"{name!r} is not a valid {kind}. A {kind} has to match the following "
                         f"pattern: ^{pattern.pattern}$")
    return name


def valid_name(name):
    """`name` with each character an op name may not hold replaced by '_' (prefixed by 'v' if it
    may not start one): for names TF accepts freely (an eager variable's, a Python function's)
    that become part of op names."""
    cleaned = re.sub(r"[^A-Za-z0-9_.\\/>-]", "_", str(name))
    return cleaned if _OP_NAME.fullmatch(cleaned) else "v" + cleaned


def _placeholder_kernel(dtype, shape):
    raise InvalidArgumentError("a placeholder must be fed")  # the executor names it first


def _raw_placeholder(dtype, shape=None, name=None):
    """tf.raw_ops.Placeholder: a graph input that must be fed (in a graph being built)."""
    if state.graph is None:
        raise RuntimeError("tf.raw_ops.Placeholder: a placeholder needs a graph being built "
                           "(`with tf.Graph().as_default():`); eagerly, pass the value itself.")
    shape = TensorShape(shape)
    return state.graph.create_op(PLACEHOLDER, (), {
        "dtype": dtypes.as_dtype(dtype).as_numpy_dtype,
        "shape": None if shape.rank is None else tuple(shape.as_list())}, name or "Placeholder")


PLACEHOLDER = defop("Placeholder", _placeholder_kernel,
                    shape=lambda dtype, shape: (TensorShape(shape), dtypes.as_dtype(dtype)),
                    grad=None, pure=False, raw=_raw_placeholder)
NO_OP = defop("NoOp", lambda: None, shape=lambda: [], grad=None, num_outputs=0, pure=False,
              raw=lambda name=None: None if state.graph is None else state.graph.create_op(
                  NO_OP, (), {}, name or "NoOp"))


def _foreign_tensor_message(t):
    where = getattr(t.graph, "name", None)
    if getattr(t.graph, "outer", False) is not False and where:  # a cond branch or loop body
        return (f"Tensor '{t.name}' was made inside '{where}', the graph of a cond branch or "
                "loop body, and cannot be used outside it: values leave a branch or loop only "
                "as its outputs or loop variables. (A Python list appended inside a TensorFlow "
                "loop does this: accumulate into a tf.TensorArray instead, ta = ta.write(i, "
                "value), and read ta.stack() after the loop.)")
    return (f"Tensor '{t.name}' belongs to another graph; ops can only combine tensors from "
            "the same graph.")


class Graph(PlacementAndAccess):
    """A dataflow graph: `get_operations()` in creation order, unique names, scopes, collections."""

    lifts_variables = False  # traced functions' graphs make eager variables (tracing/func_graph.py)
    variable_class = None    # what `Variable(...)` makes while this graph builds: GraphVariable
    graph_def_writer = None  # graph_def.py's as_graph_def (it imports the op families)
    #                          (graph/variables.py installs it), or for graphs that lift, Variable

    def __init__(self):
        self._ops = []
        self._by_name = {}
        self._name_counts = {}
        self._scope = ""
        self._override_map = {}
        self._control_deps = []
        self._collections = {}
        self._captured = {}      # id(eager tensor) -> (tensor, Const output)
        self._variable_reads = {}
        self._lock = threading.Lock()
        self._finalized = False
        self.seed = None

    # -- default graph ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def as_default(self):
        """Make this the graph that ops are added to (nestable; per thread)."""
        previous = state.graph
        state.graph = self
        try:
            yield self
        finally:
            state.graph = previous

    # -- names --------------------------------------------------------------------------------
    def unique_name(self, name, mark_as_used=True):
        full = f"{self._scope}{name}" if self._scope else name
        key = full.lower()
        count = self._name_counts.get(key, 0)
        unique = full if count == 0 else f"{full}_{count}"
        while unique.lower() in self._name_counts and count:
            count += 1
            unique = f"{full}_{count}"
        if mark_as_used:
            self._name_counts[key] = count + 1
            self._name_counts.setdefault(unique.lower(), 1)
        return unique

    @contextlib.contextmanager
    def name_scope(self, name):
        """Prefix op names with `name/` (uniquified: a second scope "a" is "a_1")."""
        previous = self._scope
        if name is None or name == "":
            self._scope = ""
        elif name.endswith("/"):  # an absolute scope, reentered
            check_scope_name(name[:-1], root=True)
            self._scope = name
        else:
            check_scope_name(name, root=not previous)
            self._scope = self.unique_name(name) + "/"
        try:
            yield self._scope
        finally:
            self._scope = previous

    def get_name_scope(self):
        return self._scope.rstrip("/")

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Within this block, new ops of type T use the gradient registered as op_type_map[T]."""
        previous = self._override_map
        self._override_map = {**previous, **op_type_map}
        try:
            yield
        finally:
            self._override_map = previous

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops created in this block run after `control_inputs` (ops or tensors)."""
        previous = self._control_deps
        if control_inputs is None:
            self._control_deps = []
        else:
            ops = [c if isinstance(c, Operation) else c.op for c in control_inputs]
            self._control_deps = previous + ops
        try:
            yield
        finally:
            self._control_deps = previous

    # -- building -------------------------------------------------------------------------------
    def finalize(self):
        """Make the graph read-only: adding an op afterwards raises (catches graphs that grow
        inside a training loop)."""
        self._finalized = True

    @property
    def finalized(self):
        return self._finalized

    def create_op(self, op_def, inputs, attrs, name=None):
        """Add one op; returns its output tensor (or tuple of them, or the op if it has none)."""
        if self._finalized:
            raise RuntimeError(f"Graph is finalized and cannot be modified (adding a "
                               f"{op_def.type} op). Build every op before the training loop.")
        inputs = tuple(self._capture(t) for t in inputs)
        absolute = type(name) is str and name.endswith("/")  # a scope's name, taken as is
        if name is not None:  # (op types are valid names) TensorFlow's rule for a given name
            check_op_name(name[:-1] if absolute else
                          self._scope + name if type(name) is str else name)
        if op_def.refused is not None:  # TensorFlow's dtype constraints, before any naming
            check_input_dtypes(op_def, inputs, name, graph=True)
        if absolute:
            op_name = name[:-1]
            self._name_counts.setdefault(op_name.lower(), 1)
        else:
            op_name = self.unique_name(name or op_def.type)
        specs = self._infer(op_def, inputs, attrs, op_name)
        op = Operation(op_def, inputs, (), attrs, op_name, graph=self)
        op.outputs = tuple(SymbolicTensor(op, i, shape, dtype)
                           for i, (shape, dtype) in enumerate(specs))
        op.gradient_override = self._override_map.get(op_def.type)
        op.control_inputs = tuple(self._control_deps)
        self._ops.append(op)
        self._by_name[op_name] = op
        if state.tapes:
            record_graph_op(state.tapes, op)
        if state.observers:  # forward-mode accumulators built inside the graph add tangent ops
            for hook in state.observers:
                hook(op_def, inputs, op.outputs, attrs, op_name)
        if op_def.num_outputs == 0:
            return op
        return op.outputs[0] if op_def.num_outputs == 1 else op.outputs

    def _infer(self, op_def, inputs, attrs, op_name):
        if op_def.shape is None:
            return [(None, inputs[0].dtype)] * op_def.num_outputs
        try:
            specs = op_def.shape(*inputs, **attrs)
        except OpError as err:
            raise type(err)(f"{op_def.type} (op '{op_name}'): {err.message}") from None
        except (TypeError, ValueError) as err:  # a rule's dtype check, or a rule's own bug
            raise type(err)(f"{op_def.type} (op '{op_name}') with inputs "
                            f"{[_spec(t) for t in inputs]}: {err}") from None
        if op_def.num_outputs == 1:
            return [specs]
        return list(specs)

    def _capture(self, t):
        if isinstance(t, SymbolicTensor):
            if t.graph is not self:
                raise ValueError(_foreign_tensor_message(t))
            return t
        if isinstance(t, Tensor):  # an eager tensor: becomes a constant of this graph
            hit = self._captured.get(id(t))
            if hit is None:
                hit = (t, self.constant(array_of(t), "Const"))
                self._captured[id(t)] = hit
            return hit[1]
        if isinstance(t, (np.ndarray, np.generic, int, float, bool)):  # a plain value
            return self.constant(to_array(t), "Const")
        return t  # a Variable, for ops that take variables (reads, assigns)

    def captured(self, tensor):
        """The tensor of this graph that stands for `tensor`: an eager tensor is captured (a
        constant of this graph, made once per tensor); a graph tensor or variable is itself."""
        return self._capture(tensor) if type(tensor) is Tensor else tensor

    def constant(self, array, name="Const"):
        return self.create_op(CONST, (), {"value": array}, name)

    def capture_variable(self, var):
        """A tensor reading `var` in this graph (one read node per variable and control scope)."""
        key = (id(var), tuple(id(c) for c in self._control_deps))
        hit = self._variable_reads.get(key)
        if hit is None or self._scope:
            with self.name_scope(valid_name(variable_op_name(var)) + "/"):
                hit = self.create_op(READ_VARIABLE, (var,), {}, "read")
            self._variable_reads[key] = hit
        return hit

    # -- looking things up ------------------------------------------------------------------------
    def get_operations(self):
        return list(self._ops)

    def get_operation_by_name(self, name):
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The graph has no operation named {name!r}.") from None

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """The tensor or op of this graph that `obj` is or names (graph_elements.py)."""
        return as_graph_element(self, obj, allow_tensor, allow_operation)

    def get_tensor_by_name(self, name):
        op_name, _, index = name.rpartition(":")
        if not op_name or not index.isdigit():
            raise ValueError(f"Tensor names look like 'op_name:0', got {name!r}.")
        op = self.get_operation_by_name(op_name)
        if int(index) >= len(op.outputs):
            raise KeyError(f"Operation {op_name!r} has {len(op.outputs)} outputs; no {name!r}.")
        return op.outputs[int(index)]

    # -- collections (graph/collections.py names the keys) ----------------------------------
    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        """Add `value` to each collection in `names` (a string is one name), once per name."""
        names = (names,) if isinstance(names, str) else set(names)
        for name in names:
            self.add_to_collection(name, value)

    def get_collection(self, name, scope=None):
        """A copy of the collection; with `scope`, only the items that have a `name` matching
        `scope` at its start as a regular expression (TensorFlow's `re.match`)."""
        items = list(self._collections.get(name, []))
        if scope:
            pattern = re.compile(scope)
            items = [v for v in items
                     if isinstance(getattr(v, "name", None), str) and pattern.match(v.name)]
        return items

    def get_collection_ref(self, name):
        """The collection's list itself (made empty if new): changes to it change the graph's."""
        return self._collections.setdefault(name, [])

    def get_all_collection_keys(self):
        return [k for k in self._collections if isinstance(k, str)]

    def clear_collection(self, name):
        self._collections.pop(name, None)

    @property
    def version(self):
        """How many ops the graph holds: it grows as ops are added (TensorFlow's counter)."""
        return len(self._ops)

    def as_graph_def(self, from_version=None, add_shapes=False):
        """The graph as TensorFlow's GraphDef protocol buffer (graph_def.py), which also gives
        a plain-data view with `as_dict()`. `add_shapes`: add each node's `_output_shapes`.
        `from_version`: only the nodes added after `self.version` was that number."""
        out = self.graph_def_writer(add_shapes=add_shapes)
        if from_version is not None:
            kept = {op.name for op in self._ops[int(from_version):]}
            keep = [n for n in out.node if n.name in kept or n.name.rsplit("/", 1)[0] in kept]
            del out.node[:]
            out.node.extend(keep)
        return out

    def __repr__(self):
        return f"<wengert.Graph with {len(self._ops)} ops>"


def _spec(t):
    return f"{t.dtype.name}{t.shape}" if hasattr(t, "dtype") else repr(t)


_DEFAULT = [Graph()]


def get_default_graph():
    """The graph being built in this thread, or the global default graph."""
    return state.graph if state.graph is not None else _DEFAULT[0]


def reset_default_graph():
    if state.graph is not None and state.graph is not _DEFAULT[0]:
        raise AssertionError("reset_default_graph: do not call it inside a graph's as_default().")
    _DEFAULT[0] = Graph()
    if state.graph is not None:
        state.graph = _DEFAULT[0]
    if type(state).graph is not None:  # eager execution disabled: new threads build here too
        type(state).graph = _DEFAULT[0]


class name_scope:  # noqa: N801 (TensorFlow's public name)
    """`with tf.name_scope("layer1") as scope:` prefixes the names of what is built inside.

    Building a graph, op names get the prefix (a second scope "a" becomes "a_1", as in TF).
    Eagerly, as in TensorFlow 2, the scope names variables ("layer1/w:0") and `scope` is the
    full prefix "layer1/", nested scopes appending to it; a name ending in "/" is absolute. TF 1's
    `name_scope(None, default_name="dense")` uses the default name, and its `values` (the op's
    inputs) choose the graph: inside, the graph of the graph tensors among them is the default
    (TensorFlow's ValueError when they come from two graphs). `.name` is the name given; the
    object can be entered again (tf.Module keeps one)."""

    def __init__(self, name, default_name=None, values=None):
        if name is None:
            name = default_name
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name_scope: name must be a string, got {name!r}.")
        self.name = name
        self._exits = []
        self._graph = graph_of_tensors(values)

    def __enter__(self):
        graph = self._graph
        entered = graph.as_default() if graph is not None and graph is not state.graph else None
        self._exits.append(entered and (lambda: entered.__exit__(None, None, None)))
        if entered is not None:
            entered.__enter__()
        return self._enter_scope()

    def _enter_scope(self):
        graph = state.graph
        if graph is None:
            previous = state.scope_name
            name = self.name
            if not name:
                scope = ""
            elif name.endswith("/"):
                scope = name
            else:
                scope = f"{previous}{name}/"
            state.scope_name = scope
            self._exits.append(lambda: setattr(state, "scope_name", previous))
            return scope
        context = graph.name_scope(self.name)
        scope = context.__enter__()
        self._exits.append(lambda: context.__exit__(None, None, None))
        return scope

    def __exit__(self, *exc):
        self._exits.pop()()
        leave_graph = self._exits.pop()
        if leave_graph is not None:
            leave_graph()
        return False


def current_scope_name():
    """The name prefix in effect now ("a/b/" or ""): the graph's while building one."""
    graph = state.graph
    return graph._scope if graph is not None else state.scope_name


def control_dependencies(control_inputs):
    return get_default_graph().control_dependencies(control_inputs)


def placeholder(dtype, shape=None, name=None):
    """A graph input that must be fed: `x = placeholder(tf.float32, [None, 784])`."""
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.compat.v1.placeholder() is not compatible with eager execution: "
                           "call tf.compat.v1.disable_eager_execution() first, or build inside "
                           "`with tf.Graph().as_default():`.")
    dtype = dtypes.as_dtype(dtype)
    if shape is not None and getattr(shape, "rank", 0) is None:  # TensorShape(None)
        shape = None
    shape = None if shape is None else tuple(None if d is None else int(d) for d in (
        [shape] if isinstance(shape, int) else shape))
    return graph.create_op(PLACEHOLDER, (), {"dtype": dtype.as_numpy_dtype, "shape": shape},
                           name or "Placeholder")


def disable_eager_execution():
    """Build graphs from now on (in every thread), as TensorFlow 1 did: ops go to the default
    graph, and `Session` runs them."""
    type(state).graph = get_default_graph()
    type(state).eager_disabled = True
    state.graph = type(state).graph


def disable_v2_behavior():
    """TensorFlow 1's behaviour: graphs and Session (`disable_eager_execution`) and dimensions
    as `Dimension` objects (`disable_v2_tensorshape`)."""
    disable_eager_execution()
    disable_v2_tensorshape()


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Run ops immediately again (the TensorFlow 2 default), with the eager context's options
    (framework/runtime_options.py: eager_context_options)."""
    eager_context_options(config, device_policy, execution_mode)
    type(state).graph = None
    type(state).eager_disabled = False
    state.graph = None
    state.eager_disabled = False


def enable_v2_behavior():
    """TensorFlow 2's behaviour again: eager execution and integer dimensions."""
    enable_eager_execution()
    enable_v2_tensorshape()
