"""Op-table rows for ops/array_ops.py, ops/indexing_ops.py, ops/creation_ops.py and
ops/broadcast_ops.py.

The ops here are linear in their float inputs, so a plain second-order check never differentiates
their gradients' gradients (the first derivative does not depend on x). Each differentiable row
therefore has a companion row "<name>^2" that squares the outputs: its second derivative runs
through the gradient ops (GatherGrad, StridedSliceGrad, MirrorPadGrad, ScatterNd, ...) and their
own gradient rules.
"""
import numpy as np

import wengert as tf
from wengert.framework.execute import execute
from wengert.ops import array_ops, creation_ops, indexing_ops, reshape_ops
from op_table import OpInfo, Sample, rand


def _idx(*values):
    return np.array(values, dtype=np.int32)


def _pad_ref(x, paddings, mode="CONSTANT", constant_values=0):
    if mode == "CONSTANT":
        return np.pad(x, paddings, constant_values=constant_values)
    return np.pad(x, paddings, mode=mode.lower())


def _gather_ref(params, indices, axis=None, batch_dims=0):
    axis = batch_dims if axis is None else axis % params.ndim
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    return np.stack([_gather_ref(p, i, axis - 1, batch_dims - 1)
                     for p, i in zip(params, indices)])


def _split_ref(x, num_or_size_splits, axis=0):
    if isinstance(num_or_size_splits, int):
        return np.split(x, num_or_size_splits, axis)
    sizes = list(num_or_size_splits)
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (sum(sizes) + 1)
    return np.split(x, np.cumsum(sizes[:-1]), axis)


def _scatter_nd_ref(indices, updates, shape):
    out = np.zeros(shape)
    np.add.at(out, tuple(np.moveaxis(indices, -1, 0)), updates)
    return out


def _boolean_mask_ref(x, mask, axis=0):
    return x[(slice(None),) * axis + (mask,)]


def _strided_ref(x, begin, end, strides, begin_mask=0, end_mask=0, shrink_axis_mask=0):
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if shrink_axis_mask >> i & 1:
            key.append(b)
        else:
            key.append(slice(None if begin_mask >> i & 1 else b,
                             None if end_mask >> i & 1 else e, s))
    return x[tuple(key)]


def _getitem_row(name, key):
    return Sample((rand(4, 3, 5),), {"key": key}, name=name)


_GETITEM = [
    _getitem_row("int", 1), _getitem_row("negative-int", -1),
    _getitem_row("slice", slice(1, 3)), _getitem_row("negative-step", slice(None, None, -2)),
    _getitem_row("reverse-range", (slice(3, 0, -1), slice(None), slice(-1, -4, -2))),
    _getitem_row("empty-slice", slice(2, 1)), _getitem_row("ellipsis", (Ellipsis, 2)),
    _getitem_row("newaxis", (None, slice(None), None, 1)),
    _getitem_row("ellipsis-newaxis", (1, Ellipsis, None)),
    _getitem_row("all-ints", (1, 2, 3)), _getitem_row("list", [3, 0, 3]),
    _getitem_row("list-axis1", (slice(None), [2, 0])),
    _getitem_row("list-after-ellipsis", (Ellipsis, [4, 1])),
    _getitem_row("list-after-int", (slice(None), 1, [0, 0, 2])),
    _getitem_row("mask", np.array([True, False, True, True])),
    _getitem_row("mask-axis1", (slice(None), np.array([False, True, True]))),
]

ROWS = [
    OpInfo("reshape", tf.reshape, np.reshape, [
        Sample((rand(2, 3, 4),), {"shape": [4, -1]}, name="infer"),
        Sample((rand(2, 3),), {"shape": [6]}, name="flatten"),
        Sample((rand(),), {"shape": [1, 1]}, name="scalar"),
        Sample((rand(0, 3),), {"shape": [3, 0]}, name="empty")]),
    OpInfo("transpose", tf.transpose, lambda a, perm=None: np.transpose(a, perm), [
        Sample((rand(2, 3, 4),), name="default"),
        Sample((rand(2, 3, 4),), {"perm": [1, 2, 0]}, name="perm"),
        Sample((rand(3, 2),), {"perm": [1, 0]}, name="matrix")]),
    OpInfo("expand_dims", tf.expand_dims, np.expand_dims, [
        Sample((rand(2, 3),), {"axis": 0}), Sample((rand(2, 3),), {"axis": -1}, name="-1"),
        Sample((rand(),), {"axis": 0}, name="scalar")]),
    OpInfo("squeeze", tf.squeeze, lambda x, axis=None: np.squeeze(x, None if axis is None else
                                                                  tuple(axis)), [
        Sample((rand(1, 3, 1),), name="all"),
        Sample((rand(1, 3, 1),), {"axis": [-1]}, name="axis-1")]),
    OpInfo("concat", lambda *xs, axis: tf.concat(xs, axis),
           lambda *xs, axis: np.concatenate(xs, axis), [
               Sample((rand(2, 3), rand(2, 1)), {"axis": -1}, name="axis-1"),
               Sample((rand(1, 3), rand(2, 3), rand(3, 3)), {"axis": 0}, name="three"),
               Sample((rand(0, 3), rand(2, 3)), {"axis": 0}, name="empty-part")]),
    OpInfo("stack", lambda *xs, axis=0: tf.stack(xs, axis),
           lambda *xs, axis=0: np.stack(xs, axis), [
               Sample((rand(2, 3), rand(2, 3)), name="axis0"),
               Sample((rand(2, 3), rand(2, 3), rand(2, 3)), {"axis": -1}, name="axis-1"),
               Sample((rand(), rand()), name="scalars")]),
    OpInfo("unstack", tf.unstack, lambda x, num=None, axis=0: list(np.moveaxis(x, axis, 0)), [
        Sample((rand(3, 2),), name="axis0"), Sample((rand(2, 3, 4),), {"axis": -1}, name="-1"),
        Sample((rand(1, 2),), {"num": 1}, name="one")]),
    OpInfo("split", tf.split, _split_ref, [
        Sample((rand(6, 2),), {"num_or_size_splits": 3}, name="equal"),
        Sample((rand(2, 5),), {"num_or_size_splits": [1, -1], "axis": 1}, name="infer"),
        Sample((rand(4, 2),), {"num_or_size_splits": [0, 3, 1]}, name="empty-part")]),
    OpInfo("tile", tf.tile, lambda x, multiples: np.tile(x, multiples), [
        Sample((rand(2, 3),), {"multiples": [2, 3]}),
        Sample((rand(2, 1, 3),), {"multiples": [1, 4, 1]}, name="broadcast-like"),
        Sample((rand(2, 3),), {"multiples": [0, 2]}, name="zero")]),
    OpInfo("pad", tf.pad, _pad_ref, [
        Sample((rand(2, 3),), {"paddings": [[1, 0], [2, 1]]}, name="constant"),
        Sample((rand(2, 3),), {"paddings": [[0, 1], [1, 1]], "constant_values": 1.5},
               name="value"),
        Sample((rand(3, 4),), {"paddings": [[2, 1], [1, 3]], "mode": "REFLECT"}, name="reflect"),
        Sample((rand(3, 4),), {"paddings": [[3, 1], [1, 4]], "mode": "SYMMETRIC"},
               name="symmetric")]),
    OpInfo("reverse", tf.reverse, lambda x, axis: np.flip(x, tuple(axis)), [
        Sample((rand(2, 3),), {"axis": [0]}), Sample((rand(2, 3, 4),), {"axis": [-1, 0]},
                                                    name="two")]),
    OpInfo("identity", tf.identity, lambda x: x, [Sample((rand(2, 3),))]),
    OpInfo("gather", tf.gather, _gather_ref, [
        Sample((rand(5, 3), _idx(4, 0, 4)), name="axis0-repeat"),
        Sample((rand(2, 4, 3), _idx([3, 0], [1, 1])), {"axis": 1}, name="axis1-2d"),
        Sample((rand(2, 4), _idx(3, 1)), {"axis": -1}, name="axis-1"),
        Sample((rand(2, 4, 3), _idx([3, 0], [1, 1])), {"batch_dims": 1}, name="batch1"),
        Sample((rand(2, 3, 4, 2), _idx([3, 0, 3], [1, 1, 2])), {"axis": 2, "batch_dims": 1},
               name="batch1-axis2"),
        Sample((rand(3, 2), np.zeros((0,), np.int32)), name="empty")]),
    OpInfo("gather_nd", tf.gather_nd, lambda p, i: p[tuple(np.moveaxis(i, -1, 0))], [
        Sample((rand(3, 4), _idx([0, 1], [2, 3], [0, 1])), name="elements"),
        Sample((rand(3, 4, 2), _idx([[2], [0]])), name="slices")]),
    OpInfo("scatter_nd", tf.scatter_nd, _scatter_nd_ref, [
        Sample((_idx([1], [3], [1]), rand(3, 2), (4, 2)), name="rows-repeat"),
        Sample((_idx([0, 1], [2, 0]), rand(2), (3, 2)), name="elements")]),
    OpInfo("slice", tf.slice, lambda x, begin, size: x[tuple(
        slice(b, None if s == -1 else b + s) for b, s in zip(begin, size))], [
        Sample((rand(3, 4),), {"begin": [1, 0], "size": [2, -1]}),
        Sample((rand(3, 4),), {"begin": [1, 2], "size": [0, 2]}, name="empty")]),
    OpInfo("strided_slice", tf.strided_slice, _strided_ref, [
        Sample((rand(4, 5),), {"begin": [1, -1], "end": [4, 0], "strides": [2, -1]}),
        Sample((rand(4, 5),), {"begin": [0, 2], "end": [0, 0], "strides": [1, 1],
                               "begin_mask": 1, "end_mask": 3, "shrink_axis_mask": 0},
               name="masks"),
        Sample((rand(4, 5),), {"begin": [2, 0], "end": [3, 5], "strides": [1, 1],
                               "shrink_axis_mask": 1}, name="shrink")]),
    OpInfo("getitem", lambda x, key: x[key], lambda x, key: x[key], _GETITEM),
    OpInfo("boolean_mask", tf.boolean_mask, _boolean_mask_ref, [
        Sample((rand(4, 2), np.array([True, False, True, True])), name="axis0"),
        Sample((rand(2, 3, 2), np.array([[True, False, True], [False, False, True]])),
               name="2d-mask"),
        Sample((rand(2, 3), np.array([False, True, True])), {"axis": 1}, name="axis1"),
        Sample((rand(2, 3), np.array([False, False])), name="none-selected")]),
    OpInfo("where", tf.where, np.where, [
        Sample((np.array([True, False, True]), rand(2, 3), rand(3)), name="broadcast")]),
    OpInfo("fill", lambda value: tf.fill([2, 3], value), lambda value: np.full((2, 3), value),
           [Sample((rand(),))]),
    OpInfo("broadcast_to", tf.broadcast_to, np.broadcast_to, [
        Sample((rand(3),), {"shape": (2, 3)}), Sample((rand(2, 1),), {"shape": (2, 4)},
                                                     name="inner")]),
    OpInfo("add_n", lambda *xs: tf.add_n(xs), lambda *xs: sum(xs), [
        Sample((rand(2, 3), rand(2, 3), rand(2, 3)))]),
]

_NO_GRAD = dict(grad=False, notes="not differentiable: integer or constant output")
ROWS += [
    OpInfo("stop_gradient", tf.stop_gradient, lambda x: x, [Sample((rand(2, 3),))], grad=False,
           notes="its gradient is None by definition (tests/test_array_ops.py checks it)"),
    OpInfo("where_indices", tf.where, lambda c: np.argwhere(c),
           [Sample((np.array([[True, False], [True, True]]),))], **_NO_GRAD),
    OpInfo("zeros_like", tf.zeros_like, np.zeros_like, [Sample((rand(2, 3),))], **_NO_GRAD),
    OpInfo("ones_like", tf.ones_like, np.ones_like, [Sample((rand(2, 3),))], **_NO_GRAD),
    OpInfo("zeros", tf.zeros, np.zeros, [Sample(([2, 3],)), Sample(([0],), name="empty")],
           **_NO_GRAD),
    OpInfo("ones", tf.ones, np.ones, [Sample(([2, 3],))], **_NO_GRAD),
    OpInfo("eye", tf.eye, lambda n, m=None, batch_shape=(): np.broadcast_to(
        np.eye(n, m), tuple(batch_shape) + (n, m or n)), [
        Sample((3,)), Sample((2, 3), {"batch_shape": [2]}, name="batch")], **_NO_GRAD),
    OpInfo("range", tf.range, np.arange, [
        Sample((5,)), Sample((1, 10, 3), name="delta"), Sample((5, 1, -2), name="down"),
        Sample((1.0, 2.0, 0.25), name="float"), Sample((3, 3), name="empty")], **_NO_GRAD),
    OpInfo("one_hot", tf.one_hot, lambda i, depth, axis=-1: np.moveaxis(
        np.eye(depth + 1)[np.where((i >= 0) & (i < depth), i, depth)][..., :depth], -1, axis), [
        Sample((_idx(0, 2, 5, -1), 3)),
        Sample((_idx([0, 1], [2, 2]), 3), {"axis": 0}, name="axis0")], **_NO_GRAD),
    OpInfo("shape", tf.shape, lambda x: np.array(x.shape), [Sample((rand(2, 3),))], **_NO_GRAD),
    OpInfo("size", tf.size, np.size, [Sample((rand(2, 3),))], **_NO_GRAD),
    OpInfo("rank", tf.rank, np.ndim, [Sample((rand(2, 3),))], **_NO_GRAD),
]


# The "like" forms of gradient ops: graph-mode gradients pass the forward input as an extra input
# when its shape has unknown dimensions, and the kernel reads the shape when the graph runs.
# Called directly here, so their own gradients are checked eagerly (to second order via "^2").
def _like_op(op_def, attrs, outputs=1):
    def call(*args):
        out = execute(op_def, [tf.convert_to_tensor(a) for a in args], attrs)
        return list(out) if outputs > 1 else out
    return call


def _like_row(name, op_def, attrs, ref, args, wrt=0, outputs=1):
    return OpInfo(name, _like_op(op_def, attrs, outputs), ref,
                  [Sample(args, wrt=[wrt])], notes="graph-mode form of a gradient op")


def _add_at(g, indices, shape):
    out = np.zeros(shape)
    np.add.at(out, indices, g)
    return out


def _strided_slice_grad_ref(g, like):
    out = np.zeros(like.shape)
    out[1:3] = g
    return out


ROWS += [
    _like_row("reshape_like", reshape_ops.RESHAPE, {"shape": None},
              lambda x, like: x.reshape(like.shape), (rand(2, 6), rand(3, 4))),
    _like_row("split_like", array_ops.SPLIT_V, {"size_splits": None, "axis": 0},
              lambda x, a, b: np.split(x, [len(a)]), (rand(5, 2), rand(2, 2), rand(3, 2)),
              outputs=2),
    _like_row("tile_grad", creation_ops.TILE_GRAD, {"multiples": (2, 1)},
              lambda g, like: g.reshape(2, 2, 1, 3).sum(axis=(0, 2)), (rand(4, 3), rand(2, 3))),
    _like_row("gather_grad_like", indexing_ops.GATHER_GRAD,
              {"params_shape": None, "axis": 0, "batch_dims": 0},
              lambda g, i, like: _add_at(g, i, like.shape),
              (rand(3, 2), _idx(4, 0, 4), rand(5, 2))),
    _like_row("scatter_nd_like", indexing_ops.SCATTER_ND, {"shape": None},
              lambda i, u, like: _scatter_nd_ref(i, u, like.shape),
              (_idx([1], [3], [1]), rand(3, 2), rand(4, 2)), wrt=1),
    _like_row("strided_slice_grad_like", indexing_ops.STRIDED_SLICE_GRAD,
              {"shape": None, "spec": ((1, 3, None),)}, _strided_slice_grad_ref,
              (rand(2, 3), rand(4, 3))),
]


# Forms with values known only when a graph runs: DYNAMIC spec entries and None shape entries
# are read from extra int inputs (called directly, so eagerly, with their gradients).
def _zeros_with(shape, key, g):
    out = np.zeros(shape)
    out[key] = g
    return out


ROWS += [
    _like_row("strided_slice_runtime", indexing_ops.STRIDED_SLICE,
              {"spec": (("?", "?", None), "?")}, lambda x, b, e, i: x[b:e, i],
              (rand(4, 5), 1, 3, -2)),
    _like_row("strided_slice_runtime_step", indexing_ops.STRIDED_SLICE,
              {"spec": (Ellipsis, (None, None, "?"))}, lambda x, s: x[..., ::s],
              (rand(3, 5), -2)),
    _like_row("strided_slice_grad_runtime", indexing_ops.STRIDED_SLICE_GRAD,
              {"shape": (4, 5), "spec": (("?", None, None),)},
              lambda g, b: _zeros_with((4, 5), np.s_[b:], g), (rand(3, 5), 1)),
    _like_row("slice_runtime", indexing_ops.SLICE, {"begin": (None, 1), "size": (2, None)},
              lambda x, b, s: x[b:b + 2, 1:], (rand(4, 5), 1, -1)),
    _like_row("tile_runtime", creation_ops.TILE, {"multiples": "vector"},
              lambda x, m: np.tile(x, m), (rand(2, 3), _idx(2, 1))),
    _like_row("tile_grad_runtime", creation_ops.TILE_GRAD, {"multiples": (None, 1)},
              lambda g, like, m: g.reshape(2, 2, 1, 3).sum(axis=(0, 2)),
              (rand(4, 3), rand(2, 3), 2)),
    _like_row("pad_runtime", creation_ops.PAD,
              {"paddings": ((None, 1), (0, None)), "constant_values": 0.5},
              lambda x, a, b: np.pad(x, ((a, 1), (0, b)), constant_values=0.5),
              (rand(2, 3), 2, 1)),
    OpInfo("one_hot_runtime", _like_op(creation_ops.ONE_HOT, {
        "depth": None, "on_value": 1.0, "off_value": 0.0, "axis": 1, "dtype": np.float64}),
        lambda i, depth: np.eye(depth)[i], [Sample((_idx(0, 2, 1), 4))], float32=False,
        **_NO_GRAD),
    OpInfo("eye_runtime", _like_op(creation_ops.EYE, {
        "num_rows": None, "num_columns": 3, "batch_shape": (None,), "dtype": np.float64}),
        lambda n, b: np.broadcast_to(np.eye(n, 3), (b, n, 3)), [Sample((2, 2))], float32=False,
        **_NO_GRAD),
]

def _squared(row):
    """A companion row squaring each output, so second order runs through the gradient ops."""
    def square_all(out):
        if isinstance(out, (list, tuple)):
            return [o * o for o in out]
        return out * out
    return OpInfo(row.name + "^2", lambda *a, **k: square_all(row.fn(*a, **k)),
                  lambda *a, **k: square_all(row.ref(*a, **k)), row.samples, float32=False)


ROWS += [_squared(row) for row in ROWS if row.grad]
