"""TensorFlow's dtype constraints on op inputs, and the one check that enforces them.

TensorFlow's op definitions say, per input, which type attribute gives its dtype (`T`, `Tidx`...)
or which fixed dtype it has (a resource handle, an int32 depth), and per type attribute which
dtypes it allows (`numbertype` for Sum, float types for Softmax; an attribute without a list allows
every dtype). op_dtype_constraints.json, beside this module, stores those facts for every op type
wengert declares that TensorFlow defines, read from TensorFlow itself
(tests/raw_ops_tf/dtype_constraints.py writes it; tests/test_op_dtype_constraints.py compares it
with a live TensorFlow). It is read once, when the first op's rule is needed.

A wengert op's inputs are TensorFlow's inputs in TensorFlow's order, less the trailing ones that
wengert takes as attributes (Sum's axis); an OpDef whose inputs are others declares TensorFlow's
names of its inputs (`tf_inputs`); a kernel whose first parameter is named otherwise (`x`) takes
TensorFlow's first input there when that is of attribute T or of a fixed dtype other than a
handle (StringLower's string `input`). A list input (AddN's `inputs`, Pack's `values`) takes every
remaining input; a kernel's leading `store` parameter (a session's store) is not an input. The
check (`check_input_dtypes`) refuses an input whose dtype the attribute does not allow, and inputs
sharing one attribute whose dtypes differ, with TensorFlow's error: eagerly InvalidArgumentError
("Value for attr 'T' of string is not in the list of allowed values"), while a graph is built
TypeError ("Value passed to parameter 'input' has DataType string not in list of allowed
values"), both naming the op, the parameter, the dtype and the allowed list. An input of a fixed
dtype (RFFT's int32 fft_length, SparseReshape's int64 indices, LogicalNot's bool x) refuses every
other dtype as TensorFlow does: eagerly "cannot compute RFFT as input #1(zero-based) was expected
to be a int32 tensor but is a int64 tensor", while a graph is built "Input 'fft_length' of 'RFFT'
Op has type int64 that does not match expected type of int32" (`check_fixed_argument` is the
same check for tf.raw_ops' arguments that wengert takes as attributes, fft_length among them;
`fixed_argument` also converts a raw op's number, list or NumPy array to the fixed dtype, as
TensorFlow's op wrappers do: RFFT's fft_length=[8] is int32, SetSize's set_indices int64).
Public functions do what TensorFlow's do: those that pass the argument to the op convert all but
tensors to the fixed dtype (`fixed_operand`) and leave tensors to this check, those that convert
it first raise TensorFlow's ValueError for a tensor of another dtype (`check_fixed_value`).
Resource handles and TF1's reference handles (string_ref) are not checked here: wengert holds a
resource as an object (a Variable, a table) or as an int64 handle (a queue's, an accumulator's),
not as a tensor of dtype resource.

The executor's hot path asks each OpDef two precomputed facts (`compile_rule`): `refused`, the
NumPy dtypes its first input may not have (None when the op has no constraint at all), and `rest`,
(position, refused dtypes, position it must match or -1) for the other inputs, so that a valid call
costs one set membership per constrained input; `rest` is None for the common binary op whose
second input shares the first's attribute (one identity test of the two dtypes). Ops with list
inputs always take the full check.
"""
import json
import os

import numpy as np

from . import dtypes
from .context import state
from .errors import InvalidArgumentError
from .tensor import Tensor, convert_to_tensor, holds_tensor, to_array

__all__ = ["stored_constraints", "op_constraints", "compile_rule", "check_input_dtypes",
           "check_fixed_argument", "check_fixed_value", "fixed_argument", "fixed_inputs",
           "fixed_operand", "fixed_dtype_error", "PendingRule"]

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_dtype_constraints.json")
_STORE = []       # [the parsed file], once read
_FREE = (None, "", "one", None)
_ALL_NUMPY = frozenset(d._np for d in dtypes.FROM_NUMPY.values())
_FIXED = {}       # op type -> fixed_inputs(op type), once asked
_HANDLES = ("resource", "string_ref")  # objects or int64 handles in wengert: not checked
_OBJECTS = _HANDLES + ("variant",)  # Python objects in wengert (TensorList flows, mutex locks)
# TensorFlow's own names of dtypes in its kernels' messages ("but is a float tensor")
_KERNEL_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def stored_constraints():
    """The stored file as parsed JSON: {"tensorflow", "dtype_lists", "ops"} (read once)."""
    if not _STORE:
        with open(_PATH, encoding="utf-8") as f:
            _STORE.append(json.load(f))
    return _STORE[0]


def op_constraints(op_type):
    """TensorFlow's inputs of `op_type` as [(parameter, attribute, kind, allowed names or
    None)], kind "one", "list" or "types", attribute "" for a fixed dtype (then `allowed` is
    that dtype alone); None when TensorFlow has no such op (a wengert-only op type)."""
    store = stored_constraints()
    entry = store["ops"].get(op_type)
    if entry is None:
        return None
    lists = store["dtype_lists"]
    out = []
    for item in entry["inputs"]:
        name, attr = item[0], item[1]
        if not attr:
            out.append((name, "", item[3] if len(item) > 3 else "one", (item[2],)))
            continue
        index = entry["dtypes"].get(attr)
        out.append((name, attr, item[2] if len(item) > 2 else "one",
                    None if index is None else tuple(lists[index])))
    return out


def _specs(op_def):
    """The op's TensorFlow inputs in the order of wengert's inputs (see the module docstring);
    an input TensorFlow's definition does not name is unconstrained (_FREE)."""
    specs = op_constraints(op_def.type)
    if not specs:
        return specs
    names = op_def.tf_inputs
    if names is None and op_def.raw is not None:  # (its `args` are then the raw function's)
        names = _kernel_inputs(op_def.kernel, specs)
    if names is None:
        return specs
    by_name = {s[0]: s for s in specs}
    return [by_name.get(n, _FREE) for n in names]


def _kernel_inputs(kernel, specs):
    """TensorFlow's names of a kernel's positional parameters: the same names, or TensorFlow's
    first input (of attribute T, or of a fixed dtype that is not a handle: StringLower's string
    `input` for a kernel's `x`) for a first parameter named otherwise; None for a kernel that is
    not a Python function (its inputs are TensorFlow's in order)."""
    code = getattr(kernel, "__code__", None)
    if code is None:
        return None
    known = {s[0] for s in specs}
    params = code.co_varnames[:code.co_argcount]
    if params[:1] == ("store",):  # a stateful kernel's session store, not an input
        params = params[1:]
    names = [p if p in known else None for p in params]
    if names and names[0] is None and specs[0][0] not in params and (
            specs[0][1] == "T" or (not specs[0][1] and specs[0][3][0] not in _OBJECTS)):
        names[0] = specs[0][0]
    return names


def _refused_numpy(attr, allowed):
    if allowed is None or (not attr and allowed[0] in _HANDLES):
        return frozenset()
    return frozenset(d._np for d in dtypes.FROM_NUMPY.values() if d.name not in allowed)


def fixed_inputs(op_type):
    """{parameter: (position in TensorFlow's inputs, fixed dtype name)} for the inputs of
    `op_type` that TensorFlow gives one fixed dtype, resource handles left out."""
    found = _FIXED.get(op_type)
    if found is None:
        found = _FIXED[op_type] = {s[0]: (i, s[3][0]) for i, s in enumerate(
            op_constraints(op_type) or ()) if not s[1] and s[3][0] not in _HANDLES}
    return found


def _is_tensor(value):
    return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


def fixed_operand(value, dtype):
    """What TensorFlow's op wrappers make of an argument for a fixed-dtype input: a tensor (or
    variable) as it is, for the check to judge, anything else converted to `dtype` (a NumPy
    array of another dtype is cast; a float list for an int32 input is a TypeError)."""
    return convert_to_tensor(value, None if _is_tensor(value) else dtype)


def check_fixed_value(value, dtype, what):
    """What TensorFlow's public wrappers do to an argument they convert to a fixed dtype
    (`convert_to_tensor(fft_length, tf.int32)`), checked without making a tensor: a tensor of
    another dtype is TensorFlow's ValueError, a value that does not convert (a float list for
    int32) its TypeError; None passes. Returns the value unchanged."""
    if value is None:
        return value
    if _is_tensor(value):
        have = _dtype_name(value)
        if have != dtype:
            raise ValueError(f"{what}: Tensor conversion requested dtype {dtype} for Tensor with "
                             f"dtype {have} (shape {getattr(value, 'shape', None)}); TensorFlow "
                             f"takes only {dtype} there: cast it first, e.g. tf.cast(x, "
                             f"tf.{dtype}).")
    elif not isinstance(value, (np.ndarray, np.generic)) and not (
            isinstance(value, (list, tuple)) and holds_tensor(value)):
        try:  # (NumPy's arrays are cast, as TensorFlow casts them)
            to_array(value, dtype)
        except (TypeError, ValueError) as err:
            raise TypeError(f"{what}: {err}") from None
    return value


def check_fixed_argument(op_type, param, value, graph=None):
    """TensorFlow's refusal of a tensor of another dtype passed to `op_type`'s fixed-dtype input
    `param` (tf.raw_ops', and public functions' that pass it on as TensorFlow's do; lists and
    NumPy arrays convert, a list input's tensors are each checked): graph None reads whether a
    graph is being built."""
    position, want = fixed_inputs(op_type).get(param, (None, None))
    if want is None:
        return
    for t in value if isinstance(value, (list, tuple)) else (value,):
        if _is_tensor(t) and _dtype_name(t) != want:
            graph = state.graph is not None if graph is None else graph
            raise _wrong_fixed(op_type, None, param, position, _dtype_name(t), want, t, graph)


def fixed_argument(op_type, param, value, graph):
    """A tf.raw_ops argument for `op_type`'s fixed-dtype input `param`, as TensorFlow's op
    wrappers take it: a tensor of another dtype refused (check_fixed_argument); a number, list or
    NumPy array converted to the fixed dtype: NumPy arrays are cast (8.0 and '8' to int32 8), a
    Python float where an integer is fixed or a number where a bool or string is fixed is
    TensorFlow's TypeError, a ragged list or NumPy text that is no number its ValueError, each
    naming the op and input. Numbers come back as a NumPy array of the dtype, strings as they
    were once checked; lists holding tensors and variant inputs (TensorList flows) unchanged."""
    position, want = fixed_inputs(op_type).get(param, (None, None))
    if want is None or value is None:
        return value
    check_fixed_argument(op_type, param, value, graph)
    if want == "variant" or _is_tensor(value) or (
            isinstance(value, (list, tuple)) and holds_tensor(value)):
        return value
    try:
        array = _converted(value, want)
    except (TypeError, ValueError) as err:
        kind = TypeError if isinstance(err, TypeError) else ValueError
        if graph:
            raise kind(f"{op_type}: Expected {want} passed to parameter '{param}' of op "
                       f"'{op_type}', got {value!r} of type '{type(value).__name__}' instead. "
                       f"Error: {err}.") from None
        raise kind(f"{op_type}: Cannot convert {value!r} to EagerTensor of dtype {want} (input "
                   f"'{param}', #{position}, takes only {want}): {err}.") from None
    return value if want == "string" else array


def _converted(value, want):
    if isinstance(value, (np.ndarray, np.generic)) and want != "string":  # ('8' parses, 'a'
        return np.asarray(value).astype(dtypes.as_dtype(want)._np)   # is NumPy's ValueError)
    array = to_array(value, want)
    if want == "bool" and array.size and np.asarray(value).dtype.kind != "b":
        raise TypeError(f"Cannot convert {value!r} to a tensor of dtype bool")
    return array


def compile_rule(op_def):
    """(refused, rest) for the executor's fast check (see the module docstring)."""
    specs = _specs(op_def)
    if not specs:
        return None, ()
    if any(s[2] != "one" for s in specs):
        return _ALL_NUMPY, ()
    first = {}
    rest = []
    for i, (_, attr, _, allowed) in enumerate(specs):
        same = first.setdefault(attr, i) if attr else i
        refused = _refused_numpy(attr, allowed)
        if i and (refused or same != i):
            rest.append((i, refused, same if same != i else -1))
    refused = _refused_numpy(specs[0][1], specs[0][3])
    if not refused and not rest:
        return None, ()
    if len(rest) == 1 and rest[0][:1] == (1,) and rest[0][2] == 0:
        return refused, None  # input 1 shares input 0's attribute: one identity test
    return refused, tuple(rest)


class PendingRule:
    """An OpDef's `refused` before its rule is compiled: asked whether a dtype is refused, it
    compiles the rule into the OpDef and answers yes, so the full check runs this once."""

    __slots__ = ("op_def",)

    def __init__(self, op_def):
        self.op_def = op_def

    def __contains__(self, np_dtype):
        op_def = self.op_def
        op_def.refused, op_def.dtype_rest = compile_rule(op_def)
        return True


def _expand(specs, n):
    """One spec per input, for n inputs: the list specs share what the single ones leave."""
    lists = [i for i, s in enumerate(specs) if s[2] != "one"]
    if not lists:
        return specs[:n]
    extra = max(n - (len(specs) - len(lists)), 0)
    if extra % len(lists):
        return []  # lists of different lengths (SparseCross's): not told apart, not checked
    expanded = []
    for spec in specs:  # several lists share one length (DynamicStitch's indices and data)
        expanded += [spec] * (extra // len(lists)) if spec[2] != "one" else [spec]
    return expanded[:n]


def _dtype_name(t):
    dtype = getattr(t, "dtype", None)
    return getattr(dtype, "name", None)


def check_input_dtypes(op_def, inputs, name=None, graph=False):
    """TensorFlow's dtype check of `inputs` for the op: raises (see the module docstring)."""
    if isinstance(op_def.refused, PendingRule):
        op_def.refused, op_def.dtype_rest = compile_rule(op_def)
    specs = _specs(op_def)
    if specs is None:
        return
    seen = {}
    for i, (spec, t) in enumerate(zip(_expand(specs, len(inputs)), inputs)):
        param, attr, kind, allowed = spec
        dtype = _dtype_name(t)
        if dtype is None:
            continue
        if not attr:
            if param and dtype != allowed[0] and allowed[0] not in _HANDLES:
                where = i if kind == "list" else _position(op_def.type, param)
                raise _wrong_fixed(op_def.type, name, param, where, dtype, allowed[0], t, graph)
            continue
        if allowed is not None and dtype not in allowed:
            raise _not_allowed(op_def, name, param, attr, dtype, allowed, t, graph)
        if attr and kind != "types":
            if attr in seen and seen[attr][1] != dtype:
                raise _mismatch(op_def, name, seen[attr], (param, dtype, i), kind, graph)
            seen.setdefault(attr, (param, dtype, i))


def _label(op_def, name):
    return f"{op_def.type}" + (f" (op '{name}')" if name else "")


def _position(op_type, param):
    return next(i for i, s in enumerate(op_constraints(op_type)) if s[0] == param)


def fixed_dtype_error(what, param, t, want):
    """TensorFlow's error for tensor `t` passed to a function (`what`) whose op takes `param` in
    one fixed dtype `want`: InvalidArgumentError eagerly, TypeError while a graph is built."""
    dtype = _dtype_name(t)
    fix = (f" (a {dtype} tensor of shape {getattr(t, 'shape', None)}; cast it first, e.g. "
           f"tf.cast(x, tf.{want})).")
    if state.graph is not None:
        return TypeError(f"{what}: Input '{param}' has type {dtype} that does not match "
                         f"expected type of {want}{fix}")
    return InvalidArgumentError(f"{what}: input '{param}' was expected to be a "
                                f"{_KERNEL_NAMES.get(want, want)} tensor but is a "
                                f"{_KERNEL_NAMES.get(dtype, dtype)} tensor{fix}")


def _wrong_fixed(op_type, name, param, position, dtype, want, t, graph):
    label = op_type + (f" (op '{name}')" if name else "")
    fix = (f" ('{param}' is a {dtype} tensor of shape {getattr(t, 'shape', None)}; TensorFlow's "
           f"{op_type} takes only {want} there: cast it first, e.g. tf.cast(x, tf.{want})).")
    if graph:
        return TypeError(f"{label}: Input '{param}' of '{op_type}' Op has type {dtype} that does "
                         f"not match expected type of {want}{fix}")
    return InvalidArgumentError(
        f"{label}: cannot compute {op_type} as input #{position}(zero-based) was expected to be "
        f"a {_KERNEL_NAMES.get(want, want)} tensor but is a {_KERNEL_NAMES.get(dtype, dtype)} "
        f"tensor{fix}")


def _not_allowed(op_def, name, param, attr, dtype, allowed, t, graph):
    listed = ", ".join(allowed)
    shape = getattr(t, "shape", None)
    fix = (f" (input '{param}' of {op_def.type}: a {dtype} tensor of shape {shape}); cast it to "
           f"one of the allowed dtypes first, e.g. tf.cast(x, tf.{allowed[0]}).")
    if graph:
        return TypeError(f"{_label(op_def, name)}: Value passed to parameter '{param}' has "
                         f"DataType {dtype} not in list of allowed values: {listed}{fix}")
    what = f"attr '{attr}'" if attr else f"input '{param}'"
    return InvalidArgumentError(f"{_label(op_def, name)}: Value for {what} of {dtype} is not in "
                                f"the list of allowed values: {listed}{fix}")


def _mismatch(op_def, name, first, later, kind, graph):
    (p0, d0, _), (p1, d1, i1) = first, later
    if kind == "list":
        text = (f"Tensors in list passed to '{p1}' of '{op_def.type}' Op have types "
                f"[{d0}, {d1}] that don't all match")
    elif graph:
        text = (f"Input '{p1}' of '{op_def.type}' Op has type {d1} that does not match type {d0} "
                f"of argument '{p0}'")
    else:
        text = (f"cannot compute {op_def.type} as input #{i1}(zero-based) was expected to be a "
                f"{d0} tensor but is a {d1} tensor")
    text = (f"{_label(op_def, name)}: {text}. Inputs '{p0}' and '{p1}' share one dtype; cast "
            f"one to the other's, e.g. tf.cast(x, tf.{d0}).")
    return TypeError(text) if graph else InvalidArgumentError(text)
