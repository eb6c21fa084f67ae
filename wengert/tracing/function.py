"""`function`: TensorFlow 2's `tf.function`, tracing Python into a graph and running the graph.

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = ...
        ...

Tracing. On the first call for each *input signature* the Python function runs once, inside a
fresh `FuncGraph`, with a placeholder for every tensor argument: every op it calls adds a node
instead of computing. The signature of a call is, for each argument, its dtype and shape when it
is a tensor (Tensor or NumPy array), the variable itself for a Variable, and the value for
anything else (Python numbers, strings, ...); lists, tuples and dicts are looked through. A call
with a new signature traces again (`experimental_get_tracing_count()` counts them); Python side
effects such as `print` therefore happen only while tracing. `input_signature=[TensorSpec(...)]`
fixes one trace (None dimensions accept any size) and rejects calls that do not match it;
`reduce_retracing=True` traces once per dtype and rank, with unknown dimensions.

What the body sees. Eager tensors it closes over become constants of the graph. Eager variables
are captured by reference: each read is a `ReadVariableOp` on the Variable, run when the graph
runs, and `assign`/`assign_add`/`assign_sub` are stateful ops that write the variable every call
(see func_graph.py). A `tf.Variable` created in the body is lifted out (an ordinary eager
variable, initialized once) and allowed on the first trace only. Tapes and `gradients()` inside
the body build gradient nodes with the one reverse pass. With `autograph=True` (the default) the
Python function is converted first (wengert.autograph, registered in AUTOGRAPH): `if`, `while`
and `for` on tensors become cond/while_loop; with autograph=False, branching in Python on a
symbolic tensor raises an error that says to use `cond`/`while_loop`.

Running. Each trace is compiled once into a flat `Plan` (runtime/executor.py) that computes the
outputs and every stateful op; a call builds the signature key, looks the trace up in a dict, feeds
the argument arrays and wraps the results in Tensors: no graph walks per call.

Differentiating from outside. When a tape or a forward accumulator is active at call time, the
plan cannot be used (it computes numbers no tape sees). The traced ops are then replayed one by
one through the ordinary `execute`, so the tapes record ordinary ops and every registered
gradient rule applies: gradients with respect to the inputs, to captured tensors and to captured
variables match the eager computation exactly. A traced function called while another one is
being traced is inlined the same way, into the caller's graph.
"""
import functools
import inspect
import types
import weakref

import numpy as np

from ..framework import dtypes
from ..framework.context import state, state_scope
from ..framework.device import settings as device_settings
from ..framework.operation import Operation
from ..framework.tensor import Tensor, array_of, convert_to_tensor, is_eager_tensor, to_array
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..graph.graph import valid_name
from ..graph.symbolic import SymbolicTensor
from ..runtime.executor import compile_plan
from ..runtime.variable_store import LIVE_VARIABLES
from ..util import nest
from . import signatures
from .func_graph import FuncGraph, needed_ops, placeholder_for, replay
from .arguments import component_shapes, ragged_input_spec
from .signatures import TensorSpec, call_key, is_tensor_like

__all__ = ["function", "Function", "ConcreteFunction", "CALL_OBSERVERS"]

#: functions f(concrete_function) told of every call of a trace (tf.summary.trace_on uses it)
CALL_OBSERVERS = []

#: AUTOGRAPH[0](fn) is the function a trace runs for `fn` when autograph=True (wengert.autograph
#: sets it: AutoGraph sits above graph/ in the layers)
AUTOGRAPH = [None]


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None, name=None):
    """Compile `func` into a traced graph function (usable as `@function` or `@function(...)`).

    `autograph=True` converts Python control flow on tensors into cond/while_loop while
    tracing (wengert.autograph). `jit_compile` (`experimental_compile`) and the other
    `experimental_*` hints are accepted and have no effect; any other keyword is a TypeError,
    as in TensorFlow, so a misspelt `input_signature` is not silently dropped."""
    relax = bool(reduce_retracing or experimental_relax_shapes)

    def decorate(fn):
        return Function(fn, input_signature, relax, name, autograph)
    return decorate if func is None else decorate(func)


# -- signatures -------------------------------------------------------------------------------


# -- outputs ----------------------------------------------------------------------------------
def _output_tensor(graph, value, fn_name):
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
        parts = []
        for k in sorted(node):
            keys.append(k)
            parts.append((len(keys) - 1, _pack_expression(node[k], leaves, keys)))
        if any(p is None for _, p in parts):
            return None
        return "{" + ", ".join(f"K[{i}]: {p}" for i, p in parts) + "}"
    if nest.is_nested(node) or nest.is_composite(node):
        return None
    index = next(leaves)
    return "None" if index is None else f"T(v[{index}])"


class ConcreteFunction:
    """One trace: its graph, its compiled plan, and how to call it with flat tensor args."""

    def __init__(self, graph, structured_outputs, flat_outputs):
        self.graph = graph
        self.structured_outputs = structured_outputs
        fetches = [t for t in flat_outputs if t is not None]
        stateful = [op for op in graph._ops if op.op_def.stateful]
        self._flat_outputs = flat_outputs
        self._captured_inputs = [p for _, p in graph.outer_captures]
        self._plan = compile_plan(graph, fetches, stateful,
                                  list(graph.inputs) + self._captured_inputs)
        self._replay_ops = needed_ops(graph, fetches, stateful)
        self._pack = _packer(structured_outputs, flat_outputs)

    @property
    def inputs(self):
        return list(self.graph.inputs)

    @property
    def outputs(self):
        return [t for t in self._flat_outputs if t is not None]

    @property
    def structured_input_signature(self):
        """(args, kwargs) of the traced call, each input placeholder as a TensorSpec named
        after it; Python values as they were passed."""
        args, kwargs = getattr(self.graph, "structured_input_signature", None) or ((), {})
        inputs = {id(p) for p in self.graph.inputs}

        def spec(x):
            if id(x) in inputs:
                return TensorSpec(x.shape, x.dtype, x.op.name)
            return ragged_input_spec(x)
        return (nest.pack_sequence_as(args, [spec(x) for x in nest.flatten(args)]),
                {k: nest.pack_sequence_as(v, [spec(x) for x in nest.flatten(v)])
                 for k, v in kwargs.items()})

    @property
    def variables(self):
        return tuple(self.graph.variables)

    @property
    def trainable_variables(self):
        return tuple(v for v in self.graph.variables if v.trainable)

    def __call__(self, *args):
        """Call with one tensor per graph input (the flattened tensor arguments)."""
        if len(args) != len(self.graph.inputs):
            raise TypeError(f"This concrete function takes {len(self.graph.inputs)} tensor "
                            f"arguments, got {len(args)}.")
        return self._call([_conform(a, TensorSpec(p.shape, p.dtype), i)
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
            except ValueError:
                raise TypeError(
                    f"{outer!r} is out of scope and cannot be used here: {self.graph.name} "
                    "closed over it while tracing inside another function, whose graph is not "
                    "being built now. Use return values, or pass the tensor as an argument "
                    "(TensorFlow raises this TypeError too).") from None
        return values

    def __repr__(self):
        return f"<ConcreteFunction {self.graph.name} with {len(self.graph._ops)} ops>"


def _conform(value, spec, index):
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
        raise TypeError(f"Argument {index} (dtype {dtype.name}, shape {shape}) does not match "
                        f"the input_signature {spec}; pass a tensor of that dtype and shape "
                        "(cast or reshape it), or change the input_signature.")
    return value


class Function:
    """A Python function traced into graphs, one per input signature (`tf.function`)."""

    def __init__(self, python_function, input_signature=None, reduce_retracing=False,
                 name=None, autograph=True):
        if not callable(python_function):
            raise TypeError(f"function expects a callable, got {python_function!r}.")
        functools.update_wrapper(self, python_function)
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._reduce_retracing = reduce_retracing
        self._autograph = autograph
        self._traced_function = None
        self._cache = {}
        self._tracing_count = 0
        self._bound = weakref.WeakKeyDictionary()
        self._bound_by_id = {}
        self._input_signature = None
        if input_signature is not None:
            self._input_signature = list(input_signature)
            self._flat_specs = nest.flatten(self._input_signature, expand_composites=True)
            for spec in self._flat_specs:
                if not isinstance(spec, TensorSpec):
                    raise TypeError(f"input_signature must hold TensorSpecs, got {spec!r}.")

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self):
        """How many times the Python function was traced."""
        return self._tracing_count

    def _list_all_concrete_functions(self):
        """The traces made so far, in the order they were made."""
        return list(self._cache.values())

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every trace's inputs, output and captures, as TensorFlow prints them."""
        return signatures.pretty_printed_signatures(self, TensorSpec)

    @property
    def function_spec(self):
        """The Python signature calls are bound to (fullargspec, input_signature, ...)."""
        return signatures.function_spec(self)

    # -- methods: one Function per instance ---------------------------------------------------
    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:  # unhashable or not weakly referenceable
            bound = self._bound_by_id.get(id(instance))
        if bound is None:
            bound = Function(types.MethodType(self._python_function, instance),
                             self._input_signature, self._reduce_retracing, self._name,
                             self._autograph)
            try:
                self._bound[instance] = bound
            except TypeError:
                self._bound_by_id[id(instance)] = bound
        return bound

    # -- calling ----------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if device_settings.run_functions_eagerly:  # tf.config.run_functions_eagerly(True)
            return self._python_function(*args, **kwargs)
        if self._input_signature is not None:
            tensors = self._signature_tensors(args, kwargs)
            concrete = self._cache.get(None) or self._trace_signature()
            return concrete._call(tensors)
        key, tensors = call_key(args, kwargs, self._reduce_retracing)
        concrete = self._cache.get(key)
        if concrete is None:
            concrete = self._trace(key, args, kwargs, tensors)
        return concrete._call(tensors)

    def get_concrete_function(self, *args, **kwargs):
        """The trace for these arguments (tensors or TensorSpecs), tracing it if needed."""
        if self._input_signature is not None:
            return self._cache.get(None) or self._trace_signature()
        key, tensors = call_key(args, kwargs, self._reduce_retracing)
        return self._cache.get(key) or self._trace(key, args, kwargs, tensors)

    def _signature_tensors(self, args, kwargs):
        if kwargs:
            args = self._bind(args, kwargs)
        if len(args) != len(self._input_signature):
            raise TypeError(f"{self._name} was called with {len(args)} arguments, but its "
                            f"input_signature {self._input_signature} describes "
                            f"{len(self._input_signature)}.")
        flat = _flatten_up_to(self._input_signature, list(args))
        return [_conform(v, s, i) for i, (v, s) in enumerate(zip(flat, self._flat_specs))]

    def _bind(self, args, kwargs):
        try:
            bound = inspect.signature(self._python_function).bind(*args, **kwargs)
        except TypeError as err:
            raise TypeError(f"{self._name}: {err}") from None
        return bound.args

    # -- tracing ----------------------------------------------------------------------------------
    def _trace_signature(self):
        specs = [(s.dtype, s.shape, s.name) for s in self._flat_specs]
        concrete = self._build(specs, lambda leaves: (
            nest.pack_sequence_as(self._input_signature, leaves, True), {}), None)
        self._cache[None] = concrete
        return concrete

    def _trace(self, key, args, kwargs, tensors):
        relax = self._reduce_retracing
        specs, traced_shapes = [], component_shapes(args, kwargs)
        for t in tensors:
            shape = traced_shapes.get(id(t)) or TensorShape(t.shape)
            if relax and shape.rank is not None:
                shape = TensorShape((None,) * shape.rank)
            name = t.name if isinstance(t, TensorSpec) else None  # a spec's name names its input
            specs.append((dtypes.as_dtype(t.dtype), shape, name))
        eager = all(is_eager_tensor(t) or isinstance(t, np.ndarray) for t in tensors)
        values = [array_of(t) if is_eager_tensor(t) else t for t in tensors] if eager else None
        concrete = self._build(specs, lambda placeholders: _substitute(
            args, kwargs, placeholders), values)
        self._cache[key] = concrete
        return concrete

    def _build(self, specs, arguments, trace_values):
        """Trace the Python function with placeholders for `specs` (dtype, shape, name). A first
        trace that created variables is traced again at once, as TensorFlow does: the function
        must not create them again (a body that creates a variable on every call raises
        TensorFlow's ValueError now, instead of silently keeping the first call's variable)."""
        first = self._tracing_count == 0
        concrete = self._trace_once(specs, arguments, trace_values, first)
        if first and concrete.graph.created_variables:
            concrete = self._trace_once(specs, arguments, trace_values, False)
        return concrete

    def _trace_once(self, specs, arguments, trace_values, allow_variable_creation):
        graph = FuncGraph(self._name, allow_variable_creation=allow_variable_creation,
                          outer=state.graph)
        try:
            with state_scope(state.graph), graph.as_default():  # tapes wait while tracing
                graph.inputs = [placeholder_for(graph, dtype, shape, name or f"args_{i}")
                                for i, (dtype, shape, name) in enumerate(specs)]
                graph.trace_values = trace_values
                args, kwargs = arguments(graph.inputs)
                graph.structured_input_signature = (tuple(args), dict(kwargs))
                outputs = self._function_to_trace()(*args, **kwargs)
                flat = [_output_tensor(graph, o, self._name) for o in nest.flatten(outputs, True)]
        finally:
            graph.trace_values = None
        self._tracing_count += 1
        graph.structured_outputs, graph.outputs = outputs, flat
        return ConcreteFunction(graph, outputs, flat)

    def _function_to_trace(self):
        """The Python function, converted by AutoGraph when autograph=True (once)."""
        if self._traced_function is None:
            convert = AUTOGRAPH[0] if self._autograph else None
            self._traced_function = (convert(self._python_function) if convert is not None
                                     else self._python_function)
        return self._traced_function

    def __repr__(self):
        return f"<wengert.function {self._name}: {self._tracing_count} trace(s)>"


def _flatten_up_to(signature, args):
    """The values in `args` at the positions of the TensorSpecs in `signature`, in order."""
    flat, stack = [], [(signature, args)]
    while stack:
        spec, value = stack.pop()
        if isinstance(spec, TensorSpec) or nest.is_composite(spec):
            parts = nest.flatten(value, True) if nest.is_composite(spec) else [value]
            if nest.is_composite(spec) and not spec.is_compatible_with(value):
                raise TypeError(f"An argument {value!r:.80} does not match {spec}.")
            flat.extend(parts)
            continue
        if isinstance(spec, dict):
            if not isinstance(value, dict) or set(value) != set(spec):
                raise TypeError(f"An argument {value!r:.60} does not match the structure of "
                                f"the input_signature {spec}.")
            keys = sorted(spec)
            pairs = [(spec[k], value[k]) for k in keys]
        else:
            if not isinstance(value, (list, tuple)) or len(value) != len(spec):
                raise TypeError(f"An argument {value!r:.60} does not match the structure of "
                                f"the input_signature {spec}.")
            pairs = list(zip(spec, value))
        stack.extend(reversed(pairs))
    return flat


def _substitute(args, kwargs, placeholders):
    """`args`, `kwargs` with their tensor leaves replaced, in order, by `placeholders`."""
    it = iter(placeholders)

    def sub(x):
        if not nest.is_nested(x) and not nest.is_composite(x):
            return next(it) if is_tensor_like(x) else x
        leaves = [next(it) if is_tensor_like(leaf) else leaf for leaf in nest.flatten(x, True)]
        return nest.pack_sequence_as(x, leaves, True)
    new_args = [sub(a) for a in args]
    new_kwargs = {k: sub(kwargs[k]) for k in sorted(kwargs)}
    return new_args, new_kwargs
