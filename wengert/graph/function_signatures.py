"""What a `tf.function` has traced, in TensorFlow's words: `pretty_printed_concrete_signatures()`
and `function_spec`.

Each trace prints as TensorFlow 2 prints it: its input parameters with their kinds and what
they were traced for (a TensorSpec for a tensor argument, `Literal[v]` for a Python value, which
is part of the signature), the output as TensorSpecs in the output's structure, and the captured
variables (None when there are none). Traces are separated by a blank line, in the order they
were made.
"""
import collections
import inspect

from ..util import nest

__all__ = ["pretty_printed_signatures", "FunctionSpec", "function_spec"]

FunctionSpec = collections.namedtuple(
    "FunctionSpec", ["fullargspec", "is_method", "input_signature", "jit_compile"])
FunctionSpec.__doc__ = "The Python signature a tf.function binds its arguments to."


def function_spec(function):
    python = function.python_function
    return FunctionSpec(inspect.getfullargspec(python), inspect.ismethod(python),
                        function.input_signature, None)


def _spec_text(value, spec_type):
    if hasattr(value, "dtype") and hasattr(value, "shape") and not isinstance(value, spec_type):
        return repr(spec_type(value.shape, value.dtype))
    if isinstance(value, spec_type):
        return repr(spec_type(value.shape, value.dtype))
    if nest.is_nested(value):
        return repr(nest.map_structure(lambda v: _Raw(_spec_text(v, spec_type)), value))
    return f"Literal[{value!r}]"


class _Raw:
    """A string that prints without quotes inside a container's repr."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _parameters(python, concrete):
    args, kwargs = concrete.structured_input_signature
    try:
        names = list(inspect.signature(python).parameters.values())
    except (TypeError, ValueError):
        names = []
    lines = []
    for i, value in enumerate(args):
        param = names[i] if i < len(names) else None
        name, kind = (param.name, param.kind.name) if param else (f"args_{i}", "POSITIONAL_ONLY")
        lines.append((name, kind, value))
    given = {name for name, _, _ in lines} | set(kwargs)
    kinds = {p.name: p.kind.name for p in names}
    lines += [(k, kinds.get(k, "KEYWORD_ONLY"), v) for k, v in kwargs.items()]
    lines += [(p.name, p.kind.name, p.default) for p in names[len(args):]
              if p.name not in given and p.default is not inspect.Parameter.empty
              and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    return lines


def _one(function, concrete, spec_type):
    out = ["Input Parameters:"]
    for name, kind, value in _parameters(function.python_function, concrete):
        out.append(f"  {name} ({kind}): {_spec_text(value, spec_type)}")
    out.append("Output Type:")
    outputs = concrete.structured_outputs
    out.append("  " + ("None" if outputs is None else _spec_text(outputs, spec_type)))
    out.append("Captures:")
    captured = [v.name for v in concrete.variables]
    out += [f"  {name}" for name in captured] or ["  None"]
    return "\n".join(out)


def pretty_printed_signatures(function, spec_type):
    return "\n\n".join(_one(function, c, spec_type)
                       for c in function._list_all_concrete_functions())
