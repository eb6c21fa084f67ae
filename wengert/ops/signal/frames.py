"""Framing: `tf.signal.frame` and `overlap_and_add`.

`frame` cuts a signal into windows of `frame_length` samples whose starts lie `frame_step` apart:
it is a gather with the index grid `start_i + j`, so its gradient is the scatter-add of the
frames' gradients back onto the samples. `overlap_and_add` is the transpose: each frame is placed
at `i * frame_step` and overlapping samples are summed, written here as a product with the 0/1
placement matrix, so its gradient is the matching gather.
"""
import numpy as np

from ...framework.tensor import constant, convert_to_tensor
from ...framework.context import op_scope
from ..indexing_ops import gather
from ..matmul_ops import matmul
from ..pad_ops import pad
from ..reshape_ops import reshape

__all__ = ["frame", "overlap_and_add"]


def static_int(value, what):
    if hasattr(value, "numpy"):
        value = value.numpy()
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"tf.signal: {what} must be a Python or constant integer, got {value!r}; "
                         "sizes known only when a graph runs are not supported here") from None


def known_shape(x, what):
    shape = x.shape
    if shape.rank is None or any(d is None for d in shape.as_list()):
        raise ValueError(f"tf.signal.{what}: needs a fully known shape, got {shape}")
    return shape.as_list()


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Expands `signal`'s `axis` into frames of `frame_length` samples, `frame_step` apart:
    shape `[..., num_frames, frame_length, ...]`. With `pad_end`, the end is padded with
    `pad_value` to give ceil(samples / frame_step) frames."""
    with op_scope(name, "frame"):
        signal = convert_to_tensor(signal)
        frame_length = static_int(frame_length, "frame_length")
        frame_step = static_int(frame_step, "frame_step")
        shape = known_shape(signal, "frame")
        if not shape:
            raise ValueError(f"tf.signal.frame: signal must have rank >= 1, got shape {shape}")
        if frame_length < 0 or frame_step <= 0:
            raise ValueError(f"tf.signal.frame: need frame_length >= 0 and frame_step > 0, got "
                             f"{frame_length} and {frame_step}")
        axis = static_int(axis, "axis")
        axis = axis + len(shape) if axis < 0 else axis
        length = shape[axis]
        if pad_end:
            num_frames = -(-length // frame_step)
            extra = max(0, frame_length + frame_step * (num_frames - 1) - length)
            if extra:
                paddings = [[0, 0]] * len(shape)
                paddings[axis] = [0, extra]
                signal = pad(signal, paddings, constant_values=pad_value)
        else:
            num_frames = max(0, 1 + (length - frame_length) // frame_step)
        index = (np.arange(num_frames)[:, None] * frame_step
                 + np.arange(frame_length)[None, :]).astype(np.int64)
        return gather(signal, constant(index), axis=axis)


def overlap_and_add(signal, frame_step, name=None):
    """Sums frames `[..., frames, frame_length]` placed `frame_step` apart:
    `[..., (frames - 1) * frame_step + frame_length]`."""
    with op_scope(name, "overlap_and_add"):
        signal = convert_to_tensor(signal)
        frame_step = static_int(frame_step, "frame_step")
        shape = known_shape(signal, "overlap_and_add")
        if len(shape) < 2:
            raise ValueError(f"tf.signal.overlap_and_add: signal must have rank >= 2, got {shape}")
        if frame_step <= 0:
            raise ValueError(f"tf.signal.overlap_and_add: frame_step must be > 0, got {frame_step}")
        frames, frame_length = shape[-2], shape[-1]
        out_length = max(0, (frames - 1) * frame_step + frame_length) if frames else 0
        placement = np.zeros((frames * frame_length, out_length),
                             dtype=signal.dtype.as_numpy_dtype)
        rows = np.arange(frames * frame_length)
        width = max(frame_length, 1)
        placement[rows, (rows // width) * frame_step + rows % width] = 1
        flat = reshape(signal, [-1, frames * frame_length])
        return reshape(matmul(flat, constant(placement)), shape[:-2] + [out_length])
