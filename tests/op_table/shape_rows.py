"""Op-table rows for ops/shape_ops.py, ops/manip_ops.py and ops/space_ops.py."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand
from wengert.ops.shape_ops import lin_space
from wengert.ops.space_ops import depth_to_space, space_to_depth


def _linspace(start, stop, num, axis=0):
    out = np.linspace(start, stop, num, axis=axis)
    return out


def _roll(x, shift, axis):
    return np.roll(x, shift, axis)


def _reverse_sequence(x, lengths, seq_axis, batch_axis):
    out = np.array(x, copy=True)
    moved, src = np.moveaxis(out, (batch_axis, seq_axis), (0, 1)), np.moveaxis(
        x, (batch_axis, seq_axis), (0, 1))
    for b, n in enumerate(lengths):
        moved[b, :n] = src[b, :n][::-1]
    return out


def _space_to_depth(x, block_size, data_format="NHWC"):
    if data_format == "NCHW":
        x = x.transpose(0, 2, 3, 1)
    n, h, w, c = x.shape
    b = block_size
    out = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(
        n, h // b, w // b, b * b * c)
    return out.transpose(0, 3, 1, 2) if data_format == "NCHW" else out


def _depth_to_space(x, block_size, data_format="NHWC"):
    if data_format == "NCHW":
        x = x.transpose(0, 2, 3, 1)
    n, h, w, c = x.shape
    b = block_size
    out = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(
        n, h * b, w * b, c // (b * b))
    return out.transpose(0, 3, 1, 2) if data_format == "NCHW" else out


def _space_to_batch(x, block_shape, paddings):
    """A loop over block offsets, the definition: batch entry (offset, n) holds
    padded[n, offset + block * k]."""
    m = len(block_shape)
    padded = np.pad(x, [(0, 0)] + [tuple(p) for p in paddings] + [(0, 0)] * (x.ndim - 1 - m))
    out = []
    for offset in np.ndindex(*block_shape):
        key = (slice(None),) + tuple(slice(o, None, b) for o, b in zip(offset, block_shape))
        out.append(padded[key])
    return np.concatenate(out, axis=0)


def _batch_to_space(x, block_shape, crops):
    m = len(block_shape)
    count = int(np.prod(block_shape))
    batch = x.shape[0] // count
    spatial = x.shape[1:1 + m]
    full = np.zeros((batch,) + tuple(s * b for s, b in zip(spatial, block_shape)) + x.shape[1 + m:])
    for i, offset in enumerate(np.ndindex(*block_shape)):
        key = (slice(None),) + tuple(slice(o, None, b) for o, b in zip(offset, block_shape))
        full[key] = x[i * batch:(i + 1) * batch]
    key = (slice(None),) + tuple(slice(a, full.shape[1 + i] - c) for i, (a, c) in enumerate(
        crops))
    return full[key]


def _meshgrid(*args, indexing="xy"):
    return np.meshgrid(*args, indexing=indexing)


_IMG = rand(2, 4, 6, 3)

@tf.function
def _parallel_stack(a, b):
    """parallel_stack, which TensorFlow refuses eagerly, in a function."""
    return tf.parallel_stack([a, b])


ROWS = [
    OpInfo("linspace", tf.linspace, _linspace,
           [Sample((np.array(-1.0), np.array(2.0), 5)),
            Sample((rand(3), rand(3), 4), {"axis": 1}, name="vector-axis1"),
            Sample((rand(2), rand(2), 3), {"axis": 0}, name="vector-axis0"),
            Sample((np.array(0.5), np.array(1.5), 1), name="num1")]),
    OpInfo("lin_space", lin_space, lambda a, b, n: np.linspace(a, b, n),
           [Sample((np.array(-1.0), np.array(2.0), 7))], grad=False),
    OpInfo("meshgrid", lambda a, b: tf.meshgrid(a, b), _meshgrid, [Sample((rand(3), rand(2)))]),
    OpInfo("meshgrid_ij", lambda a, b, c: tf.meshgrid(a, b, c, indexing="ij"),
           lambda a, b, c: np.meshgrid(a, b, c, indexing="ij"),
           [Sample((rand(3), rand(2), rand(2)))]),
    OpInfo("repeat", tf.repeat, lambda x, repeats, axis=None: np.repeat(x, repeats, axis),
           [Sample((rand(3, 2), [1, 0, 2]), {"axis": 0}), Sample((rand(2, 2), 2), name="flat"),
            Sample((rand(2, 3), 3), {"axis": -1}, name="scalar-axis")]),
    OpInfo("sequence_mask", tf.sequence_mask,
           lambda lengths, maxlen=None, dtype=None: np.arange(
               maxlen or lengths.max()) < lengths[..., None],
           [Sample((np.array([1, 3, 0], np.int32), 4)),
            Sample((np.array([[1, 2], [3, 0]], np.int32),), name="no-maxlen")], grad=False),
    OpInfo("broadcast_dynamic_shape", tf.broadcast_dynamic_shape,
           lambda a, b: np.array(np.broadcast_shapes(tuple(a), tuple(b)), np.int32),
           [Sample((np.array([2, 1, 3], np.int32), np.array([4, 1], np.int32)))], grad=False),
    OpInfo("shape_n", lambda a, b: tf.shape_n([a, b]),
           lambda a, b: [np.array(a.shape, np.int32), np.array(b.shape, np.int32)],
           [Sample((rand(2, 3), rand(4)))], grad=False),
    OpInfo("identity_n", lambda a, b: tf.identity_n([a, b * 2.0]), lambda a, b: [a, b * 2.0],
           [Sample((rand(2, 3), rand(4)))]),
    OpInfo("guarantee_const", tf.guarantee_const, lambda x: x, [Sample((rand(3),))], grad=False),
    OpInfo("unravel_index", tf.unravel_index,
           lambda i, d: np.stack(np.unravel_index(i, tuple(d))).astype(np.int32),
           [Sample((np.array([5, 7, 0], np.int32), np.array([3, 4], np.int32)))], grad=False),
    OpInfo("saturate_cast", lambda x: tf.saturate_cast(x * 100.0, tf.int8),
           lambda x: np.clip(x * 100.0, -128, 127).astype(np.int8), [Sample((rand(6),))],
           grad=False),
    OpInfo("saturate_cast_float", lambda x: tf.saturate_cast(x, tf.float16),
           lambda x: x.astype(np.float16), [Sample((rand(4),))], grad=False, float32=False),
    OpInfo("parallel_stack", _parallel_stack, lambda a, b: np.stack([a, b]),
           [Sample((rand(3), rand(3)))]),
    OpInfo("roll", tf.roll, _roll,
           [Sample((rand(3, 4), [1, -2], [0, 1])), Sample((rand(5), 7, 0), name="wrap"),
            Sample((rand(2, 3), [1, 1], [1, -1]), name="same-axis")]),
    OpInfo("reverse_sequence", tf.reverse_sequence, _reverse_sequence,
           [Sample((rand(3, 4, 2), np.array([1, 4, 2]), 1, 0)),
            Sample((rand(4, 3), np.array([2, 0, 4], np.int64), 0, 1), name="seq-axis0")]),
    OpInfo("space_to_depth", space_to_depth, _space_to_depth,
           [Sample((_IMG, 2)), Sample((rand(1, 3, 4, 2), 2), {"data_format": "NCHW"},
                                      name="nchw")]),
    OpInfo("depth_to_space", depth_to_space, _depth_to_space,
           [Sample((rand(2, 2, 3, 8), 2)), Sample((rand(1, 8, 2, 3), 2), {"data_format": "NCHW"},
                                                  name="nchw")]),
    OpInfo("space_to_batch_nd", tf.space_to_batch_nd, _space_to_batch,
           [Sample((rand(2, 4, 6, 3), [2, 3], [[0, 0], [0, 0]])),
            Sample((rand(1, 3, 5, 2), [2, 2], [[1, 0], [0, 1]]), name="padded"),
            Sample((rand(2, 5), [5], [[0, 0]]), name="1d")]),
    OpInfo("batch_to_space", tf.batch_to_space, _batch_to_space,
           [Sample((rand(12, 2, 2, 3), [2, 3], [[0, 0], [1, 2]])),
            Sample((rand(4, 3, 1), [2], [[1, 1]]), name="1d")]),
]

