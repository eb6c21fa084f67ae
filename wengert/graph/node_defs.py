"""wengert ops as TensorFlow's NodeDefs: what `Graph.as_graph_def()` writes for each op so that
TensorFlow imports it.

wengert's op types are TensorFlow's names, and most ops' inputs are TensorFlow's inputs one to
one; a node then carries the op's attributes converted by value (bools, ints, floats, strings,
dtypes, shapes, arrays as TensorProtos, lists of these) and TensorFlow's type attribute `T` (the
first input's dtype). Where wengert keeps as an attribute what TensorFlow takes as an input (a
reduction's axes, a reshape's shape, a transpose's permutation, a concat's axis...), the rule of
that op type writes the value as a Const node named as TensorFlow names it ("Mean/reduction_indices",
"Reshape/shape", "concat/axis") and adds the type attributes TensorFlow's op definition has
(`Tidx`, `Tshape`, `N`, ...). Variables become `VarHandleOp` nodes read by `ReadVariableOp`.
The type attributes themselves (`T`, `U`, `Tidx`, `N`, `SrcT`...) are filled from the inputs'
and outputs' dtypes by TensorFlow's op definitions, stored in op_arg_types.json beside this
module (tests/raw_ops_tf/graph_op_types.py writes it from TensorFlow's registry: which type
attribute each input and output takes, and which count attribute a list input sets).
An op without a TensorFlow form here (a slice whose bounds are known only at run time, a softmax
over an inner axis) keeps wengert's attributes, which TensorFlow's importer then names.
"""
import json
import os

import numpy as np

from ..framework import dtypes
from ..framework.protos.graph import AttrValue, NodeDef
from ..framework.protos.tensor import to_proto
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable, variable_op_name
from ..ops import (array_ops, cast_ops, creation_ops, indexing_ops, pad_ops, query_ops,
                   reduce_ops, reshape_ops, scan_ops, slice_ops)
from ..ops.nn import activations, losses
from ..ops.shape_rules import SHAPE_VECTOR
from ..ops.sparse import reductions as sparse_reductions
from .node_compositions import COMPOSITIONS
from .variables import VAR_HANDLE

__all__ = ["node_defs", "op_node_defs", "attr_value", "tensor_ref", "list_input_position"]

_INT32 = dtypes.int32.as_datatype_enum
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_arg_types.json")) as _f:
    _ARG_TYPES = json.load(_f)


def tensor_ref(t):
    """The input string of a tensor: "op" for output 0, "op:i" otherwise."""
    if isinstance(t, Variable):
        return variable_op_name(t)
    return t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"


def _is_dtype(value):
    return isinstance(value, (dtypes.DType, np.dtype)) or (
        isinstance(value, type) and issubclass(value, np.generic))


def _enum(value):
    return dtypes.as_dtype(value).as_datatype_enum


def _shape_into(proto, value):
    shape = TensorShape(value)
    if shape.rank is None:
        proto.unknown_rank = True
        return
    proto.SetInParent()
    for d in shape.as_list():
        proto.dim.add(size=-1 if d is None else int(d))


def attr_value(value, key=""):
    """The AttrValue of one attribute value, or None for a value TensorFlow has no form for."""
    out = AttrValue()
    if isinstance(value, (bool, np.bool_)):
        out.b = bool(value)
    elif isinstance(value, (int, np.integer)):
        out.i = int(value)
    elif isinstance(value, (float, np.floating)):
        out.f = float(value)
    elif isinstance(value, str):
        out.s = value.encode("utf-8")
    elif isinstance(value, bytes):
        out.s = value
    elif _is_dtype(value):
        out.type = _enum(value)
    elif isinstance(value, TensorShape) or (key == "shape" and (
            value is None or isinstance(value, (tuple, list)))):
        _shape_into(out.shape, value)
    elif isinstance(value, np.ndarray):
        out.tensor.CopyFrom(to_proto(value, dtypes.as_dtype(value.dtype)))
    elif isinstance(value, (tuple, list)):
        return _list_value(value)
    else:
        return None
    return out


def _list_value(items):
    out = AttrValue()
    out.list.SetInParent()
    if all(isinstance(x, (bool, np.bool_)) for x in items):
        out.list.b.extend(bool(x) for x in items)
    elif all(isinstance(x, (int, np.integer)) for x in items):
        out.list.i.extend(int(x) for x in items)
    elif all(isinstance(x, (int, float, np.integer, np.floating)) for x in items):
        out.list.f.extend(float(x) for x in items)
    elif all(isinstance(x, (str, bytes)) for x in items):
        out.list.s.extend(x.encode("utf-8") if isinstance(x, str) else x for x in items)
    elif all(_is_dtype(x) for x in items):
        out.list.type.extend(_enum(x) for x in items)
    else:
        return None
    return out


class _Writer:
    """Collects the NodeDefs of one graph, naming helper Consts uniquely."""

    def __init__(self, taken):
        self.nodes, self.taken, self.dtypes = [], set(taken), {}

    def _name(self, owner, suffix):
        """A new node name `owner/suffix` (with `_n` when taken), taken now."""
        name, n = f"{owner}/{suffix}", 0
        while name in self.taken:
            n += 1
            name = f"{owner}/{suffix}_{n}"
        self.taken.add(name)
        return name

    def const(self, owner, suffix, value, dtype=dtypes.int32):
        """A helper Const `owner/suffix` holding `value` as `dtype`; its name."""
        name = self._name(owner, suffix)
        self.dtypes[name] = dtypes.as_dtype(dtype)
        self.nodes.append(self.final_const(name, value, dtype))
        return name

    def node(self, owner, suffix, op_type, inputs, **attrs):
        """A helper node `owner/suffix` of TensorFlow's `op_type` on [(input, dtype)]; its name."""
        name = self._name(owner, suffix)
        self.nodes.append(self.final(name, op_type, inputs, **attrs))
        return name

    def final(self, name, op_type, inputs, **attrs):
        """The NodeDef `name` of `op_type` on [(input, dtype)], its type attributes filled."""
        node = NodeDef(name=name, op=op_type)
        node.input.extend(ref for ref, _ in inputs)
        for key, value in attrs.items():
            node.attr[key].CopyFrom(attr_value(value, key))
        _fill_types(node, op_type, [dtype for _, dtype in inputs], [])
        return node

    @staticmethod
    def final_const(name, value, dtype):
        """The Const NodeDef `name` holding `value` as `dtype`."""
        dtype = dtypes.as_dtype(dtype)
        node = NodeDef(name=name, op=creation_ops.CONST.type)
        node.attr["value"].tensor.CopyFrom(
            to_proto(np.asarray(value, dtype=dtype.as_numpy_dtype), dtype))
        node.attr["dtype"].type = dtype.as_datatype_enum
        return node


def _types(node, **types):
    for key, value in types.items():
        node.attr[key].type = _enum(value)


def _drop(node, key):
    if key in node.attr:
        del node.attr[key]


def _in_dtype(op, i=0):
    return op.inputs[i].dtype


def _axes(op):
    axis = op.attrs.get("axis")
    if axis is None:
        rank = op.inputs[0].shape.rank
        return list(range(rank or 0))
    return [axis] if isinstance(axis, (int, np.integer)) else list(axis)


def _reduction(w, op, node, attrs):
    node.input.insert(1, w.const(op.name, "reduction_indices", _axes(op)))
    node.attr["keep_dims"].b = bool(attrs.pop("keepdims", False))
    attrs.pop("axis", None)
    _types(node, Tidx=dtypes.int32)


def _as_input(attr, suffix, index, type_attr=None, dtype=dtypes.int32):
    def rule(w, op, node, attrs):
        ref, used = _shape_input(w, op, node, attrs.pop(attr), suffix, dtype)
        node.input.insert(index, ref)
        if type_attr:
            _types(node, **{type_attr: used})
    return rule


def _shape_input(w, op, node, value, suffix, dtype):
    """(input ref, dtype) of a shape attribute: a helper Const when known while building, the
    op's extra vector input (shape_rules.SHAPE_VECTOR), or a Pack of Consts and the op's extra
    scalar inputs where entries are None (the extra inputs leave the node's input list)."""
    vector = isinstance(value, str) and value == SHAPE_VECTOR
    if not vector and not (isinstance(value, (tuple, list)) and None in value):
        return w.const(op.name, suffix, value, dtype), dtype
    n = 1 if vector else list(value).count(None)
    extra = list(op.inputs[len(op.inputs) - n:])
    del node.input[len(node.input) - n:]
    used = extra[0].dtype
    if vector:
        return tensor_ref(extra[0]), used
    entries = iter(extra)
    items = [tensor_ref(next(entries)) if d is None else w.const(op.name, f"{suffix}_{k}", d, used)
             for k, d in enumerate(value)]
    name = w.const(op.name, suffix, 0, used)  # reserves the name; replaced by the Pack
    pack = w.nodes.pop()
    del pack.attr["value"]
    pack.op = "Pack"
    pack.input.extend(items)
    pack.attr["N"].i = len(items)
    pack.attr["T"].type = pack.attr["dtype"].type
    del pack.attr["dtype"]
    pack.attr["axis"].i = 0
    w.nodes.append(pack)
    return name, used


def _sparse_reduction(w, op, node, attrs):
    """The axes as an input; wengert's () (every axis) as each axis, since TensorFlow's empty
    reduction_axes reduce none."""
    axes = list(attrs.pop("reduction_axes") or ())
    if not axes:
        shape = op.inputs[2].shape
        if shape.rank != 1 or shape[0] is None:
            raise ValueError("a sparse reduction over every axis of a tensor of unknown rank")
        axes = list(range(shape[0]))
    node.input.insert(3, w.const(op.name, "reduction_axes", axes))


def _concat(w, op, node, attrs):
    node.input.append(w.const(op.name, "axis", attrs.pop("axis")))
    node.attr["N"].i = len(op.inputs)
    _types(node, Tidx=dtypes.int32)


def _cast(w, op, node, attrs):
    _types(node, SrcT=_in_dtype(op), DstT=attrs.pop("dtype"))
    node.attr["Truncate"].b = False
    _drop(node, "T")


def _arg_reduce(w, op, node, attrs):
    node.input.append(w.const(op.name, "dimension", attrs.pop("axis")))
    _types(node, Tidx=dtypes.int32)


def _pad(w, op, node, attrs):
    node.input.append(w.const(op.name, "paddings", attrs.pop("paddings")))
    node.input.append(w.const(op.name, "constant_values", attrs.pop("constant_values", 0),
                              _in_dtype(op)))
    _types(node, Tpaddings=dtypes.int32)


def _gather(w, op, node, attrs):
    node.input.append(w.const(op.name, "axis", attrs.pop("axis")))
    _drop(node, "T")
    _types(node, Tparams=_in_dtype(op), Tindices=_in_dtype(op, 1), Taxis=dtypes.int32)


def _one_hot(w, op, node, attrs):
    dtype = attrs.pop("dtype")
    node.input.append(w.const(op.name, "depth", attrs.pop("depth")))
    node.input.append(w.const(op.name, "on_value", attrs.pop("on_value"), dtype))
    node.input.append(w.const(op.name, "off_value", attrs.pop("off_value"), dtype))
    _types(node, T=dtype, TI=_in_dtype(op))


def _drop_last_axis(w, op, node, attrs):
    rank = op.inputs[0].shape.rank
    if attrs.get("axis", -1) in (-1, (rank or 0) - 1):
        attrs.pop("axis", None)


def _squeeze(w, op, node, attrs):
    node.attr["squeeze_dims"].CopyFrom(_list_value(list(attrs.pop("axis") or ())))


_WINDOWS = ("strides", "dilations", "ksize")


def _windows(attrs):
    """A convolution's or pool's per-spatial-axis strides, dilations and window as TensorFlow's
    per-axis lists (1 for the batch and channel axes)."""
    channels_first = (attrs.get("data_format") or "NHWC").startswith("NC")
    for key in _WINDOWS:
        values = attrs.get(key)
        if isinstance(values, (tuple, list)) and len(values) in (1, 2, 3):
            attrs[key] = [1, 1, *values] if channels_first else [1, *values, 1]


def _bias_add(w, op, node, attrs):
    attrs["data_format"] = attrs.get("data_format") or "NHWC"


def _shape(w, op, node, attrs):
    _types(node, out_type=attrs.pop("out_type", dtypes.int32))


def _strided_slice(w, op, node, attrs):
    spec = attrs["spec"]
    if len(op.inputs) > 1 or any(isinstance(v, str) for s in spec
                                 for v in (s if isinstance(s, tuple) else (s,))):
        return  # bounds known only at run time: left in wengert's form
    begin, end, strides = [], [], []
    attrs.pop("spec")
    masks = dict.fromkeys(("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                           "shrink_axis_mask"), 0)
    for i, s in enumerate(spec):
        bit = 1 << i
        if s is Ellipsis or s is None:
            masks["ellipsis_mask" if s is Ellipsis else "new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(s, tuple):
            start, stop, step = s
            masks["begin_mask"] |= bit if start is None else 0
            masks["end_mask"] |= bit if stop is None else 0
            begin.append(start or 0), end.append(stop or 0), strides.append(step or 1)
        else:
            masks["shrink_axis_mask"] |= bit
            begin.append(s), end.append(s + 1 if s != -1 else 0), strides.append(1)
            masks["end_mask"] |= bit if s == -1 else 0
    for suffix, values in (("stack", begin), ("stack_1", end), ("stack_2", strides)):
        node.input.append(w.const(op.name, suffix, values))
    for key, value in masks.items():
        node.attr[key].i = value
    _types(node, Index=dtypes.int32)


def _slice(w, op, node, attrs):
    for attr in ("begin", "size"):
        node.input.append(w.const(op.name, attr, attrs.pop(attr)))
    _types(node, Index=dtypes.int32)


def _split(w, op, node, attrs):
    node.input.insert(0, w.const(op.name, "split_dim", attrs.pop("axis")))


def _split_v(w, op, node, attrs):
    node.input.append(w.const(op.name, "size_splits", list(attrs.pop("size_splits"))))
    node.input.append(w.const(op.name, "split_dim", attrs.pop("axis")))
    node.attr["num_split"].i = len(op.outputs)
    _types(node, Tlen=dtypes.int32)


def _const(w, op, node, attrs):
    dtype = op.outputs[0].dtype
    value = np.asarray(attrs.pop("value")).astype(dtype.as_numpy_dtype, copy=False)
    node.attr["value"].tensor.CopyFrom(to_proto(value, dtype))


_RULES = {
    **dict.fromkeys((reduce_ops.SUM, reduce_ops.MEAN, reduce_ops.MAX, reduce_ops.MIN,
                     reduce_ops.PROD, reduce_ops.ALL, reduce_ops.ANY), _reduction),
    creation_ops.FILL: _as_input("dims", "dims", 0, "index_type"),
    reshape_ops.RESHAPE: _as_input("shape", "shape", 1, "Tshape"),
    reshape_ops.TRANSPOSE: _as_input("perm", "perm", 1, "Tperm"),
    reshape_ops.EXPAND_DIMS: _as_input("axis", "dim", 1, "Tdim"),
    creation_ops.TILE: _as_input("multiples", "multiples", 1, "Tmultiples"),
    array_ops.CONCAT: _concat, cast_ops.CAST: _cast, reduce_ops.ARG_MAX: _arg_reduce,
    reduce_ops.ARG_MIN: _arg_reduce, pad_ops.PAD: _pad, indexing_ops.GATHER: _gather,
    creation_ops.ONE_HOT: _one_hot, reshape_ops.SQUEEZE: _squeeze,
    **dict.fromkeys((activations.SOFTMAX, activations.LOG_SOFTMAX, losses.SOFTMAX_CE),
                    _drop_last_axis),
    activations.BIAS_ADD: _bias_add, query_ops.SHAPE: _shape,
    slice_ops.STRIDED_SLICE: _strided_slice, slice_ops.SLICE: _slice,
    creation_ops.CONST: _const, array_ops.SPLIT: _split, array_ops.SPLIT_V: _split_v,
    **dict.fromkeys((scan_ops.CUMSUM, scan_ops.CUMPROD), _as_input("axis", "axis", 1, "Tidx")),
    **dict.fromkeys((sparse_reductions.REDUCE_SUM, sparse_reductions.REDUCE_SUM_SPARSE,
                     sparse_reductions.REDUCE_MAX, sparse_reductions.REDUCE_MAX_SPARSE),
                    _sparse_reduction),
}


def _variable(w, op, node, attrs):
    node.attr["shared_name"].s = op.name.encode("utf-8")


_RULES[VAR_HANDLE] = _variable


def _composed(w, op):
    """The last node of the TensorFlow composition of a wengert-only op (node_compositions)."""
    first = len(w.nodes)
    node = COMPOSITIONS[op.op_def](w, op, *[tensor_ref(t) for t in op.inputs])
    for made in w.nodes[first:] + [node]:
        made.input.extend(f"^{c.name}" for c in op.control_inputs)
    return node


def _node(w, op):
    if op.op_def in COMPOSITIONS:
        return _composed(w, op)
    node = NodeDef(name=op.name, op=op.type)
    node.input.extend([tensor_ref(t) for t in op.inputs])
    attrs = dict(op.attrs)
    rule = _RULES.get(op.op_def)
    if rule is not None:
        rule(w, op, node, attrs)
    if any(key in attrs for key in _WINDOWS):
        _windows(attrs)
    if not _fill_types(node, op.type, _input_dtypes(w, op, node),
                       [t.dtype for t in op.outputs]) and op.inputs and \
            not isinstance(op.inputs[0], Variable):
        _set_type(node, "T", _in_dtype(op))
    for key, value in attrs.items():
        converted = attr_value(value, key)
        if converted is not None and key not in node.attr:
            node.attr[key].CopyFrom(converted)
    node.input.extend(f"^{c.name}" for c in op.control_inputs)
    return node


def list_input_position(op_type):
    """Where TensorFlow's op type takes its list input among its inputs (0 when unknown)."""
    inputs = _ARG_TYPES.get(op_type, ((),))[0]
    return next((i for i, arg in enumerate(inputs) if arg[2] in "nl"), 0)


def _input_dtypes(w, op, node):
    known = {tensor_ref(t): (None if isinstance(t, Variable) else t.dtype) for t in op.inputs}
    return [w.dtypes.get(text, known.get(text)) for text in node.input]


def _set_type(node, key, dtype):
    if key and dtype is not None and key not in node.attr:
        node.attr[key].type = dtypes.as_dtype(dtype).as_datatype_enum


def _fill_types(node, op_type, in_dtypes, out_dtypes):
    """Set the type and count attributes TensorFlow's op definition ties to the inputs and
    outputs; False when there is no definition or the inputs do not fit it."""
    spec = _ARG_TYPES.get(op_type)
    if spec is None:
        return False
    inputs, outputs = spec
    lists = [a for a in inputs if a[2] in "nl"]
    extra = len(in_dtypes) - (len(inputs) - len(lists))
    if len(lists) > 1 or extra < 0 or (not lists and extra):
        return False
    at = 0
    for type_attr, count_attr, kind in inputs:
        if kind in "tf":
            if kind == "t":
                _set_type(node, type_attr, in_dtypes[at])
            at += 1
            continue
        items = in_dtypes[at:at + extra]
        at += extra
        if kind == "n":
            if count_attr not in node.attr:
                node.attr[count_attr].i = len(items)
            _set_type(node, type_attr, items[0] if items else None)
        elif type_attr not in node.attr and None not in items:
            node.attr[type_attr].list.type.extend(dtypes.as_dtype(d).as_datatype_enum
                                                  for d in items)
    for (type_attr, _, kind), dtype in zip(outputs, out_dtypes):
        if kind == "t":
            _set_type(node, type_attr, dtype)
    return True


def node_defs(graph):
    """The NodeDefs of `graph`'s ops, each op's helper Consts just before it."""
    w = _Writer(op.name for op in graph.get_operations())
    for op in graph.get_operations():
        node = _node(w, op)
        w.nodes.append(node)
    return w.nodes


def op_node_defs(ops, taken):
    """[(op, NodeDef)] of `ops` in order, each op's helper Consts just before it paired with
    None; helpers are named apart from the names in `taken` (a function body's nodes)."""
    w = _Writer(taken)
    out = []
    for op in ops:
        node = _node(w, op)
        out.extend((None, helper) for helper in w.nodes)
        w.nodes.clear()
        out.append((op, node))
    return out
