"""The house rules of wengert's code that a reader relies on (DESIGN.md; docs/architecture.md):

- the top-level modules and tf.compat are namespaces: imports, `__all__` and assignments, never
  a `def` or a `class` (the code lives in the layer it belongs to);
- no file over 500 lines, and files are named for what they hold (no `_more`, `_extra`, `_core`);
- a function-level import says why it is not at the top of its file: `# optional dependency`
  (a package wengert does not require), `# imported when first needed` (SciPy, whose import
  costs more than wengert's) or `# cycle: ...` (what would import what);
- hot-path inlining (reading a tensor's `._value` instead of `array_of`, testing `type(x) is
  Tensor` instead of `is_eager_tensor`) happens in a few listed places, each saying why at the
  line; the lists only shrink.
"""
import ast
import pathlib
import re

import package_sources

ROOT = pathlib.Path(__file__).resolve().parents[1] / "wengert"
MAX_LINES = 500

# Files outside framework/ that read a tensor's or variable's private `._value` (framework/'s
# accessors are array_of and is_eager_tensor): the hot loops, each saying why at the read.
PRIVATE_VALUE_READS = {
    "autodiff/backprop.py",        # the reverse pass's inner loop
    "autodiff/forward.py",         # forward mode's per-op observer
    "autodiff/tape.py",            # watch() and gradient(): the seed benchmark's path
    "ops/broadcast_ops.py",        # as_gradient and the seed of every gradient() call
    "ops/elementwise.py",          # call_float: every unary op's public function
    "ops/installs.py",             # Tensor's * + - fast paths
    "ops/math_ops.py",             # Mul's gradient (MulSum)
    "runtime/variable_store.py",   # the store of variables' arrays that running plans use
    "train/checkpoint.py",         # a failed restore puts the variables' old arrays back
}

# Files with comments that mark code written inline for speed ("..., inline: why").
INLINE_COMMENTS = {
    "framework/execute.py",
    "autodiff/backprop.py", "autodiff/forward.py", "autodiff/tape.py",
    "ops/broadcast_ops.py", "ops/elementwise.py", "ops/installs.py", "ops/math_ops.py",
    "ops/shape_rules.py", "control_flow/subgraphs.py",
}


_files, _source, _tree = package_sources.files, package_sources.source, package_sources.tree


def _rel(path):
    return path.relative_to(ROOT).as_posix()


def _is_namespace(path):
    parts = path.relative_to(ROOT).parts
    return len(parts) == 1 or parts[0] == "compat"


def test_namespace_modules_hold_no_code():
    found = []
    for path in _files():
        if not _is_namespace(path):
            continue
        for node in _tree(path).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.append(f"{_rel(path)}:{node.lineno} defines {node.name}")
    assert not found, ("namespace modules define code (move it to the layer it belongs to and "
                       "import it):\n  " + "\n  ".join(found))


def test_files_are_short_and_named_for_what_they_hold():
    long = [f"{_rel(p)}: {n} lines" for p in _files()
            if (n := len(_source(p).splitlines())) > MAX_LINES]
    assert not long, (f"files over {MAX_LINES} lines (split them by concept):\n  "
                      + "\n  ".join(long))
    tests = ROOT.parent / "tests"
    vague = [p.relative_to(ROOT.parent).as_posix() for p in [*_files(), *tests.rglob("*.py")]
             if re.search(r"_(more|extra|core)(_|$)", p.stem)]
    assert not vague, f"files named for their size, not their concept: {vague}"


def _private_value_reads(tree):
    """Line numbers of `x._value` where x is not `self`."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "_value"
            and not (isinstance(node.value, ast.Name) and node.value.id == "self")]


def test_private_value_reads_stay_in_the_listed_hot_paths():
    readers = {_rel(p) for p in _files() if not _rel(p).startswith("framework/")
               and _private_value_reads(_tree(p))}
    unlisted = sorted(readers - PRIVATE_VALUE_READS)
    assert not unlisted, (f"reads of a tensor's ._value outside framework/ in {unlisted}: use "
                          "framework.tensor.array_of, or list the file here with its reason")
    stale = sorted(PRIVATE_VALUE_READS - readers)
    assert not stale, f"listed files that no longer read ._value (shrink the list): {stale}"


def test_inline_comments_stay_in_the_listed_hot_paths():
    marked = {_rel(p) for p in _files()
              if re.search(r"#[^\n]*\binline\b", _source(p))}
    unlisted = sorted(marked - INLINE_COMMENTS)
    assert not unlisted, (f"code inlined for speed outside the listed hot paths: {unlisted}; "
                          "call the accessor, or list the file here with its reason")
    stale = sorted(INLINE_COMMENTS - marked)
    assert not stale, f"listed files with no inlined code left (shrink the list): {stale}"


_IMPORT_REASONS = re.compile(r"#.*\b(optional dependency|imported when first needed|cycle:)")


def _function_level_imports(path):
    """(line, text) of each import inside a function of `path` that does not say why it is
    there rather than at the top of the file."""
    lines = _source(path).splitlines()
    out = set()
    stack = [(_tree(path), False)]  # (node, inside a function): one walk over the tree
    while stack:
        node, inside = stack.pop()
        if inside and isinstance(node, (ast.Import, ast.ImportFrom)):
            text = "\n".join(lines[node.lineno - 1:node.end_lineno])
            if not _IMPORT_REASONS.search(text):
                out.add((node.lineno, lines[node.lineno - 1].strip()))
        inside = inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        stack.extend((child, inside) for child in ast.iter_child_nodes(node))
    return sorted(out)


def test_function_level_imports_say_why():
    found = [f"{_rel(p)}:{line}: {text}" for p in _files()
             for line, text in _function_level_imports(p)]
    assert not found, ("imports inside functions belong at the top of the file unless they say "
                       "why (`# optional dependency`, `# imported when first needed`, or "
                       "`# cycle: ...`):\n  " + "\n  ".join(sorted(set(found))))
