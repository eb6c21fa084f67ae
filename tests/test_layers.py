"""The import DAG of wengert (DESIGN.md, "The layers"): imports point down the layers and no two
modules import each other, directly or around a loop.

    util < framework < ops (the base, then its leaf families) < autodiff < graph < runtime
      < tracing < control_flow < (autograph, data, viz, ...) < (train, keras, ...) < namespaces
      < programs

Inside ops/, the array and math base (the modules directly in ops/) is below the leaf families,
and the families are ordered too: (io, linalg, random, ragged, signal, sparse) < nn < image.
A package may import its own layer and those below; the public namespace modules at the top
(wengert/__init__.py, math.py, nn.py, ..., compat/) may import anything below them, and the
programs (the demo) anything at all. Every `import` and `from ... import` counts, at module level
or inside a function (a lazy import hides a cycle from Python, not from the reader). Importing a
submodule also runs its packages' __init__ files, so those count as edges too: a module that
imports wengert.a.b.c depends on wengert.a and wengert.a.b (unless it lives in them).
"""
import ast
import functools
import pathlib

import package_sources

ROOT = pathlib.Path(__file__).resolve().parents[1] / "wengert"

LAYERS = [
    ("util",),
    ("framework",),
    ("ops",),  # the array and math base: the modules directly in ops/
    ("ops.io", "ops.linalg", "ops.random", "ops.ragged", "ops.signal", "ops.sparse"),
    ("ops.nn",),
    ("ops.image",),
    ("autodiff",),
    ("graph",),
    ("runtime",),
    ("tracing",),
    ("control_flow",),
    ("autograph", "data", "datasets", "debugging", "distribute", "image", "module", "onnx",
     "profiler", "saved_model", "summary", "tf1", "viz"),
    ("keras", "optimizers", "train", "feature_columns"),
]
NAMESPACE_PACKAGES = ("compat",)  # TensorFlow's namespaces that are packages (tf.compat.v1)
PROGRAMS = ("demo",)  # programs over the public API (`python -m wengert.demo`)
TOP = len(LAYERS)  # the namespace modules


def _modules():
    """{dotted module name: path} for every module of the package."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = ("wengert",) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _layer(module):
    """(index, name) of the layer a module belongs to; None if its package is in no layer. The
    longest package path that names a layer decides (ops.nn.conv.conv2d is in ops.nn)."""
    parts = module.split(".")
    if len(parts) == 1 or (len(parts) == 2 and not (ROOT / parts[1]).is_dir()):
        return TOP, "namespace"
    if parts[1] in NAMESPACE_PACKAGES:
        return TOP, "namespace"
    if parts[1] in PROGRAMS:
        return TOP + 1, "program"
    for depth in range(len(parts), 1, -1):
        package = ".".join(parts[1:depth])
        if not (ROOT.joinpath(*parts[1:depth])).is_dir():
            continue
        for index, names in enumerate(LAYERS):
            if package in names:
                return index, package
    return None


def _targets(module, is_package, node, modules):
    """The wengert modules an import statement loads (a name imported from a module that is a
    submodule counts as that submodule)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names if a.name.split(".")[0] == "wengert"]
    else:
        if node.level:
            base = module.split(".")[:len(module.split(".")) - node.level + is_package]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        if source.split(".")[0] != "wengert":
            return []
        names = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                 for a in node.names]
    out = []
    for name in names:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        out.append(name)
    return out


def _packages_run(importer, target, modules):
    """The package __init__ modules that importing `target` runs, beyond those `importer` is
    inside of (its own packages are already running)."""
    parts = target.split(".")
    out = []
    for depth in range(2, len(parts)):
        package = ".".join(parts[:depth])
        if package in modules and not (importer + ".").startswith(package + "."):
            out.append(package)
    return out


@functools.lru_cache(maxsize=None)
def import_edges():
    """[(importer, imported, line)] for every import statement in the package, with the package
    __init__ modules each import runs."""
    modules = _modules()
    edges = []
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(package_sources.tree(path)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in dict.fromkeys(_targets(module, is_package, node, modules)):
                    for loaded in _packages_run(module, target, modules) + [target]:
                        if loaded != module:
                            edges.append((module, loaded, node.lineno))
    return modules, edges


def _where(module, line, modules):
    return f"{modules[module].relative_to(ROOT.parent)}:{line}"


def test_every_package_has_a_layer():
    modules, _ = import_edges()
    lost = sorted({m.split(".")[1] for m in modules if _layer(m) is None})
    assert not lost, (f"packages in no layer: {lost}; add each to LAYERS in tests/test_layers.py "
                      "where it belongs (see DESIGN.md), or to NAMESPACE_PACKAGES if it only "
                      "gathers public names")


def test_imports_point_down_the_layers():
    modules, edges = import_edges()
    order = " < ".join("(" + ", ".join(names) + ")" if len(names) > 1 else names[0]
                       for names in LAYERS)
    upward = []
    for importer, imported, line in edges:
        mine, theirs = _layer(importer), _layer(imported)
        if mine is not None and theirs is not None and theirs[0] > mine[0]:
            upward.append(f"{_where(importer, line, modules)} ({mine[1]}) imports {imported} "
                          f"({theirs[1]})")
    assert not upward, ("imports that point up the layers " + order + " < namespaces:\n  "
                        + "\n  ".join(upward) + "\nMove the code down to the layer that needs "
                        "it, or let the lower layer offer a hook that the upper one sets.")


def _cycles(edges):
    """The strongly connected components of more than one module (iterative Tarjan)."""
    graph = {}
    for importer, imported, _ in edges:
        graph.setdefault(importer, set()).add(imported)
        graph.setdefault(imported, set())
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def _shortest_loop(component, edges):
    """The import statements of one shortest loop through the first module of `component`."""
    members, start = set(component), component[0]
    first_step = {}  # module -> the edge by which the breadth-first search reached it
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for edge in edges:
                importer, imported, _ = edge
                if importer != module or imported not in members:
                    continue
                if imported == start:
                    loop = [edge]
                    while loop[0][0] != start:
                        loop.insert(0, first_step[loop[0][0]])
                    return loop
                if imported not in first_step:
                    first_step[imported] = edge
                    following.append(imported)
        frontier = following
    return []


def test_no_import_cycles():
    modules, edges = import_edges()
    reports = []
    for component in _cycles(edges):
        loop = [f"{_where(a, line, modules)} imports {b}"
                for a, b, line in _shortest_loop(component, edges)]
        reports.append("cycle among " + ", ".join(component) + ", for example:\n    "
                       + "\n    ".join(loop))
    assert not reports, ("modules that import each other (directly or around a loop):\n  "
                         + "\n  ".join(reports) + "\nMove the shared code into a module both "
                         "can import, or below both.")


def test_the_checks_see_what_they_should():
    """The edge finder resolves relative, absolute and function-level imports."""
    modules, edges = import_edges()
    found = {(a, b) for a, b, _ in edges}
    assert ("wengert.ops.math_ops", "wengert.ops.broadcast_ops") in found      # from .x import y
    assert ("wengert.ops.math_ops", "wengert.framework.execute") in found   # from ..x.y import z
    assert ("wengert", "wengert.autodiff") in found                         # from . import x
    assert ("wengert.autodiff.tape", "wengert.autodiff.explain") in found   # inside a function
    assert _layer("wengert.ops.math_ops") == (2, "ops")
    assert _layer("wengert.ops.nn.conv.conv2d") == (4, "ops.nn")
    assert _layer("wengert.ops.linalg.solves") == (3, "ops.linalg")
    assert _layer("wengert.nn") == (TOP, "namespace")
    assert _layer("wengert.demo.tour") == (TOP + 1, "program")
    # importing a submodule runs its packages: keras.layers.base -> wengert.train (its __init__)
    assert ("wengert.keras.callbacks.core", "wengert.train") in found
    assert _packages_run("wengert.ops.nn.lrn", "wengert.ops.nn.conv.conv2d",
                         _modules()) == ["wengert.ops.nn.conv"]
    loop = [("a", "b", 1), ("b", "c", 2), ("c", "a", 3), ("c", "d", 4), ("b", "a", 5)]
    assert _cycles(loop) == [["a", "b", "c"]]
    assert _shortest_loop(["a", "b", "c"], loop) == [("a", "b", 1), ("b", "a", 5)]
