"""Writes wengert/graph/op_arg_types.json from TensorFlow 2.21's op registry: for each op type
wengert declares (`python -c` lists them), the type attributes of its inputs and outputs, which
`Graph.as_graph_def()` fills in from the tensors' dtypes (graph/node_defs.py).

    {"OpType": [inputs, outputs]}, each a list of [type attribute, count attribute, kind]:
    kind "t" one tensor of the type attribute's dtype, "n" a list of `count` of them, "l" a list
    whose dtypes are the type attribute (a list of types), "f" a fixed dtype (no attribute)

Run with TensorFlow's interpreter from the repository root:
    /work/tfvenv/bin/python tests/raw_ops_tf/graph_op_types.py
"""
import json
import os
import subprocess

from tensorflow.python.framework import op_def_registry

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIST = ("import wengert.raw_ops, wengert.compat.v1, wengert.keras, wengert.io; "  # every family
        "from wengert.framework.raw_ops import raw_op_names; "
        "from wengert.framework.registry import _OP_DEFS; "
        "print('\\n'.join(sorted(set(raw_op_names()) | set(_OP_DEFS))))")


def _args(args):
    out = []
    for arg in args:
        if arg.number_attr:
            out.append([arg.type_attr, arg.number_attr, "n"])
        elif arg.type_list_attr:
            out.append([arg.type_list_attr, "", "l"])
        elif arg.type_attr:
            out.append([arg.type_attr, "", "t"])
        else:
            out.append(["", "", "f"])
    return out


def main():
    python = os.environ.get("WENGERT_PYTHON", "/work/venv/bin/python")
    names = subprocess.run([python, "-c", LIST], capture_output=True, text=True, check=True,
                           cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT)).stdout.split()
    table = {}
    for name in names:
        op_def = op_def_registry.get(name)
        if op_def is not None:
            table[name] = [_args(op_def.input_arg), _args(op_def.output_arg)]
    path = os.path.join(ROOT, "wengert", "graph", "op_arg_types.json")
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}"
                                   for k, v in sorted(table.items())) + "\n}\n")
    print(len(table), "op types")


if __name__ == "__main__":
    main()
