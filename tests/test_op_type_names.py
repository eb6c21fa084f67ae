"""An op's facts live in its OpDef (DESIGN.md): no code outside the op's family file keeps a table
of op type names or tests an op by its name.

The check reads every module of wengert/ (not the tests) and fails on a string that equals a
registered op type name (or a raw op TensorFlow has that wengert composes, `defraw`), outside the
module that declared that op type, when it is
- an operand of a comparison: `op.type == "Placeholder"`, `op.type in ("A", "B")` (the
  elements of a tuple, list or set compared against count),
- a key or value of a dict literal or an element of a set literal (a table keyed by op type),
- a row of a table: inside a tuple or list that is itself an element of a tuple, list or set
  literal (`for op, fn in (("Sum", reduce_sum), ...)`),
- a keyword argument's value, `f(op_type="Relu")`, or a keyword argument's name,
  `table(Relu=relu, ...)`; but not the value of `name=` (an op's name, "Const" by default) nor
  of `onnx=` (the ONNX operator an op lowers to, "Identity", "Sum"),
- the argument of `startswith` / `endswith` on something's `.type`.
Elsewhere such strings are names of other things (Keras' `Dropout` layer, a default op name
`"Const"`, the op named in an error message) and pass. Code that needs to know what an op is asks
its OpDef: `op.op_def is PLACEHOLDER`, or a field such as `op.op_def.stateful`.
"""
import ast
import pathlib

import package_sources

from wengert.framework.registry import _COMPOSED_RAW, _OP_DEFS

ROOT = pathlib.Path(__file__).resolve().parents[1] / "wengert"
OTHER_NAMES = ("name", "onnx")  # keywords whose values name other things than op types


def _module_name(path):
    parts = ("wengert",) + path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _literals(node):
    """The string constants of `node`, looking into tuple, list and set literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [c for element in node.elts for c in _literals(element)]
    return []


def _suspects(tree):
    """String constants in the positions the module docstring lists (a keyword's name comes as
    a constant made for it, at the call's line)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                yield from _literals(operand)
        elif isinstance(node, ast.Dict):
            for part in node.keys + node.values:
                if part is not None:
                    yield from _literals(part)
        elif isinstance(node, ast.Set):
            yield from _literals(node)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            for row in node.elts:
                if isinstance(row, (ast.Tuple, ast.List)):
                    yield from _literals(row)
        if isinstance(node, ast.Call):
            yield from _keyword_suspects(node)
            if (isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("startswith", "endswith")
                    and isinstance(node.func.value, ast.Attribute)
                    and node.func.value.attr == "type"):
                for arg in node.args:
                    yield from _literals(arg)


def _keyword_suspects(call):
    for keyword in call.keywords:
        if keyword.arg is None:  # **mapping: its literal keys are a Dict node's
            continue
        yield ast.Constant(keyword.arg, lineno=call.lineno)
        if keyword.arg not in OTHER_NAMES:
            yield from _literals(keyword.value)


def op_name_uses(declared_in):
    """(file:line, op type, declaring module) for each op type name used outside its module."""
    found = []
    for path in package_sources.files():
        module = _module_name(path)
        for constant in _suspects(package_sources.tree(path)):
            home = declared_in.get(constant.value)
            if home is not None and home != module:
                found.append((f"{path.relative_to(ROOT.parent)}:{constant.lineno}",
                              constant.value, home))
    return sorted(set(found))


def test_op_type_names_stay_in_their_family_file():
    declared_in = {t: d.module for t, d in _OP_DEFS.items() if (d.module or "").startswith("wengert.")}
    declared_in.update((t, module) for t, (_, module) in _COMPOSED_RAW.items())
    uses = op_name_uses(declared_in)
    assert not uses, ("op type names used outside the file that declares the op (compare "
                      "OpDefs instead, `op.op_def is X`, or add a field to OpDef):\n  "
                      + "\n  ".join(f"{where}: {name!r} (declared in {home})"
                                    for where, name, home in uses))


def test_declaring_module_is_the_family_file():
    """Ops declared through helpers (elementwise.unary, a family's own wrapper) belong to the
    module whose code declares them, not to the helper's."""
    assert _OP_DEFS["Sin"].module == "wengert.ops.unary_ops"
    assert _OP_DEFS["Equal"].module == "wengert.ops.math_ops"
    assert _OP_DEFS["AddV2"].module == "wengert.ops.math_ops"
    assert not any(d.module == "wengert.ops.elementwise" for d in _OP_DEFS.values())


def test_the_scan_finds_what_it_should():
    tree = ast.parse('if op.type == "Relu" or op.type in ("Tanh", x):\n'
                     '    table = {"Sigmoid": 1}\n'
                     'ok = op.type.startswith("Random")\n'
                     'names = ["Relu"]  # a plain list: not a comparison or a table\n')
    assert sorted(c.value for c in _suspects(tree)) == ["Random", "Relu", "Sigmoid", "Tanh"]


def test_the_scan_finds_keyword_arguments_and_table_rows():
    """The forms tf.raw_ops' old hand-written table took: keyword names and values, rows of
    a tuple of tuples, values of a dict literal."""
    tree = ast.parse('_define(AddV2=add, Sub=sub)\n'
                     'declare(op_type="Relu", name="Const", onnx="Identity")\n'
                     'for op, fn in (("Sum", reduce_sum), ["Mean", reduce_mean]):\n'
                     '    pass\n'
                     'kinds = {"max": "Max"}\n'
                     'row = ("Min", 1)  # one tuple is not a table\n')
    assert sorted(c.value for c in _suspects(tree)) == [
        "AddV2", "Max", "Mean", "Relu", "Sub", "Sum", "max", "name", "onnx", "op_type"]
    lines = {c.value: c.lineno for c in _suspects(tree)}
    assert lines["AddV2"] == 1 and lines["Relu"] == 2 and lines["Mean"] == 3


def test_composed_raw_ops_count_as_declared():
    """TensorFlow ops wengert composes (tf.raw_ops.Div, Pad) belong to the file that composes
    them, like an OpDef's type."""
    assert _COMPOSED_RAW["Pad"][1] == "wengert.ops.pad_ops"
    assert _COMPOSED_RAW["Div"][1] == "wengert.ops.rounding_ops"
