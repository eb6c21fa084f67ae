"""A SavedModel's function library (TensorFlow's FunctionDefs) run as wengert ops: the reverse of
function_defs.py, which writes them.

`FunctionLibrary(library).call(name, inputs)` builds the body of the FunctionDef `name` into the
current graph (a wengert trace) with `inputs` bound to its input arguments in order, and returns
its outputs in the order of its output arguments. An input argument of type DT_RESOURCE is bound
to an eager `Variable` (the saved variable it captures): its ReadVariableOp reads the variable's
current value, AssignVariableOp and its kin write it, so a GradientTape around a call sees the
variables and fine-tuning works.

A body's nodes are made each after its inputs (Kahn's algorithm; a body may list them in any
order). Inside a body a node's input names an argument ("x"), an output of another node as
"node:output_arg:index" (index within that output argument of the node's op type: the offset of
the argument is found from TensorFlow's op definitions, op_outputs.json, a list argument taking
the outputs the others leave), or "^node", a control input. Each node is then:
  - a call of a library function (StatefulPartitionedCall, PartitionedCall): the callee's body
    built in place (inlined) with the node's inputs;
  - If / StatelessIf, Case / StatelessCase: wengert's `cond` / `switch_case`, each branch the
    body of its library function (a non-bool scalar predicate is true when non-zero, as in
    TensorFlow's If);
  - While / StatelessWhile: wengert's `while_loop` over the node's tensor inputs (resource
    inputs, the same variables or tables on every iteration, are closed over), `cond` and `body` library
    functions, the op's `output_shapes` as shape invariants;
  - TensorFlow's TensorList ops (the lists tf.TensorArray and Keras' RNN loops use) lowered to
    wengert's dense TensorArray flow, a tensor [num_elements, *element_shape] (tensor_lists.py);
  - HashTableV2 / MutableHashTableV2 / MutableHashTableOfTensorsV2 / MutableDenseHashTableV2:
    an empty wengert table (data/lookup_tables.py), which the table ops (LookupTableImportV2,
    LookupTableFindV2 ...) take as their handle; InitializeTableFromTextFileV2 fills one from
    a file (the SavedModel's asset), and LookupTableImportV2 into a mutable table (its
    contents restored) inserts, a DenseHashTable's bucket arrays less their empty buckets;
  - any other op type: wengert's raw op of the same TensorFlow name (framework.registry), its
    inputs and attributes bound as graph/graph_import.py binds a GraphDef node's.

`check(names)` walks every function reachable from `names` (a work list, no recursion) before
anything is built: an op type wengert lacks is a NotFoundError naming the op type, the node and
the function; py_func / EagerPyFunc nodes (which would run Python code) and other ops taking
functions are refused (UnimplementedError); a call of a function the library lacks, a call cycle
or calls nested deeper than MAX_DEPTH are errors. Nothing in the library is executed as Python.
"""
import numpy as np

from ..control_flow.cond import cond, switch_case
from ..data.lookup_tables import restored_table
from ..control_flow.while_loop import while_loop
from ..framework import dtypes
from ..framework.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from ..framework.context import state
from ..framework.operation import Operation
from ..framework.raw_ops import raw_op
from ..framework.registry import raw_op_entry
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..graph.graph import get_default_graph
from ..graph.graph_import import _arguments, _outputs, ordered_nodes
from ..ops.array_ops import IDENTITY
from ..ops.io.lookup_tables import (HASH_TABLE, MUTABLE_DENSE_HASH_TABLE, TABLE_FROM_TEXT_FILE,
                                    TABLE_IMPORT, TABLE_INITIALIZE, TableStore)
from ..ops.math_ops import not_equal
from ..ops.shape_ops import IDENTITY_N
from .function_defs import OP_OUTPUTS
from .tensor_lists import LIST_OPS, LIST_OUTPUTS

__all__ = ["FunctionLibrary", "MAX_DEPTH"]

MAX_DEPTH = 32  # calls nested deeper than this are refused (each level is a Python frame)
_RESOURCE, _VARIANT = 20, 21
_CALLS = ("StatefulPartitionedCall", "PartitionedCall")
_IFS = ("If", "StatelessIf")
_CASES = ("Case", "StatelessCase")
_WHILES = ("While", "StatelessWhile")
_FUNCTION_ATTRS = {**{t: ("f",) for t in _CALLS}, **{t: ("then_branch", "else_branch")
                                                     for t in _IFS},
                   **{t: ("branches",) for t in _CASES}, **{t: ("cond", "body") for t in _WHILES}}
_PYTHON_OPS = ("PyFunc", "PyFuncStateless", "EagerPyFunc")
_TABLES = ("HashTableV2", "MutableHashTableV2", "MutableHashTableOfTensorsV2",
           "MutableDenseHashTableV2")


def _callees(node):
    """The library functions a node names in its function attributes."""
    out = []
    for key in _FUNCTION_ATTRS.get(node.op, ()):
        value = node.attr[key]
        out.extend([f.name for f in value.list.func] if key == "branches" else [value.func.name])
    return out


def _split(text):
    """("node", output_arg or None, index) of "node:arg:i"; (name, None, None) of an argument."""
    parts = text.split(":")
    if len(parts) == 3 and parts[2].isdigit():
        return parts[0], parts[1], int(parts[2])
    if len(parts) == 2 and parts[1].isdigit():
        return parts[0], None, int(parts[1])
    return text, None, None


class FunctionLibrary:
    """The FunctionDefs of a SavedModel's graph, built into wengert graphs on demand."""

    def __init__(self, library):
        self.functions = {f.signature.name: f for f in library.function}

    # -- checking, before anything is made ---------------------------------------------------------
    def check(self, names):
        """Raise (see the module docstring) unless every function reachable from `names` can be
        built; nothing is made."""
        seen, todo, calls = set(), list(names), {}
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if name not in self.functions:
                raise NotFoundError(f"tf.saved_model.load: the function library has no function "
                                    f"'{name}', which the SavedModel calls.")
            calls[name] = []
            for node in self.functions[name].node_def:
                self._check_node(node, name)
                calls[name].extend(_callees(node))
            todo.extend(calls[name])
        _check_nesting(calls)

    def _check_node(self, node, function):
        where = f"node '{node.name}' of function '{function}'"
        if node.op in _PYTHON_OPS:
            raise UnimplementedError(f"tf.saved_model.load: {where} is a {node.op}, which runs "
                                     "Python code saved with the model; wengert runs no code "
                                     "from a SavedModel. Re-export the model without "
                                     "tf.py_function / tf.numpy_function.")
        if any(node.op in known for known in (_FUNCTION_ATTRS, LIST_OPS, _TABLES)):
            return
        if any(v.WhichOneof("value") == "func" or len(v.list.func) for v in node.attr.values()):
            raise UnimplementedError(f"tf.saved_model.load: {where} has op type '{node.op}', "
                                     "which takes functions; wengert runs only calls, If, Case "
                                     "and While among those.")
        if raw_op_entry(node.op) is None:
            raise NotFoundError(f"tf.saved_model.load: {where} has op type '{node.op}', which "
                                f"wengert does not run (Op type not registered '{node.op}').")

    # -- building ------------------------------------------------------------------------------------
    def call(self, name, inputs):
        """The outputs of the function `name` on `inputs` (tensors, or Variables for its
        resource arguments), its body built into the current graph."""
        fdef = self.functions[name]
        args = [a.name for a in fdef.signature.input_arg]
        if len(inputs) != len(args):
            raise InvalidArgumentError(f"Function '{name}' takes {len(args)} inputs ({args}); "
                                       f"got {len(inputs)}.")
        env = dict(zip(args, inputs))
        made = {}
        for node in _ordered(fdef):
            inputs_, controls = self._inputs(node, env, made)
            made[node.name] = self._make(node, inputs_, controls)
        return [_resolve(fdef.ret[a.name], env, made, name) for a in fdef.signature.output_arg]

    def _inputs(self, node, env, made):
        inputs, controls = [], []
        for text in node.input:
            if text.startswith("^"):
                op = made[text[1:]][0]
                if isinstance(op, Operation):
                    controls.append(op)
            else:
                inputs.append(_resolve(text, env, made, node.name))
        return inputs, controls

    def _make(self, node, inputs, controls):
        """(op or None, outputs, op type) of one node (built eagerly outside a graph: a
        resource's creator and initializer run so)."""
        if state.graph is None:
            return None, self._outputs_of(node, inputs), node.op
        with get_default_graph().control_dependencies(controls):
            outputs = self._outputs_of(node, inputs)
        op = next((t.op for t in outputs if isinstance(t, Tensor)), None)
        return op, outputs, node.op

    def _outputs_of(self, node, inputs):
        if node.op in _CALLS:
            return self.call(node.attr["f"].func.name, inputs)
        if node.op in _IFS:
            return self._if(node, inputs)
        if node.op in _CASES:
            return self._case(node, inputs)
        if node.op in _WHILES:
            return self._while(node, inputs)
        if node.op in LIST_OPS:
            return [LIST_OPS[node.op](node, inputs)]
        if node.op in _TABLES:
            return [_table(node, inputs)]
        if node.op in (TABLE_IMPORT.type, TABLE_INITIALIZE.type) and \
                not hasattr(inputs[0], "_import"):  # a mutable table: its contents restored
            _import_into(inputs[0], inputs[1], inputs[2])
            return []
        if node.op == TABLE_FROM_TEXT_FILE.type:
            _text_file_init(node, *inputs)
            return []
        if node.op in (IDENTITY.type, IDENTITY_N.type) and not all(isinstance(v, Tensor)
                                                                   for v in inputs):
            return list(inputs)  # a resource passed along: the variable or table itself
        function = raw_op(node.op)
        op, outputs = _outputs(function(**_arguments(node, function, inputs), name=_name(node)))
        return outputs if outputs or op is None else [op]

    def _branch(self, name, inputs):
        return lambda: self.call(name, list(inputs))

    def _if(self, node, inputs):
        pred, rest = inputs[0], inputs[1:]
        if pred.dtype is not dtypes.bool:
            pred = not_equal(pred, 0)
        return list(cond(pred, self._branch(node.attr["then_branch"].func.name, rest),
                         self._branch(node.attr["else_branch"].func.name, rest)))

    def _case(self, node, inputs):
        index, rest = inputs[0], inputs[1:]
        branches = [self._branch(f.name, rest) for f in node.attr["branches"].list.func]
        return list(switch_case(index, branches))

    def _while(self, node, inputs):
        cond_name, body_name = node.attr["cond"].func.name, node.attr["body"].func.name
        loop = [i for i, v in enumerate(inputs) if isinstance(v, Tensor)]
        shapes = list(node.attr["output_shapes"].list.shape)
        kinds = list(node.attr["T"].list.type)

        def full(values):
            out = list(inputs)
            for i, v in zip(loop, values):
                out[i] = v
            return out

        def invariant(i):
            if i < len(kinds) and kinds[i] == _VARIANT or i >= len(shapes) or \
                    shapes[i].unknown_rank:
                return TensorShape(None)
            return TensorShape([None if d.size < 0 else d.size for d in shapes[i].dim])

        result = while_loop(
            lambda *v: self.call(cond_name, full(v))[0],
            lambda *v: [self.call(body_name, full(v))[i] for i in loop],
            [inputs[i] for i in loop], shape_invariants=[invariant(i) for i in loop])
        return full(list(result) if isinstance(result, (list, tuple)) else [result])


def _table(node, inputs):
    """An empty wengert table for a HashTableV2 / MutableHashTableV2 /
    MutableHashTableOfTensorsV2 / MutableDenseHashTableV2 node (made eagerly, as TensorFlow
    lifts a table out of a function; the dense one's inputs are its empty and deleted keys);
    LookupTableImportV2 fills it."""
    static = node.op == HASH_TABLE.type
    shape = node.attr["value_shape"].shape if "value_shape" in node.attr else None
    value_shape = [] if shape is None or shape.unknown_rank else [d.size for d in shape.dim]
    reserved = {}
    if node.op == MUTABLE_DENSE_HASH_TABLE.type:
        reserved = {k: np.asarray(t).item() for k, t in zip(("empty_key", "deleted_key"),
                                                              inputs)}
    store = TableStore(dtypes.as_dtype(node.attr["key_dtype"].type),
                       dtypes.as_dtype(node.attr["value_dtype"].type), value_shape,
                       static=static, **reserved)
    kind = "StaticHashTable" if static else "DenseHashTable" if reserved else "MutableHashTable"
    fields = {"class": kind, "name": node.name, "checkpoint": not static}
    return restored_table(fields, store, None)


def _import_into(table, keys, values):
    """A mutable table's restored contents; a DenseHashTable's come as TensorFlow's bucket
    arrays (keys [buckets, 1], values [buckets, value size]), whose empty and deleted buckets
    hold the reserved keys and are left out."""
    keys, values = np.asarray(keys), np.asarray(values)
    store = table._store
    keys = keys.reshape(-1)
    values = values.reshape((len(keys),) + store.value_shape)
    if store.reserved:
        reserved = list(store.reserved.values())
        keep = np.array([k not in reserved for k in keys.tolist()], bool)
        keys, values = keys[keep], values[keep]
    table.insert(keys, values)


def _text_file_init(node, table, filename):
    """Fill `table` from the lines of `filename` (a SavedModel's asset) as the node says."""
    attrs = {"key_index": node.attr["key_index"].i, "value_index": node.attr["value_index"].i,
             "vocab_size": node.attr["vocab_size"].i if "vocab_size" in node.attr else -1,
             "delimiter": node.attr["delimiter"].s.decode() if "delimiter" in node.attr
             else "\t", "offset": node.attr["offset"].i if "offset" in node.attr else 0}
    table._run(TABLE_FROM_TEXT_FILE, (filename,), _name(node), attrs)


def _name(node):
    return node.name.replace("/", "_")


def _ordered(fdef):
    """The body's nodes, each after its inputs (stable in body order)."""
    order, stuck = ordered_nodes(list(fdef.node_def), lambda node: (
        _split(t.lstrip("^"))[0] for t in node.input))
    if stuck:
        raise InvalidArgumentError(f"Function '{fdef.signature.name}': its body has a cycle "
                                   f"through nodes {stuck}.")
    return order


def _resolve(text, env, made, where):
    """The value an input name refers to (see the module docstring)."""
    if text in env:
        return env[text]
    source, arg, index = _split(text)
    if source not in made or index is None:
        raise InvalidArgumentError(f"'{where}': input '{text}' names no argument or node.")
    _, outputs, op_type = made[source]
    at = index + _offset(op_type, arg, len(outputs))
    if at >= len(outputs):
        raise InvalidArgumentError(f"'{where}': input '{text}' asks for output {at} of node "
                                   f"'{source}' ({op_type}), which has {len(outputs)}.")
    return outputs[at]


def _offset(op_type, arg, count):
    """Where the output argument `arg` of an op type starts among its node's `count` outputs."""
    args = LIST_OUTPUTS.get(op_type) or OP_OUTPUTS.get(op_type, [[]])[0]
    if arg is None or len(args) <= 1:
        return 0
    lists = sum(1 for _, kind in args if kind != "t")
    width = {"t": 1}
    if lists == 1:
        width["n"] = width["l"] = count - (len(args) - 1)
    at = 0
    for name, kind in args:
        if name == arg:
            return at
        if kind not in width:
            raise UnimplementedError(f"Output '{arg}' of a {op_type} node follows more than one "
                                     "list output; wengert cannot place it.")
        at += width[kind]
    raise InvalidArgumentError(f"Op type {op_type} has no output argument '{arg}'.")


def _check_nesting(calls):
    """Refuse call cycles and nesting deeper than MAX_DEPTH (longest path, Kahn's algorithm)."""
    names = list(calls)
    callers = {n: 0 for n in names}
    for n in names:
        for c in set(calls[n]):
            callers[c] += 1
    depth = {n: 1 for n in names}
    ready = [n for n in names if not callers[n]]
    done = 0
    while ready:
        n = ready.pop()
        done += 1
        for c in set(calls[n]):
            depth[c] = max(depth[c], depth[n] + 1)
            callers[c] -= 1
            if not callers[c]:
                ready.append(c)
    if done != len(names):
        cyclic = sorted(n for n in names if callers[n])[:5]
        raise UnimplementedError(f"tf.saved_model.load: functions {cyclic} call each other in a "
                                 "cycle (recursive functions are not supported).")
    if max(depth.values(), default=0) > MAX_DEPTH:
        raise UnimplementedError(f"tf.saved_model.load: calls are nested "
                                 f"{max(depth.values())} deep; wengert builds at most "
                                 f"{MAX_DEPTH}.")
