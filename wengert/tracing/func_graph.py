"""`FuncGraph`: the graph a traced `function` builds, and running such a graph op by op.

A FuncGraph is a `Graph` with three differences, all about state that lives outside the graph:
- Eager variables are captured by reference. Every read of one is a fresh `ReadVariableOp` whose
  input is the Variable itself (never cached, so a read after an assign sees the new value:
  the graph's creation order is program order and the executor keeps it); `assign`,
  `assign_add` and `assign_sub` build the stateful `AssignVariableOp` family, which write the
  variable's value in place each time the graph runs.
- Variables created while tracing are lifted out: the initial value is computed now (eagerly,
  or by running the part of the graph it needs with this call's arguments) and the variable is an
  ordinary eager Variable. Creation is allowed on the first trace only, as in TensorFlow.
- Tapes opened inside the traced body record the graph's own ops, so `tape.gradient` inside the
  body builds gradient nodes with the one reverse pass.
- A function traced while another graph is built (a tf.function called inside another, or
  inside one's cond branch or loop body) may use that graph's tensors: each becomes a
  placeholder of its own (`outer_captures`), fed with the enclosing tensor when the function is
  inlined into the graph being built, so tapes there differentiate through it.

`replay(ops, ...)` runs recorded graph ops again through the ordinary `execute`: eagerly (when an
outer tape or a forward accumulator is listening, so it records ordinary ops and every registered
gradient rule applies) or into another graph (a traced function called while tracing another:
its graph is inlined into the caller's).
"""

from ..framework import dtypes
from ..framework.context import state, state_scope
from ..framework.execute import execute, record_op
from ..framework.float_errors import IGNORE, reset_errstate, set_errstate
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.variables import READ_VARIABLE, Variable, variable_op_name
from ..graph.graph import PLACEHOLDER, Graph, check_scope_name, valid_name
from ..graph.symbolic import SymbolicTensor
from ..runtime.executor import compile_plan
from ..runtime.variable_store import LIVE_VARIABLES

__all__ = ["FuncGraph", "init_scope", "replay", "needed_ops",
           "run_stateful_eagerly"]

_CREATE_ONCE = ("tf.function only supports singleton tf.Variables created on the first call. "
                "Make sure the tf.Variable is only created once or created outside tf.function "
                "(e.g. create it on the first call only: `if self.v is None: self.v = "
                "tf.Variable(...)`).")


def _out_of_scope(t):
    """TensorFlow's TypeError for a tensor of a graph outside this function's."""
    return (f"{t!r} is out of scope and cannot be used here. Use return values, explicit "
            "Python locals or TensorFlow collections to access it.\nPlease see "
            "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_"
            f"return_values for more information.\n\nThe tensor {t!r} cannot be accessed from "
            f"here, because it was defined in {t.graph!r}, which is out of scope. (A tf.function "
            "cannot close over a tensor of a tf.Graph built elsewhere: pass its value in as an "
            "argument, or build it inside the function.)")


def init_scope():
    """Leave any graph being built and any recording tape: code inside runs eagerly, unrecorded
    (how a traced function computes the initial value of a variable it creates)."""
    return state_scope(None)


class FuncGraph(Graph):
    """The graph of one trace of a `function`: placeholders in, structured outputs out."""

    lifts_variables = True
    variable_class = Variable  # lifted out: ordinary eager variables

    def __init__(self, name, allow_variable_creation=True, outer=None):
        super().__init__()
        self.name = name
        self.outer = outer             # the graph being built when tracing began (or None)
        self.outer_captures = []       # (tensor of an enclosing graph, placeholder standing for it)
        self._by_outer = {}
        self.inputs = []               # placeholders, one per tensor argument
        self.outputs = []              # flat output tensors (None where the output is None)
        self.structured_outputs = None
        self.variables = []            # eager variables the body read or wrote, in first-use order
        self.created_variables = []    # variables created (lifted) while tracing
        self.allow_variable_creation = allow_variable_creation
        self.trace_values = None       # this call's argument arrays, for lifted initial values
        self._variable_ids = set()

    # -- tensors of enclosing graphs ------------------------------------------------------------
    def _capture(self, t):
        if isinstance(t, SymbolicTensor) and t.graph is not self and self._encloses(t.graph):
            hit = self._by_outer.get(id(t))
            if hit is None:
                hit = placeholder_for(self, t.dtype, t.shape, f"capture_{len(self.outer_captures)}")
                self.outer_captures.append((t, hit))
                self._by_outer[id(t)] = hit
            return hit
        if isinstance(t, SymbolicTensor) and t.graph is not self and not self._inside(t.graph):
            raise TypeError(_out_of_scope(t))
        return super()._capture(t)

    def _inside(self, graph):
        """Whether `graph` is built inside this one (a loop body or branch of it)."""
        while graph is not None:
            if graph is self:
                return True
            graph = getattr(graph, "outer", None)
        return False

    def _encloses(self, graph):
        outer = self.outer
        while outer is not None:
            if outer is graph:
                return True
            outer = getattr(outer, "outer", None)
        return False

    # -- eager variables, by reference ----------------------------------------------------------
    def _note_variable(self, var):
        if id(var) not in self._variable_ids:
            self._variable_ids.add(id(var))
            self.variables.append(var)

    def capture_variable(self, var):
        """A fresh read of `var` (tapes that watch accessed variables start watching it)."""
        self._note_variable(var)
        for tape in state.tapes:
            if tape._watch_accessed and var._trainable:
                tape._watch_variable(var)
        return self.create_op(READ_VARIABLE, (var,), {}, valid_name(variable_op_name(var)) + "/read")

    def update_variable(self, var, op_def, value, name=None, read_value=True):
        """Build `var.assign(value)` (or assign_add/assign_sub) as a stateful op; returns the new
        value (a tensor), or the op when `read_value=False`."""
        self._note_variable(var)
        value = convert_to_tensor(value, dtype=var.dtype)
        out = self.create_op(op_def, (var, value), {}, name or op_def.type)
        return out if read_value else out.op

    # -- variables created while tracing --------------------------------------------------------
    def lift_initial_value(self, initial_value, name=None):
        """The initial value of a variable created in the traced body, as an eager value (its
        name, if given, must be a valid scope name, as TensorFlow checks while tracing)."""
        if not self.allow_variable_creation:
            raise ValueError(_CREATE_ONCE)
        if name is not None:
            check_scope_name(name, root=not self._scope)
        if callable(initial_value):
            with init_scope():
                initial_value = initial_value()
        if isinstance(initial_value, SymbolicTensor):
            initial_value = self._evaluate(initial_value)
        return initial_value

    def _evaluate(self, tensor):
        if tensor.graph is not self:
            raise ValueError(f"The initial value {tensor!r} of a variable belongs to another "
                             "graph; compute it inside this function or pass a callable.")
        fed = self.inputs if self.trace_values is not None else []
        try:
            plan = compile_plan(self, [tensor], [], fed)
        except Exception as err:  # noqa: BLE001 - explained below
            raise ValueError(
                f"Cannot compute the initial value {tensor!r} of a variable created inside a "
                f"traced function: {err}. Create the variable outside the function or from "
                "values that do not depend on symbolic arguments.") from None
        return plan.run(list(self.trace_values or []), LIVE_VARIABLES)[0]


# -- running graph ops again through execute ---------------------------------------------------
def needed_ops(graph, fetch_tensors, fetch_ops):
    """The graph's ops that `fetch_tensors`/`fetch_ops` depend on, in creation order."""
    need_tensor = {id(t) for t in fetch_tensors}
    need_op = {id(o) for o in fetch_ops}
    chosen = []
    for op in reversed(graph._ops):
        if id(op) not in need_op and not any(id(o) in need_tensor for o in op.outputs):
            continue
        chosen.append(op)
        need_tensor.update(id(t) for t in op.inputs)
        need_op.update(id(c) for c in op.control_inputs)
    chosen.reverse()
    return chosen


def replay(graph, ops, placeholders, args):
    """Run `ops` (from `graph`) through `execute`, with `args` standing for `placeholders`.

    Returns a dict id(graph tensor) -> the tensor computed for it now (eager, or in the graph
    being built). Eager tensors the graph captured as constants are replaced by the originals, so
    an outer tape that watches them sees the path."""
    values = {id(p): a for p, a in zip(placeholders, args)}
    for original, const in graph._captured.values():
        values[id(const)] = original
    for op in ops:
        if op.op_def is PLACEHOLDER or id(op.outputs[0] if op.outputs else op) in values:
            continue
        inputs = tuple(t if isinstance(t, Variable) else values[id(t)] for t in op.inputs)
        out = _replay_one(op, inputs)
        if op.op_def.num_outputs == 1:
            values[id(op.outputs[0])] = out
        elif op.outputs:
            for t, v in zip(op.outputs, out):
                values[id(t)] = v
    return values


def run_stateful_eagerly(op_def, inputs, attrs, name=None):
    """Run a stateful op now on the live variables (an assign, a summary, a cond or loop that
    touches variables), offering it to the tapes and forward accumulators as `execute` does."""
    arrays = [x if isinstance(x, Variable) else array_of(x) for x in inputs]
    token = set_errstate(IGNORE)
    try:
        out = op_def.kernel(LIVE_VARIABLES, *arrays, **attrs)
    finally:
        reset_errstate(token)
    for x in inputs:
        if isinstance(x, Variable):
            x._disown()  # the tensors made here may hold its array
    if op_def.num_outputs == 1:
        outputs = (Tensor(out),)
    else:
        outputs = tuple(Tensor(v, None, i) for i, v in enumerate(out))
    if state.tapes and op_def.differentiable:
        record_op(state.tapes, op_def, inputs, outputs, attrs, name)
    for hook in state.observers:
        hook(op_def, inputs, outputs, attrs, name)
    return outputs[0] if op_def.num_outputs == 1 else outputs


def _replay_one(op, inputs):
    if not op.outputs:  # NoOp, a grouping of control inputs: order is already creation order
        return execute(op.op_def, inputs, op.attrs, op.name) if state.graph is not None else None
    if op.op_def is READ_VARIABLE:
        return inputs[0]._as_tensor(None)
    stateful = op.op_def.stateful
    if stateful and state.graph is None:  # an assign, a summary, a cond touching variables
        return run_stateful_eagerly(op.op_def, inputs, op.attrs, op.name)
    graph = state.graph
    if op.gradient_override is not None and graph is not None:
        with graph.gradient_override_map({op.type: op.gradient_override}):
            return execute(op.op_def, inputs, op.attrs, op.name)
    out = execute(op.op_def, inputs, op.attrs, op.name)
    if op.gradient_override is not None and isinstance(out, Tensor) and out._op is not None:
        out._op.gradient_override = op.gradient_override
    return out


def placeholder_for(graph, dtype, shape, name):
    """A placeholder of `graph` for one tensor argument."""
    dtype = dtypes.as_dtype(dtype)
    shape = None if shape is None or shape.rank is None else tuple(shape)
    return graph.create_op(PLACEHOLDER, (), {"dtype": dtype.as_numpy_dtype, "shape": shape}, name)
