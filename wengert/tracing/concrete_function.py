"""`ConcreteFunction`: one trace of a `tf.function`, its graph and how to call it.

A trace is compiled once into a flat `Plan` (runtime/executor.py) that computes the outputs and
every stateful op; a call feeds the argument arrays and wraps the results in Tensors, with no
graph walk per call. When a tape or a forward accumulator is active at call time, or another
graph is being built, the traced ops are replayed one by one through the ordinary `execute`
(func_graph.replay), so tapes record ordinary ops and a caller's graph inlines this one.

What a trace took and returned reads as TensorFlow's: `structured_input_signature` (the
arguments bound to the Python signature, defaults filled in, each tensor a TensorSpec named as
TensorFlow names it), `structured_outputs` (the graph's output tensors in the returned
structure; a returned Python number is a constant tensor of the graph), `function_type` and
`pretty_printed_signature()` (function_type.py), `variables`, `trainable_variables` and
`captured_inputs` (the variables' handles, then the eager tensors and outer-graph tensors the body
closed over).
"""
import inspect

import numpy as np

from ..framework.operation import Operation
from ..framework.tensor import Tensor, array_of, convert_to_tensor, is_eager_tensor, to_array
from ..framework.tensor_shape import TensorShape
from ..framework.context import state
from ..framework.variables import Variable, variable_op_name
from ..graph.graph import valid_name
from ..graph.symbolic import SymbolicTensor
from ..runtime.executor import compile_plan
from ..runtime.variable_store import LIVE_VARIABLES
from ..util import nest
from . import function_type as types_of
from .arguments import ragged_input_spec
from .func_graph import needed_ops, replay
from .signatures import TensorSpec

__all__ = ["ConcreteFunction", "CALL_OBSERVERS", "output_tensor", "conform"]

#: functions f(concrete_function) told of every call of a trace (tf.summary.trace_on uses it)
CALL_OBSERVERS = []


# -- outputs ----------------------------------------------------------------------------------
def output_tensor(graph, value, fn_name):
    """An output of the traced body as a tensor of `graph` (None stays None)."""
    if value is None or isinstance(value, Operation):
        return None
    if isinstance(value, SymbolicTensor):
        if value.graph is not graph:
            raise ValueError(
                f"{fn_name} returned {value!r}, a tensor of another graph: it was made inside a "
                "loop or branch of the traced function (a converted while/for/if body, for "
                "instance appended to a Python list there) and is out of scope here. Return "
                "values of the loop or branch, or collect per-iteration values in a "
                "tf.TensorArray (TensorFlow raises InaccessibleTensorError for this).")
        return value
    if isinstance(value, Tensor):
        return graph._capture(value)
    if isinstance(value, Variable):
        return value._as_tensor(None)
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(
            f"To be compatible with tf.function, Python functions must return zero or more "
            f"Tensors or None values; in compilation of {fn_name}, found return value of type "
            f"{type(value).__name__} ({value!r:.60}), which is not a Tensor.") from None


def _packer(structure, flat_outputs):
    """A function from the plan's fetched arrays to eager Tensors in the output structure.

    Plain tuples, lists and str-keyed dicts get generated code (one expression, no walking),
    which holds numbered names only (a dict's keys are `K[i]`, never pasted in); other
    containers go through `nest.pack_sequence_as`."""
    positions, n = [], 0
    for t in flat_outputs:
        positions.append(None if t is None else n)
        n += t is not None
    if not nest.is_nested(structure) and not nest.is_composite(structure):
        if positions[0] is None:
            return lambda values: None
        return lambda values: Tensor(values[0])
    leaves, keys = iter(positions), []
    source = _pack_expression(structure, leaves, keys)
    if source is not None:  # noqa: S307 (below) - numbered names only, generated above
        return eval(f"lambda v, T=T, K=K: {source}", {"T": Tensor, "K": tuple(keys)})

    def pack(values):
        return nest.pack_sequence_as(structure, [
            None if i is None else Tensor(values[i]) for i in positions], True)
    return pack


def _pack_expression(node, leaves, keys):
    """Python source rebuilding `node` from the fetched values `v` (a dict's keys go to `keys`,
    the source says `K[i]`), or None if `node` holds a container other than a plain tuple, list
    or str-keyed dict."""
    if type(node) is tuple or type(node) is list:
        parts = [_pack_expression(child, leaves, keys) for child in node]
        if any(p is None for p in parts):
            return None
        inner = ", ".join(parts) + ("," if type(node) is tuple and len(parts) == 1 else "")
        return f"({inner})" if type(node) is tuple else f"[{inner}]"
    if type(node) is dict:
        if not all(type(k) is str for k in node):
            return None
        parts = {}  # leaves come in sorted key order; the dict keeps the returned order
        for k in sorted(node):
            keys.append(k)
            parts[k] = (len(keys) - 1, _pack_expression(node[k], leaves, keys))
        if any(p is None for _, p in parts.values()):
            return None
        return "{" + ", ".join(f"K[{i}]: {p}" for i, p in map(parts.get, node)) + "}"
    if nest.is_nested(node) or nest.is_composite(node):
        return None
    index = next(leaves)
    return "None" if index is None else f"T(v[{index}])"


class ConcreteFunction:
    """One trace: its graph, its compiled plan, and how to call it with flat tensor args."""

    def __init__(self, graph, structured_outputs, flat_outputs, targets=None):
        """`targets`: the ops a call runs besides those the outputs need (default: every
        stateful op, as tf.function runs them; wrap_function runs its control outputs only)."""
        self.graph = graph
        self.structured_outputs = nest.pack_sequence_as(structured_outputs, flat_outputs, True) \
            if nest.is_nested(structured_outputs) or nest.is_composite(structured_outputs) \
            else flat_outputs[0]
        fetches = [t for t in flat_outputs if t is not None]
        stateful = [op for op in graph._ops if op.op_def.stateful] if targets is None \
            else list(targets)
        self._flat_outputs = flat_outputs
        self._captured_inputs = [p for _, p in graph.outer_captures]
        self._plan = self._compile(fetches, stateful)
        self._replay_ops = needed_ops(graph, fetches, stateful)
        self._pack = _packer(structured_outputs, flat_outputs)

    def _compile(self, fetches, targets):
        return compile_plan(self.graph, fetches, targets,
                            list(self.graph.inputs) + self._captured_inputs)

    @property
    def inputs(self):
        return list(self.graph.inputs)

    @property
    def outputs(self):
        return [t for t in self._flat_outputs if t is not None]

    def _bound_arguments(self):
        args, kwargs = getattr(self.graph, "structured_input_signature", None) or ((), {})
        python = getattr(self.graph, "python_function", None)
        if python is None:
            return types_of.bound_parameters(None, args, kwargs)
        return types_of.bound_parameters(python, args, kwargs)

    @property
    def structured_input_signature(self):
        """(args, kwargs) of the traced call bound to the Python signature (defaults filled
        in), each input placeholder as a TensorSpec named as TensorFlow names it (the
        parameter's name, then the path into a nested argument); Python values as they are."""
        args, kwargs = getattr(self.graph, "structured_input_signature", None) or ((), {})
        python = getattr(self.graph, "python_function", None)
        names = types_of.structured_names(python, args, kwargs) if python is not None else {}
        inputs = {id(p) for p in self.graph.inputs}

        def spec(x):
            if id(x) in inputs:
                name = x.op.name
                if name.startswith("args_") and id(x) in names:
                    name = names[id(x)]
                return TensorSpec(x.shape, x.dtype, name)
            return ragged_input_spec(x)

        def specs(value):
            return nest.pack_sequence_as(value, [spec(x) for x in nest.flatten(value)])
        bound = self._bound_arguments()
        positional = tuple(specs(v) for _, kind, _, v in bound if int(kind) < 3)
        keyword = {name: specs(v) for name, kind, _, v in bound if int(kind) >= 3}
        return positional, keyword

    @property
    def function_type(self):
        """The parameters and output of this trace as TensorFlow types them (FunctionType): an
        input's spec keeps a name given in a TensorSpec, not the one TensorFlow derives."""
        inputs = {id(p) for p in self.graph.inputs}

        def spec(x):
            if id(x) not in inputs:
                return x
            named = id(x) in getattr(self.graph, "spec_named", ())
            return TensorSpec(x.shape, x.dtype, x.op.name if named else None)
        params = [types_of.Parameter(name, kind, optional, types_of.typed(
            nest.map_structure(spec, value), TensorSpec))
                  for name, kind, optional, value in self._bound_arguments()]
        return types_of.FunctionType(params, return_annotation=types_of.typed(
            self.structured_outputs, TensorSpec))

    def pretty_printed_signature(self, verbose=True):
        """This trace's inputs, output and captures as TensorFlow prints them; with
        verbose=False, its function_type on one line."""
        if not verbose:
            return repr(self.function_type)
        out = ["Input Parameters:"]
        for name, param in self.function_type.parameters.items():
            out.append(f"  {name} ({param.kind.name}): {param.type_constraint!r}")
        out += ["Output Type:", f"  {self.function_type.output!r}", "Captures:"]
        captured = [variable_op_name(v) + ":0" for v in self.variables]
        out += [f"  {name}" for name in captured] or ["  None"]
        return "\n".join(out)

    @property
    def captured_inputs(self):
        """The tensors this trace reads from outside: its variables' handles, the eager tensors
        it closed over, and the tensors of enclosing graphs it used."""
        handles = [getattr(v, "handle", v) for v in self.graph.variables]
        eager = [original for original, _ in self.graph._captured.values()]
        return handles + eager + [outer for outer, _ in self.graph.outer_captures]

    @property
    def name(self):
        return f"__inference_{self.graph.name}".encode()

    @property
    def output_dtypes(self):
        return nest.map_structure(lambda t: None if t is None else t.dtype,
                                  self.structured_outputs)

    @property
    def output_shapes(self):
        return nest.map_structure(lambda t: None if t is None else t.shape,
                                  self.structured_outputs)

    @property
    def variables(self):
        return tuple(self.graph.variables)

    @property
    def trainable_variables(self):
        return tuple(v for v in self.graph.variables if v.trainable)

    def __call__(self, *args, **kwargs):
        """Call as the Python function was called (keywords too; a Python value must be the
        one traced), or with one tensor per graph input (the flattened tensor arguments)."""
        if kwargs or (len(args) != len(self.graph.inputs) and
                      getattr(self.graph, "python_function", None) is not None):
            return self._call(self._structured_feeds(args, kwargs))
        if len(args) != len(self.graph.inputs):
            raise TypeError(f"This concrete function takes {len(self.graph.inputs)} tensor "
                            f"arguments, got {len(args)}.")
        return self._call([conform(a, TensorSpec(p.shape, p.dtype), i)
                           for i, (a, p) in enumerate(zip(args, self.graph.inputs))])

    def _call(self, args):
        if CALL_OBSERVERS:
            for observe in CALL_OBSERVERS:
                observe(self)
        st = state
        if st.tapes or st.observers or st.graph is not None or self._captured_inputs:
            return self._call_by_replay(args)
        feeds = [array_of(a) if is_eager_tensor(a) else np.array(a) for a in args]
        return self._pack(self._plan.run(feeds, LIVE_VARIABLES))

    def _call_by_replay(self, args):
        args = [a if isinstance(a, Tensor) else Tensor(a) for a in args]
        graph = state.graph
        placeholders = list(self.graph.inputs) + self._captured_inputs
        args = args + self._outer_values(graph)
        if graph is None:
            values = replay(self.graph, self._replay_ops, placeholders, args)
        else:
            with graph.name_scope(valid_name(self.graph.name)):
                values = replay(self.graph, self._replay_ops, placeholders, args)
        leaves = [None if t is None else values[id(t)] for t in self._flat_outputs]
        if not nest.is_nested(self.structured_outputs) and not nest.is_composite(
                self.structured_outputs):
            return leaves[0]
        return nest.pack_sequence_as(self.structured_outputs, leaves, True)

    def _outer_values(self, graph):
        """The tensors of the graph being built that stand for this trace's captures of an
        enclosing graph's tensors (an error when that graph is no longer being built)."""
        values = []
        for outer, _ in self.graph.outer_captures:
            try:
                if graph is None:
                    raise ValueError("no graph is being built")
                values.append(graph._capture(outer))
            except (ValueError, TypeError):
                raise TypeError(
                    f"{outer!r} is out of scope and cannot be used here: {self.graph.name} "
                    "closed over it while tracing inside another function, whose graph is not "
                    "being built now. Use return values, or pass the tensor as an argument "
                    "(TensorFlow raises this TypeError too).") from None
        return values

    def _structured_feeds(self, args, kwargs):
        """The feeds of a call bound to the Python signature: its tensors in the order of the
        graph's inputs; TensorFlow's TypeError for a Python value other than the traced one."""
        traced = {name: value for name, _, _, value in self._bound_arguments()}
        try:
            given = inspect.signature(self.graph.python_function).bind_partial(
                *args, **kwargs).arguments
        except TypeError as err:
            raise self._binding_error(err, args, kwargs) from None
        extra = [k for k, v in given.items() if k not in traced and v not in ((), {})]
        if extra:
            raise self._binding_error(f"no traced parameter {extra[0]!r}", args, kwargs)
        feeds, inputs = {}, {id(p): i for i, p in enumerate(self.graph.inputs)}
        for name, traced_value in traced.items():
            value = given.get(name, traced_value)
            want, got = nest.flatten(traced_value, True), nest.flatten(value, True)
            if len(want) != len(got):
                raise self._binding_error(f"Can not cast {value!r} to the traced structure",
                                          args, kwargs)
            for w, g in zip(want, got):
                if id(w) in inputs:
                    feeds[inputs[id(w)]] = conform(g, TensorSpec(w.shape, w.dtype),
                                                   inputs[id(w)])
                elif not _same_literal(w, g):
                    raise self._binding_error(f"Can not cast {g!r} to Literal[{w!r}]", args,
                                              kwargs)
        if len(feeds) != len(self.graph.inputs):
            raise self._binding_error("a tensor argument is missing", args, kwargs)
        return [feeds[i] for i in range(len(feeds))]

    def _binding_error(self, why, args, kwargs):
        return TypeError(f"Binding inputs to tf.function failed due to `{why}`. Received args: "
                         f"{args} and kwargs: {kwargs} for signature: {self.function_type}.")

    def pretty_text(self):
        return "ConcreteFunction " + self.pretty_printed_signature()

    __str__ = pretty_text

    def __repr__(self):
        return f"<ConcreteFunction {self.function_type} at 0x{id(self):X}>"


def _same_literal(traced, given):
    try:
        return bool(traced == given)
    except Exception:  # noqa: BLE001 - a value whose == does not give a bool
        return traced is given


def conform(value, spec, index):
    """`value` as a feed for an input of `spec`, or a TypeError saying how it differs."""
    if isinstance(value, Tensor):
        dtype, shape = value.dtype, value.shape
    else:
        try:
            value = to_array(value, spec.dtype)
        except TypeError as err:
            raise TypeError(f"Argument {index} does not match the input_signature {spec}: "
                            f"{err}") from None
        dtype, shape = spec.dtype, TensorShape(value.shape)
    if dtype is not spec.dtype or not spec.shape.is_compatible_with(shape):
        raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast "
                        f"{TensorSpec(shape, dtype)} to {spec}`: argument {index} (dtype "
                        f"{dtype.name}, shape {shape}) does not match the input_signature; pass "
                        "a tensor of that dtype and shape (cast or reshape it), or change the "
                        "input_signature.")
    return value
