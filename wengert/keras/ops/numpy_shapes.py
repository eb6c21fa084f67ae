"""Keras 3's shape manipulation: reshaping, axis permutations, joining and splitting, flips,
rolls, rotations, tiling, repetition and padding.

These move or copy elements without arithmetic, so each gradient routes the incoming gradient
back to where an element came from (wengert's reshape/transpose/concat/split/reverse/roll/tile/
pad ops carry those rules). Joining functions first promote their inputs to one Keras result
type (`concatenate([int8, float16])` is float16). `vstack` joins along axis 0 and `hstack` along
axis 1 (axis 0 for 1-D inputs), `dstack` along axis 2 after lifting inputs to 3-D; `array_split`
gives the first len % n pieces one extra element.
"""
from ...ops import array_ops, manip_ops
from ...ops.broadcast_ops import broadcast_to as tf_broadcast_to
from ...ops.cast_ops import cast
from ...ops.creation_ops import tile as tf_tile
from ...ops.indexing_ops import reverse
from ...ops.pad_ops import pad as tf_pad
from ...ops.query_ops import size as tf_size
from ...ops.reshape_ops import expand_dims as tf_expand_dims, reshape as tf_reshape
from ...ops.reshape_ops import squeeze as tf_squeeze, transpose as tf_transpose
from ...ops.shape_ops import meshgrid as tf_meshgrid, repeat as tf_repeat
from .dtypes import convert, dtype_of, result_type

__all__ = ["reshape", "ravel", "transpose", "moveaxis", "swapaxes", "expand_dims", "squeeze",
           "broadcast_to", "stack", "concatenate", "append", "hstack", "vstack", "dstack",
           "split", "array_split", "hsplit", "vsplit", "dsplit", "flip", "fliplr", "flipud",
           "roll", "rot90", "tile", "repeat", "pad", "ndim", "size", "meshgrid"]


def _canonical(axis, rank):
    if not -rank <= axis < rank:
        raise ValueError(f"keras.ops: axis {axis} is out of range for a tensor of rank {rank}.")
    return axis % rank


def _joined(xs):
    """The tensors of xs promoted to their Keras result type."""
    dtype = result_type(*(dtype_of(x) for x in xs)) if len(xs) > 1 else None
    return [convert(x, dtype) for x in xs]


def reshape(x, newshape):
    """x with shape `newshape` (one entry may be -1)."""
    return tf_reshape(convert(x), newshape)


def ravel(x):
    """x flattened to 1-D."""
    return tf_reshape(convert(x), [-1])


def transpose(x, axes=None):
    """x with its axes permuted by `axes` (reversed when None)."""
    x = convert(x)
    if axes is not None:
        axes = [_canonical(a, x.shape.rank) for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError(f"keras.ops.transpose: axes must be a permutation of the input's "
                             f"axes without duplicates; got {axes}.")
    return tf_transpose(x, axes)


def moveaxis(x, source, destination):
    """x with the axes `source` moved to positions `destination`, the others keeping order."""
    x = convert(x)
    rank = x.shape.rank
    source = [_canonical(a, rank) for a in ((source,) if isinstance(source, int) else source)]
    destination = [_canonical(a, rank) for a in
                   ((destination,) if isinstance(destination, int) else destination)]
    if len(source) != len(destination):
        raise ValueError(f"keras.ops.moveaxis: source {source} and destination {destination} "
                         "must name the same number of axes.")
    perm = [i for i in range(rank) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return x if perm == list(range(rank)) else tf_transpose(x, perm)


def swapaxes(x, axis1, axis2):
    """x with axes axis1 and axis2 exchanged."""
    x = convert(x)
    rank = x.shape.rank
    perm = list(range(rank))
    a, b = _canonical(axis1, rank), _canonical(axis2, rank)
    perm[a], perm[b] = b, a
    return x if a == b else tf_transpose(x, perm)


def expand_dims(x, axis):
    """x with new size-1 axes at the positions `axis` (an int or a tuple)."""
    x = convert(x)
    axis = (axis,) if isinstance(axis, int) else tuple(axis)
    out_rank = x.shape.rank + len(axis)
    for a in sorted(_canonical(a, out_rank) for a in axis):
        x = tf_expand_dims(x, a)
    return x


def squeeze(x, axis=None):
    """x without its size-1 axes (only those in `axis` when given)."""
    x = convert(x)
    if axis is None:
        return tf_squeeze(x)
    axis = [_canonical(a, x.shape.rank) for a in ((axis,) if isinstance(axis, int) else axis)]
    for a in axis:
        if x.shape[a] != 1:
            raise ValueError(f"keras.ops.squeeze: cannot squeeze axis={a} of shape "
                             f"{tuple(x.shape)}: its size is not 1.")
    return tf_squeeze(x, axis=axis)


def broadcast_to(x, shape):
    """x broadcast to `shape`."""
    return tf_broadcast_to(convert(x), shape)


def stack(x, axis=0):
    """The tensors of x stacked along a new axis."""
    return array_ops.stack(_joined(list(x)), axis=axis)


def concatenate(xs, axis=0):
    """The tensors of xs joined along an existing axis."""
    return array_ops.concat(_joined(list(xs)), axis=axis)


def append(x1, x2, axis=None):
    """x2 appended to x1 along `axis` (both flattened when None)."""
    x1, x2 = _joined([convert(x1), convert(x2)])
    if axis is None:
        return array_ops.concat([tf_reshape(x1, [-1]), tf_reshape(x2, [-1])], axis=0)
    return array_ops.concat([x1, x2], axis=axis)


def hstack(xs):
    """The tensors joined column-wise (axis 1; axis 0 for 1-D tensors)."""
    xs = _joined(list(xs))
    return array_ops.concat(xs, axis=0 if xs[0].shape.rank == 1 else 1)


def vstack(xs):
    """The tensors joined row-wise (axis 0)."""
    return array_ops.concat(_joined(list(xs)), axis=0)


def _at_least_3d(x):
    rank = x.shape.rank
    if rank == 0:
        return tf_reshape(x, [1, 1, 1])
    if rank == 1:
        return tf_expand_dims(tf_expand_dims(x, 0), 2)
    return tf_expand_dims(x, 2) if rank == 2 else x


def dstack(xs):
    """The tensors joined depth-wise (axis 2, after lifting each to at least 3-D)."""
    return array_ops.concat([_at_least_3d(x) for x in _joined(list(xs))], axis=2)


def split(x, indices_or_sections, axis=0):
    """x split into equal sections, or at the given indices, along `axis`."""
    x = convert(x)
    if isinstance(indices_or_sections, int):
        return array_ops.split(x, indices_or_sections, axis=axis)
    bounds = [0] + [int(i) for i in indices_or_sections] + [x.shape[axis]]
    return array_ops.split(x, [b - a for a, b in zip(bounds, bounds[1:])], axis=axis)


def array_split(x, indices_or_sections, axis=0):
    """x split into n nearly equal sections along `axis` (the first len % n one longer)."""
    x = convert(x)
    total, count = x.shape[axis], indices_or_sections
    sizes = [total // count + 1] * (total % count) + [total // count] * (count - total % count)
    return array_ops.split(x, sizes, axis=axis)


def hsplit(x, indices_or_sections):
    """split along axis 1 (axis 0 for 1-D x)."""
    x = convert(x)
    return split(x, indices_or_sections, axis=0 if x.shape.rank == 1 else 1)


def vsplit(x, indices_or_sections):
    """split along axis 0."""
    return split(x, indices_or_sections, axis=0)


def dsplit(x, indices_or_sections):
    """split along axis 2."""
    return split(x, indices_or_sections, axis=2)


def flip(x, axis=None):
    """x with the order of elements reversed along `axis` (all axes when None)."""
    x = convert(x)
    rank = x.shape.rank
    if axis is None:
        axis = list(range(rank))
    axis = [_canonical(a, rank) for a in ((axis,) if isinstance(axis, int) else axis)]
    return reverse(x, axis)


def fliplr(x):
    """x reversed along axis 1."""
    return reverse(convert(x), [1])


def flipud(x):
    """x reversed along axis 0."""
    return reverse(convert(x), [0])


def roll(x, shift, axis=None):
    """x's elements shifted cyclically by `shift` along `axis` (of the flattened x when
    None)."""
    x = convert(x)
    if axis is not None:
        return manip_ops.roll(x, shift=shift, axis=axis)
    flat = manip_ops.roll(tf_reshape(x, [-1]), shift=shift, axis=0)
    return tf_reshape(flat, list(x.shape))


def rot90(array, k=1, axes=(0, 1)):
    """`array` rotated by k quarter turns in the plane of `axes` (from the first axis toward
    the second)."""
    array = convert(array)
    rank = array.shape.rank
    if rank < 2:
        raise ValueError(f"keras.ops.rot90: the input needs at least 2 dimensions; got shape "
                         f"{tuple(array.shape)}.")
    if len(axes) != 2 or _canonical(axes[0], rank) == _canonical(axes[1], rank):
        raise ValueError(f"keras.ops.rot90: axes must be two different axes; got {axes}.")
    a, b = _canonical(axes[0], rank), _canonical(axes[1], rank)
    k %= 4
    if k == 0:
        return array
    if k == 2:
        return reverse(array, [a, b])
    perm = list(range(rank))
    perm[a], perm[b] = b, a
    if k == 1:
        return tf_transpose(reverse(array, [b]), perm)
    return reverse(tf_transpose(array, perm), [b])


def tile(x, repeats):
    """x repeated `repeats` times along each axis (repeats is padded with leading ones, or x
    with leading size-1 axes)."""
    x = convert(x)
    repeats = [repeats] if isinstance(repeats, int) else [int(r) for r in repeats]
    repeats = [1] * (x.shape.rank - len(repeats)) + repeats
    while len(repeats) > x.shape.rank:
        x = tf_expand_dims(x, 0)
    return tf_tile(x, repeats)


def repeat(x, repeats, axis=None):
    """Each element of x repeated `repeats` times along `axis` (of the flattened x when
    None)."""
    x = convert(x)
    if x.dtype.name == "uint16":
        return cast(tf_repeat(cast(x, "uint32"), repeats, axis=axis), "uint16")
    return tf_repeat(x, repeats, axis=axis)


def pad(x, pad_width, mode="constant", constant_values=None):
    """x padded by pad_width ((before, after) per axis) in mode "constant", "reflect" or
    "symmetric"."""
    x = convert(x)
    if constant_values is not None and mode != "constant":
        raise ValueError(f"keras.ops.pad: constant_values can only be given with "
                         f"mode='constant'; got mode={mode!r}.")
    if mode not in ("constant", "reflect", "symmetric"):
        raise ValueError(f"keras.ops.pad: mode must be 'constant', 'reflect' or 'symmetric'; "
                         f"got {mode!r}.")
    pad_width = convert(pad_width, "int32")
    if pad_width.shape.rank < 2:
        pad_width = tf_broadcast_to(tf_reshape(pad_width, [1, -1]), [x.shape.rank, 2])
    value = 0 if constant_values is None else constant_values
    return tf_pad(x, pad_width, mode=mode.upper(), constant_values=value)


def ndim(x):
    """The number of axes of x (a Python int)."""
    return convert(x).shape.rank


def size(x):
    """The number of elements of x (an int32 tensor)."""
    return tf_size(convert(x))


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D coordinate vectors ("xy": Cartesian, "ij": matrix)."""
    return tf_meshgrid(*[convert(v) for v in x], indexing=indexing)
