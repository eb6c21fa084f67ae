"""tf.raw_ops' resource-handle arguments: what TensorFlow refuses there, and what wengert takes.

TensorFlow's op definitions give some inputs the dtype `resource` (a variable's, a table's, a
queue's handle) or TF1's `string_ref` (an accumulator's handle); 43 of the inputs of the ops
wengert declares are such handles. wengert holds those resources as Python objects (a Variable,
a lookup table, a queue, an iterator, an accumulator, a mutex, a summary writer) and its raw ops
take the object itself. What is not a handle is refused as TensorFlow refuses it, before the op
runs, naming the op and the input:
  - a tensor (of any dtype but variant, wengert's handle of a mutex: wengert has no tensors of
    dtype resource, and an int64 handle such as a queue's `queue_ref` is not the object):
    eagerly InvalidArgumentError ("cannot compute ReadVariableOp as input #0(zero-based) was
    expected to be a resource tensor but is a float tensor"), while a graph is built TypeError
    ("Input 'resource' of 'ReadVariableOp' Op has type float32 that does not match expected type
    of resource"); in a list input (a collective's
    `ordering_token`) ValueError ("Tensor conversion requested dtype resource");
  - None or a NumPy array: ValueError ("Attempt to convert a value (None) with an unsupported
    type"); any other number, string or list: TypeError ("Cannot convert 3 to EagerTensor of
    dtype resource"; while a graph is built "Expected resource passed to parameter 'resource'").
An object of the wrong kind (a table given to AssignVariableOp) is found when the op asks it for
what it lacks; `wrong_handle` turns that AttributeError into TensorFlow's InvalidArgumentError
("Trying to access a handle's resource using the wrong type").
TensorFlow names a string_ref input's dtype `string` in these messages; so does this module.
"""
import numpy as np

from .errors import InvalidArgumentError
from .op_dtype_constraints import op_constraints
from .tensor import TensorLike

__all__ = ["handle_inputs", "check_handle_argument", "wrong_handle"]

_HANDLES = {"resource": "resource", "string_ref": "string"}  # TensorFlow's name in messages
_FOUND = {}  # op type -> handle_inputs(op type), once asked
_LITERALS = (bool, int, float, complex, str, bytes, list, tuple, np.generic)
_KERNEL_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def handle_inputs(op_type):
    """{parameter: (position, dtype name in messages, kind "one" or "list")} for `op_type`'s
    resource and string_ref inputs (TensorFlow's op definition)."""
    found = _FOUND.get(op_type)
    if found is None:
        found = _FOUND[op_type] = {
            s[0]: (i, _HANDLES[s[3][0]], s[2]) for i, s in enumerate(op_constraints(op_type) or ())
            if not s[1] and s[3][0] in _HANDLES}
    return found


def check_handle_argument(op_type, param, value, graph):
    """TensorFlow's refusal of `value`, not a handle, for `op_type`'s handle input `param`."""
    position, want, kind = handle_inputs(op_type)[param]
    if kind == "list" and isinstance(value, (list, tuple)):
        for item in value:
            if _is_tensor(item):
                raise ValueError(_tensor_text(op_type, param, item, want) + _fix(op_type, param))
            _check_literal(op_type, param, item, want, graph)
        return
    if _is_tensor(value):
        have = value.dtype.name
        if graph:
            raise TypeError(f"{op_type}: Input '{param}' of '{op_type}' Op has type {have} that "
                            f"does not match expected type of {want}{_fix(op_type, param)}")
        raise InvalidArgumentError(
            f"{op_type}: cannot compute {op_type} as input #{position}(zero-based) was expected "
            f"to be a {want} tensor but is a {_KERNEL_NAMES.get(have, have)} tensor"
            f"{_fix(op_type, param)}")
    _check_literal(op_type, param, value, want, graph)


def _is_tensor(value):
    """A tensor, eager or symbolic, that is no handle: a variable (also TensorLike) is the handle
    object itself, and a variant scalar is wengert's handle of a mutex (MutexV2's output)."""
    return (isinstance(value, TensorLike) and not hasattr(value, "_as_tensor")
            and value.dtype.name != "variant")


def _check_literal(op_type, param, value, want, graph):
    if value is None or isinstance(value, np.ndarray):
        what = "None" if value is None else "a NumPy array"
        raise ValueError(f"{op_type}: Attempt to convert a value ({what}) with an unsupported "
                         f"type ({type(value).__name__}) to a Tensor for input '{param}'"
                         f"{_fix(op_type, param)}")
    if isinstance(value, _LITERALS):
        text = (f"Expected {want} passed to parameter '{param}' of op '{op_type}', got {value!r} "
                f"of type '{type(value).__name__}' instead" if graph else
                f"Cannot convert {value!r} to EagerTensor of dtype {want} (input '{param}')")
        raise TypeError(f"{op_type}: {text}{_fix(op_type, param)}")


def _tensor_text(op_type, param, t, want):
    return (f"{op_type}: Tensor conversion requested dtype {want} for Tensor with dtype "
            f"{t.dtype.name} in input '{param}'")


def _fix(op_type, param):
    return (f"; wengert's tf.raw_ops.{op_type} takes the resource object itself as '{param}' "
            f"(the variable, lookup table, queue, reader, iterator, accumulator, mutex or summary "
            f"writer), not a tensor or a number.")


def wrong_handle(op_type, err, kwargs):
    """InvalidArgumentError for `err`, an AttributeError raised asking a handle argument in
    `kwargs` for what its kind of resource lacks, or None when `err` came from elsewhere."""
    obj = getattr(err, "obj", None)
    for param in handle_inputs(op_type):
        if param in kwargs and kwargs[param] is obj and obj is not None:
            return InvalidArgumentError(
                f"{op_type}: Trying to access a handle's resource using the wrong type: input "
                f"'{param}' is a {type(obj).__name__}, which has no '{err.name}'"
                f"{_fix(op_type, param)}")
    return None
