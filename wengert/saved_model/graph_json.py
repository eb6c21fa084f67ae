"""A traced function (one ConcreteFunction) as plain JSON data, and back, without running code.

Encoding. The ops the outputs need (and every stateful op) are listed in graph order, each as
`{"name", "op", "inputs", "control", "attrs"}`: an input is `[op index, output index]`, or
`["var", key]` for a variable the op reads or writes (its value is stored with the other
variables); attribute values are JSON with tags for what JSON lacks (`{"tuple": [...]}`,
`{"array": key}` for arrays, stored beside the variables, `{"dtype": "float32"}`,
`{"shape": [...]}`, `{"float": "nan"}`, `{"scalar": [dtype, value]}`, `{"ellipsis": 1}`,
`{"table": i}` for the i-th lookup table of the document, saved_tables.py). The
call's structure is kept too (a custom gradient's op is saved as copies of its forward outputs,
as TensorFlow saves one): `args`/`kwargs` with `{"input": i}` at the i-th tensor argument
and Python values as they were passed, and `outputs` with `{"output": i}` leaves (a
RaggedTensor output `{"ragged_output": [flat_values, row_splits...]}`, a SparseTensor
`{"sparse_output": [indices, values, dense_shape]}`, output indices).

Decoding never evaluates anything from the file: op types are looked up in wengert's op registry
(an unknown type is an error naming it), attribute tags are read by a fixed table (an unknown
tag is an error), dtypes come from a fixed list, and every op is rebuilt through the graph's
`create_op`, which checks its inputs with the op's shape rule. The result is a new FuncGraph
and ConcreteFunction that run and differentiate as a freshly traced one does.
"""
import math

import numpy as np

from ..autodiff.custom import CUSTOM_GRADIENT, CUSTOM_GRADIENT_N
from ..framework import dtypes
from ..framework.dtypes import DType
from ..framework.errors import DataLossError, UnimplementedError
from ..framework.registry import get_op_def
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..tracing.func_graph import FuncGraph, init_scope, needed_ops
from ..control_flow.subgraphs import SubGraph
from ..control_flow.variadic import with_outputs
from ..tracing.function import ConcreteFunction
from ..graph.graph import PLACEHOLDER
from ..ops.array_ops import IDENTITY
from ..ops.io.lookup_tables import TableStore
from ..ops.shape_ops import IDENTITY_N
from ..util import nest
from .composite_values import from_parts, kind_and_parts
# op families that `import wengert` loads only on first use: their op types appear in saved graphs
from ..debugging import numerics as _numerics  # noqa: F401  CheckNumerics
from ..summary import summary_ops as _summary_ops  # noqa: F401  the Write*Summary ops

__all__ = ["encode_function", "encode_subgraph", "decode_function", "decode_subgraphs",
           "DTYPE_NAMES", "FORWARD_ONLY"]

DTYPE_NAMES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
               "uint16", "uint32", "uint64", "bool", "complex64", "complex128")
_SCALARS = (bool, int, str, type(None))


class _Encoder:
    """Encodes one function; `arrays` collects {key: ndarray} for the constants."""

    def __init__(self, variable_key, arrays, prefix, subgraph_id, table_id=None):
        self.variable_key = variable_key  # Variable -> its key in the variables checkpoint
        self.arrays = arrays
        self.prefix = prefix
        self.subgraph_id = subgraph_id    # SubGraph -> its index in the document's subgraphs
        self.table_id = table_id          # TableStore -> its index in the document's tables

    def value(self, value, where):
        """A JSON form of one attribute or Python argument value."""
        if isinstance(value, (bool, np.bool_)) and not isinstance(value, np.generic):
            return value
        if isinstance(value, _SCALARS):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else {"float": repr(value)}
        if isinstance(value, np.ndarray):
            return self.array(value, where)
        if isinstance(value, SubGraph):  # a branch, loop condition or loop body
            return {"subgraph": self.subgraph_id(value)}
        if isinstance(value, TableStore) and self.table_id is not None:  # a lookup table
            return {"table": self.table_id(value)}
        if isinstance(value, np.generic):
            return {"scalar": [value.dtype.name, self.value(value.item(), where)]}
        if isinstance(value, DType):
            return {"dtype": value.name}
        if isinstance(value, np.dtype) or (isinstance(value, type) and
                                           issubclass(value, np.generic)):
            return {"nptype": np.dtype(value).name, "as_type": isinstance(value, type)}
        if isinstance(value, TensorShape):
            return {"shape": None if value.rank is None else list(value.as_list())}
        if value is Ellipsis:
            return {"ellipsis": 1}
        if isinstance(value, tuple) and not hasattr(value, "_fields"):
            return {"tuple": [self.value(v, where) for v in value]}
        if isinstance(value, list):
            return [self.value(v, where) for v in value]
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return {"dict": {k: self.value(v, where) for k, v in value.items()}}
        raise UnimplementedError(f"{where}: cannot save a value of type "
                                 f"{type(value).__name__} ({value!r:.60}) in a SavedModel.")

    def array(self, value, where):
        if value.dtype.kind in "SU" or (value.dtype.kind == "O" and all(
                isinstance(v, (bytes, str)) for v in value.reshape(-1).tolist())):
            value = np.vectorize(_as_bytes, otypes=[object])(value) if value.size else \
                value.astype(object)  # strings: bytes, as the checkpoint stores them
        elif value.dtype.name not in DTYPE_NAMES:
            raise UnimplementedError(f"{where}: cannot save an array of dtype {value.dtype}.")
        key = f"{self.prefix}/{len(self.arrays)}"
        self.arrays[key] = value
        return {"array": key}


def _as_bytes(text):
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def _encode_graph(enc, graph, outputs):
    """(nodes, index of each op) of the ops `outputs` and the stateful ops need, the input
    placeholders first."""
    ops = needed_ops(graph, outputs, [op for op in graph._ops if op.op_def.stateful])
    placeholders = [p.op for p in graph.inputs]
    ops = placeholders + [op for op in ops if op not in placeholders]
    index = {id(op): i for i, op in enumerate(ops)}
    return [_encode_op(enc, op, index) for op in ops], index


def encode_subgraph(graph, variable_key, arrays, prefix, subgraph_id, table_id=None):
    """The JSON form of a control-flow SubGraph: its nodes, inputs and outputs."""
    enc = _Encoder(variable_key, arrays, prefix, subgraph_id, table_id)
    nodes, index = _encode_graph(enc, graph, graph.outputs)
    return {"name": graph.name, "nodes": nodes,
            "inputs": [index[id(p.op)] for p in graph.inputs],
            "outputs": [[index[id(t.op)], t.value_index] for t in graph.outputs]}


def encode_function(concrete, variable_key, arrays, prefix, subgraph_id, table_id=None):
    """The JSON form of a ConcreteFunction (see the module docstring)."""
    graph = concrete.graph
    enc = _Encoder(variable_key, arrays, prefix, subgraph_id, table_id)
    outputs = [t for t in concrete.outputs]
    nodes, index = _encode_graph(enc, graph, outputs)
    inputs = {id(p): i for i, p in enumerate(graph.inputs)}
    args, kwargs = getattr(graph, "structured_input_signature", None) or ((), {})
    where = f"function '{graph.name}'"
    return {
        "name": graph.name,
        "nodes": nodes,
        "inputs": [index[id(p.op)] for p in graph.inputs],
        "args": [_structure(enc, a, inputs, where) for a in args],
        "kwargs": {k: _structure(enc, v, inputs, where) for k, v in kwargs.items()},
        "outputs": [[index[id(t.op)], t.value_index] for t in outputs],
        "structured_outputs": _structure(enc, concrete.structured_outputs,
                                         _output_leaves(concrete, outputs), where,
                                         leaf="output"),
    }


def _output_leaves(concrete, outputs):
    """{id(leaf): output index}: each output tensor, and each Variable the function returns (its
    value is the read the trace made of it)."""
    index = {id(t): i for i, t in enumerate(outputs)}
    flat = getattr(concrete, "_flat_outputs", None) or []
    for leaf, t in zip(nest.flatten(concrete.structured_outputs, True), flat):
        if isinstance(leaf, Variable) and t is not None and id(t) in index:
            index[id(leaf)] = index[id(t)]
    return index


# a custom gradient is saved with its forward only, as TensorFlow saves one: copies of its outputs
FORWARD_ONLY = {CUSTOM_GRADIENT: IDENTITY, CUSTOM_GRADIENT_N: IDENTITY_N}


def _forward_only(op, index):
    forward = op.inputs[op.attrs["num_inputs"]:]
    return {"name": op.name, "op": FORWARD_ONLY[op.op_def].type,
            "inputs": [[index[id(t.op)], t.value_index] for t in forward],
            "num_outputs": len(op.outputs),
            "control": [index[id(c)] for c in op.control_inputs if id(c) in index],
            "attrs": {}, "gradient_override": None}


def _encode_op(enc, op, index):
    if op.op_def in FORWARD_ONLY:
        return _forward_only(op, index)
    inputs = []
    where = f"op '{op.name}' ({op.type})"
    for t in op.inputs:
        if isinstance(t, Variable):
            inputs.append(["var", enc.variable_key(t, where)])
        else:
            inputs.append([index[id(t.op)], t.value_index])
    return {"name": op.name, "op": op.type, "inputs": inputs, "num_outputs": len(op.outputs),
            "control": [index[id(c)] for c in op.control_inputs if id(c) in index],
            "attrs": {k: enc.value(v, f"{where}, attribute '{k}'") for k, v in op.attrs.items()},
            "gradient_override": op.gradient_override}


def _structure(enc, structure, leaves, where, leaf="input"):
    """A nested structure with `{leaf: i}` where `leaves` maps id(tensor) -> i."""
    def encode(x):
        if id(x) in leaves:
            return {leaf: leaves[id(x)]}
        parts = kind_and_parts(x)
        if parts is not None and all(id(t) in leaves for t in parts[1]):
            return {f"{parts[0]}_{leaf}": [leaves[id(t)] for t in parts[1]]}
        if isinstance(x, Variable):
            raise UnimplementedError(f"{where}: a Variable passed as an argument cannot be "
                                     "saved; capture it in the function instead.")
        if hasattr(x, "op") and hasattr(x, "value_index"):
            raise UnimplementedError(f"{where}: output {x!r:.60} is not a tensor the saved "
                                     "function computes.")
        return {"value": enc.value(x, where)}
    if not nest.is_nested(structure):
        return encode(structure)
    flat = [encode(x) for x in nest.flatten(structure)]
    return {"nest": _skeleton(structure), "leaves": flat}


def _skeleton(structure):
    """The containers of a structure as JSON: lists, tuples ("tuple"), dicts ("dict", str keys
    in sorted order); leaves are null."""
    stack, root = [(structure, None, None)], []
    while stack:
        node, parent, key = stack.pop()
        if isinstance(node, dict):
            if not all(isinstance(k, str) for k in node):
                raise UnimplementedError("only dicts with str keys can be saved in a structure.")
            out = {"dict": {}}
            children = [(node[k], out["dict"], k) for k in sorted(node)]
        elif isinstance(node, (list, tuple)):
            out = {"tuple" if isinstance(node, tuple) else "list": [None] * len(node)}
            items = out.get("tuple", out.get("list"))
            children = [(child, items, i) for i, child in enumerate(node)]
        else:
            out = None
            children = []
        if parent is None:
            root.append(out)
        else:
            parent[key] = out
        stack.extend(reversed(children))
    return root[0]


# -- decoding --------------------------------------------------------------------------------------
def _bad(what):
    return DataLossError(f"SavedModel is corrupted or not a wengert SavedModel: {what}.")


class _Decoder:
    def __init__(self, arrays, subgraphs, tables=()):
        self.arrays = arrays        # key -> ndarray (read and verified)
        self.subgraphs = subgraphs  # decoded SubGraphs (None: not decoded yet)
        self.tables = tables        # the restored TableStores

    def table(self, i):
        if not isinstance(i, int) or not 0 <= i < len(self.tables):
            raise _bad(f"table reference {str(i)[:20]} out of range")
        return self.tables[i]

    def subgraph(self, i):
        if not isinstance(i, int) or not 0 <= i < len(self.subgraphs) or \
                self.subgraphs[i] is None:
            raise _bad(f"sub-graph reference {str(i)[:20]} out of order")
        return self.subgraphs[i]

    def value(self, data):
        if data is None or isinstance(data, (bool, int, str)):
            return data
        if isinstance(data, float):
            return data
        if isinstance(data, list):
            return [self.value(v) for v in data]
        if not isinstance(data, dict) or len(data) not in (1, 2):
            raise _bad(f"unreadable value {str(data)[:60]}")
        tag = next(iter(data))
        reader = _VALUE_TAGS.get(tag)
        if reader is None:
            raise _bad(f"unknown value tag {tag!r}")
        return reader(self, data)

    def array(self, key):
        try:
            return self.arrays[key]
        except (KeyError, TypeError):
            raise _bad(f"missing array {str(key)[:60]!r}") from None


def _np_dtype(name):
    if name not in DTYPE_NAMES + ("object",):  # object: NumPy's type of tf.string
        raise _bad(f"unknown dtype {str(name)[:40]!r}")
    return np.dtype(name)


def _dtype(name):
    return dtypes.string if name == "string" else dtypes.as_dtype(_np_dtype(name))


def _float(text):
    if text not in ("nan", "inf", "-inf"):
        raise _bad(f"bad float {str(text)[:20]!r}")
    return float(text)


_VALUE_TAGS = {
    "float": lambda d, data: _float(data["float"]),
    "array": lambda d, data: d.array(data["array"]),
    "scalar": lambda d, data: _np_dtype(data["scalar"][0]).type(d.value(data["scalar"][1])),
    "dtype": lambda d, data: _dtype(data["dtype"]),
    "nptype": lambda d, data: (_np_dtype(data["nptype"]).type if data.get("as_type")
                               else _np_dtype(data["nptype"])),
    "shape": lambda d, data: TensorShape(data["shape"]),
    "ellipsis": lambda d, data: Ellipsis,
    "subgraph": lambda d, data: d.subgraph(data["subgraph"]),
    "table": lambda d, data: d.table(data["table"]),
    "tuple": lambda d, data: tuple(d.value(v) for v in data["tuple"]),
    "dict": lambda d, data: {str(k): d.value(v) for k, v in data["dict"].items()},
}


def decode_subgraphs(entries, variables, arrays, tables=()):
    """The control-flow SubGraphs of a document, decoded last first (a sub-graph only refers
    to sub-graphs found after it while saving)."""
    subgraphs = [None] * len(entries)
    dec = _Decoder(arrays, subgraphs, tables)
    for i in reversed(range(len(entries))):
        try:
            graph, tensors = _decode_graph(SubGraph(str(entries[i]["name"]), None),
                                           entries[i], variables, dec, f"sub-graph {i}")
        except (KeyError, TypeError, IndexError, AttributeError) as err:
            raise _bad(f"sub-graph {i}: {type(err).__name__} {err}") from None
        graph.outputs = [_output(tensors, a, b) for a, b in entries[i]["outputs"]]
        subgraphs[i] = graph
    return subgraphs


def decode_function(data, variables, arrays, name, subgraphs=(), tables=()):
    """A ConcreteFunction rebuilt from `data` (encode_function's output); `variables` maps keys
    to the restored Variables, `arrays` keys to constant arrays, `tables` indices to the
    restored lookup tables' stores."""
    try:
        return _decode(data, variables, _Decoder(arrays, list(subgraphs), tables), name)
    except (KeyError, TypeError, IndexError, AttributeError) as err:
        raise _bad(f"function {name!r}: {type(err).__name__} {err}") from None


def _decode_graph(graph, data, variables, dec, name):
    """Rebuild `data`'s nodes in `graph`; sets graph.inputs; returns (graph, per-node
    outputs)."""
    tensors, ops = [], []  # per node: its outputs (or the op when it has none), and its op
    with init_scope(), graph.as_default():
        for node in data["nodes"]:
            tensors.append(_decode_op(graph, node, tensors, ops, variables, dec))
            ops.append(graph._ops[-1])
    graph.inputs = [_single(tensors[i]) for i in data["inputs"]]
    for p in graph.inputs:
        if p.op.op_def is not PLACEHOLDER:
            raise _bad(f"{name}: an input is not a placeholder")
    return graph, tensors


def _decode(data, variables, dec, name):
    graph, tensors = _decode_graph(FuncGraph(str(data["name"]), allow_variable_creation=False),
                                   data, variables, dec, f"function {name!r}")
    outputs = [_output(tensors, i, j) for i, j in data["outputs"]]
    inputs = graph.inputs
    args = [_unstructure(dec, a, inputs) for a in data["args"]]
    kwargs = {str(k): _unstructure(dec, v, inputs) for k, v in data["kwargs"].items()}
    graph.structured_input_signature = (tuple(args), kwargs)
    structured = _unstructure(dec, data["structured_outputs"], outputs, leaf="output")
    graph.structured_outputs, graph.outputs = structured, outputs
    return ConcreteFunction(graph, structured, outputs)


def _single(value):
    if isinstance(value, (list, tuple)) or not hasattr(value, "op"):
        raise _bad("an input refers to an op without one output")
    return value


def _output(tensors, i, j):
    value = tensors[i]
    if isinstance(value, tuple):
        return value[j]
    if j != 0 or not hasattr(value, "op"):
        raise _bad("an output refers to a missing tensor")
    return value


def _decode_op(graph, node, tensors, ops, variables, dec):
    op_type = node["op"]
    try:
        op_def = get_op_def(op_type)
    except (KeyError, TypeError):
        raise _bad(f"unknown op type {str(op_type)[:60]!r}; this wengert does not have it")
    count = node.get("num_outputs")
    attrs = {str(k): dec.value(v) for k, v in node["attrs"].items()}
    if op_def.num_outputs not in (None, count) and isinstance(count, int) and count > 0:
        op_def = with_outputs(op_def, count, attrs)  # If/Case/While: what their code returns
    inputs = []
    for ref in node["inputs"]:
        if ref[0] == "var":
            inputs.append(variables[ref[1]])
        elif not isinstance(ref[0], int) or not 0 <= ref[0] < len(tensors):
            raise _bad(f"op {str(node['name'])[:60]!r} reads a later or missing op")
        else:
            inputs.append(_output(tensors, ref[0], ref[1]))
    if any(not isinstance(i, int) or not 0 <= i < len(ops) for i in node["control"]):
        raise _bad("a control input refers to a later op")
    control_ops = [ops[i] for i in node["control"]]
    override = node.get("gradient_override")
    with graph.control_dependencies(control_ops or None):
        if override is not None:
            with graph.gradient_override_map({op_type: str(override)}):
                out = graph.create_op(op_def, tuple(inputs), attrs, str(node["name"]))
        else:
            out = graph.create_op(op_def, tuple(inputs), attrs, str(node["name"]))
    for t in inputs:
        if isinstance(t, Variable) and hasattr(graph, "_note_variable"):
            graph._note_variable(t)
    return tuple(out) if isinstance(out, (list, tuple)) else out


def _unstructure(dec, data, leaves, leaf="input"):
    """The structure `_structure` encoded, with `leaves[i]` at each `{leaf: i}`."""
    def decode(item):
        if leaf in item:
            return leaves[item[leaf]]
        if f"ragged_{leaf}" in item or f"sparse_{leaf}" in item:
            return _composite(item, leaf, leaves)
        return dec.value(item["value"])
    if "nest" not in data:
        return decode(data)
    flat = [decode(x) for x in data["leaves"]]
    return nest.pack_sequence_as(_rebuild(data["nest"]), flat)


def _composite(item, leaf, leaves):
    """The RaggedTensor or SparseTensor of a `{"ragged_output": [i...]}` (or sparse) leaf."""
    kind = "ragged" if f"ragged_{leaf}" in item else "sparse"
    parts = [leaves[i] for i in item[f"{kind}_{leaf}"]]
    try:
        return from_parts(kind, parts)
    except ValueError as err:
        raise _bad(str(err)) from None


def _rebuild(skeleton):
    """Containers from `_skeleton`'s JSON, with placeholder leaves (0) for pack_sequence_as."""
    root = [None]
    stack = [(skeleton, root, 0)]
    while stack:
        node, parent, key = stack.pop()
        if node is None:
            parent[key] = 0
            continue
        kind = next(iter(node))
        if kind == "dict":
            out = {str(k): None for k in node["dict"]}
            stack.extend((v, out, str(k)) for k, v in node["dict"].items())
            parent[key] = out
        elif kind in ("list", "tuple"):
            items = [None] * len(node[kind])
            stack.extend((v, items, i) for i, v in enumerate(node[kind]))
            parent[key] = items if kind == "list" else _TupleSlot(items)
        else:
            raise _bad(f"unknown structure {kind!r}")
    return _freeze(root[0])


class _TupleSlot(list):
    """A list that becomes a tuple once its children are built."""


def _freeze(structure):
    stack, fixups = [structure], []
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                fixups.append((node, k, v))
                stack.append(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                fixups.append((node, i, v))
                stack.append(v)
    for parent, key, value in reversed(fixups):
        if isinstance(value, _TupleSlot):
            parent[key] = tuple(value)
    return tuple(structure) if isinstance(structure, _TupleSlot) else structure
