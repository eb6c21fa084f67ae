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
`partial_value(t)` is TensorFlow's `constant_value_as_shape`: what is known of an integer scalar
or vector that is not wholly known, entry by entry (`tf.concat([tf.shape(x)[:1], [4]], 0)` for
x of shape [None, 3] is [None, 4]). Ops that assemble or pick entries say how in their OpDef
(`partial_value`); the walk asks them from the leaves up, with an explicit stack.
Placeholders, variable reads and random ops are not pure, so anything that depends on them is
unknown (None). The walk is iterative (an explicit stack) and gives up on graphs larger than
`MAX_OPS` ops or values larger than `MAX_ELEMENTS` elements: folding is for shapes and indices,
not for data.
"""
import numpy as np

from .float_errors import IGNORE, reset_errstate, set_errstate

__all__ = ["static_value", "partial_value", "MAX_OPS", "MAX_ELEMENTS"]

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
    token = set_errstate(IGNORE)
    try:
        out = op.op_def.kernel(*inputs, **op.attrs)
    finally:
        reset_errstate(token)
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


def _as_partial(value):
    value = np.asarray(value)
    if value.dtype.kind not in "iu" or value.ndim > 1:
        return None
    return int(value) if value.ndim == 0 else [int(v) for v in value]


def _leaf_partial(t):
    """What is known of t without asking its op: its value, or a vector's length."""
    value = static_value(t)
    if value is not None:
        return _as_partial(value)
    shape = getattr(t, "shape", None)
    if shape is not None and shape.rank == 1 and shape[0] is not None and t.dtype.is_integer:
        return [None] * shape[0]
    return None


def partial_value(t):
    """What is known of the integer scalar or vector t while the graph is built: an int or None
    (a scalar), a list of ints and None (a vector), or None when not even its length is."""
    known = {}   # id(tensor) -> partial value
    stack, visited = [t], 0
    while stack:
        x = stack[-1]
        if id(x) in known:
            stack.pop()
            continue
        op = getattr(x, "op", None)
        rule = None if op is None or _eager_value(x) is not None else op.op_def.partial_value
        if rule is None:
            known[id(x)] = _leaf_partial(x)
            stack.pop()
            continue
        reads = () if op.op_def.reads_shape_only else op.inputs
        pending = [i for i in reads if id(i) not in known]
        if pending:
            visited += 1
            if visited > MAX_OPS:
                return _leaf_partial(t)
            stack.extend(pending)
            continue
        stack.pop()
        try:
            value = rule(op, *[known[id(i)] if reads else None for i in op.inputs])
        except Exception:  # noqa: BLE001 - nothing is known then
            value = None
        outs_known = value if x.value_index == 0 else None
        known[id(x)] = outs_known if outs_known is not None else _leaf_partial(x)
    return known[id(t)]
