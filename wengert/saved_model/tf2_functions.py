"""The functions of a SavedModel that TensorFlow 2 wrote, callable in wengert as TensorFlow's
loader makes them.

Each trace (SavedConcreteFunction) becomes a wengert traced function of its tensor arguments
(`trace`): its FunctionDef's body built by function_import.py, the trace's captured inputs
(`bound_inputs`) bound to the restored Variables, so a call reads their current values and a
GradientTape sees them. Its argument nest ((args...), {kwargs}) and output nest are the saved
structures (structured_nests.py); the flat tensor arguments are the TensorSpec leaves in nest
order (dict keys sorted), as TensorFlow flattens them, a RaggedTensorSpec leaf standing for its
components (flat_values, then the row_splits from the outermost) and a SparseTensorSpec leaf
for its indices, values and dense_shape. A call gives such an argument a RaggedTensor (or
SparseTensor) of the spec's dtype, ragged rank and a compatible shape. Outputs are tensors,
Python values, and RaggedTensors and SparseTensors rebuilt from their components, which the
FunctionDef returns in the same order (composite_values.py).

`RestoredFunction` (a SavedFunction: a tf.function attribute) calls as TensorFlow's restored
functions do: the arguments are bound to the saved Python signature (FunctionSpec's FullArgSpec,
`self` left out of a method, defaults applied; a FullArgSpec that holds no argument names binds
the call as given; arguments the saved input signature gives a TensorSpec converted to tensors), then the first trace whose argument nest matches
is called: the same structure, each TensorSpec leaf given a tensor of its dtype and a compatible
shape, each other leaf equal to the saved Python value. A first pass takes only tensors for
TensorSpec leaves; a second converts other values (NumPy arrays, numbers) to tensors. The result
is the saved output nest with the trace's tensors in it.

`BareFunction` (a SavedBareConcreteFunction, a single trace saved on its own) takes its tensor
arguments by the saved keywords, the first `allowed_positional_arguments` also by position.
"""
import inspect

from ..framework.errors import InvalidArgumentError
from ..framework.tensor import Tensor, convert_to_tensor
from ..tracing.function import function
from ..tracing.signatures import TensorSpec
from ..util import nest
from .composite_values import COMPOSITE_SPECS, components, composite_parts, pack
from .structured_nests import python_nest

__all__ = ["Trace", "trace", "RestoredFunction", "BareFunction", "python_signature"]


class Trace:
    """One saved trace: its wengert concrete function and its argument and output nests."""

    def __init__(self, name, concrete, inputs, outputs):
        self.name, self.concrete = name, concrete
        self.inputs, self.outputs = inputs, outputs

    @property
    def structured_input_signature(self):
        return self.inputs

    @property
    def structured_outputs(self):
        return self.outputs

    def call_flat(self, tensors):
        result = self.concrete._call(list(tensors))
        leaves = [t for t in nest.flatten(result) if t is not None]
        filled = pack(nest.flatten(self.outputs), leaves)
        return nest.pack_sequence_as(self.outputs, filled) if nest.is_nested(
            self.outputs) else filled[0]

    def __call__(self, *args, **kwargs):
        flat = match(self.inputs, (args, kwargs), convert=True)
        if flat is None:
            raise TypeError(f"Trace '{self.name}' takes {self.inputs}; got args {args!r:.100} "
                            f"kwargs {kwargs!r:.100}.")
        return self.call_flat(flat)


def input_specs(saved):
    """(argument nest, output nest, flat TensorSpecs) of a SavedConcreteFunction."""
    inputs = python_nest(saved.canonicalized_input_signature)
    outputs = python_nest(saved.output_signature)
    if not (isinstance(inputs, tuple) and len(inputs) == 2):
        inputs = (tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,), {})
    specs = [c for s in nest.flatten(inputs) for c in components(s)]
    return inputs, outputs, specs


def trace(library, name, saved, captured):
    """The Trace of the library function `name` (SavedConcreteFunction `saved`), its captured
    inputs bound to `captured` (Variables or tensors)."""
    inputs, outputs, specs = input_specs(saved)
    args = library.functions[name].signature.input_arg
    if len(args) != len(specs) + len(captured):
        raise InvalidArgumentError(f"Function '{name}' takes {len(args)} inputs; its saved "
                                   f"signature gives {len(specs)} and {len(captured)} "
                                   "captured values.")
    named = [TensorSpec(s.shape, s.dtype, s.name or a.name) for s, a in zip(specs, args)]

    def body(*tensors):
        return [t for t in library.call(name, list(tensors) + list(captured))
                if isinstance(t, Tensor)]
    concrete = function(body, input_signature=named, autograph=False).get_concrete_function()
    return Trace(name, concrete, inputs, outputs)


def _conformed(value, spec, convert):
    if not isinstance(value, Tensor) and not hasattr(value, "_as_tensor"):
        if not convert:
            return None
    try:
        tensor = convert_to_tensor(value, dtype=spec.dtype)
    except (TypeError, ValueError):
        return None
    if tensor.dtype is not spec.dtype or not spec.shape.is_compatible_with(tensor.shape):
        return None
    return tensor


def _converted(value, spec):
    """`value` as a tensor for a TensorSpec of the function's input signature (TensorFlow
    converts such arguments before matching traces), else as given."""
    if not isinstance(spec, TensorSpec) or isinstance(value, Tensor):
        return value
    try:
        return convert_to_tensor(value, dtype=spec.dtype)
    except (TypeError, ValueError):
        return value


def match(saved, given, convert):
    """The flat tensors for a trace whose argument nest is `saved`, or None."""
    try:
        nest.assert_same_structure(saved, given, check_types=False)
    except (TypeError, ValueError):
        return None
    flat = []
    for s, g in zip(nest.flatten(saved), nest.flatten(given)):
        if isinstance(s, COMPOSITE_SPECS):
            parts = composite_parts(g, s)
            if parts is None:
                return None
            flat.extend(parts)
        elif isinstance(s, TensorSpec):
            tensor = _conformed(g, s, convert)
            if tensor is None:
                return None
            flat.append(tensor)
        elif not (s is g or (type(s) is type(g) and s == g)):
            return None
    return flat


def python_signature(spec):
    """The inspect.Signature of a FunctionSpec's FullArgSpec (its first argument left out of a
    method, or when named `self`, as TensorFlow does), or None when the spec has none."""
    full = python_nest(spec.fullargspec)
    if full is None or not hasattr(full, "args"):
        return None
    args = list(full.args or [])
    if spec.is_method or args[:1] == ["self"]:  # as TensorFlow makes a method a function
        args = args[1:]
    defaults = list(full.defaults or [])
    P = inspect.Parameter
    params = [P(a, P.POSITIONAL_OR_KEYWORD) for a in args[:len(args) - len(defaults)]]
    params += [P(a, P.POSITIONAL_OR_KEYWORD, default=d)
               for a, d in zip(args[len(args) - len(defaults):], defaults)]
    if full.varargs:
        params.append(P(full.varargs, P.VAR_POSITIONAL))
    kw_defaults = full.kwonlydefaults or {}
    params += [P(k, P.KEYWORD_ONLY, **({"default": kw_defaults[k]} if k in kw_defaults else {}))
               for k in full.kwonlyargs or []]
    if full.varkw:
        params.append(P(full.varkw, P.VAR_KEYWORD))
    return inspect.Signature(params)


class RestoredFunction:
    """A saved tf.function: calls the trace its arguments fit (see the module docstring)."""

    def __init__(self, name, traces, signature, input_signature=None):
        self.name, self.concrete_functions, self._signature = name, list(traces), signature
        self._input_signature = input_signature

    def _canonical(self, args, kwargs):
        if self._signature is not None:
            try:
                bound = self._signature.bind(*args, **kwargs)
            except TypeError as err:
                raise TypeError(f"Restored function '{self.name}': {err}.") from None
            bound.apply_defaults()
            args, kwargs = tuple(bound.args), dict(bound.kwargs)
        if isinstance(self._input_signature, (list, tuple)):
            args = tuple(_converted(a, s) for a, s in zip(args, self._input_signature)) + \
                args[len(self._input_signature):]
        return args, kwargs

    def __call__(self, *args, **kwargs):
        given = self._canonical(args, kwargs)
        for convert in (False, True):
            for traced in self.concrete_functions:
                flat = match(traced.inputs, given, convert)
                if flat is not None:
                    return traced.call_flat(flat)
        accepted = "\n  ".join(str(t.inputs) for t in self.concrete_functions)
        raise ValueError(f"Could not find matching concrete function to call loaded from the "
                         f"SavedModel (function '{self.name}'). Got positional arguments "
                         f"{given[0]!r:.200} and keyword arguments {given[1]!r:.200}. The "
                         f"saved traces accept:\n  {accepted or 'nothing'}")

    def __repr__(self):
        return f"<RestoredFunction {self.name}: {len(self.concrete_functions)} trace(s)>"


class BareFunction:
    """A trace saved on its own: tensors by keyword (some also by position)."""

    def __init__(self, traced, keywords, positional):
        self.traced, self.keywords, self.positional = traced, list(keywords), int(positional)

    structured_input_signature = property(lambda self: self.traced.inputs)
    structured_outputs = property(lambda self: self.traced.outputs)

    def __call__(self, *args, **kwargs):
        if len(args) > self.positional:
            raise TypeError(f"Function takes {self.positional} positional arguments "
                            f"({self.keywords}); got {len(args)}.")
        values = dict(zip(self.keywords, args))
        twice = sorted(set(values) & set(kwargs))
        unknown = sorted(set(kwargs) - set(self.keywords))
        if twice or unknown:
            raise TypeError(f"Function takes {self.keywords}; got {unknown or twice} "
                            f"{'unexpected' if unknown else 'twice'}.")
        values.update(kwargs)
        missing = [k for k in self.keywords if k not in values]
        if missing:
            raise TypeError(f"Function missing required arguments {missing}.")
        specs = [s for s in nest.flatten(self.traced.inputs) if isinstance(s, TensorSpec)]
        flat = []
        for key, spec in zip(self.keywords, specs):
            tensor = _conformed(values[key], spec, True)
            if tensor is None:
                raise TypeError(f"Argument '{key}' must be {spec.dtype.name} of shape "
                                f"{spec.shape}; got {values[key]!r:.80}.")
            flat.append(tensor)
        return self.traced.call_flat(flat)
