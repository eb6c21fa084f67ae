"""`tf.saved_model.save`: an object's traced functions, variables and signatures in a directory.

The directory holds wengert's own format (documented in saved_model/__init__.py),
`saved_model.json` and `variables/variables.{index,data-00000-of-00001}` (the checkpoint format),
and TensorFlow's (tensorflow_format.py): `saved_model.pb` and, in the same checkpoint,
TensorFlow's object graph and variable keys, so that TensorFlow loads the directory too. TensorFlow's
form is built before anything is written; when a function uses an op with no TensorFlow form it
is left out with a warning (or, with SaveOptions(experimental_tensorflow_format=True), the save
fails naming the op and writes nothing).
What is saved, starting from `obj`:
- the object tree: a tf.Module's (or Keras model's) checkpoint children, walked with an explicit
  stack; a Variable becomes a variable node, a module a node with named children;
- on each object, its `tf.function` attributes (methods), every trace made so far (a function
  with an input_signature is traced now if it was not yet), and what the object lists itself in
  `_list_functions_for_serialization()` (Keras models: `__call__`); a plain `tf.function` saved
  as the root is the loaded object's `__call__`;
- the signatures: `signatures` (a function with an input_signature, a ConcreteFunction, or a
  dict of them by name) or, by default, the object's `_default_save_signature()` (Keras models)
  or its only `tf.function` with an input_signature, as `serving_default`. A signature is
  called with keyword arguments named after the traced arguments (TensorSpec names where given)
  and returns a dict: a dict output keeps its keys, other outputs are `output_0`, `output_1`...;
- every variable a saved graph reads or writes, with its current value (variables outside the
  object tree too), and every constant array of the graphs;
- every tf.lookup table a saved graph uses or an object holds, with its contents
  (saved_tables.py); in TensorFlow's form the text files of TextFileInitializers are copied
  into assets/ (tensorflow_tables.py).
The JSON file is written last (atomically), so an interrupted save leaves no loadable directory.
"""
import inspect
import json
import os
import warnings

from ..framework.variables import Variable, variable_op_name
from ..tracing.function import ConcreteFunction, Function
from ..module.module import TrackedContainer
from ..framework.errors import UnimplementedError
from ..util import nest
from .checkpoint_format import _atomic_write, _remove, _write_checkpoint
from .composite_values import output_specs
from .graph_json import encode_function, encode_subgraph
from . import tensorflow_format
from .saved_tables import TableList, is_table

__all__ = ["save", "FORMAT", "VERSION", "JSON_FILE", "VARIABLES"]

FORMAT, VERSION = "wengert-saved-model", 1
JSON_FILE = "saved_model.json"
PROTO_FILE = "saved_model.pb"
VARIABLES = os.path.join("variables", "variables")


class _Saver:
    def __init__(self):
        self.objects, self.functions, self.arrays = [], [], {}
        self.variables = {}      # id(var) -> (key, var)
        self._function_ids = {}  # id(concrete) -> index
        self.subgraphs, self._subgraph_ids, self._pending = [], {}, []
        self.tables = TableList()

    def subgraph_id(self, graph):
        """The index of a control-flow sub-graph; encoded later (`encode_pending`)."""
        hit = self._subgraph_ids.get(id(graph))
        if hit is None:
            hit = self._subgraph_ids[id(graph)] = len(self.subgraphs)
            self.subgraphs.append(None)
            self._pending.append((hit, graph))
        return hit

    def encode_pending(self):
        """Encode the sub-graphs found so far, and those they contain (a work list)."""
        while self._pending:
            index, graph = self._pending.pop(0)
            self.subgraphs[index] = encode_subgraph(graph, self.variable_key, self.arrays,
                                                    f"constants/subgraph{index}",
                                                    self.subgraph_id, self.tables.table_id)

    def variable_key(self, var, where=""):
        hit = self.variables.get(id(var))
        if hit is None:
            if not hasattr(var, "numpy") or getattr(var, "graph", None) is not None:
                raise TypeError(f"{where}: only eager variables can be saved.")
            hit = (f"variables/{len(self.variables)}", var)
            self.variables[id(var)] = hit
        return hit[0]

    def function_id(self, concrete):
        hit = self._function_ids.get(id(concrete))
        if hit is None:
            hit = len(self.functions)
            self._function_ids[id(concrete)] = hit
            self.functions.append(None)  # placeholder: encoded below, in order
            self.functions[hit] = encode_function(concrete, self.variable_key, self.arrays,
                                                  f"constants/{hit}", self.subgraph_id,
                                                  self.tables.table_id)
        return hit


def _concretes(function):
    """Every trace of a Function (tracing its input_signature if it has none yet)."""
    if isinstance(function, ConcreteFunction):
        return [function]
    if isinstance(function, (list, tuple)):
        return [c for f in function for c in _concretes(f)]
    traces = function._list_all_concrete_functions()
    if not traces and function.input_signature is not None:
        traces = [function.get_concrete_function()]
    return traces


def _function_attributes(obj):
    """{name: Function or ConcreteFunctions} the object carries: tf.function attributes (bound
    to it) and what it lists in `_list_functions_for_serialization()`."""
    if isinstance(obj, (Function, ConcreteFunction)):
        return {"__call__": obj}
    out, names = {}, set()
    for cls in type(obj).__mro__:
        names.update(k for k, v in vars(cls).items() if isinstance(v, Function))
    if hasattr(obj, "__dict__"):
        names.update(k for k, v in vars(obj).items() if isinstance(v, Function))
    for name in sorted(names):
        out[name] = getattr(obj, name)
    listed = getattr(obj, "_list_functions_for_serialization", None)
    if callable(listed):
        out.update(listed())
    return out


def _walk(saver, root):
    """Fill saver.objects with the object tree under `root` (explicit stack)."""
    ids = {id(root): 0}
    saver.objects.append(None)
    stack = [(root, 0)]
    while stack:
        obj, index = stack.pop()
        if isinstance(obj, Variable):
            saver.objects[index] = _variable_node(saver, obj)
            continue
        if is_table(obj):
            saver.objects[index] = saver.tables.object_node(obj)
            continue
        node = {"children": {}, "functions": {}}
        if isinstance(obj, TrackedContainer):
            node["container"] = True
        children = obj._checkpoint_children() if hasattr(obj, "_checkpoint_children") else {}
        for name, child in children.items():
            if id(child) not in ids:
                ids[id(child)] = len(saver.objects)
                saver.objects.append(None)
                stack.append((child, ids[id(child)]))
            node["children"][str(name)] = ids[id(child)]
        for name, function in _function_attributes(obj).items():
            node["functions"][name] = [saver.function_id(c) for c in _concretes(function)]
            parameters = _parameters(function)
            if parameters is not None:
                node.setdefault("parameters", {})[name] = parameters
        saver.objects[index] = node


_LITERALS = (type(None), bool, int, float, str)


def _parameters(function):
    """[[name, kind, has_default, default]] of a tf.function's Python parameters (`self` left
    out), so that a restored function binds a call's defaults as the traces were keyed
    (TensorFlow saves its FunctionSpec for the same purpose). A default that is not a JSON
    literal is written as none (has_default "opaque"): a call must then pass it."""
    if isinstance(function, (list, tuple)):  # traces listed for serialization (Keras)
        function = function[0] if function else None
    if isinstance(function, ConcreteFunction):
        python = getattr(function.graph, "python_function", None)
    else:
        python = getattr(function, "python_function", None)
    try:
        params = list(inspect.signature(python).parameters.values()) if python else None
    except (TypeError, ValueError):
        return None
    if params is None:
        return None
    if params and params[0].name == "self" and not inspect.ismethod(python):
        params = params[1:]
    out = []
    for p in params:
        if p.default is inspect.Parameter.empty:
            out.append([p.name, p.kind.name, False, None])
        elif isinstance(p.default, _LITERALS):
            out.append([p.name, p.kind.name, True, p.default])
        else:
            out.append([p.name, p.kind.name, "opaque", None])
    return out


def _variable_node(saver, var):
    return {"variable": saver.variable_key(var), "name": variable_op_name(var),
            "trainable": bool(var.trainable)}


# -- signatures ------------------------------------------------------------------------------------
def _signature_functions(obj, signatures):
    """{signature name: ConcreteFunction, with the Python function when known}."""
    if signatures is None:
        default = getattr(obj, "_default_save_signature", None)
        if callable(default):
            found = default()
            return {} if found is None else {"serving_default": found}
        candidates = [f for f in _function_attributes(obj).values()
                      if isinstance(f, Function) and f.input_signature is not None]
        return {"serving_default": candidates[0]} if len(candidates) == 1 else {}
    if not isinstance(signatures, dict):
        signatures = {"serving_default": signatures}
    for name, fn in signatures.items():
        if isinstance(fn, Function) and fn.input_signature is None:
            raise ValueError(f"Signature {name!r}: a tf.function used as a signature needs an "
                             "input_signature; pass fn.get_concrete_function(...) instead.")
        if not isinstance(fn, (Function, ConcreteFunction)):
            raise ValueError(f"Signature {name!r} must be a tf.function with an "
                             f"input_signature or a ConcreteFunction, got {fn!r:.60}.")
    return dict(signatures)


def _input_names(function, concrete):
    """Keyword names of a signature's inputs: TensorSpec names, else the Python parameter's
    name (with _0, _1... for the parts of a nested argument)."""
    graph = concrete.graph
    args, kwargs = getattr(graph, "structured_input_signature", None) or ((), {})
    if isinstance(function, (list, tuple)):  # traces listed for serialization (Keras)
        function = function[0] if function else None
    if isinstance(function, ConcreteFunction):
        python = getattr(function.graph, "python_function", None)
    else:
        python = getattr(function, "python_function", None)
    try:
        params = [p.name for p in inspect.signature(python).parameters.values()] if python \
            else []
    except (TypeError, ValueError):
        params = []
    names = {}
    positions = list(enumerate(args)) + [(k, v) for k, v in sorted(kwargs.items())]
    for position, value in positions:
        base = position if isinstance(position, str) else (
            params[position] if position < len(params) else f"args_{position}")
        leaves = nest.flatten(value)
        for j, leaf in enumerate(leaves):
            default = base if len(leaves) == 1 else f"{base}_{j}"
            name = leaf.op.name if hasattr(leaf, "op") else None
            names[id(leaf)] = default if name is None or name.startswith("args_") else name
    return [names.get(id(p), p.op.name) for p in graph.inputs]


def _output_names(concrete):
    outputs = concrete.structured_outputs
    if isinstance(outputs, dict) and all(isinstance(k, str) for k in outputs) and \
            not any(nest.is_nested(v) for v in outputs.values()):
        return sorted(outputs)  # flattened in sorted key order
    return [f"output_{i}" for i in range(len(output_specs(concrete)))]


def _encode_signatures(saver, obj, signatures):
    out = {}
    for name, fn in _signature_functions(obj, signatures).items():
        concrete = fn if isinstance(fn, ConcreteFunction) else fn.get_concrete_function()
        out[str(name)] = {"function": saver.function_id(concrete),
                          "inputs": _input_names(fn, concrete),
                          "outputs": _output_names(concrete)}
    return out


# -- save -------------------------------------------------------------------------------------------
_HELPERS = {"function_attributes": _function_attributes, "concretes": _concretes,
            "input_names": _input_names, "output_names": _output_names,
            "signature_functions": _signature_functions}


def _tensorflow_form(obj, signatures, options):
    """(SavedModel proto, checkpoint arrays) of TensorFlow's format, or None (see the module
    docstring: `experimental_tensorflow_format` True requires it, False skips it)."""
    wanted = (getattr(options, "options", None) or {}).get("experimental_tensorflow_format")
    if wanted is False:
        return None
    try:
        return tensorflow_format.build(obj, signatures, _HELPERS)
    except UnimplementedError as err:
        if wanted:
            raise
        warnings.warn(f"{err} Only wengert's format (saved_model.json) is written.",
                      stacklevel=3)
        return None


def save(obj, export_dir, signatures=None, options=None):
    """Save `obj` (a tf.Module, a Keras model, or a tf.function) to the directory
    `export_dir` (see the module docstring)."""
    export_dir = os.fspath(export_dir)
    saver = _Saver()
    _walk(saver, obj)
    encoded_signatures = _encode_signatures(saver, obj, signatures)
    saver.encode_pending()
    tensorflow = _tensorflow_form(obj, signatures, options)
    document = {"format": FORMAT, "version": VERSION, "objects": saver.objects,
                "functions": saver.functions, "subgraphs": saver.subgraphs,
                "signatures": encoded_signatures,
                "variables": {key: {"name": variable_op_name(var),
                                    "trainable": bool(var.trainable)}
                              for key, var in saver.variables.values()}}
    arrays = {key: var.numpy() for key, var in saver.variables.values()}
    arrays.update(saver.arrays)
    document["tables"] = saver.tables.document(arrays)
    if tensorflow is not None:
        arrays.update(tensorflow[1])
    os.makedirs(os.path.join(export_dir, "variables"), exist_ok=True)
    os.makedirs(os.path.join(export_dir, "assets"), exist_ok=True)
    _write_checkpoint(os.path.join(export_dir, VARIABLES), arrays)
    if tensorflow is None:
        _remove(os.path.join(export_dir, PROTO_FILE))
    else:
        for source, name in tensorflow[2]:
            with open(source, "rb") as f:
                _atomic_write(os.path.join(export_dir, "assets", name), [f.read()])
        _atomic_write(os.path.join(export_dir, PROTO_FILE), [tensorflow[0].SerializeToString()])
    text = json.dumps(document, indent=None, separators=(",", ":"), allow_nan=False)
    _atomic_write(os.path.join(export_dir, JSON_FILE), [text.encode("utf-8")])
