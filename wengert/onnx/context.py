"""The context an op's ONNX lowering rule builds nodes with (`OpDef.onnx`).

A rule is `fn(ctx, op, *inputs)`: `op` is the wengert graph op (its attributes, its input and
output tensors with their static shapes and dtypes), `inputs` the ONNX value names of its
inputs, and it returns the ONNX value name of each output (one name, or a list). It builds with:

    ctx.node(op_type, inputs, outputs=1, **attributes)   one ONNX node; its output name(s)
    ctx.const(array) / ctx.int64s([..])                  an initializer
    ctx.cast(name, numpy_dtype), ctx.reduce(kind, name, axes, keepdims), ctx.squeeze(...),
    ctx.unsqueeze(...), ctx.transpose(...)               helpers that know the opset's forms
    ctx.shape_tensor(attr, extra_names)                  a wengert shape argument as int64 [n]
    ctx.rank(tensor), ctx.static(tensor)                 what the graph knows while converting
    ctx.fail(message)                                    UnimplementedError naming the op

An op type whose OpDef says `onnx="Relu"` maps one-to-one: `ctx.node("Relu", inputs)`. Nothing
here imports onnx's protobufs: nodes are recorded as plain tuples, and convert.py turns them
into a ModelProto.
"""
import numpy as np

from ..framework.errors import UnimplementedError
from ..ops.shape_rules import SHAPE_VECTOR

__all__ = ["LoweringContext", "ONNX_TYPES", "onnx_type"]

# TensorProto.DataType, by NumPy dtype name
ONNX_TYPES = {"float32": 1, "uint8": 2, "int8": 3, "uint16": 4, "int16": 5, "int32": 6,
              "int64": 7, "object": 8, "bool": 9, "float16": 10, "float64": 11, "uint32": 12,
              "uint64": 13}
INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


def onnx_type(dtype):
    """The ONNX element type of a NumPy dtype or wengert DType."""
    dtype = np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
    try:
        return ONNX_TYPES[dtype.name]
    except KeyError:
        raise UnimplementedError(f"dtype {dtype} has no ONNX element type.") from None


class LoweringContext:
    """Collects the nodes and initializers of one ONNX graph (see the module docstring)."""

    def __init__(self, opset):
        self.opset = opset
        self.nodes = []          # (op_type, inputs, outputs, name, attributes)
        self.initializers = []   # (name, array)
        self.op = None           # the wengert op being lowered
        self._taken = set()
        self._consts = {}

    # -- names --------------------------------------------------------------------------------
    def fresh(self, base):
        """An unused value or node name starting with `base`."""
        name, n = base, 0
        while name in self._taken:
            n += 1
            name = f"{base}_{n}"
        self._taken.add(name)
        return name

    def reserve(self, name):
        if name in self._taken:
            raise ValueError(f"ONNX name {name!r} is used twice; give the inputs distinct names.")
        self._taken.add(name)
        return name

    # -- building -------------------------------------------------------------------------------
    def node(self, op_type, inputs, outputs=1, **attributes):
        """Add one node; returns its output name (or the list of them when outputs != 1)."""
        base = self.op.name if self.op is not None else op_type
        names = [self.fresh(f"{base}:{op_type}") for _ in range(outputs)]
        attrs = {k: v for k, v in attributes.items() if v is not None}
        self.nodes.append((op_type, list(inputs), names, self.fresh(f"{base}/{op_type}"), attrs))
        return names[0] if outputs == 1 else names

    def const(self, value, dtype=None, name=None):
        """An initializer holding `value` (small ones shared between uses)."""
        array = np.asarray(value, dtype=dtype)
        if dtype is None and type(value) is float:
            array = array.astype(np.float32)  # Python floats are float32, as in TensorFlow
        key = None
        if array.size <= 16:
            key = (array.dtype.str, array.shape, array.tobytes())
            hit = self._consts.get(key)
            if hit is not None:
                return hit
        out = self.fresh(name or "const")
        self.initializers.append((out, np.ascontiguousarray(array)))
        if key is not None:
            self._consts[key] = out
        return out

    def int64s(self, values):
        return self.const(np.asarray(values, np.int64).reshape(-1))

    def scalar_like(self, value, tensor):
        """A scalar initializer of `tensor`'s dtype (a wengert tensor)."""
        return self.const(np.asarray(value, tensor.dtype.as_numpy_dtype))

    def cast(self, name, dtype):
        return self.node("Cast", [name], to=onnx_type(dtype))

    # -- what the graph knows ---------------------------------------------------------------------
    def rank(self, tensor):
        rank = tensor.shape.rank
        if rank is None:
            self.fail(f"needs the rank of {tensor.name}, which the traced graph does not know; "
                      "give the input_signature known ranks.")
        return rank

    def static(self, tensor):
        """The value of `tensor` if a constant produces it, else None."""
        op = getattr(tensor, "op", None)
        if op is not None and not op.inputs and "value" in op.attrs and op.outputs:
            return np.asarray(op.attrs["value"])
        return None

    def fail(self, message):
        op = self.op
        where = f"{op.type} (op '{op.name}')" if op is not None else "ONNX export"
        raise UnimplementedError(f"{where}: {message}", op)

    # -- helpers for forms that changed between opsets --------------------------------------------
    def axes(self, axis, rank):
        """`axis` (None, an int or a sequence) as a sorted list of non-negative axes."""
        if axis is None:
            return list(range(rank))
        axis = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
        return sorted(int(a) % rank if rank else int(a) for a in axis)

    def reduce(self, kind, x, axes, keepdims):
        """Reduce<kind> of `x` over `axes` (a list; empty = every axis)."""
        keep, onnx_type = int(bool(keepdims)), f"Reduce{kind}"
        if not axes:
            return self.node(onnx_type, [x], keepdims=keep)
        if onnx_type == "ReduceSum" or self.opset >= 18:  # axes became an input at 13 / 18
            return self.node(onnx_type, [x, self.int64s(axes)], keepdims=keep)
        return self.node(onnx_type, [x], axes=list(axes), keepdims=keep)

    def squeeze(self, x, axes):
        return self.node("Squeeze", [x, self.int64s(axes)]) if axes else x

    def unsqueeze(self, x, axes):
        return self.node("Unsqueeze", [x, self.int64s(axes)]) if axes else x

    def transpose(self, x, perm):
        if list(perm) == list(range(len(perm))):
            return x
        return self.node("Transpose", [x], perm=[int(p) for p in perm])

    def split(self, x, sizes, axis):
        """Split `x` along `axis` into pieces of `sizes`."""
        return self.node("Split", [x, self.int64s(sizes)], outputs=len(sizes), axis=int(axis))

    def shape_tensor(self, attr, extras):
        """A wengert shape argument (ops/shape_rules.py `shape_arg`: a tuple attribute, maybe with
        None entries read from scalar inputs, or SHAPE_VECTOR with a vector input) as an int64
        vector value."""
        if attr == SHAPE_VECTOR:
            return self.cast(extras[0], np.int64)
        attr = tuple(attr)
        if None not in attr:
            return self.int64s(attr)
        parts, entries = [], iter(extras)
        for d in attr:
            if d is None:
                parts.append(self.node("Reshape", [self.cast(next(entries), np.int64),
                                                   self.int64s([1])]))
            else:
                parts.append(self.int64s([d]))
        return self.node("Concat", parts, axis=0)
