"""A traced function (a ConcreteFunction's graph) as TensorFlow's FunctionDef, the form a
SavedModel's function library holds and TensorFlow's `tf.saved_model.load` runs.

The FunctionDef's inputs are the trace's tensor arguments, named as the caller gives them
(TensorSpec names, else Python parameter names, made lower-case identifiers as TensorFlow
requires), then one DT_RESOURCE input per variable the graph reads or writes (its handle,
bound to the saved variable on load, with the variable's dtype and shape as handle data).
Every other op becomes a node through graph/node_defs.py's conversion (TensorFlow's op type,
inputs and attributes, helper Consts for values wengert keeps as attributes), with each input
renamed as TensorFlow names tensors inside a function body: an argument by its name, a node's
output as "node:output_arg:index" where output_arg is the name TensorFlow's op definition gives
that output (op_outputs.json, written from TensorFlow's registry by
tests/raw_ops_tf/function_op_outputs.py) and index counts within that argument (a list output
such as Split's "output:2"). Each output of the function is an Identity node ("Identity",
"Identity_1", ...) returned as the output argument "identity", "identity_1", ...; the stateful
nodes (variable reads and writes) are the function's control outputs so that TensorFlow runs
them even when no output needs them.

Control flow (`cond`, `switch_case`, `while_loop`, AutoGraph's loops and branches) becomes
TensorFlow's If, Case and While nodes whose sub-graphs are further functions of the library
(control_flow_defs.py), built from a work list; a variable used inside passes its handle in.

A custom gradient is saved with its forward only, as TensorFlow saves one (its outputs are the
forward function's). An op over a tf.lookup table takes the table as one more DT_RESOURCE input
("table_handle", after the variables' handles), bound to the table's resource node
(table_defs.py); a table used inside control flow is passed into the If, Case or While node
as one more resource input, as a variable is, and each sub-function takes its handle. An op type
TensorFlow lacks, or an attribute TensorFlow's definition of the op lacks (an op wengert keeps
in a form of its own), is an UnimplementedError naming the op type, the node and the function,
raised while building, before any file is written.
"""
import json
import os
import re

from ..framework import dtypes
from ..framework.errors import UnimplementedError
from ..framework.protos.function import FunctionDef
from ..framework.variables import READ_VARIABLE, Variable
from ..graph.graph import PLACEHOLDER
from ..graph.node_defs import attr_value, op_node_defs, tensor_ref
from ..ops.array_ops import IDENTITY
from ..ops.io.lookup_tables import TableStore
from .control_flow_defs import (CONVERTED, control_flow_node, graph_tables, graph_variables,
                                while_body_outputs, while_cond_outputs, while_extra_inputs)
from .graph_json import FORWARD_ONLY
from .structured_values import shape_into
from .table_defs import handle_consts, is_table_op, table_node, table_ref

__all__ = ["function_def", "arg_name", "OP_OUTPUTS"]

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_outputs.json")) as _f:
    OP_OUTPUTS = json.load(_f)

_RESOURCE = 20  # DT_RESOURCE
_TABLES = ("uses a tf.lookup table that is not among the function's table handles")


def arg_name(text, taken):
    """A FunctionDef argument name from `text` ([a-z][a-z0-9_]*), unique among `taken`."""
    base = re.sub(r"[^a-z0-9_]", "_", str(text).lower()) or "arg"
    if not base[0].isalpha():
        base = "arg_" + base
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    return name


def _unsupported(op, graph_name, why):
    """The error naming an op (or a helper NodeDef of its TensorFlow form)."""
    op_type = op.type if hasattr(op, "type") else op.op
    return UnimplementedError(
        f"tf.saved_model.save: op '{op.name}' of type {op_type} in function '{graph_name}' "
        f"{why}, so TensorFlow could not load this SavedModel. Save a function built from ops "
        f"TensorFlow has; wengert's own format (saved_model.json) is written without it "
        f"unless options=tf.saved_model.SaveOptions(experimental_tensorflow_format=True) "
        f"requires TensorFlow's.")


def _output_ref(node_name, op_type, index, count):
    """"node:output_arg:i" of flat output `index` of an op with `count` outputs."""
    spec = OP_OUTPUTS[op_type][0]
    lists = sum(kind != "t" for _, kind in spec)
    list_size = count - (len(spec) - lists)
    at = 0
    for name, kind in spec:
        size = 1 if kind == "t" else list_size
        if index < at + size:
            return f"{node_name}:{name}:{index - at}"
        at += size
    raise IndexError(f"{op_type} has no output {index}")


def _check(op, node, graph_name):
    if node.op not in OP_OUTPUTS:
        raise _unsupported(op, graph_name, "has no TensorFlow op type")
    if node.op != op.type:  # a composition of TensorFlow's ops (graph/node_compositions.py)
        return
    lost = [k for k, v in op.attrs.items() if k not in node.attr and
            not isinstance(v, (tuple, list, type(None))) and attr_value(v, k) is None]
    if lost:
        raise _unsupported(op, graph_name, f"has attributes {sorted(lost)} (a sub-graph, a "
                                           f"Python function...) with no TensorFlow form here")
    known = OP_OUTPUTS[op.type][2]
    extra = [k for k in node.attr if k not in known and not k.startswith("_")]
    if extra:
        raise _unsupported(op, graph_name, f"has attributes {sorted(extra)} that TensorFlow's "
                                           f"{op.type} does not take")


def function_def(concrete, name, input_names, library=None):
    """(FunctionDef named `name`, [captured Variable, then TableStore]) of a ConcreteFunction
    whose tensor arguments are called `input_names` (see the module docstring). The functions of its
    control flow's sub-graphs (control_flow_defs.py) are appended to `library`."""
    graph = concrete.graph
    inputs = list(graph.inputs)
    ops = _body_ops(graph, inputs)
    variables, tables = graph_variables(ops), graph_tables(ops)
    fdef, refs, taken, _ = _start(name, graph.name, ops, [], inputs, input_names,
                                  variables + tables)
    jobs = []
    _body(fdef, graph.name, ops, refs, taken, jobs, tables)
    _outputs(fdef, [(refs[tensor_ref(t)], _enum(t.dtype)) for t in concrete.outputs], taken)
    _sub_functions(jobs, library, graph.name)
    return fdef, variables + tables


def _enum(dtype):
    return dtypes.as_dtype(dtype).as_datatype_enum


def _body_ops(graph, inputs):
    input_ids = {id(p.op) for p in inputs}
    ops = [op for op in graph.get_operations() if id(op) not in input_ids]
    for op in ops:
        if op.op_def is PLACEHOLDER:
            raise _unsupported(op, graph.name, "is a placeholder that is not an argument")
    return ops


def _start(name, graph_name, ops, extra, inputs, input_names, variables):
    """A FunctionDef with its arguments: `extra` [(text, dtype enum)], the inputs, then one
    resource handle per variable (or table: a TableStore, after the variables). Returns
    (fdef, refs, taken names, argument names)."""
    taken = {op.name for op in ops}
    fdef = FunctionDef()
    sig = fdef.signature
    sig.name = name
    refs, args = {}, []
    for text, dtype in extra:
        args.append(sig.input_arg.add(name=arg_name(text, taken), type=dtype).name)
    for i, (p, text) in enumerate(zip(inputs, input_names)):
        arg = sig.input_arg.add(name=arg_name(text, taken), type=p.dtype.as_datatype_enum)
        refs[tensor_ref(p)] = arg.name
        args.append(arg.name)
        attrs = fdef.arg_attr[len(extra) + i].attr
        attrs["_user_specified_name"].s = str(text).encode("utf-8")
        shape_into(attrs["_output_shapes"].list.shape.add(), p.shape)
    tables = [v for v in variables if isinstance(v, TableStore)]
    for var in variables[:len(variables) - len(tables)]:
        arg = sig.input_arg.add(name=arg_name(f"{tensor_ref(var)}_resource", taken),
                                type=_RESOURCE)
        handle = arg.handle_data.add(dtype=var.dtype.as_datatype_enum)
        shape_into(handle.shape, var.shape)
        refs[tensor_ref(var)] = arg.name
        args.append(arg.name)
    for table in tables:
        arg = sig.input_arg.add(name=arg_name("table_handle", taken), type=_RESOURCE)
        fdef.arg_attr[len(args)].attr["_user_specified_name"].s = b"table_handle"
        refs[table_ref(table)] = arg.name
        args.append(arg.name)
    return fdef, refs, taken, args


def _sub_functions(jobs, library, graph_name):
    """The FunctionDefs of control-flow sub-graphs, from a work list (nested ones add jobs)."""
    if jobs and library is None:
        raise ValueError(f"function_def: '{graph_name}' has control flow; pass a library.")
    while jobs:
        job = jobs.pop(0)
        graph = job.graph
        ops = _body_ops(graph, graph.inputs)
        names = [p.op.name for p in graph.inputs]
        fdef, refs, taken, args = _start(job.name, graph.name, ops, while_extra_inputs(job),
                                         graph.inputs, names, job.variables)
        _body(fdef, graph.name, ops, refs, taken, jobs,
              [v for v in job.variables if isinstance(v, TableStore)])
        outs = [(refs[tensor_ref(t)], _enum(t.dtype)) for t in graph.outputs]
        if job.kind == "while_cond":
            outs = while_cond_outputs(fdef, job, outs[0][0], args, taken)
        elif job.kind == "while_body":
            outs = while_body_outputs(fdef, job, outs, args, taken)
        _outputs(fdef, outs, taken)
        library.append(fdef)


def _body(fdef, graph_name, ops, refs, taken, jobs, tables=()):
    aliases = [op for op in ops if op.op_def in FORWARD_ONLY]
    pairs, special = [], {}
    handles, index = handle_consts(ops), {id(t) for t in tables}
    last = {}  # table id -> its last node so far
    for op in ops:
        if id(op) in handles:
            continue
        if is_table_op(op):
            got, special[id(op)] = _table_node(op, graph_name, index, taken, last)
            pairs.extend(got)
        elif op.type in CONVERTED:
            try:
                got, special[id(op)] = control_flow_node(op, fdef.signature.name, taken, jobs)
            except ValueError as err:
                raise _unsupported(op, graph_name, f"has no TensorFlow form here ({err})") from None
            _after_table_uses(got[-1][1], graph_tables([op]), last)
            pairs.extend(got)
        elif op.op_def not in FORWARD_ONLY:
            pairs.extend(_converted(op, graph_name, taken))
    names = set()
    for op, node in pairs:
        if op is None:  # a helper node: each of its outputs by position
            outputs = OP_OUTPUTS[node.op][0]
            count = len(outputs) if all(kind == "t" for _, kind in outputs) else 1
            refs.update({f"{node.name}:{k}": _output_ref(node.name, node.op, k, count)
                         for k in range(count)})
            refs[node.name] = refs[f"{node.name}:0"]
        elif id(op) in special:
            refs.update(special[id(op)])
        else:
            _check(op, node, graph_name)
            if _reads_after(op, node):
                refs[op.name] = _read_after(fdef, op, node, refs, taken)
                names.add(refs[op.name].split(":")[0])
                continue
            for k in range(len(op.outputs)):
                ref = op.name if k == 0 else f"{op.name}:{k}"
                refs[ref] = _output_ref(node.name, node.op, k, len(op.outputs))
        names.add(node.name)
    for op in aliases:
        forward = op.inputs[op.attrs["num_inputs"]:]
        for k, t in enumerate(forward):
            refs[op.name if k == 0 else f"{op.name}:{k}"] = refs[tensor_ref(t)]
    _order_variable_uses(pairs, names, refs)
    reads = list(fdef.node_def)
    del fdef.node_def[:]
    for op, node in pairs:
        renamed = []
        for text in node.input:
            if text.startswith("^"):
                if text[1:] in names:
                    renamed.append(text)
                continue
            if text not in refs:
                raise _unsupported(node if op is None else op, graph_name,
                                   f"reads '{text}', which is not in the body")
            renamed.append(refs[text])
        del node.input[:]
        node.input.extend(renamed)
        fdef.node_def.append(node)
        if OP_OUTPUTS.get(node.op, ((), False))[1]:
            fdef.signature.is_stateful = True
            fdef.signature.control_output.append(node.name)
            fdef.control_ret[node.name] = node.name
        while reads and op is not None and reads[0].input[1] == f"^{node.name}":
            fdef.node_def.append(reads.pop(0))


def _order_variable_uses(pairs, names, refs):
    """TensorFlow runs a function's nodes in any order their inputs allow: what orders a traced
    function's variable accesses there are the control edges its tracing adds. So each
    assignment to a variable gets control inputs on the reads of that variable and on its
    assignment before it in program order (an optimizer's step counter, read for the bias
    correction and incremented at the end, would otherwise race)."""
    since = {}  # variable -> names of its reads and last assignment so far
    for op, node in pairs:
        if op is None or not op.inputs or not isinstance(op.inputs[0], Variable):
            continue
        key = tensor_ref(op.inputs[0])
        if op.op_def is READ_VARIABLE:
            since.setdefault(key, []).append(node.name)
        elif op.op_def.stateful:
            node.input.extend(f"^{name}" for name in since.get(key, ())
                              if name != node.name and f"^{name}" not in node.input)
            done = node.name if node.name in names else refs[op.name].split(":")[0]
            since[key] = [done]


def _table_node(op, graph_name, index, taken, last):
    """TensorFlow's node(s) of a table op (table_defs.py), after the table's last node; their
    names taken."""
    table = id(op.attrs["table"])
    if table not in index:
        raise _unsupported(op, graph_name, _TABLES)
    try:
        pairs, refs = table_node(op, table_ref(op.attrs["table"]), tensor_ref, last.get(table))
    except ValueError as err:
        raise _unsupported(op, graph_name, f"has no TensorFlow form here ({err})") from None
    taken.update(node.name for _, node in pairs)
    last[table] = pairs[-1][1].name
    return pairs, refs


def _after_table_uses(node, tables, last):
    """A control-flow node over `tables` runs after each one's last node so far, and the next
    node over each runs after it (as TensorFlow's automatic control dependencies order the
    uses of one resource)."""
    for table in tables:
        if id(table) in last and f"^{last[id(table)]}" not in node.input:
            node.input.append(f"^{last[id(table)]}")
        last[id(table)] = node.name


def _converted(op, graph_name, taken):
    """[(op or None, NodeDef)] of one op (its helper Consts first); their names taken."""
    try:
        pairs = op_node_defs([op], taken)
    except (TypeError, ValueError) as err:
        raise _unsupported(op, graph_name, f"has no TensorFlow form here ({err})") from None
    taken.update(node.name for _, node in pairs)
    return pairs


def _reads_after(op, node):
    """An assignment that returns the variable's new value (TensorFlow's returns nothing)."""
    return (not OP_OUTPUTS[node.op][0] and len(op.outputs) == 1 and op.inputs and
            isinstance(op.inputs[0], Variable))


def _read_after(fdef, op, node, refs, taken):
    """A ReadVariableOp of the assigned variable after the assignment: its output's name."""
    name, n = f"{node.name}/read_value", 0
    while name in taken:
        n += 1
        name = f"{node.name}/read_value_{n}"
    taken.add(name)
    read = fdef.node_def.add(name=name, op=READ_VARIABLE.type,
                             input=[refs[tensor_ref(op.inputs[0])], f"^{node.name}"])
    read.attr["dtype"].type = op.inputs[0].dtype.as_datatype_enum
    return f"{name}:value:0"


def _outputs(fdef, outputs, taken):
    """Each output [(ref, dtype enum)] through an Identity node, returned as "identity...". """
    for i, (ref, dtype) in enumerate(outputs):
        suffix = "" if i == 0 else f"_{i}"
        node_name, n = "Identity" + suffix, 0
        while node_name in taken:
            n += 1
            node_name = f"Identity{suffix}_{n}"
        taken.add(node_name)
        node = fdef.node_def.add(name=node_name, op=IDENTITY.type, input=[ref])
        node.attr["T"].type = dtype
        out = fdef.signature.output_arg.add(name=arg_name("identity" + suffix, taken),
                                            type=dtype)
        fdef.ret[out.name] = f"{node_name}:output:0"
