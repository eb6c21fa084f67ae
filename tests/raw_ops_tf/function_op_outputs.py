"""Writes wengert/saved_model/op_outputs.json from TensorFlow 2.21's op registry: for each op
type in wengert/graph/op_arg_types.json (the TensorFlow op types wengert has), the names of its
output arguments with their kinds, whether TensorFlow marks it stateful, and its attributes'
names. The SavedModel
writer (saved_model/function_defs.py) names a node's outputs inside a function body as
"node:output_arg:index" and keeps stateful ops as the function's control outputs.

    {"OpType": [[[output name, kind], ...], stateful, [attribute names]]}, kind "t" one
    tensor, "n" a list of `number_attr` tensors, "l" a list of the types in `type_list_attr`

Run with TensorFlow's interpreter from the repository root:
    /work/tfvenv/bin/python tests/raw_ops_tf/function_op_outputs.py
"""
import json
import os

from tensorflow.python.framework import op_def_registry

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _kind(arg):
    return "n" if arg.number_attr else "l" if arg.type_list_attr else "t"


def main():
    with open(os.path.join(ROOT, "wengert", "graph", "op_arg_types.json")) as f:
        names = sorted(json.load(f)) + ["StatefulPartitionedCall", "PartitionedCall", "NoOp",
                                        "VarHandleOp", "Placeholder"]
    table = {}
    for name in sorted(set(names)):
        op_def = op_def_registry.get(name)
        if op_def is not None:
            table[name] = [[[a.name, _kind(a)] for a in op_def.output_arg],
                           bool(op_def.is_stateful), [a.name for a in op_def.attr]]
    path = os.path.join(ROOT, "wengert", "saved_model", "op_outputs.json")
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}"
                                   for k, v in sorted(table.items())) + "\n}\n")
    print(len(table), "op types")


if __name__ == "__main__":
    main()
