"""`tf.saved_model.load` of a SavedModel that TensorFlow 2 wrote (`tf.saved_model.save`, Keras'
`model.export`): saved_model.pb holding an object graph (SavedObjectGraph) and a function
library, variables/ a tensor-bundle checkpoint. The object is rebuilt as TensorFlow's loader
rebuilds it:

- every SavedVariable node becomes an eager Variable (dtype, trainable, name as saved) holding
  the value the checkpoint stores for it: the checkpoint's own object graph
  (`_CHECKPOINTABLE_OBJECT_GRAPH`) is walked from the root beside the saved one, child name by
  child name, to the node's VARIABLE_VALUE key (`<path>/.ATTRIBUTES/VARIABLE_VALUE`);
- every trace a function or signature names becomes a wengert traced function of its FunctionDef
  (tf2_functions.py, function_import.py), its captured inputs bound to those Variables (or to
  saved constants);
- every asset is its file's path under assets/ (a string tensor); every saved resource (a
  lookup table: a SavedResource with `_create_resource` and `_initialize` functions) is made
  by running those functions once, eagerly, and a mutable table's contents are put back by its
  saveable's restore function from the checkpoint's tensors (function_import.py
  makes an empty wengert table for HashTableV2, and LookupTableImportV2 fills it);
- user objects become `RestoredObject`s (tf.Module subclasses) with their children as attributes
  by name; list, tuple and dict wrappers become lists, tuples and dicts; a SavedFunction becomes
  a RestoredFunction (its traces, called as TensorFlow binds arguments); a bare concrete
  function a BareFunction; the root's "signatures" (a signature_map) a dict of
  SignatureFunctions (load.py: keyword tensors in, a dict of outputs out, named by the saved
  output dict's keys; a RaggedTensor or SparseTensor where the saved output is one).

Everything is checked before the first Variable is made: each reachable function's op types
(function_import.check: an op wengert lacks is a NotFoundError naming it and its node; py_func
refused), the argument and output structures, what the traces capture. Nothing in the directory
is executed as Python; the protos are parsed by wengert's own reader (a truncated or corrupted
saved_model.pb is a DataLossError).
"""
import os

import numpy as np

from ..framework import dtypes
from ..framework.errors import DataLossError, NotFoundError, UnimplementedError
from ..framework.protos.tensor import from_proto
from ..framework.protos.trackable_object_graph import TrackableObjectGraph
from ..framework.tensor import convert_to_tensor
from ..framework.variables import Variable
from ..module.module import Module
from ..tracing.func_graph import init_scope
from ..util import nest
from .checkpoint_format import CheckpointReader
from .composite_values import COMPOSITE_SPECS, width
from .function_import import FunctionLibrary
from .load import SignatureFunction
from .structured_nests import python_nest
from .tf2_functions import BareFunction, RestoredFunction, input_specs, python_signature, trace

__all__ = ["load_tf2", "RestoredObject"]

_OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_CONTAINERS = {"trackable_list_wrapper": list, "trackable_tuple_wrapper": tuple,
               "trackable_dict_wrapper": dict, "signature_map": dict}


def _shadowing(name):
    """A Module property that a saved child of the same name replaces (Keras' exports save
    `variables`, `trainable_variables` ... as lists)."""
    base = getattr(Module, name)
    return property(lambda self: self.__dict__.get(f"_saved_{name}", None)
                    if f"_saved_{name}" in self.__dict__ else base.fget(self))


class RestoredObject(Module):
    """A user object rebuilt from a TensorFlow 2 SavedModel: its children as attributes."""
    variables = _shadowing("variables")
    trainable_variables = _shadowing("trainable_variables")
    non_trainable_variables = _shadowing("non_trainable_variables")
    submodules = _shadowing("submodules")

    def __init__(self):
        super().__init__(name="restored")

    def _set_child(self, name, value):
        if name == "__call__" or isinstance(getattr(type(self), name, None), property):
            self.__dict__[f"_saved_{name}"] = value
        else:
            setattr(self, name if name.isidentifier() else f"_{name}", value)

    def __call__(self, *args, **kwargs):
        function = self.__dict__.get("_saved___call__")
        if function is None:
            raise TypeError("This restored object is not callable: the saved object had no "
                            "__call__ function. Use its signatures or functions.")
        return function(*args, **kwargs)


# -- checks and plans, before anything is made ----------------------------------------------------
def _saveable_functions(graph):
    """{resource node id: [(saveable name, save trace, restore trace)]}: how a table's
    contents (a MutableHashTable's) are put back from the checkpoint."""
    out = {}
    for i, node in enumerate(graph.nodes):
        for name, saveable in node.saveable_objects.items():
            ends = [graph.nodes[j] if 0 <= j < len(graph.nodes) else None
                    for j in (saveable.save_function, saveable.restore_function)]
            if any(e is None or e.WhichOneof("kind") != "bare_concrete_function" for e in ends):
                raise DataLossError(f"tf.saved_model.load: object {i}'s saveable '{name}' "
                                    "names no save and restore functions.")
            out.setdefault(i, []).append(
                (name, *[e.bare_concrete_function.concrete_function_name for e in ends]))
    return out


def _restore_saveables(export_dir, graph, meta, library, objects, saveables):
    """Run each saveable's restore function on the tensors the checkpoint holds for it, named
    by running its save function on the checkpoint key the object graph gives."""
    if not saveables:
        return
    reader = CheckpointReader(os.path.join(export_dir, "variables", "variables"))
    attributes = _checkpoint_attributes(reader, graph)
    for i, entries in saveables.items():
        for name, save, restore in entries:
            prefix = next((key for attr, key in attributes.get(i, ()) if attr == name), None)
            if prefix is None:
                raise NotFoundError(f"tf.saved_model.load: the checkpoint holds nothing for "
                                    f"object {i}'s '{name}'.")
            with init_scope():  # the save function names its tensors: (name, slice, tensor)*
                named = library.call(save, [convert_to_tensor(prefix)] + _bound(
                    graph, meta, objects, save))
                keys = [str(np.asarray(t).item().decode()) for t in named[0::3]]
                values = reader.get_tensors(keys)
                library.call(restore, [convert_to_tensor(values[k]) for k in keys] + _bound(
                    graph, meta, objects, restore))


def _bound(graph, meta, objects, name):
    return [_captured(graph, meta, objects, j)
            for j in graph.concrete_functions[name].bound_inputs]


def _resource_functions(graph):
    """{resource node id: {"_create_resource": trace name, "_initialize": ...}}."""
    out = {}
    for i, node in enumerate(graph.nodes):
        if node.WhichOneof("kind") == "resource":
            out[i] = {c.local_name: graph.nodes[c.node_id].function.concrete_functions[0]
                      for c in node.children
                      if graph.nodes[c.node_id].WhichOneof("kind") == "function" and
                      len(graph.nodes[c.node_id].function.concrete_functions)}
            if "_create_resource" not in out[i]:
                raise UnimplementedError(f"tf.saved_model.load: saved resource {i} has no "
                                         "_create_resource function; wengert cannot make it.")
    return out


def _traces_used(graph, skipped=()):
    """Names of the traces that functions and bare functions name, in first-use order, less
    `skipped` (the resources' own functions, run once while loading)."""
    names = []
    for node in graph.nodes:
        kind = node.WhichOneof("kind")
        if kind == "function":
            names.extend(node.function.concrete_functions)
        elif kind == "bare_concrete_function":
            names.append(node.bare_concrete_function.concrete_function_name)
    return [n for n in dict.fromkeys(names) if n not in skipped]


def _check_captures(graph, names, run_once):
    for name in names + run_once:
        if name not in graph.concrete_functions:
            raise DataLossError(f"tf.saved_model.load: the SavedModel names the function "
                                f"'{name}' but holds no SavedConcreteFunction for it.")
        for i in graph.concrete_functions[name].bound_inputs:
            if not 0 <= i < len(graph.nodes):
                raise DataLossError(f"tf.saved_model.load: function '{name}' captures object "
                                    f"{i}, out of range.")
            kind = graph.nodes[i].WhichOneof("kind")
            if kind not in ("variable", "constant", "resource", "asset"):
                raise UnimplementedError(f"tf.saved_model.load: function '{name}' captures a "
                                         f"saved {kind} (object {i}); wengert restores captured "
                                         "variables, constants, assets and tables only.")
        if name not in run_once:  # (a resource's functions take resource specs)
            input_specs(graph.concrete_functions[name])  # TypeSpecs are refused here
    for node in graph.nodes:
        if node.WhichOneof("kind") == "function":
            python_signature(node.function.function_spec)
            python_nest(node.function.function_spec.input_signature)


def _checkpoint_attributes(reader, graph):
    """Saved node id -> [(attribute name, checkpoint key)], walking both object graphs from
    their roots by child name."""
    if not reader.has_tensor(_OBJECT_GRAPH_KEY):
        raise NotFoundError("tf.saved_model.load: the SavedModel's checkpoint has no object "
                            f"graph ({_OBJECT_GRAPH_KEY}).")
    raw = reader.get_tensor(_OBJECT_GRAPH_KEY)
    raw = raw.item() if hasattr(raw, "item") else raw
    ckpt = TrackableObjectGraph.FromString(raw if isinstance(raw, bytes) else raw.encode())
    found, seen, todo = {}, {0}, [(0, 0)]
    while todo:
        saved_id, ckpt_id = todo.pop()
        node, twin = graph.nodes[saved_id], ckpt.nodes[ckpt_id]
        found[saved_id] = [(a.name, a.checkpoint_key) for a in twin.attributes]
        by_name = {c.local_name: c.node_id for c in twin.children}
        for child in node.children:
            if child.local_name in by_name and child.node_id not in seen:
                seen.add(child.node_id)
                todo.append((child.node_id, by_name[child.local_name]))
    return found


def _variable_keys(reader, graph):
    """Saved node id -> the checkpoint key of its VARIABLE_VALUE."""
    return {i: key for i, pairs in _checkpoint_attributes(reader, graph).items()
            for name, key in pairs if name == "VARIABLE_VALUE"}


def _variables(export_dir, graph):
    ids = [i for i, n in enumerate(graph.nodes) if n.WhichOneof("kind") == "variable"]
    if not ids:
        return {}
    reader = CheckpointReader(os.path.join(export_dir, "variables", "variables"))
    keys = _variable_keys(reader, graph)
    missing = [graph.nodes[i].variable.name for i in ids if i not in keys]
    if missing:
        raise NotFoundError(f"tf.saved_model.load: the SavedModel's checkpoint has no values "
                            f"for the variables {missing}.")
    values = reader.get_tensors([keys[i] for i in ids])
    out = {}
    with init_scope():
        for i in ids:
            saved = graph.nodes[i].variable
            value = values[keys[i]]
            out[i] = Variable(value.astype(dtypes.as_dtype(saved.dtype).as_numpy_dtype,
                                           copy=False),
                              trainable=bool(saved.trainable), name=saved.name or None)
    return out


def _constant(meta, name):
    node = next((n for n in meta.graph_def.node if n.name == name), None)
    if node is None or "value" not in node.attr:
        raise DataLossError(f"tf.saved_model.load: the saved constant '{name}' is not in the "
                            "graph.")
    with init_scope():
        return convert_to_tensor(from_proto(node.attr["value"].tensor)[0])


def _assets(export_dir, meta, graph):
    """{asset node id: its file's path in export_dir/assets, a string tensor}."""
    out = {}
    for i, node in enumerate(graph.nodes):
        if node.WhichOneof("kind") == "asset":
            index = node.asset.asset_file_def_index
            if not 0 <= index < len(meta.asset_file_def):
                raise DataLossError(f"tf.saved_model.load: asset {i} names asset file "
                                    f"{index}, out of range.")
            path = os.path.join(export_dir, "assets", meta.asset_file_def[index].filename)
            with init_scope():
                out[i] = convert_to_tensor(path)
    return out


def _captured(graph, meta, variables, i):
    node = graph.nodes[i]
    if node.WhichOneof("kind") in ("variable", "resource", "asset"):
        return variables[i]
    return _constant(meta, node.constant.operation)


def _resources(graph, meta, library, objects, plans):
    """Make each saved resource (a lookup table) by running its _create_resource function, then
    its _initialize function (which fills it), eagerly; adds them to `objects` by node id."""
    for i, plan in plans.items():
        with init_scope():
            made = library.call(plan["_create_resource"], [])
        if len(made) != 1:
            raise UnimplementedError(f"tf.saved_model.load: resource {i}'s creator returns "
                                     f"{len(made)} values, not one resource.")
        objects[i] = made[0]
    for i, plan in plans.items():
        if "_initialize" in plan:
            saved = graph.concrete_functions[plan["_initialize"]]
            captured = [_captured(graph, meta, objects, j) for j in saved.bound_inputs]
            with init_scope():
                library.call(plan["_initialize"], captured)


# -- the object tree -------------------------------------------------------------------------------
def _object(node, i, variables, traces):
    kind = node.WhichOneof("kind")
    if kind in ("variable", "resource", "asset"):
        return variables[i]
    if kind == "function":
        if not all(n in traces for n in node.function.concrete_functions):
            return None  # a resource's own function, run while loading
        spec = node.function.function_spec
        return RestoredFunction(f"function {i}", [traces[n] for n in
                                                  node.function.concrete_functions],
                                python_signature(spec), python_nest(spec.input_signature))
    if kind == "bare_concrete_function":
        bare = node.bare_concrete_function
        if bare.concrete_function_name not in traces:
            return None
        return BareFunction(traces[bare.concrete_function_name], bare.argument_keywords,
                            bare.allowed_positional_arguments)
    if kind == "user_object" and node.user_object.identifier in _CONTAINERS:
        return None  # made from its children
    return RestoredObject()


def _signature(traced):
    keywords = sorted(traced.inputs[1]) if isinstance(traced.inputs[1], dict) else []
    outputs = traced.outputs
    names = sorted(outputs) if isinstance(outputs, dict) else [
        f"output_{k}" for k in range(len(nest.flatten(outputs)))]
    specs = [s for s in nest.flatten(outputs) if width(s)]
    composite = any(isinstance(s, COMPOSITE_SPECS) for s in specs)
    return SignatureFunction(traced.concrete, keywords, names[:len(specs)],
                             specs if composite else None)


def _containers(graph, objects, traces):
    """Fill lists, tuples and dicts, children first (containers of containers: made in reverse
    order of their discovery from the root, a work list)."""
    order, seen, todo = [], {0}, [0]
    while todo:
        i = todo.pop()
        order.append(i)
        for child in graph.nodes[i].children:
            if child.node_id not in seen:
                seen.add(child.node_id)
                todo.append(child.node_id)
    for i in reversed(order):
        node = graph.nodes[i]
        if objects[i] is not None or node.WhichOneof("kind") != "user_object":
            continue
        kind = _CONTAINERS[node.user_object.identifier]
        children = [(c.local_name, objects[c.node_id]) for c in node.children]
        if node.user_object.identifier == "signature_map":
            objects[i] = {name: _signature(traces[graph.nodes[c.node_id]
                                                  .bare_concrete_function.concrete_function_name])
                          for name, c in zip([n for n, _ in children], node.children)}
        elif kind is dict:
            objects[i] = dict(children)
        else:
            ordered = sorted(children, key=lambda c: int(c[0]) if c[0].isdigit() else -1)
            objects[i] = kind(value for _, value in ordered)


def _build(graph, variables, traces):
    objects = [_object(n, i, variables, traces) for i, n in enumerate(graph.nodes)]
    _containers(graph, objects, traces)
    for obj, node in zip(objects, graph.nodes):
        if isinstance(obj, RestoredObject):
            for child in node.children:
                value = objects[child.node_id]
                if isinstance(value, RestoredFunction):
                    value.name = child.local_name
                obj._set_child(child.local_name, value)
    root = objects[0]
    if not isinstance(root, RestoredObject):
        raise UnimplementedError("tf.saved_model.load: the SavedModel's root is not a user "
                                 "object (a tf.Module or Keras model).")
    if not isinstance(getattr(root, "signatures", None), dict):
        root.signatures = {}
    return root


def load_tf2(export_dir, meta):
    """The object TensorFlow 2 saved in `export_dir` (MetaGraphDef `meta`; see the module
    docstring)."""
    export_dir = os.fspath(export_dir)
    graph = meta.object_graph_def
    if not len(graph.nodes):
        raise DataLossError(f"tf.saved_model.load('{export_dir}'): the object graph is empty.")
    library = FunctionLibrary(meta.graph_def.library)
    plans, saveables = _resource_functions(graph), _saveable_functions(graph)
    run_once = {name for plan in plans.values() for name in plan.values()} | {
        name for entries in saveables.values() for _, *names in entries for name in names}
    names = _traces_used(graph, run_once)
    _check_captures(graph, names, sorted(run_once))
    library.check(names + sorted(run_once))
    variables = _variables(export_dir, graph)
    variables.update(_assets(export_dir, meta, graph))
    _resources(graph, meta, library, variables, plans)
    _restore_saveables(export_dir, graph, meta, library, variables, saveables)
    traces = {}
    for name in names:
        saved = graph.concrete_functions[name]
        captured = [_captured(graph, meta, variables, i) for i in saved.bound_inputs]
        traces[name] = trace(library, name, saved, captured)
    return _build(graph, variables, traces)
