"""Values known while a graph is built: TensorFlow's `get_static_value` / constant folding.

Shapes are often computed in a graph (`reshape(x, [tf.shape(x)[0], -1])`), yet most of them are
known before the graph runs: the shape of a tensor whose static shape is fully defined, a stack
of such numbers, a constant. `static_value(t)` evaluates the small graph of pure ops behind `t`
with the ops' own kernels, when every leaf is known:
- an eager tensor or a Const is its value;
- an op whose kernel reads only its inputs' shapes (`OpDef.reads_shape_only`: Shape, Size,
  Rank) is known when those inputs' static shapes are fully defined: the kernel runs on a
  zero-strided stand-in of that shape;
- any other pure op (`OpDef.pure`) is known when all its inputs are.
Placeholders, variable reads and random ops are not pure, so anything that depends on them is
unknown (None). The walk is iterative (an explicit stack) and gives up on graphs larger than
`MAX_OPS` ops or values larger than `MAX_ELEMENTS` elements: folding is for shapes and indices,
not for data.
"""
import numpy as np

__all__ = ["static_value", "MAX_OPS", "MAX_ELEMENTS"]

MAX_OPS = 64
MAX_ELEMENTS = 4096
_UNKNOWN = object()


def _eager_value(t):
    value = getattr(t, "_value", None)
    return value if value is not None and not callable(value) else None


def _stand_in(t):
    """An array of t's static shape and dtype that costs no memory, or _UNKNOWN."""
    shape = getattr(t, "shape", None)
    if shape is None or shape.rank is None or not shape.is_fully_defined():
        return _UNKNOWN
    return np.broadcast_to(np.zeros((), t.dtype.as_numpy_dtype), tuple(shape))


def _evaluate(op, inputs):
    out = op.op_def.kernel(*inputs, **op.attrs)
    return out if isinstance(out, tuple) else (out,)


def static_value(t):
    """t's value as a NumPy array if it is known without running the graph, else None."""
    value = _eager_value(t)
    if value is not None:
        return value
    if getattr(t, "op", None) is None:
        return None
    known = {}          # id(op) -> tuple of output arrays, or _UNKNOWN
    stack, visited = [t.op], 0
    while stack:
        op = stack[-1]
        if id(op) in known:
            stack.pop()
            continue
        if op.op_def.reads_shape_only:
            inputs = [_stand_in(x) for x in op.inputs]
        elif not op.op_def.pure or op.op_def.kernel is None:
            known[id(op)] = _UNKNOWN
            stack.pop()
            continue
        else:
            inputs, pending = [], []
            for x in op.inputs:
                eager = _eager_value(x)
                if eager is not None:
                    inputs.append(eager)
                elif getattr(x, "op", None) is None:
                    inputs.append(_UNKNOWN)
                elif id(x.op) in known:
                    outs = known[id(x.op)]
                    inputs.append(_UNKNOWN if outs is _UNKNOWN else outs[x.value_index])
                else:
                    pending.append(x.op)
            if pending:
                visited += len(pending)
                if visited > MAX_OPS:
                    return None
                stack.extend(pending)
                continue
        stack.pop()
        if any(v is _UNKNOWN for v in inputs) or any(
                np.size(v) > MAX_ELEMENTS for v in inputs if not op.op_def.reads_shape_only):
            known[id(op)] = _UNKNOWN
            continue
        try:
            known[id(op)] = _evaluate(op, inputs)
        except Exception:  # noqa: BLE001 - a kernel that fails now fails again when run
            known[id(op)] = _UNKNOWN
    outs = known[id(t.op)]
    if outs is _UNKNOWN:
        return None
    value = np.asarray(outs[t.value_index])
    return value if value.size <= MAX_ELEMENTS else None
