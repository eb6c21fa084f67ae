"""What one trace of a `tf.function` takes and returns, in TensorFlow's words (`FunctionType`).

A trace binds the Python function's parameters: each parameter is traced for a type, a
`TensorSpec` for a tensor argument (its name dropped), the container's type around nested
arguments (`Tuple[...]`, `List[...]`, `Dict[['key', ...], ...]`), `Literal[value]` for a Python
value (part of the signature: another value traces again). Parameters the call did not pass take
their defaults. The output is typed the same way. TensorFlow prints the whole as
`(x: TensorSpec(...), n: Literal[3]) -> TensorSpec(...)`, with `/` after positional-only
parameters and `*` before keyword-only ones; a Python function with `*args` makes its named
positional parameters positional-only, as TensorFlow's binding does.

`structured_names` gives the names TensorFlow gives a trace's inputs in
`structured_input_signature`: the parameter's name, and for an element of a nested argument the
name followed by its path (`t_0`, `d_key`).
"""
import inspect

from ..framework.ragged_tensor import RaggedTensor, spec_text
from ..framework.tensor import Tensor
from ..util import nest

__all__ = ["FunctionType", "Parameter", "type_text", "typed", "bound_parameters",
           "structured_names", "python_function_type"]


def type_text(value, spec_type):
    """TensorFlow's text for the trace type of `value` (a spec, tensor, container or literal)."""
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        inner = ", ".join(type_text(v, spec_type) for v in value)
        return f"{'Tuple' if isinstance(value, tuple) else 'List'}[{inner}]"
    if isinstance(value, dict):
        items = ", ".join(f"[{k!r}, {type_text(value[k], spec_type)}]"
                          for k in sorted(value, key=repr))
        return f"Dict[{items}]"
    if hasattr(value, "_component_specs") or type(value).__name__ == "SparseTensorSpec":
        return repr(value)
    if isinstance(value, RaggedTensor):
        return spec_text(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)
    if isinstance(value, spec_type):
        return repr(value)
    if isinstance(value, Tensor):
        return repr(spec_type(value.shape, value.dtype))
    if hasattr(value, "dtype") and hasattr(value, "shape"):  # a SparseTensor
        return repr(spec_type(value.shape, value.dtype))
    return f"Literal[{value!r}]"


class Parameter(inspect.Parameter):
    """One parameter of a trace: its name, kind, whether it had a default, and its type."""

    def __init__(self, name, kind, optional, type_constraint):
        super().__init__(name, kind, default=_OPTIONAL if optional else inspect.Parameter.empty)
        self._type_constraint = type_constraint

    @property
    def optional(self):
        return self.default is not inspect.Parameter.empty

    @property
    def type_constraint(self):
        return self._type_constraint

    def __repr__(self):
        return (f"Parameter(name={self.name}, kind={self.kind.name}, optional={self.optional}, "
                f"type_constraint={self.type_constraint!r})")

    __str__ = __repr__


_OPTIONAL = object()  # the default of an optional parameter (its value is in its type)


class _Typed:
    """A trace type that prints as TensorFlow prints it."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text

    def __eq__(self, other):
        return isinstance(other, _Typed) and other.text == self.text

    def __hash__(self):
        return hash(self.text)


class FunctionType(inspect.Signature):
    """The parameters (`parameters`: name -> Parameter) and `output` type of one trace (an
    inspect.Signature whose return annotation is the output type, as TensorFlow's)."""

    def __init__(self, parameters=None, captures=None, return_annotation=inspect.Signature.empty,
                 __validate_parameters__=False):
        super().__init__(parameters, return_annotation=return_annotation,
                         __validate_parameters__=__validate_parameters__)
        self._captures = dict(captures or {})

    @property
    def output(self):
        return self.return_annotation

    @property
    def captures(self):
        return self._captures

    def __repr__(self):
        parts, kinds = [], [p.kind for p in self.parameters.values()]
        for i, p in enumerate(self.parameters.values()):
            if p.kind is inspect.Parameter.KEYWORD_ONLY and (i == 0 or kinds[i - 1] not in (
                    inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_POSITIONAL)):
                parts.append("*")
            parts.append(_parameter_text(p))
            if p.kind is inspect.Parameter.POSITIONAL_ONLY and (
                    i + 1 == len(kinds) or kinds[i + 1] is not inspect.Parameter.POSITIONAL_ONLY):
                parts.append("/")
        if self.output is inspect.Signature.empty:
            return f"({', '.join(parts)})"
        return f"({', '.join(parts)}) -> {self.output!r}"

    __str__ = __repr__


def _parameter_text(p):
    stars = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    text = stars.get(p.kind, "") + p.name
    if p.type_constraint is not None:
        return f"{text}: {p.type_constraint!r}"
    return text + ("=<captured_default_value>" if p.optional else "")


def python_function_type(python_function, input_signature, spec_type):
    """The FunctionType of a tf.function before any trace: its Python parameters, typed by
    the input_signature when it has one."""
    try:
        params = list(inspect.signature(python_function).parameters.values())
    except (TypeError, ValueError):
        params = []
    specs = list(input_signature or [])
    out = []
    for i, p in enumerate(params):
        constraint = typed(specs[i], spec_type) if i < len(specs) else None
        out.append(Parameter(p.name, p.kind, p.default is not p.empty, constraint))
    return FunctionType(out)


def bound_parameters(python_function, args, kwargs):
    """[(name, inspect kind, had a default, value)] of a trace called with `args`, `kwargs`,
    bound to the Python signature with the defaults filled in."""
    try:
        signature = inspect.signature(python_function)
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return ([(f"args_{i}", inspect.Parameter.POSITIONAL_ONLY, False, v)
                 for i, v in enumerate(args)] +
                [(k, inspect.Parameter.KEYWORD_ONLY, False, kwargs[k]) for k in kwargs])
    bound.apply_defaults()
    params = signature.parameters
    var_positional = any(p.kind is p.VAR_POSITIONAL for p in params.values())
    out = []
    for name, value in bound.arguments.items():
        p = params[name]
        if p.kind is p.VAR_POSITIONAL:
            out += [(f"{name}_{j}", p.POSITIONAL_ONLY, False, v) for j, v in enumerate(value)]
        elif p.kind is p.VAR_KEYWORD:
            out += [(k, p.KEYWORD_ONLY, False, v) for k, v in value.items()]
        else:
            kind = p.POSITIONAL_ONLY if var_positional and p.kind is \
                p.POSITIONAL_OR_KEYWORD else p.kind
            out.append((name, kind, p.default is not p.empty, value))
    return out


def typed(value, spec_type):
    """The trace type of `value`, printing as TensorFlow prints it."""
    return _Typed(type_text(value, spec_type))


def structured_names(python_function, args, kwargs):
    """{id(leaf): TensorFlow's name for it} over the tensor leaves of a trace's arguments."""
    names = {}
    for name, _, _, value in bound_parameters(python_function, args, kwargs):
        if not nest.is_nested(value):
            names[id(value)] = name
            continue
        stack = [(name, value)]
        while stack:
            path, node = stack.pop()
            if isinstance(node, dict):
                stack += [(f"{path}_{k}", node[k]) for k in node]
            elif isinstance(node, (list, tuple)) and not hasattr(node, "_fields"):
                stack += [(f"{path}_{i}", v) for i, v in enumerate(node)]
            else:
                names[id(node)] = path
    return names
