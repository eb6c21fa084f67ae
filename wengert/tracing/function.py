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
anything else (Python numbers, strings, ..., compared by value); lists, tuples and dicts are
looked through. A call runs the trace made for its signature, or the most specific trace whose
shapes cover it (dispatch.py); otherwise it traces again (`experimental_get_tracing_count()`
counts them), so Python side effects such as `print` happen only while tracing.
`input_signature=[TensorSpec(...)]` (nested structures, string, ragged and sparse specs too)
fixes one trace (None dimensions accept any size) and rejects calls that do not match it;
`reduce_retracing=True` generalizes a new trace against the earlier ones, as TensorFlow does
(shapes (2,), (3,), (4,) trace (2,), then (None,)). A recursion that never ends while tracing
raises TensorFlow's StagingError (staging.py). `experimental_follow_type_hints` is deprecated in
TensorFlow 2.21 and has no effect there, nor here. The trace itself is a ConcreteFunction
(concrete_function.py).

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
import enum
import functools
import inspect
import types
import weakref

import numpy as np

from ..framework import dtypes
from ..framework.context import state, state_scope
from ..framework.device import settings as device_settings
from ..framework.tensor import array_of, is_eager_tensor
from ..framework.tensor_shape import TensorShape
from ..graph.graph import valid_name
from ..util import nest
from . import dispatch, function_type, signatures, staging
from .concrete_function import CALL_OBSERVERS, ConcreteFunction, conform, output_tensor
from .func_graph import FuncGraph, placeholder_for
from .signatures import TensorSpec, call_key, is_tensor_like

__all__ = ["function", "Function", "ConcreteFunction", "CALL_OBSERVERS"]

#: AUTOGRAPH[0](fn) is the function a trace runs for `fn` when autograph=True (wengert.autograph
#: sets it: AutoGraph sits above graph/ in the layers)
AUTOGRAPH = [None]


_MAX_LOOKUP = 4096  # call keys remembered per function (reset to the traces' own past this)


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None, name=None):
    """Compile `func` into a traced graph function (usable as `@function` or `@function(...)`).

    `autograph=True` converts Python control flow on tensors into cond/while_loop while
    tracing (wengert.autograph). The other options are checked as TensorFlow checks them (see
    _compiler_options) and change no result; any other keyword is a TypeError, as in
    TensorFlow, so a misspelt `input_signature` is not silently dropped."""
    relax = bool(reduce_retracing or experimental_relax_shapes)
    attributes = _compiler_options(jit_compile, experimental_compile, experimental_implements,
                                   experimental_attributes, experimental_autograph_options)
    del experimental_follow_type_hints  # deprecated; TensorFlow 2.21 never reads it either

    def decorate(fn):
        traced = Function(fn, input_signature, relax, name, autograph)
        traced._attributes = attributes
        return traced
    return decorate if func is None else decorate(func)


# the function attributes TensorFlow's tf.function accepts (its POLYMORPHIC_FUNCTION_ALLOWLIST)
_ATTRIBUTES = frozenset({
    "api_implements", "api_preferred_device", "_disable_acd", "disable_summaries_at_runtime",
    "go_backwards", "_implements", "experimental_ints_on_device", "_noinline",
    "function_runs_at_most_once", "runtime_constant_optimization", "_tf_data_function",
    "time_major"})


def _compiler_options(jit_compile, experimental_compile, implements, attributes,
                      autograph_options):
    """tf.function's options for TensorFlow's compilers, checked as TensorFlow checks them;
    returns the function's attributes ({"_implements": ...} and experimental_attributes).
    None changes a result: jit_compile (experimental_compile) has XLA compile the function,
    which computes the same values on a CPU; the attributes are hints for TensorFlow's graph
    rewriters and TFLite; autograph_options names optional AutoGraph features, and wengert's
    converter applies its one set of conversions whichever are named."""
    if jit_compile is not None and experimental_compile is not None:
        raise ValueError("Cannot specify both 'experimental_compile' and 'jit_compile'.")
    if autograph_options is not None and not isinstance(autograph_options, enum.Enum):
        frozenset(autograph_options)  # TensorFlow's TypeError for a non-iterable
    out = {} if implements is None else {"_implements": implements}
    for key, value in (attributes or {}).items():
        if key not in _ATTRIBUTES:
            raise ValueError(f"`{key} is not supported by tf.function as an attribute.")
        out[key] = value
    return out


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
        self._attributes = {}  # tf.function's experimental_implements / _attributes (hints)
        self._traced_function = None
        self._cache = {}   # key -> trace, in the order made (None: the input_signature's)
        self._lookup = {}  # call key -> the trace it runs (its own, or one covering it)
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

    @property
    def name(self):
        return self._name

    @property
    def function_type(self):
        """The Python parameters (typed by the input_signature, if any), before any trace."""
        return function_type.python_function_type(self._python_function,
                                                  self._input_signature, TensorSpec)

    def experimental_get_compiler_ir(self, *args, **kwargs):
        """XLA's text for a trace: wengert compiles no XLA."""
        raise NotImplementedError(f"{self._name}.experimental_get_compiler_ir: wengert does not "
                                  "compile functions with XLA (jit_compile has no effect).")

    def experimental_get_tracing_count(self):
        """How many times the Python function was traced."""
        return self._tracing_count

    def _list_all_concrete_functions(self):
        """The traces made so far, in the order they were made."""
        return list(self._cache.values())

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every trace's inputs, output and captures, as TensorFlow prints them."""
        return "\n\n".join(c.pretty_printed_signature(verbose)
                             for c in self._list_all_concrete_functions())

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
        key, tensors = call_key(args, kwargs, False)
        concrete = self._lookup.get(key)
        if concrete is None:
            concrete, tensors = self._bound_call(key, args, kwargs, tensors)
        return concrete._call(tensors)

    def get_concrete_function(self, *args, **kwargs):
        """The trace for these arguments (tensors or TensorSpecs), tracing it if needed."""
        if self._input_signature is not None:
            return self._cache.get(None) or self._trace_signature()
        key, tensors = call_key(args, kwargs, False)
        return self._lookup.get(key) or self._bound_call(key, args, kwargs, tensors)[0]

    def _bound_call(self, key, args, kwargs, tensors):
        """(trace, its tensor arguments) for a call not seen in this form: the arguments bound
        to the parameters with the defaults applied first, as TensorFlow keys a call, so f(x),
        f(x, 1) and f(x, y=1) of `def f(x, y=1)` share one trace. A call in its bound form is
        remembered under its own key; another form binds again on every call (its tensors
        must be put in the bound order)."""
        bound_args, bound_kwargs = self._bound_arguments(args, kwargs)
        bound_key, bound_tensors = call_key(bound_args, bound_kwargs, False)
        concrete = self._lookup.get(bound_key)
        if concrete is None:
            concrete = self._dispatch_or_trace(bound_key, bound_args, bound_kwargs,
                                               bound_tensors)
        return concrete, bound_tensors

    def _bound_arguments(self, args, kwargs):
        """(args, kwargs) with every parameter bound and its default applied; as given when
        they do not bind (the trace then raises Python's error for the call)."""
        signature = self.__dict__.get("_signature")
        if signature is None:
            try:
                signature = inspect.signature(self._python_function)
            except (TypeError, ValueError):
                return args, kwargs
            self._signature = signature
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return args, kwargs
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def _dispatch_or_trace(self, key, args, kwargs, tensors):
        """The trace that covers this call (dispatch.py), else a new one, generalized first
        with reduce_retracing; remembered under the call's key."""
        cover = dispatch.most_specific_cover(key, self._cache)
        if cover is not None:
            concrete = self._cache[cover]
        else:
            target = dispatch.generalize(key, self._cache) if self._reduce_retracing else key
            concrete = self._trace(target, args, kwargs, tensors)
        if len(self._lookup) > _MAX_LOOKUP:
            self._lookup = {k: c for k, c in self._cache.items() if k is not None}
        self._lookup[key] = concrete
        return concrete

    def _signature_tensors(self, args, kwargs):
        if kwargs:
            args = self._bind(args, kwargs)
        if len(args) != len(self._input_signature):
            raise TypeError(f"{self._name} was called with {len(args)} arguments, but its "
                            f"input_signature {self._input_signature} describes "
                            f"{len(self._input_signature)}.")
        flat = _flatten_up_to(self._input_signature, list(args))
        return [conform(v, s, i) for i, (v, s) in enumerate(zip(flat, self._flat_specs))]

    def _bind(self, args, kwargs):
        try:
            bound = inspect.signature(self._python_function).bind(*args, **kwargs)
        except TypeError as err:
            raise TypeError(f"{self._name}: {err}") from None
        return bound.args

    # -- tracing ----------------------------------------------------------------------------------
    def _trace_signature(self):
        derived = function_type.structured_names(self._python_function,
                                                 list(self._input_signature), {})
        specs = [(s.dtype, s.shape, s.name or _op_name(derived.get(id(s))), bool(s.name))
                 for s in self._flat_specs]
        concrete = self._build(specs, lambda leaves: (
            nest.pack_sequence_as(self._input_signature, leaves, True), {}), None)
        self._cache[None] = concrete
        return concrete

    def _trace(self, key, args, kwargs, tensors):
        """Trace for `key`: each tensor argument gets a placeholder of the key's shape."""
        specs, derived = [], function_type.structured_names(self._python_function, args, kwargs)
        for t, shape in zip(tensors, dispatch.tensor_shapes(key)):
            named = isinstance(t, TensorSpec) and bool(t.name)  # a spec's name names its input
            name = t.name if named else _op_name(derived.get(id(t)))
            specs.append((dtypes.as_dtype(t.dtype), TensorShape(shape), name, named))
        eager = all(is_eager_tensor(t) or isinstance(t, np.ndarray) for t in tensors)
        values = [array_of(t) if is_eager_tensor(t) else t for t in tensors] if eager else None
        concrete = self._build(specs, lambda placeholders: _substitute(
            args, kwargs, placeholders), values)
        self._cache[key] = concrete
        self._lookup[key] = concrete
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
        """One trace; a recursion that never ends raises StagingError from the outermost."""
        staging.tracing_depth.value += 1
        try:
            return self._trace_graph(specs, arguments, trace_values, allow_variable_creation)
        except RecursionError as err:
            if staging.tracing_depth.value > 1:
                raise
            raise staging.recursion_error(self._name, err) from None
        finally:
            staging.tracing_depth.value -= 1

    def _trace_graph(self, specs, arguments, trace_values, allow_variable_creation):
        graph = FuncGraph(self._name, allow_variable_creation=allow_variable_creation,
                          outer=state.graph)
        try:
            with state_scope(state.graph), graph.as_default():  # tapes wait while tracing
                graph.inputs = [placeholder_for(graph, dtype, shape, name or f"args_{i}")
                                for i, (dtype, shape, name, _) in enumerate(specs)]
                graph.spec_named = {id(p) for p, spec in zip(graph.inputs, specs) if spec[3]}
                graph.trace_values = trace_values
                args, kwargs = arguments(graph.inputs)
                graph.structured_input_signature = (tuple(args), dict(kwargs))
                graph.python_function = self._python_function
                outputs = self._function_to_trace()(*args, **kwargs)
                flat = [output_tensor(graph, o, self._name) for o in nest.flatten(outputs, True)]
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


def _op_name(name):
    """A placeholder name made of a parameter's name (and path), or None."""
    return None if name is None else valid_name(name)


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
