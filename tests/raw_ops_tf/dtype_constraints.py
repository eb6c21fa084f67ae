"""TensorFlow's dtype constraints on op inputs, read from TensorFlow itself: run with TensorFlow's
interpreter, naming the op types (wengert's registered ones: tests/test_op_dtype_constraints.py
passes them, and says how to regenerate the stored file).

    python tests/raw_ops_tf/dtype_constraints.py OP_TYPE... > wengert/framework/op_dtype_constraints.json

For each op type TensorFlow defines (the others are wengert's own and are left out) it prints the
op's inputs in order, each as [parameter name, type attribute] for one tensor of the attribute's
dtype, [name, attribute, "list"] for a list of tensors sharing it (a number attribute: AddN's
inputs), [name, attribute, "types"] for a list whose dtypes are each one of the attribute's
(IdentityN's), and [name, "", fixed dtype] for an input of one fixed dtype (a resource handle, an
int32 shape; a reference dtype is named as TensorFlow names it, string_ref), [name, "", fixed
dtype, "list"] for a list of them (DynamicStitch's indices). `dtypes` then maps each type attribute that restricts its values to the index of its
allowed dtype names in `dtype_lists` (shared, since many ops allow the same list); an attribute
absent there allows every dtype, as TensorFlow's does when its OpDef gives no allowed values.
"""
import json
import sys

import tensorflow as tf
from tensorflow.python.framework import op_def_registry

_TYPE_ATTRS = ("type", "list(type)")


def _name(enum):
    return tf.dtypes.as_dtype(enum).name


def _input(arg):
    if arg.type_list_attr:
        return [arg.name, arg.type_list_attr, "types"]
    if arg.type_attr:
        return [arg.name, arg.type_attr] + (["list"] if arg.number_attr else [])
    fixed = _name(arg.type) + ("_ref" if arg.is_ref else "")  # (TF1's accumulator handles)
    return [arg.name, "", fixed] + (["list"] if arg.number_attr else [])


def constraints(op_def, lists):
    """{"inputs": [...], "dtypes": {attr: list index}} for one OpDef; `lists` collects the
    allowed-dtype lists (list of names -> index)."""
    used = {a.type_attr or a.type_list_attr for a in op_def.input_arg} - {""}
    allowed = {}
    for attr in op_def.attr:
        if attr.name in used and attr.type in _TYPE_ATTRS and attr.allowed_values.list.type:
            names = tuple(_name(t) for t in attr.allowed_values.list.type)
            allowed[attr.name] = lists.setdefault(names, len(lists))
    return {"inputs": [_input(a) for a in op_def.input_arg], "dtypes": allowed}


def main(argv):
    lists = {}
    ops = {}
    for op_type in sorted(set(argv)):
        op_def = op_def_registry.get(op_type)
        if op_def is not None:
            ops[op_type] = constraints(op_def, lists)
    rows = [f"  {json.dumps(list(names))}" for names in lists]
    entries = [f"  {json.dumps(t)}: {json.dumps(c, sort_keys=True)}" for t, c in ops.items()]
    sys.stdout.write(f'{{"tensorflow": {json.dumps(tf.__version__)},\n "dtype_lists": [\n'
                     + ",\n".join(rows) + '],\n "ops": {\n' + ",\n".join(entries) + "}}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
