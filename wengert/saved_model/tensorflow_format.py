"""The SavedModel as TensorFlow writes it: `saved_model.pb` (a SavedModel proto with one
MetaGraphDef tagged "serve") and, in the variables checkpoint, TensorFlow's object graph and
its variable keys, so that TensorFlow 2's `tf.saved_model.load` restores what
`tf.saved_model.save` wrote (save.py calls `build` before writing anything).

The MetaGraphDef holds:
- graph_def.library: one FunctionDef per trace of every saved function (function_defs.py),
  named "__inference_<graph>_<n>", and one per signature ("__inference_signature_wrapper_..."),
  the same body whose inputs are named by the signature's keywords and whose outputs are the
  signature's dict;
- object_graph_def: the objects breadth first from the root (node 0), each with its children
  by name: a module or layer is a "_generic_user_object", a variable a SavedVariable (dtype,
  shape, trainable, name), each tf.function attribute a SavedFunction (its traces' names, its
  argument spec and input signature), and the root's "signatures" child a "signature_map" whose
  children are the signatures (SavedBareConcreteFunctions with their keyword names); every trace
  has a SavedConcreteFunction: the node ids of the variables bound to its resource inputs, its
  input signature ((args...), {kwargs}) of TensorSpecs named as its arguments, and its output
  nest of TensorSpecs (a RaggedTensorSpec or SparseTensorSpec TypeSpec where it takes or
  returns a composite, whose components the FunctionDef takes or returns:
  composite_values.py). A variable a function uses that no object holds becomes a child of the
  root named "_captured_variable_<i>"; a tf.lookup table is a SavedResource with the functions
  that make and fill it, and its text file an asset (tensorflow_tables.py);
- signature_def: each signature's inputs (keyword -> "<signature>_<keyword>:0") and outputs
  (name -> "StatefulPartitionedCall:<i>"; a SparseTensor's parts as coo_sparse, a
  RaggedTensor's TypeSpec and parts as composite_tensor), dtypes and shapes, method
  "tensorflow/serving/predict".

The checkpoint's object graph (TrackableObjectGraph, under "_CHECKPOINTABLE_OBJECT_GRAPH") has
the same nodes and children; each variable's value is stored under its first path from the root,
names escaped as TensorFlow escapes them, "<path>/.ATTRIBUTES/VARIABLE_VALUE".
"""
import collections
import inspect
import os
import re

import numpy as np

from ..framework.protos.meta_graph import SavedModel
from ..framework.protos.trackable_object_graph import TrackableObjectGraph
from ..framework.ragged_tensor import RaggedTensor
from ..framework.sparse_tensor import SparseTensor, SparseTensorSpec
from ..framework.variables import Variable, variable_op_name
from ..module.module import TrackedContainer
from ..ops.io.lookup_tables import TableStore
from ..tracing.function import ConcreteFunction, Function
from ..tracing.ragged_spec import RaggedTensorSpec
from .composite_values import COMPOSITE_SPECS, output_specs, spec_of, width
from .constants import PREDICT_METHOD_NAME, SERVING
from .function_defs import function_def
from .saved_tables import is_table
from .tensorflow_tables import add_table, store_of, table_arrays
from .tensorflow_graph import write_graph
from .structured_values import (composite_spec_value, function_spec, nest_value, shape_into,
                                spec_value, type_spec_into)

__all__ = ["build", "OBJECT_GRAPH_KEY"]

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_PRODUCER, _MIN_CONSUMER = 2474, 12
_Node = collections.namedtuple("_Node", "obj path children")
COMPOSITES = (RaggedTensor, SparseTensor)


def _escape(name):
    return name.replace(".", "..").replace("/", ".S")


def _function_name(graph_name, index, prefix="__inference_"):
    return f"{prefix}{re.sub(r'[^A-Za-z0-9_]', '_', graph_name)}_{index}"


class _Builder:
    def __init__(self, helpers):
        self.helpers = helpers  # save.py's _function_attributes, _concretes, _input_names...
        self.nodes, self.ids = [], {}
        self.model = SavedModel(saved_model_schema_version=1)
        self.meta = self.model.meta_graphs.add()
        self.graph = self.meta.object_graph_def
        self.library = self.meta.graph_def.library
        self.traces = {}  # id(concrete) -> library name
        self.calls, self.call_data = [], {}  # the signatures, for the top-level graph
        self.assets = []  # (source path, name in assets/)
        self.table_entries = []  # (node id, creator, initializer, asset index), tensorflow_graph

    def node_id(self, obj, path):
        if id(obj) not in self.ids:
            self.ids[id(obj)] = len(self.nodes)
            self.nodes.append(_Node(obj, path, collections.OrderedDict()))
            self.graph.nodes.add()
        return self.ids[id(obj)]

    def walk(self, root):
        """Number the objects breadth first; functions become nodes of their own."""
        self.node_id(root, ())
        at = 0
        while at < len(self.nodes):
            obj, path, children = self.nodes[at]
            proto = self.graph.nodes[at]
            at += 1
            if isinstance(obj, Variable):
                self.variable(proto, obj)
                continue
            if isinstance(obj, (_FunctionNode, TableStore)):
                continue
            if is_table(obj):
                self.ids.setdefault(id(obj._store), at - 1)
                continue
            proto.user_object.identifier = "_generic_user_object"
            proto.user_object.version.producer = proto.user_object.version.min_consumer = 1
            kids = obj._checkpoint_children() if hasattr(obj, "_checkpoint_children") else {}
            for name, child in kids.items():
                children[str(name)] = self.node_id(child, path + (str(name),))
            if not isinstance(obj, TrackedContainer):
                for name, fn in self.helpers["function_attributes"](obj).items():
                    node = _FunctionNode(fn, self.helpers["concretes"](fn))
                    children[name] = self.node_id(node, path + (name,))

    def variable(self, proto, var):
        saved = proto.variable
        saved.dtype = var.dtype.as_datatype_enum
        shape_into(saved.shape, var.shape)
        saved.trainable = bool(var.trainable)
        saved.name = variable_op_name(var)

    def trace(self, concrete, fn, call):
        """The library name of a trace, adding its FunctionDef and SavedConcreteFunction."""
        hit = self.traces.get(id(concrete))
        if hit is not None:
            return hit
        name = self.traces[id(concrete)] = _function_name(concrete.graph.name, len(self.traces))
        names = self.helpers["input_names"](fn, concrete)
        fdef, variables = function_def(concrete, name, names, self.library.function)
        self.library.function.append(fdef)
        saved = self.graph.concrete_functions[name]
        saved.bound_inputs.extend(self.bound(v) for v in variables)
        saved.canonicalized_input_signature.CopyFrom(_input_signature(concrete, names, call))
        saved.output_signature.CopyFrom(nest_value(concrete.structured_outputs, _output_leaf))
        return name

    def bound(self, var):
        """The node id of a captured variable or table (a root child when no object holds
        it)."""
        if id(var) not in self.ids:
            kind = "table" if isinstance(var, TableStore) else "variable"
            count = sum(n.startswith(f"_captured_{kind}") for n in self.nodes[0].children)
            name = f"_captured_{kind}_{count}"
            self.nodes[0].children[name] = self.node_id(var, (name,))
            if kind == "variable":
                self.variable(self.graph.nodes[self.ids[id(var)]], var)
        return self.ids[id(var)]

    def function_name(self, kind):
        """A new library name "__inference_<kind>_<n>"."""
        self.traces[("resource", len(self.traces))] = None
        return _function_name(kind, len(self.traces))

    def user_node(self, path, kind="_generic_user_object"):
        """A new node (a user object of `kind`, or empty for the caller to fill)."""
        node_id = len(self.nodes)
        self.nodes.append(_Node(None, path, collections.OrderedDict()))
        proto = self.graph.nodes.add()
        if kind is not None:
            proto.user_object.identifier = kind
            proto.user_object.version.producer = proto.user_object.version.min_consumer = 1
        return node_id

    def asset_node(self, path, source):
        """The SavedAsset node of the file `source` (one per file), copied into assets/ by
        save.py."""
        if ("asset", source) in self.ids:
            return self.ids[("asset", source)]
        taken = {name for _, name in self.assets}
        name, n = os.path.basename(source), 0
        while name in taken:
            n += 1
            stem, ext = os.path.splitext(os.path.basename(source))
            name = f"{stem}_{n}{ext}"
        index = len(self.assets)
        self.assets.append((source, name))
        entry = self.meta.asset_file_def.add(filename=name)
        entry.tensor_info.name = "asset_path_initializer" + (f"_{index}" if index else "") + ":0"
        node_id = self.ids[("asset", source)] = self.user_node(path, kind=None)
        self.graph.nodes[node_id].asset.asset_file_def_index = index
        return node_id

    def tables(self):
        """The table nodes' resources, functions and assets (tensorflow_tables.py)."""
        for i in range(len(self.nodes)):
            obj = self.nodes[i].obj
            if isinstance(obj, TableStore) or (obj is not None and is_table(obj)):
                add_table(self, i)

    def functions(self):
        for i in range(len(self.nodes)):
            node = self.nodes[i].obj
            if isinstance(node, _FunctionNode):
                saved = self.graph.nodes[i].function
                spec, call = _spec_of(node.fn, node.concretes)
                saved.concrete_functions.extend(self.trace(c, node.fn, call)
                                                for c in node.concretes)
                saved.function_spec.CopyFrom(spec)

    def signatures(self, obj, signatures):
        found = self.helpers["signature_functions"](obj, signatures)
        if not found:
            return
        map_id = len(self.nodes)
        self.nodes.append(_Node(None, ("signatures",), collections.OrderedDict()))
        self.graph.nodes.add().user_object.identifier = "signature_map"
        version = self.graph.nodes[map_id].user_object.version
        version.producer = version.min_consumer = 1
        self.nodes[0].children["signatures"] = map_id
        for key, fn in sorted(found.items()):
            concrete = fn if isinstance(fn, ConcreteFunction) else fn.get_concrete_function()
            node_id = len(self.nodes)
            self.nodes.append(_Node(None, ("signatures", key), collections.OrderedDict()))
            self.graph.nodes.add()
            self.nodes[map_id].children[str(key)] = node_id
            self.signature(node_id, str(key), fn, concrete)

    def signature(self, node_id, key, fn, concrete):
        names = self.helpers["input_names"](fn, concrete)
        outputs = self.helpers["output_names"](concrete)
        name = _function_name(f"signature_wrapper_{concrete.graph.name}", len(self.traces))
        self.traces[("signature", key)] = name
        fdef, variables = function_def(concrete, name, names, self.library.function)
        self.library.function.append(fdef)
        saved = self.graph.concrete_functions[name]
        saved.bound_inputs.extend(self.bound(v) for v in variables)
        specs = {n: spec_value(n, p.shape, p.dtype) for n, p in zip(names, concrete.graph.inputs)}
        saved.canonicalized_input_signature.CopyFrom(
            nest_value(((), specs), lambda x: x if hasattr(x, "tensor_spec_value") else None))
        out_specs = {n: _spec_value(n, s) for n, s in zip(outputs, output_specs(concrete))}
        saved.output_signature.CopyFrom(nest_value(out_specs, lambda x: x if hasattr(
            x, "WhichOneof") else None))
        bare = self.graph.nodes[node_id].bare_concrete_function
        bare.concrete_function_name = name
        bare.argument_keywords.extend(names)
        bare.allowed_positional_arguments = len(names)
        self.calls.append((key, name, [(n, p.dtype, p.shape) for n, p in
                                       zip(names, concrete.graph.inputs)],
                           [self.bound(v) for v in variables], [t.dtype for t in concrete.outputs]))
        self.call_data[key] = (names, outputs, concrete)

    def signature_def(self, key, call, names, outputs, concrete):
        sig = self.meta.signature_def[key]
        sig.method_name = PREDICT_METHOD_NAME
        for n, p in zip(names, concrete.graph.inputs):
            info = sig.inputs[n]
            info.name = f"{key}_{n}:0"
            info.dtype = p.dtype.as_datatype_enum
            shape_into(info.tensor_shape, p.shape)
        at = 0
        for n, spec in zip(outputs, output_specs(concrete)):
            _output_info(sig.outputs[n], spec, [(f"{call}:{at + k}", t) for k, t in enumerate(
                concrete.outputs[at:at + width(spec)])])
            at += width(spec)

    def finish(self):
        """Children into the protos; the checkpoint's object graph and values."""
        checkpoint = TrackableObjectGraph()
        arrays = collections.OrderedDict()
        for i, (obj, path, children) in enumerate(self.nodes):
            proto, entry = self.graph.nodes[i], checkpoint.nodes.add()
            for name, child in children.items():
                proto.children.add(node_id=child, local_name=name)
                entry.children.add(node_id=child, local_name=name)
            if isinstance(obj, Variable):
                key = "/".join(_escape(p) for p in path) + "/.ATTRIBUTES/VARIABLE_VALUE"
                entry.attributes.add(name="VARIABLE_VALUE", full_name=variable_op_name(obj),
                                     checkpoint_key=key)
                arrays[key] = np.asarray(obj.numpy())
            elif proto.saveable_objects:
                key = "/".join(_escape(p) for p in path) + "/.ATTRIBUTES/table"
                entry.attributes.add(name="table", checkpoint_key=key)
                arrays.update(table_arrays(obj, key))
        _mark_values(checkpoint)
        variables = [(i, obj, entry.attributes[0].checkpoint_key)
                     for i, ((obj, _, _), entry) in enumerate(zip(self.nodes, checkpoint.nodes))
                     if isinstance(obj, Variable)]
        tables = [(i, store_of(obj), entry.attributes[0].checkpoint_key)
                   for i, ((obj, _, _), entry) in enumerate(zip(self.nodes, checkpoint.nodes))
                   if self.graph.nodes[i].saveable_objects]
        names = write_graph(self.meta, variables, self.calls,
                            _function_name("", len(self.traces), "__inference"),
                            self.table_entries, tables)
        for key, call in names.items():
            self.signature_def(key, call, *self.call_data[key])
        arrays[OBJECT_GRAPH_KEY] = np.array(checkpoint.SerializeToString(), dtype=object)
        info = self.meta.meta_info_def
        info.tags.append(SERVING)
        info.tensorflow_version, info.tensorflow_git_version = "2.21.0", "wengert"
        self.meta.graph_def.versions.producer = _PRODUCER
        self.meta.graph_def.versions.min_consumer = _MIN_CONSUMER
        return self.model, arrays


class _FunctionNode:
    """A tf.function attribute in the object graph: the Function (or ConcreteFunctions) and
    its traces."""

    def __init__(self, fn, concretes):
        self.fn, self.concretes = fn, concretes

    def _checkpoint_children(self):
        return {}


def _mark_values(graph):
    """has_checkpoint_values: whether a node or one below it holds a saved value."""
    nodes = list(graph.nodes)
    has = [bool(n.attributes) for n in nodes]
    changed = True
    while changed:
        changed = False
        for i, node in enumerate(nodes):
            if not has[i] and any(has[c.node_id] for c in node.children):
                has[i] = changed = True
    for node, value in zip(nodes, has):
        node.has_checkpoint_values.value = value
        node.has_checkpoint_values.SetInParent()


def _output_leaf(value):
    if isinstance(value, COMPOSITES):
        return composite_spec_value(spec_of(value))
    if isinstance(value, Variable) or (hasattr(value, "op") and hasattr(value, "dtype")):
        return spec_value("output", value.shape, value.dtype)
    return None


def _spec_value(name, spec):
    if isinstance(spec, COMPOSITE_SPECS):
        return composite_spec_value(spec)
    return spec_value(name, spec.shape, spec.dtype)


def _output_info(info, spec, parts):
    """A signature output's TensorInfo: a tensor by name, a SparseTensor's parts (coo_sparse),
    a RaggedTensor's TypeSpec and parts (composite_tensor); `parts` [(name, tensor)]."""
    if isinstance(spec, RaggedTensorSpec):
        type_spec_into(info.composite_tensor.type_spec, spec)
        for name, t in parts:
            component = info.composite_tensor.components.add(
                name=name, dtype=t.dtype.as_datatype_enum)
            shape_into(component.tensor_shape, t.shape)
        return
    if isinstance(spec, SparseTensorSpec):
        coo = info.coo_sparse
        (coo.indices_tensor_name, _), (coo.values_tensor_name, _), \
            (coo.dense_shape_tensor_name, _) = parts
    else:
        info.name = parts[0][0]
    info.dtype = spec.dtype.as_datatype_enum
    shape_into(info.tensor_shape, spec.shape)


def _input_signature(concrete, names, call):
    """((args...), {kwargs}) with each tensor argument a TensorSpec named as its argument, the
    keyword arguments that name parameters moved to their places as TensorFlow canonicalizes a
    call (missing ones take their defaults); `call` = (parameter names, {name: default})."""
    graph = concrete.graph
    args, kwargs = getattr(graph, "structured_input_signature", None) or ((), {})
    params, defaults = call
    args, kwargs = list(args), dict(kwargs)
    for param in params[len(args):]:
        if param in kwargs:
            args.append(kwargs.pop(param))
        elif param in defaults:
            args.append(defaults[param])
        else:
            break
    named = {id(p): n for p, n in zip(graph.inputs, names)}

    def leaf(x):
        if id(x) in named:
            return spec_value(named[id(x)], x.shape, x.dtype)
        if isinstance(x, COMPOSITES):
            return composite_spec_value(spec_of(x))
        return None
    return nest_value((tuple(args), kwargs), leaf)


def _parameters(python):
    try:
        return [p.name for p in inspect.signature(python).parameters.values()]
    except (TypeError, ValueError):
        return []


def _spec_of(fn, concretes):
    """(FunctionSpec, (parameter names, {name: default})) of a function attribute: a Function,
    or a list of traces."""
    if isinstance(fn, Function):
        python = fn.python_function
        try:
            params = list(inspect.signature(python).parameters.values())
        except (TypeError, ValueError):
            params = []
        drop = bool(params) and params[0].name == "self"
        params = params[1 if drop else 0:]
        names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        defaults = {p.name: p.default for p in params if p.default is not p.empty}
        return function_spec(python, drop, fn.input_signature), (names, defaults)
    return _spec_of_traces(concretes)


def _spec_of_traces(concretes):
    """The FunctionSpec of traces with no Python function: their positional arguments, then
    their keyword arguments with the first trace's values as defaults."""
    positional, keywords = 0, {}
    for concrete in concretes:
        args, kwargs = getattr(concrete.graph, "structured_input_signature", None) or ((), {})
        positional = max(positional, len(args))
        for key, value in kwargs.items():
            keywords.setdefault(key, value)
    spec = function_spec(lambda: None, False, None)
    values = spec.fullargspec.named_tuple_value.values
    names = [f"args_{i}" for i in range(positional)] + sorted(keywords)
    for n in names:
        values[0].value.list_value.values.add().string_value = n
    if keywords:
        values[3].value.CopyFrom(nest_value(tuple(keywords[k] for k in sorted(keywords)),
                                            lambda x: None))
    return spec, (names, keywords)


def build(obj, signatures, helpers):
    """(SavedModel proto, {checkpoint key: ndarray}, [(asset file, name in assets/)]) of
    `obj` (see the module docstring);
    UnimplementedError when a function uses an op TensorFlow cannot load."""
    builder = _Builder(helpers)
    builder.walk(obj)
    builder.functions()
    builder.signatures(obj, signatures)
    builder.tables()
    model, arrays = builder.finish()
    return model, arrays, builder.assets
