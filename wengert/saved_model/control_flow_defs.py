"""Control flow in TensorFlow's FunctionDef form: wengert's `If`, `Case` and `While` ops (each
holding its code as sub-graphs, control_flow/subgraphs.py) become TensorFlow's functional ops,
whose code is other functions of the library, as TensorFlow 2.21 writes them.

- `If(pred, *captured)` -> If(cond, input) with attributes Tcond, Tin, Tout, then_branch and
  else_branch (function names), output_shapes; `Case(index, *captured)` -> Case(branch_index,
  input) with Tin, Tout, branches, output_shapes. Every branch function takes the same inputs:
  the captured tensors, then one DT_RESOURCE handle per variable any branch reads or writes,
  then one per tf.lookup table any branch uses (at any depth; the op passes the enclosing
  function's handles, as TensorFlow passes a captured table), and returns the branch's outputs.
- `While(max_iter, *vars, *invariants)` -> While(input) with T, cond, body, output_shapes,
  parallel_iterations (10). As in TensorFlow, the loop carries a counter and the maximum first:
  inputs (0, max_iter, *vars, *invariants, *handles). The cond function returns
  user_cond(vars, invariants) AND (max_iter < 0 OR counter < max_iter) (wengert's -1 means no
  maximum); the body returns (counter + 1, max_iter, body(vars, invariants), invariants,
  handles). wengert's outputs map to TensorFlow's: final k -> output 2 + k, the iteration count
  -> output 0; the per-iteration stacks (kept for gradients inside the function) have no
  TensorFlow form, so a function reading them is not converted.
- a fused recurrent sequence (Keras' LSTM and GRU layers) -> a PartitionedCall of its steps
  (sequence_defs.py).
- `ReadVariableInControlFlow(var, proxy)` (a branch or body reading a variable when it runs)
  -> ReadVariableOp of the variable's handle.

Sub-graphs are not converted here: each becomes a `Job` (the graph, its library name, the
handles it takes, its kind) that function_defs.py turns into a FunctionDef, from a work list
(nested control flow adds jobs; no recursion).
"""
import collections

from ..control_flow.cond import CASE, IF
from ..control_flow.subgraphs import SubGraph
from ..control_flow.while_op import WHILE
from ..framework import dtypes
from ..framework.protos.graph import NodeDef
from ..framework.variables import READ_IN_CONTROL_FLOW, READ_VARIABLE, Variable
from ..graph.node_defs import tensor_ref
from ..ops.creation_ops import CONST
from .sequence_defs import SEQUENCES, sequence_node
from .structured_values import shape_into
from .table_defs import is_table_op, table_ref

__all__ = ["CONVERTED", "Job", "control_flow_node", "graph_variables", "graph_tables",
           "resource_ref", "while_extra_inputs",
           "while_cond_outputs", "while_body_outputs"]

CONVERTED = {IF.type, CASE.type, WHILE.type, READ_IN_CONTROL_FLOW.type, *SEQUENCES}
_RESOURCE = 20  # DT_RESOURCE
_INT32, _BOOL = dtypes.int32.as_datatype_enum, dtypes.bool.as_datatype_enum

Job = collections.namedtuple("Job", "graph name variables kind n_vars limit_dtype")


def _sub_graphs(op):
    out = []
    for value in op.attrs.values():
        items = value if isinstance(value, (tuple, list)) else (value,)
        out.extend(v for v in items if isinstance(v, SubGraph))
    return out


def _all_ops(ops):
    """`ops`, then the ops of their control flow's sub-graphs at any depth, breadth first."""
    pending = collections.deque([list(ops)])
    while pending:
        for op in pending.popleft():
            yield op
            pending.extend(sub.get_operations() for sub in _sub_graphs(op))


def graph_variables(ops):
    """The variables `ops` and the sub-graphs of their control flow (at any depth) read or
    write, in order of first use (the ops' own first, then each sub-graph's, breadth first)."""
    seen, out = set(), []
    for op in _all_ops(ops):
        for t in op.inputs:
            if isinstance(t, Variable) and id(t) not in seen:
                seen.add(id(t))
                out.append(t)
    return out


def graph_tables(ops):
    """The tables (TableStores) `ops` and their control flow's sub-graphs use, in the same
    order."""
    seen, out = set(), []
    for op in _all_ops(ops):
        if is_table_op(op) and id(op.attrs["table"]) not in seen:
            seen.add(id(op.attrs["table"]))
            out.append(op.attrs["table"])
    return out


def resource_ref(resource):
    """The body-local name of a variable's or a table's handle."""
    return tensor_ref(resource) if isinstance(resource, Variable) else table_ref(resource)


def _enum(dtype):
    return dtypes.as_dtype(dtype).as_datatype_enum


def _func_name(prefix, op, suffix):
    text = "".join(c if c.isalnum() or c == "_" else "_" for c in op.name)
    return f"{prefix}_{text}_{suffix}"


def _types(node, key, values):
    node.attr[key].list.type.extend(values)


def _shapes(node, shapes):
    entry = node.attr["output_shapes"]
    entry.list.SetInParent()
    for shape in shapes:
        shape_into(entry.list.shape.add(), shape)


def control_flow_node(op, prefix, taken, jobs):
    """[(op or None, NodeDef)] for a control-flow op (helper Consts paired with None), and
    {wengert tensor ref: TensorFlow ref} of its outputs; the sub-graphs' Jobs are appended to
    `jobs`, their functions named after `prefix` (the enclosing function's name) and the op."""
    if op.type == READ_IN_CONTROL_FLOW.type:
        node = NodeDef(name=op.name, op=READ_VARIABLE.type, input=[tensor_ref(op.inputs[0])])
        node.attr["dtype"].type = _enum(op.inputs[0].dtype)
        return [(op, node)], {op.name: f"{op.name}:value:0"}
    if op.type in SEQUENCES:
        return sequence_node(op, prefix, jobs, Job)
    subs = _sub_graphs(op)
    inner = [op for sub in subs for op in sub.get_operations()]
    variables = graph_variables(inner) + graph_tables(inner)
    handles = [resource_ref(v) for v in variables]
    if op.type == WHILE.type:
        return _while_node(op, prefix, taken, jobs, variables, handles)
    node = NodeDef(name=op.name, op=op.type,
                   input=[tensor_ref(t) for t in op.inputs] + handles)
    captured = op.inputs[1:]
    _types(node, "Tin", [_enum(t.dtype) for t in captured] + [_RESOURCE] * len(variables))
    _types(node, "Tout", [_enum(t.dtype) for t in op.outputs])
    _shapes(node, [t.shape for t in op.outputs])
    if op.type == IF.type:
        node.attr["Tcond"].type = _enum(op.inputs[0].dtype)
        for key, suffix, sub in (("then_branch", "true", op.attrs["then_branch"]),
                                 ("else_branch", "false", op.attrs["else_branch"])):
            name = _func_name(prefix, op, suffix)
            node.attr[key].func.name = name
            jobs.append(Job(sub, name, variables, "branch", 0, None))
    else:
        node.attr["branches"].list.SetInParent()
        for k, sub in enumerate(op.attrs["branches"]):
            name = _func_name(prefix, op, f"branch_{k}")
            node.attr["branches"].list.func.add(name=name)
            jobs.append(Job(sub, name, variables, "branch", 0, None))
    refs = {(op.name if k == 0 else f"{op.name}:{k}"): f"{op.name}:output:{k}"
            for k in range(len(op.outputs))}
    return [(op, node)], refs


def _while_node(op, prefix, taken, jobs, variables, handles):
    n = op.attrs["n_vars"]
    limit = op.inputs[0]
    carried = op.inputs[1:]
    counter = f"{op.name}/loop_counter"
    k = 0
    while counter in taken:
        k += 1
        counter = f"{op.name}/loop_counter_{k}"
    taken.add(counter)
    const = NodeDef(name=counter, op=CONST.type)
    const.attr["dtype"].type = _enum(limit.dtype)
    tensor = const.attr["value"].tensor
    tensor.dtype = _enum(limit.dtype)
    tensor.tensor_shape.SetInParent()
    tensor.int_val.append(0) if limit.dtype is not dtypes.int64 else tensor.int64_val.append(0)
    node = NodeDef(name=op.name, op=WHILE.type,
                   input=[counter, tensor_ref(limit)] + [tensor_ref(t) for t in carried] + handles)
    types = [_enum(limit.dtype)] * 2 + [_enum(t.dtype) for t in carried]
    _types(node, "T", types + [_RESOURCE] * len(variables))
    body = op.attrs["body"]
    shapes = [(), ()] + [p.shape for p in body.inputs] + [()] * len(variables)
    _shapes(node, shapes)
    node.attr["parallel_iterations"].i = 10
    for key in ("cond", "body"):
        name = _func_name(prefix, op, key)
        node.attr[key].func.name = name
        jobs.append(Job(op.attrs[key], name, variables, f"while_{key}", n, limit.dtype))
    refs = {(op.name if k == 0 else f"{op.name}:{k}"): f"{op.name}:output:{2 + k}"
            for k in range(n)}
    refs[f"{op.name}:{n}"] = f"{op.name}:output:0"
    return [(None, const), (op, node)], refs


def while_extra_inputs(job):
    """The (argument text, dtype enum) a loop's functions take before the sub-graph's inputs."""
    if not job.kind.startswith("while"):
        return []
    return [("loop_counter", _enum(job.limit_dtype)), ("maximum_iterations", _enum(job.limit_dtype))]


def _add(fdef, taken, base, op_type, inputs, **types):
    name, k = base, 0
    while name in taken:
        k += 1
        name = f"{base}_{k}"
    taken.add(name)
    node = fdef.node_def.add(name=name, op=op_type, input=list(inputs))
    for key, value in types.items():
        node.attr[key].type = value
    return name


def _scalar(fdef, taken, base, dtype, value):
    name = _add(fdef, taken, base, CONST.type, [], dtype=dtype)
    tensor = fdef.node_def[-1].attr["value"].tensor
    tensor.dtype = dtype
    tensor.tensor_shape.SetInParent()
    (tensor.int64_val if dtype == dtypes.int64.as_datatype_enum else tensor.int_val).append(value)
    return f"{name}:output:0"


def while_cond_outputs(fdef, job, pred_ref, args, taken):
    """[(ref, dtype enum)]: the user's predicate AND (max < 0 OR counter < max)."""
    counter, limit = args[0], args[1]
    dtype = _enum(job.limit_dtype)
    zero = _scalar(fdef, taken, "loop_limit/zero", dtype, 0)
    below = _add(fdef, taken, "loop_limit/Less", "Less", [counter, limit], T=dtype)
    unlimited = _add(fdef, taken, "loop_limit/Less_1", "Less", [limit, zero], T=dtype)
    within = _add(fdef, taken, "loop_limit/LogicalOr", "LogicalOr",
                  [f"{below}:z:0", f"{unlimited}:z:0"])
    both = _add(fdef, taken, "loop_limit/LogicalAnd", "LogicalAnd",
                [pred_ref, f"{within}:z:0"])
    return [(f"{both}:z:0", _BOOL)]


def while_body_outputs(fdef, job, body_refs, args, taken):
    """[(ref, dtype enum)]: counter + 1, the maximum, the body's results, then the invariants
    and handles unchanged (`args`: the function's argument names in order)."""
    dtype = _enum(job.limit_dtype)
    one = _scalar(fdef, taken, "loop_counter/one", dtype, 1)
    step = _add(fdef, taken, "loop_counter/add", "AddV2", [args[0], one], T=dtype)
    n = job.n_vars
    graph = job.graph
    rest = [(a, _enum(p.dtype)) for a, p in zip(args[2 + n:], graph.inputs[n:])]
    rest += [(a, _RESOURCE) for a in args[2 + len(graph.inputs):]]
    return [(f"{step}:z:0", dtype), (args[1], dtype)] + list(body_refs) + rest
