"""TensorFlow's raw-op signatures, read from TensorFlow itself: run with TensorFlow's interpreter.

    python tests/raw_ops_tf/signatures.py OP_TYPE...   prints {op type: signature} as JSON
    python tests/raw_ops_tf/signatures.py --all        ... for every op of tf.raw_ops

A signature lists the arguments of tf.raw_ops.<op type> (keyword arguments, `name` left out) in
TensorFlow's order: its inputs, then its attributes, each attribute with its default when it has
one (dtypes as {"dtype": name}, other values as JSON). `shared_dtype` says whether all inputs
share one type attribute (T) or have fixed types, and none is a list: only then may an op map its
TensorFlow arguments onto its inputs directly. tests/raw_ops_tf/signatures.json stores the
output for the ops wengert exposes (with the names of all of TensorFlow's raw ops), so that the
tests need no TensorFlow; tests/test_raw_ops_tf.py compares it with a live TensorFlow.
"""
import inspect
import json
import sys

import tensorflow as tf
from tensorflow.python.framework import op_def_registry


def _default(value):
    if isinstance(value, tf.dtypes.DType):
        return {"dtype": value.name}
    if hasattr(value, "SerializeToString"):  # a TensorProto default (ImageSummary's bad_color)
        return tf.make_ndarray(value).tolist()
    return value


def signature(op_type):
    params = [p for p in inspect.signature(getattr(tf.raw_ops, op_type)).parameters.values()
              if p.name != "name"]
    op_def = op_def_registry.get(op_type)
    n_inputs = len(op_def.input_arg)
    types = {a.type_attr for a in op_def.input_arg}
    lists = [a for a in op_def.input_arg if a.number_attr or a.type_list_attr]
    return {"inputs": [p.name for p in params[:n_inputs]],
            "attrs": [[p.name] + ([] if p.default is p.empty else [_default(p.default)])
                      for p in params[n_inputs:]],
            "shared_dtype": not lists and (len(types) == 1 or types == {""})}


def main(argv):
    names = sorted(n for n in dir(tf.raw_ops) if not n.startswith("_"))
    wanted = sorted(names if argv == ["--all"] else argv)
    rows = [json.dumps(names[i:i + 8]).strip("[]") for i in range(0, len(names), 8)]
    ops = [f"  {json.dumps(n)}: {json.dumps(signature(n), sort_keys=True)}" for n in wanted]
    sys.stdout.write(f'{{"tensorflow": {json.dumps(tf.__version__)},\n "all_op_types": [\n  '
                     + ",\n  ".join(rows) + '],\n "ops": {\n' + ",\n".join(ops) + "}}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
