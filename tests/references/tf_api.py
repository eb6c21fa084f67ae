"""TensorFlow 2.21's public API, stored: its modules, their names, each function's and class's
parameter names and each class's public methods; and the list of those wengert still lacks.

    /work/tfvenv/bin/python tests/references/tf_api.py record [PATH]  # under TensorFlow
    python tests/references/tf_api.py gaps                            # under wengert
    python tests/references/tf_api.py ignored                         # under wengert

tests/test_tf_api.py fails when something TensorFlow has (a module, a name, a parameter, a
member) is missing from wengert and not listed in tf_api_gaps.txt, so the list only shrinks:
a function or class of `tf.` whose positional parameters wengert takes in another order (so that
`tf.compat.v1.nn.in_top_k(logits, labels, 1)` would swap them) is listed as
`path(positional order)`.
after building a name, run `gaps` and commit the shorter list. `tf.X` is looked up as
`wengert.X`, `keras.X` as `wengert.keras.X`. tests/test_arguments_honoured.py likewise fails on
a parameter TensorFlow has that wengert's function takes but never reads (it neither honours nor
refuses it) unless listed in ignored_arguments.txt, a list that also only shrinks.
"""
import ast
import textwrap
import inspect
import itertools
import json
import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
API = HERE / "tf_api.json"
GAPS = HERE / "tf_api_gaps.txt"
IGNORED = HERE / "ignored_arguments.txt"
SKIP = {"tf.compat.v2", "tf.compat.v1.compat", "tf.experimental.dtensor", "tf.tpu",
        "tf.compat.v1.tpu", "tf.xla", "tf.compat.v1.xla", "tf.mlir", "tf.compat.v1.mlir",
        "tf.experimental.tensorrt", "tf.compat.v1.experimental", "tf.raw_ops",
        "tf.compat.v1.raw_ops", "tf.keras", "tf.compat.v1.keras", "tf.compat.v1.estimator",
        "tf.estimator", "tf.lite", "tf.compat.v1.lite", "keras.src", "tf.compat.v1.gfile"}


def _public_api(module):
    """TensorFlow's generated API modules and Keras's public ones (not their implementation
    modules that happen to be reachable as attributes)."""
    try:
        name = module.__name__
    except AttributeError:  # TensorFlow's lazy `tf.keras` stand-in
        return False
    return name.startswith("tensorflow._api.v2.") or (
        name.startswith("keras.") and not name.startswith(("keras.src", "keras._tf_keras")))


def parameters(obj):
    """[name, kind, has a default] of each parameter of a function or a class's __init__."""
    try:
        target = obj.__init__ if inspect.isclass(obj) else obj
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    out = []
    for p in sig.parameters.values():
        if p.name == "self":
            continue
        out.append([p.name, p.kind.name, p.default is not inspect.Parameter.empty])
    return out


def describe(obj):
    """A name's entry: its kind, parameters, and for a class its public methods (properties
    and instance attributes are left out: wengert may set them per instance)."""
    if inspect.isclass(obj):
        methods = sorted(n for n in dir(obj) if not n.startswith("_")
                         and callable(inspect.getattr_static(obj, n, None)))
        return {"kind": "class", "params": parameters(obj), "members": methods}
    if callable(obj):
        return {"kind": "function", "params": parameters(obj)}
    return {"kind": "value"}


def record(path=API):
    """Walk TensorFlow's and Keras's public modules (breadth first) into `path`."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    modules, queue = {}, [("tf", tf), ("keras", keras)]
    while queue:
        name, module = queue.pop(0)
        if name in SKIP or name in modules or name.count(".") > 4:
            continue
        try:
            attrs = sorted(a for a in dir(module) if not a.startswith("_"))
        except Exception:  # noqa: BLE001 - a lazy module that cannot load here
            continue
        modules[name] = {}
        for attr in attrs:
            try:
                obj = getattr(module, attr)
            except Exception:  # noqa: BLE001 - lazily loaded names that fail to load
                continue
            if inspect.ismodule(obj):
                if _public_api(obj):
                    queue.append((f"{name}.{attr}", obj))
                    modules[name][attr] = {"kind": "module"}
            else:
                modules[name][attr] = describe(obj)
    pathlib.Path(path).write_text(json.dumps({"tensorflow": tf.__version__, "keras": keras.__version__,
                               "modules": modules}, sort_keys=True) + "\n")


def listed(path):
    """The entries of a ratchet list (tf_api_gaps.txt, ignored_arguments.txt), one per line."""
    return set(pathlib.Path(path).read_text().split("\n")) - {""}


def wengert_object(path):
    """The wengert object for TensorFlow's dotted `path` (tf.X -> wengert.X, keras.X ->
    wengert.keras.X), or None."""
    import wengert
    parts = path.split(".")
    obj = wengert if parts[0] == "tf" else wengert.keras
    for part in parts[1:]:
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - a missing or failing name is a gap either way
            return None
    return obj


def missing_parameters(obj, params):
    """TensorFlow's named parameters that wengert's callable `obj` does not take."""
    try:
        target = obj.__init__ if inspect.isclass(obj) else obj
        mine = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return []
    names = {p.name for p in mine}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in mine):
        return []
    return [n for n, kind, _ in params if kind not in ("VAR_POSITIONAL", "VAR_KEYWORD")
            and n not in names]


POSITIONAL = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")


def misordered(obj, params):
    """Whether wengert's callable `obj` takes TensorFlow's positional parameters in another
    order, up to the first one it lacks (reported as missing already); a function taking
    *args takes any order."""
    try:
        target = obj.__init__ if inspect.isclass(obj) else obj
        mine = [p for p in inspect.signature(target).parameters.values() if p.name != "self"]
    except (TypeError, ValueError):
        return False
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in mine):
        return False
    names = {p.name for p in mine}
    theirs = list(itertools.takewhile(names.__contains__,
                                      (n for n, kind, _ in params if kind in POSITIONAL)))
    return [p.name for p in mine if p.kind.name in POSITIONAL][:len(theirs)] != theirs


def gaps():
    """Every module, name, parameter (`name(param)`) and member (`Class.member`) of the stored
    API that wengert lacks, sorted."""
    api = json.loads(API.read_text())["modules"]
    out = []
    for module, names in api.items():
        where = wengert_object(module)
        if where is None:
            out.append(f"{module} (module)")
            continue
        for name, entry in names.items():
            path = f"{module}.{name}"
            if entry["kind"] == "module":
                continue
            obj = wengert_object(path)
            if obj is None:
                out.append(path)
                continue
            out.extend(f"{path}({p})" for p in missing_parameters(obj, entry.get("params") or []))
            if path.startswith("tf.") and misordered(obj, entry.get("params") or []):
                out.append(f"{path}(positional order)")
            if inspect.isclass(obj):
                out.extend(f"{path}.{m}" for m in entry.get("members", ())
                           if not hasattr(obj, m))
    return sorted(out)


def unread_parameters(obj, params):
    """TensorFlow's parameters that wengert's Python function (or class's __init__) `obj` takes
    and never reads: its body has no name for them (a function that reads `locals()` or
    `vars()` reads them all)."""
    target = inspect.unwrap(obj.__init__ if inspect.isclass(obj) else obj)
    if not inspect.isfunction(target):
        return []
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(target)))
    except (OSError, TypeError, SyntaxError):
        return []
    func = tree.body[0]
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    read = {n.id for n in ast.walk(func) if isinstance(n, ast.Name)}
    if read & {"locals", "vars"}:
        return []
    theirs = {n for n, kind, _ in params if kind not in ("VAR_POSITIONAL", "VAR_KEYWORD")}
    args = func.args
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs
            if a.arg in theirs and a.arg not in read and a.arg != "self"]


def ignored():
    """`path(param)` for every parameter of the stored API that wengert takes and never reads."""
    api = json.loads(API.read_text())["modules"]
    out = set()
    for module, names in api.items():
        for name, entry in names.items():
            if entry["kind"] not in ("function", "class") or not entry.get("params"):
                continue
            path = f"{module}.{name}"
            obj = wengert_object(path)
            if obj is not None:
                out.update(f"{path}({p})" for p in unread_parameters(obj, entry["params"]))
    return sorted(out)


def main(argv):
    if argv[:1] == ["record"] and len(argv) <= 2:
        record(*argv[1:])
    elif argv == ["gaps"]:
        sys.path.insert(0, str(HERE.parent.parent))  # this checkout's wengert
        GAPS.write_text("\n".join(gaps()) + "\n")
    elif argv == ["ignored"]:
        sys.path.insert(0, str(HERE.parent.parent))  # this checkout's wengert
        IGNORED.write_text("\n".join(ignored()) + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
