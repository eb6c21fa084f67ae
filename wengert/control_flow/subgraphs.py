"""Sub-graphs for control flow: the branches of `cond` and the condition and body of `while_loop`.

In graph mode (a Session graph, or a `function` being traced) a conditional or a loop is ONE op of
the graph being built, and the code it runs lives in sub-graphs held by that op as attributes:

- `SubGraph` is a `Graph` whose inputs are placeholders. Tracing a branch or a loop body builds
  one: the Python function runs once with `state.graph` pointing at it, so every op it calls adds
  a node to the sub-graph. A tensor of an enclosing graph used inside (`x` in `lambda: x * 2`) is
  *captured*: the sub-graph gets a placeholder for it and remembers the outer tensor, which becomes
  an extra input of the control-flow op. Capturing goes through every enclosing sub-graph, so a
  cond inside a loop body inside a traced function works. Variables are read in the outer graph
  and captured the same way (their gradient flows through that read). Inside a traced function
  a sub-graph also reads them itself, when it runs (`ReadVariableInControlFlow`, whose gradient
  goes to the captured read), and may assign them: then the op holding it is stateful, runs in
  program order and passes the variable store down (cond.py).
- `SubGraph.run(arrays)` executes it with a compiled `Plan` (runtime/executor.py), built once.
- `vjp_graph(graph, ...)` builds the *gradient* of a sub-graph as another standalone sub-graph:
  its placeholders are the forward inputs and one incoming gradient per floating-point output; it
  recomputes the forward ops (by replaying them) and runs the one reverse pass
  (`backprop.backward`) over them, so its outputs are the vector-Jacobian product
  v -> v^T d(outputs)/d(inputs). Because it is built of ordinary ops, the gradient of a gradient
  is built the same way (second and higher order).
"""
import numpy as np

from ..autodiff.backprop import backward
from ..framework.context import state, state_scope
from ..framework.errors import InvalidArgumentError
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import READ_IN_CONTROL_FLOW, Variable, variable_op_name, watch_on_read
from ..graph.graph import Graph
from ..graph.symbolic import SymbolicTensor
from ..ops import broadcast_ops
from ..runtime.executor import compile_plan
from ..runtime.variable_store import LIVE_VARIABLES
from ..tracing.func_graph import PLACEHOLDER, placeholder_for, replay

__all__ = ["SubGraph", "trace", "vjp_graph", "spec_of"]


class SubGraph(Graph):
    """The graph of one branch, loop condition or loop body (see module docstring)."""

    def __init__(self, name, outer):
        super().__init__()
        self.name = name
        self.outer = outer          # the graph the control-flow op goes into (None: standalone)
        self.lifts_variables = getattr(outer, "lifts_variables", False)
        self.variable_class = getattr(outer, "variable_class", Graph.variable_class)
        self.inputs = []            # placeholders, in the control-flow op's input order
        self.outputs = []           # flat output tensors
        self.captures = []          # (outer tensor, placeholder) pairs, in capture order
        self._by_outer = {}         # id(outer tensor or original) -> placeholder
        self._outer_tapes = ()      # the tapes active when tracing began (for variable reads)
        self._plan = None

    # -- capturing ------------------------------------------------------------------------------
    def _capture(self, t):
        if isinstance(t, SymbolicTensor) and t.graph is self:
            return t
        if isinstance(t, Tensor):  # an eager tensor, or a tensor of an enclosing graph
            hit = self._by_outer.get(id(t))
            if hit is None:
                hit = self._capture_outer(t)
            return hit
        return super()._capture(t)  # plain values become constants

    def _capture_outer(self, t):
        outer = self.outer
        if outer is None:
            raise ValueError(f"Tensor {t!r} is used inside a standalone sub-graph '{self.name}' "
                             "that has no enclosing graph to capture it from.")
        outer_t = outer._capture(t)
        placeholder = self._new_placeholder(outer_t, f"capture_{len(self.captures)}")
        self.captures.append((outer_t, placeholder))
        self._by_outer[id(t)] = self._by_outer[id(outer_t)] = placeholder
        return placeholder

    def _new_placeholder(self, like, name):
        saved = state.graph
        state.graph = self
        try:
            return placeholder_for(self, like.dtype, like.shape, name)
        finally:
            state.graph = saved

    def capture_variable(self, var):
        """Read `var` in the enclosing graph and capture that read (so its gradient reaches the
        variable through the outer ReadVariableOp). Inside a traced function the captured read
        is only the gradient's path: the value comes from a read here, when the branch or body
        runs, so it sees assignments made before it in the branch and by earlier iterations."""
        hit = self._by_outer.get(id(var))
        if hit is None:
            outer = self.outer
            with state_scope(outer, self._outer_tapes, state.observers):
                read = outer.capture_variable(var) if outer is not None else var.read_value()
            hit = self._capture(read)
            self._by_outer[id(var)] = hit
        if not self.reads_locally:
            return hit
        watch_on_read(var)
        return self.create_op(READ_IN_CONTROL_FLOW, (var, hit), {}, variable_op_name(var) + "/read")

    @property
    def reads_locally(self):
        return self.lifts_variables

    def update_variable(self, var, op_def, value, name=None, read_value=True):
        """`var.assign(value)` (or assign_add/assign_sub) inside a branch or loop body of a
        traced function: a stateful op that runs each time the branch or body runs."""
        if not self.reads_locally:
            raise NotImplementedError(
                f"Assigning to variable '{var.name}' inside a cond branch or while_loop body is "
                "not supported in a TensorFlow 1 graph: return the new value from the branch "
                "(or make it a loop variable) and assign it after the cond/while_loop, or use "
                "tf.function.")
        value = convert_to_tensor(value, dtype=var.dtype)
        out = self.create_op(op_def, (var, value), {}, name or op_def.type)
        return out if read_value else out.op

    @property
    def touches_state(self):
        """True when running this graph reads or writes variables or has other effects."""
        return any(op.op_def.stateful for op in self._ops)

    def _enclosing_function_graph(self):
        graph = self
        while isinstance(graph, SubGraph):
            graph = graph.outer
        return graph

    @property
    def created_variables(self):
        graph = self._enclosing_function_graph()
        return graph.created_variables if graph is not None else []

    def lift_initial_value(self, initial_value, name=None):
        """A variable created in a branch or loop body of a traced function (an optimizer's
        slot on its first step, say) is lifted out of the function as from its body, when
        its initial value does not depend on the branch's or loop's tensors."""
        graph = self._enclosing_function_graph()
        if graph is None or not getattr(graph, "lifts_variables", False):
            raise ValueError("Creating a variable inside a cond branch or while_loop body is "
                             "not supported; create it outside the control flow.")
        if isinstance(initial_value, SymbolicTensor) and initial_value.graph is not graph:
            raise ValueError("A variable created inside a cond branch or loop body must not "
                             "take its initial value from tensors computed there; pass a "
                             "callable (or a value computed outside) as its initial value.")
        return graph.lift_initial_value(initial_value, name)

    def inputs_for(self, outer_tensors):
        """One placeholder per outer tensor, in that order (a new, unused one for a tensor this
        graph did not capture): two branches of one op then take the same inputs."""
        out = []
        for t in outer_tensors:
            hit = self._by_outer.get(id(t))
            if hit is None:
                hit = self._new_placeholder(t, f"unused_{len(out)}")
            out.append(hit)
        return out

    # -- running -----------------------------------------------------------------------------------
    def run(self, arrays, store=LIVE_VARIABLES):
        """The output arrays for input arrays `arrays` (one per `self.inputs`); variables are
        read and written through `store`. Stateful ops run even when no output needs them."""
        return (self._plan or self.plan()).run(arrays, store)

    def plan(self):
        """The compiled plan of this sub-graph (compiled on first use)."""
        if self._plan is None:
            effects = [op for op in self._ops if op.op_def.stateful]
            self._plan = compile_plan(self, self.outputs, effects, self.inputs)
        return self._plan

    def __repr__(self):
        return f"<wengert.SubGraph '{self.name}' with {len(self._ops)} ops>"

    def __reduce__(self):
        raise TypeError("control-flow sub-graphs are not picklable.")


def spec_of(t):
    """(dtype, shape) of a tensor."""
    return t.dtype, t.shape


def trace(name, fn, specs, outer, arg_builder=None):
    """Build a SubGraph by calling `fn` on placeholders of `specs` [(dtype, shape)].

    `arg_builder(placeholders)` turns the flat placeholders into fn's arguments (default: pass
    them positionally). Returns (graph, raw result of fn); the caller sets `graph.outputs`.
    Tapes are paused while tracing: the sub-graph's ops belong to the op, not to the tapes."""
    graph = SubGraph(name, outer)
    graph._outer_tapes = state.tapes
    with state_scope(graph):
        graph.inputs = [placeholder_for(graph, dtype, shape, f"input_{i}")
                        for i, (dtype, shape) in enumerate(specs)]
        args = arg_builder(graph.inputs) if arg_builder is not None else graph.inputs
        result = fn(*args)
    return graph, result


def output_tensor(graph, value, what):
    """A result leaf of a traced function as a tensor of `graph` (constants and captures too)."""
    saved = state.graph
    state.graph = graph
    try:
        if isinstance(value, Variable):
            return value._as_tensor(None)
        if isinstance(value, Tensor):
            return graph._capture(value)
        if value is None:
            raise TypeError(f"{what} returned None; it must return tensors (or values "
                            "convertible to tensors).")
        return convert_to_tensor(value)
    finally:
        state.graph = saved


# -- gradients of sub-graphs ----------------------------------------------------------------------
def vjp_graph(graph, needed, name):
    """A standalone SubGraph computing the gradient of `graph`'s outputs.

    Its inputs are graph.inputs' specs, then one gradient per floating-point output of `graph`;
    its outputs are the gradients of the inputs whose index is in `needed` (zeros where an input
    does not affect the outputs). Cached on `graph` per `needed`."""
    cache = graph.__dict__.setdefault("_vjp_cache", {})
    key = (name, tuple(needed))
    hit = cache.get(key)
    if hit is not None:
        return hit
    float_outs = [i for i, t in enumerate(graph.outputs) if t.dtype.is_differentiable]
    specs = [spec_of(t) for t in graph.inputs] + [spec_of(graph.outputs[i]) for i in float_outs]
    n_in = len(graph.inputs)

    def build(*placeholders):
        xs, seeds = list(placeholders[:n_in]), list(placeholders[n_in:])
        return vjp_ops(graph, xs, seeds, needed)
    grad, outputs = trace(name, build, specs, None)
    grad.outputs = outputs
    cache[key] = grad
    return grad


def fused_step(cond, body):
    """A SubGraph running `body` and then `cond` on its results: outputs body's outputs, then
    cond's predicate. A While loop calls its plan once per iteration instead of two plans (the
    loop's whole overhead is per-iteration calls). None when either graph has a stateful op
    (reads, assignments, prints keep their own plans and order). Cached on `body`."""
    cache = body.__dict__.setdefault("_fused_steps", {})
    hit = cache.get(id(cond))
    if hit is not None and hit[0] is cond:
        return hit[1]
    step = None
    if not any(op.op_def.stateful or not op.op_def.pure for g in (cond, body) for op in g._ops
               if op.op_def is not PLACEHOLDER):
        n_vars = len(body.outputs)

        def build(*xs):
            values = replay(body, body._ops, body.inputs, list(xs))
            outs = [values[id(t)] for t in body.outputs]
            checks = replay(cond, cond._ops, cond.inputs, outs + list(xs[n_vars:]))
            return outs + [checks[id(cond.outputs[0])]]
        step, outputs = trace(f"{body.name}_step", build, [spec_of(t) for t in body.inputs],
                              None)
        step.outputs = [output_tensor(step, o, "while step") for o in outputs]
    cache[id(cond)] = (cond, step)
    return step


def vjp_ops(graph, xs, seeds, needed, extra=None):
    """Inside the graph being built: replay `graph` on `xs` and return the gradients of the
    inputs listed in `needed` given `seeds` for its floating-point outputs (zeros for unconnected
    inputs). `extra(values)` may add more targets: it returns (targets, seeds)."""
    built = state.graph
    start = len(built._ops)
    values = replay(graph, graph._ops, graph.inputs, xs)
    outs = [values[id(t)] for t in graph.outputs]
    targets = [o for o in outs if o.dtype.is_differentiable]
    records = built._ops[start:]
    sources = [xs[i] for i in needed]
    grads = backward(records, targets, sources, list(seeds))
    return [broadcast_ops.zeros_like(s) if g is None else g for s, g in zip(sources, grads)]


def check_compatible(what, names, outputs_a, outputs_b):
    """Raise a clear error when two branches' flat outputs differ in dtype or shape."""
    for i, (a, b) in enumerate(zip(outputs_a, outputs_b)):
        if a.dtype is not b.dtype:
            raise TypeError(f"{what}: output {i} has dtype {a.dtype.name} in {names[0]} but "
                            f"{b.dtype.name} in {names[1]}; both branches must return the same "
                            "dtypes (use cast).")
        if not a.shape.is_compatible_with(b.shape):
            raise ValueError(f"{what}: output {i} has shape {a.shape} in {names[0]} but "
                             f"{b.shape} in {names[1]}; the shapes must be compatible.")


def most_specific_common_shape(shapes):
    """The shape every one of `shapes` fits (unknown where they differ)."""
    first = shapes[0]
    if first.rank is None or any(s.rank != first.rank for s in shapes):
        return TensorShape(None)
    return TensorShape(d if all(s[i] == d for s in shapes) else None
                       for i, d in enumerate(first))


def as_bool_scalar(value, what):
    """The Python bool of an eager predicate array (a clear error for a non-scalar)."""
    if type(value) is np.ndarray and not value.shape:  # the common case, inline
        return bool(value)
    array = np.asarray(value)
    if array.shape != ():
        raise InvalidArgumentError(f"{what}: the predicate must be a scalar, got shape "
                                   f"{array.shape}.")
    return bool(array)


__all__ += ["output_tensor", "vjp_ops", "check_compatible", "most_specific_common_shape",
            "as_bool_scalar"]
