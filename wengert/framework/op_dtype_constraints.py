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
names of its inputs (`tf_inputs`). A list input (AddN's `inputs`, Pack's `values`) takes every
remaining input. The check (`check_input_dtypes`) refuses an input whose dtype the attribute does
not allow, and inputs sharing one attribute whose dtypes differ, with TensorFlow's error: eagerly
InvalidArgumentError ("Value for attr 'T' of string is not in the list of allowed values"), while a
graph is built TypeError ("Value passed to parameter 'input' has DataType string not in list of
allowed values"), both naming the op, the parameter, the dtype and the allowed list.

The executor's hot path asks each OpDef two precomputed facts (`compile_rule`): `refused`, the
NumPy dtypes its first input may not have (None when the op has no constraint at all), and `rest`,
(position, refused dtypes, position it must match or -1) for the other inputs, so that a valid call
costs one set membership per constrained input; `rest` is None for the common binary op whose
second input shares the first's attribute (one identity test of the two dtypes). Ops with list
inputs always take the full check.
"""
import json
import os

from . import dtypes
from .errors import InvalidArgumentError

__all__ = ["stored_constraints", "op_constraints", "compile_rule", "check_input_dtypes",
           "PendingRule"]

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_dtype_constraints.json")
_STORE = []       # [the parsed file], once read
_FREE = (None, "", "one", None)
_ALL_NUMPY = frozenset(d._np for d in dtypes.FROM_NUMPY.values())


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
            out.append((name, "", "one", (item[2],)))
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
    first input (of attribute T) for a first parameter named otherwise; None for a kernel that is
    not a Python function (its inputs are TensorFlow's in order)."""
    code = getattr(kernel, "__code__", None)
    if code is None:
        return None
    known = {s[0] for s in specs}
    params = code.co_varnames[:code.co_argcount]
    names = [p if p in known else None for p in params]
    if names and names[0] is None and specs[0][1] == "T" and specs[0][0] not in params:
        names[0] = specs[0][0]
    return names


def _refused_numpy(attr, allowed):
    if allowed is None or not attr:  # fixed dtypes (handles, shapes) are wengert's own choice
        return frozenset()
    return frozenset(d._np for d in dtypes.FROM_NUMPY.values() if d.name not in allowed)


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
    """One spec per input, for n inputs: a list spec takes what the fixed ones leave."""
    lists = [i for i, s in enumerate(specs) if s[2] != "one"]
    if not lists:
        return specs[:n]
    at = lists[0]
    extra = max(n - (len(specs) - 1), 0)
    expanded = specs[:at] + [specs[at]] * extra + specs[at + 1:]
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
        if dtype is None or not attr:
            continue
        if allowed is not None and dtype not in allowed:
            raise _not_allowed(op_def, name, param, attr, dtype, allowed, t, graph)
        if attr and kind != "types":
            if attr in seen and seen[attr][1] != dtype:
                raise _mismatch(op_def, name, seen[attr], (param, dtype, i), kind, graph)
            seen.setdefault(attr, (param, dtype, i))


def _label(op_def, name):
    return f"{op_def.type}" + (f" (op '{name}')" if name else "")


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
