"""Creating tensors from shapes and ranges, and small shape utilities: linspace, meshgrid, repeat,
sequence_mask, broadcast_dynamic_shape / broadcast_static_shape, shape_n, identity_n,
guarantee_const, unravel_index, saturate_cast, parallel_stack, get_static_value.

linspace(start, stop, num) = start + (stop - start) k / (num - 1), k = 0 .. num - 1, the last one
exactly stop; as in TensorFlow 2 it is made of differentiable ops, so start and stop get
gradients sum_k (1 - k/(num-1)) g_k and sum_k k/(num-1) g_k (the raw LinSpace op has none).
meshgrid broadcasts each 1-d input along its own axis (the first two swapped for "xy" indexing);
its gradient sums g over the other axes. repeat is a gather of the input's slices (so its
gradient adds up the copies). saturate_cast clips to the target dtype's range before casting.

The rest return shapes, integers or their inputs unchanged: ShapeN reads only shapes,
BroadcastArgs and UnravelIndex compute integers (no gradient); IdentityN passes gradients
through; GuaranteeConst has no gradient registered, as in TensorFlow (differentiating it raises).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear
from ..framework.static_value import static_value
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.context import executing_eagerly, op_scope
from . import shape_rules
from .broadcast_ops import ones_like
from .reshape_ops import reshape
from .array_ops import PACK, concat, stack
from .reshape_ops import expand_dims
from .math_ops import clip_by_value
from .creation_ops import range as range_, shape as shape_of, tile
from .indexing_ops import gather
from .einsum_ops import einsum
from .math_ops import cast, less
from .reduce_ops import reduce_max

__all__ = ["linspace", "lin_space", "meshgrid", "repeat", "sequence_mask",
           "broadcast_dynamic_shape", "broadcast_static_shape", "shape_n", "identity_n",
           "guarantee_const", "unravel_index", "saturate_cast", "parallel_stack",
           "get_static_value"]


# -- linspace ----------------------------------------------------------------------------------
def _float_of(value):
    t = convert_to_tensor(value)
    return t if t.dtype.is_floating else cast(t, dtypes.float64)


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from start to stop (both included) along a new `axis`;
    start and stop may be tensors of one shape (each pair gets its own line)."""
    with op_scope(name, "LinSpace"):
        start, stop = _float_of(start), _float_of(stop)
        if start.dtype != stop.dtype:
            stop = cast(stop, start.dtype)
        num = shape_rules.axis_int(static_value(convert_to_tensor(num)) if isinstance(num, Tensor)
                              else num, "linspace: num")
        if num < 0:
            raise InvalidArgumentError(f"linspace: num must be >= 0, got {num}.")
        if start.shape.rank is None or stop.shape.rank is None:
            return _linspace_unknown_rank(start, stop, num, axis)
        rank = max(start.shape.rank, stop.shape.rank) + 1
        axis = shape_rules.normalize_axis(axis, rank, "linspace: axis")
        first, last = expand_dims(start, axis), expand_dims(stop, axis)
        steps = np.arange(num, dtype=start.dtype.as_numpy_dtype) / max(num - 1, 1)
        fractions = convert_to_tensor(steps.reshape([-1 if i == axis else 1 for i in range(rank)]))
        values = first + (last - first) * fractions
        if num < 2:
            return values
        head = values[(slice(None),) * axis + (slice(None, -1),)]
        return concat([head, last + 0 * first], axis)


def _linspace_unknown_rank(start, stop, num, axis):
    """linspace when a rank is unknown: along a new last axis, then moved to `axis` by an
    einsum (the axes it passes over are an ellipsis)."""
    axis = shape_rules.axis_int(axis, "linspace: axis")
    first, last = expand_dims(start, -1), expand_dims(stop, -1)
    steps = np.arange(num, dtype=start.dtype.as_numpy_dtype) / max(num - 1, 1)
    values = first + (last - first) * convert_to_tensor(steps)
    if num >= 2:
        values = concat([values[..., :-1], last + 0 * first], -1)
    if axis == -1:
        return values
    if axis >= 0:  # the new last axis moves to position `axis`: "ab...i" -> "abi..."
        lead = "abcdefgh"[:axis]
        return einsum(f"{lead}...z->{lead}z...", values)
    tail = "abcdefgh"[:-axis - 1]  # axis -k: k-1 axes stay after it
    return einsum(f"...{tail}z->...z{tail}", values)


def _lin_space_rule(start, stop, num):
    known = static_value(num)
    return TensorShape([None if known is None else int(known)]), start.dtype


LIN_SPACE = defop("LinSpace", lambda start, stop, num: np.linspace(start, stop, int(num)).astype(
    start.dtype), shape=_lin_space_rule, grad=None,
    raw=lambda start, stop, num, name=None: lin_space(start, stop, num, name))


def lin_space(start, stop, num, name=None):
    """TensorFlow's raw LinSpace op: num values from the scalar start to stop (no gradient)."""
    start = convert_to_tensor(start)
    stop = convert_to_tensor(stop, dtype=start.dtype)
    return execute(LIN_SPACE, (start, stop, convert_to_tensor(num)), name=name)


# -- meshgrid, repeat, sequence_mask -----------------------------------------------------------------
def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-d inputs: with indexing="xy" (default) the first two outputs'
    axes are swapped, as in NumPy's meshgrid; "ij" keeps matrix indexing."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected arguments {sorted(kwargs)}.")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}.")
    inputs = [reshape(convert_to_tensor(a), [-1]) for a in args]
    count = len(inputs)
    if not count:
        return []
    out = []
    for i, x in enumerate(inputs):
        position = i
        if indexing == "xy" and count > 1 and i < 2:
            position = 1 - i
        out.append(reshape(x, [-1 if k == position else 1 for k in range(count)]))
    ones = [ones_like(t) for t in out]
    full = ones[0]
    for o in ones[1:]:
        full = full * cast(o, full.dtype)
    return [o * cast(full, o.dtype) for o in out]


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Each slice of `input` along `axis` repeated repeats[i] times (a scalar repeats all
    equally); axis None flattens first."""
    with op_scope(name, "Repeat"):
        x = convert_to_tensor(input)
        if axis is None:
            x, axis = reshape(x, [-1]), 0
        axis = shape_rules.normalize_axis(axis, x.shape.rank, "repeat: axis")
        counts = np.asarray(shape_rules.int_tuple(repeats, "repeat: repeats"))
        size = x.shape[axis]
        if np.any(counts < 0):
            raise InvalidArgumentError(f"repeat: repeats must be >= 0, got {counts.tolist()}.")
        if counts.size == 1 and size is None:  # each slice r times: gather 0,..,0, 1,..,1, ...
            rows = expand_dims(range_(shape_of(x)[axis]), 1)
            index = reshape(tile(rows, [1, int(counts[0])]), [-1])
            return gather(x, index, axis=axis)
        if counts.size == 1:
            counts = np.full(size, counts[0])
        if size is not None and counts.size != size:
            raise InvalidArgumentError(f"repeat: repeats must be one count per slice ({size}) or "
                                       f"a single count, got {counts.size}.")
        return gather(x, np.repeat(np.arange(counts.size, dtype=np.int64), counts), axis=axis)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[..., j] = j < lengths[...] for j < maxlen (default: the largest length)."""
    with op_scope(name, "SequenceMask"):
        lengths = convert_to_tensor(lengths)
        if maxlen is None:
            maxlen = reduce_max(lengths)
        maxlen = cast(convert_to_tensor(maxlen), lengths.dtype)
        row = range_(cast(maxlen, dtypes.int32) if lengths.dtype != dtypes.int64 else maxlen)
        mask = less(cast(row, lengths.dtype), expand_dims(lengths, -1))
        dtype = dtypes.as_dtype(dtype)
        return mask if dtype == dtypes.bool else cast(mask, dtype)


# -- broadcasting shapes --------------------------------------------------------------------------
def _broadcast_args_kernel(s0, s1):
    try:
        return np.array(np.broadcast_shapes(tuple(s0), tuple(s1)), dtype=s0.dtype)
    except ValueError:
        raise ValueError(f"Incompatible shapes: {s0.tolist()} vs. {s1.tolist()}") from None


def _broadcast_args_rule(s0, s1):
    shape_rules.check_same_dtype(s0, s1)
    lengths = [s.shape[0] if s.shape.rank == 1 else None for s in (s0, s1)]
    rank = None if None in lengths else max(lengths)
    return TensorShape([rank]), s0.dtype


BROADCAST_ARGS = defop("BroadcastArgs", _broadcast_args_kernel, shape=_broadcast_args_rule,
                       grad=None, args=("s0", "s1"))


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape two tensors of shapes shape_x and shape_y broadcast to (1-d int tensors)."""
    s0 = convert_to_tensor(shape_x)
    s1 = convert_to_tensor(shape_y, dtype=s0.dtype) if not isinstance(shape_y, Tensor) else \
        convert_to_tensor(shape_y)
    return execute(BROADCAST_ARGS, (s0, s1))


def broadcast_static_shape(shape_x, shape_y):
    """The TensorShape two static shapes broadcast to (ValueError if they cannot)."""
    try:
        return shape_rules.broadcast_shapes(TensorShape(shape_x), TensorShape(shape_y))
    except InvalidArgumentError as err:
        raise ValueError(f"Incompatible shapes for broadcasting: {shape_x} and {shape_y}: "
                         f"{err.message}") from None


# -- shape_n, identity_n, guarantee_const -------------------------------------------------------------
SHAPE_N = defop("ShapeN", lambda *xs, out_type: tuple(np.array(x.shape, out_type) for x in xs),
                shape=lambda *xs, out_type: [(TensorShape([x.shape.rank]),
                                              dtypes.as_dtype(out_type)) for x in xs],
                grad=None, num_outputs=None, reads_shape_only=True,
                raw=lambda input, out_type=dtypes.int32, name=None: shape_n(input, out_type, name))


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The shapes of a list of tensors, as a list of 1-d integer tensors."""
    tensors = [convert_to_tensor(t) for t in input]
    out = execute(SHAPE_N, tuple(tensors), {"out_type": dtypes.as_dtype(out_type).as_numpy_dtype},
                  name)
    return list(out) if isinstance(out, tuple) else [out]


IDENTITY_N = defop("IdentityN", lambda *xs: tuple(xs), grad=lambda op, *grads: list(grads),
                   shape=lambda *xs: [(x.shape, x.dtype) for x in xs], jvp=linear,
                   num_outputs=None, returns_view=True,
                   onnx=lambda ctx, op, *xs: [ctx.node("Identity", [x]) for x in xs],
                   raw=lambda input, name=None: identity_n(input, name))


def identity_n(input, name=None):  # noqa: A002
    """The tensors of a list, unchanged (gradients pass through)."""
    tensors = tuple(convert_to_tensor(t) for t in input)
    out = execute(IDENTITY_N, tensors, name=name)
    return list(out) if isinstance(out, tuple) else [out]


# No gradient is registered for GuaranteeConst, as in TensorFlow (LookupError if one is needed).
GUARANTEE_CONST = defop("GuaranteeConst", lambda x: x, shape=shape_rules.same, returns_view=True,
                        args=("input",))


def guarantee_const(input, name=None):  # noqa: A002
    """`input` unchanged, promising its value never changes (a hint TensorFlow's optimizer
    uses; here the identity)."""
    return execute(GUARANTEE_CONST, (convert_to_tensor(input),), name=name)


# -- unravel_index, saturate_cast, parallel_stack, get_static_value -------------------------------------
def _unravel_kernel(indices, dims):
    total = int(np.prod(dims))
    if np.any(indices < 0) or np.any(indices >= total):
        raise ValueError(f"indices must lie in [0, {total}) for dims {dims.tolist()}")
    return np.stack(np.unravel_index(indices, tuple(int(d) for d in dims))).astype(indices.dtype)


def _unravel_rule(indices, dims):
    shape_rules.check_same_dtype(indices, dims)
    length = dims.shape[0] if dims.shape.rank == 1 else None
    return TensorShape([length] + list(indices.shape)), indices.dtype


UNRAVEL_INDEX = defop("UnravelIndex", _unravel_kernel, shape=_unravel_rule, grad=None,
                      args=("indices", "dims"))


def unravel_index(indices, dims, name=None):
    """The coordinates in an array of shape `dims` of each flat index: [len(dims)] +
    indices.shape."""
    indices = convert_to_tensor(indices)
    dims = convert_to_tensor(dims, dtype=indices.dtype) if not isinstance(dims, Tensor) else dims
    return execute(UNRAVEL_INDEX, (indices, dims), name=name)


def saturate_cast(value, dtype, name=None):
    """`value` cast to `dtype`, clipped first to the range dtype can hold."""
    value, dtype = convert_to_tensor(value), dtypes.as_dtype(dtype)
    if value.dtype.is_integer or value.dtype.is_floating:
        low, high = max(value.dtype.min, dtype.min), min(value.dtype.max, dtype.max)
        if low > value.dtype.min or high < value.dtype.max:
            value = clip_by_value(value, np.asarray(low, value.dtype.as_numpy_dtype),
                                  np.asarray(high, value.dtype.as_numpy_dtype))
    return cast(value, dtype, name=name)


def parallel_stack(values, name="parallel_stack"):
    """stack(values) along a new first axis (TensorFlow builds it in parallel in graphs, and
    refuses it eagerly, as here)."""
    if executing_eagerly():
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution; "
                           "call it inside a tf.function or a graph, or use tf.stack.")
    return stack(values, axis=0, name=name)


def get_static_value(tensor, partial=False):
    """The value of `tensor` as a NumPy array when it is known without running a graph (an
    eager tensor; constants and shape computations in a graph), else None. With `partial`, a
    stack (Pack along axis 0) of partly known values is an object array holding None where a
    value is unknown, as TensorFlow's constant_value(partial=True) gives."""
    if not isinstance(tensor, Tensor) and not hasattr(tensor, "_as_tensor"):
        return np.asarray(tensor)
    tensor = convert_to_tensor(tensor)
    value = static_value(tensor)
    if value is None and partial:
        return _partially_known(tensor)
    return value


def _partially_known(tensor):
    """The values of nested Packs (axis 0) with None for their unknown inputs (iterative,
    inputs first)."""
    done, todo = {}, [tensor]
    while todo:
        t = todo[-1]
        op = getattr(t, "op", None)
        if id(t) in done:
            todo.pop()
        elif op is None or op.op_def is not PACK or (op.attrs or {}).get("axis") != 0 or \
                not op.inputs:
            done[id(t)] = static_value(t)
            todo.pop()
        elif any(id(x) not in done for x in op.inputs):
            todo.extend(x for x in op.inputs if id(x) not in done)
        else:
            todo.pop()
            values = [done[id(x)] for x in op.inputs]
            try:
                done[id(t)] = np.array(values)
            except ValueError:  # inputs of different shapes (None among arrays)
                done[id(t)] = np.array(values, dtype=object)
    return done[id(tensor)]
