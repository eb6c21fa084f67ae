"""Keras 3's math ops outside `keras.ops.numpy` (segment reductions, top-k, logsumexp, the error
function family, cdist, framing, complex views) over wengert's ops, with the TensorFlow
backend's semantics.

segment_op(data, ids, num_segments, sorted): out[s] = op over {data[i] : ids[i] = s}. Sorted ids
use TensorFlow's sorted segment ops (num_segments must then be None); otherwise the unsorted ones
with num_segments defaulting, as Keras's TensorFlow backend does, to the number of distinct ids
for segment_sum and to max(ids) + 1 for the others. cdist(x, y)[..., i, j] = ||x_i - y_j||_2.
extract_sequences(x, L, s) frames the last axis: out[..., k, :] = x[..., k s : k s + L].
view_as_complex(x) = complex64(x[..., 0] + i x[..., 1]); view_as_real stacks real and imaginary
parts on a new last axis.
"""
from ...ops.array_ops import stack
from ...ops.cast_ops import cast
from ...ops.complex_ops import imag, real
from ...ops.complex_parts import complex as _complex
from ...ops.creation_ops import shape as dynamic_shape
from ...ops.linalg.matrix_functions import logdet as _logdet
from ...ops.reduce_ops import reduce_logsumexp, reduce_max, reduce_sum
from ...ops.reshape_ops import expand_dims
from ...ops.segment_ops import (segment_max as _segment_max, segment_min as _segment_min,
                                segment_prod as _segment_prod, segment_sum as _segment_sum,
                                unsorted_segment_max, unsorted_segment_min,
                                unsorted_segment_prod, unsorted_segment_sum)
from ...ops.signal.frames import frame
from ...ops.sort_ops import in_top_k as _in_top_k, top_k as _top_k, unique
from ...ops.special_math_ops import erfc as _erfc, erfinv as _erfinv
from ...ops.unary_ops import erf as _erf, rsqrt as _rsqrt, sqrt, square
from .core import convert_to_tensor

__all__ = ["segment_sum", "segment_max", "segment_min", "segment_prod", "top_k", "in_top_k",
           "logsumexp", "erf", "erfc", "erfinv", "rsqrt", "logdet", "cdist", "extract_sequences",
           "view_as_complex", "view_as_real"]


def _segments(name, sorted_op, unsorted_op, data, segment_ids, num_segments, is_sorted,
              count_distinct=False):
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    if is_sorted:
        if num_segments is not None:
            raise ValueError(f"{name}: num_segments cannot be set when sorted=True (the "
                             f"TensorFlow backend counts the segments); got "
                             f"num_segments={num_segments}.")
        return sorted_op(data, ids)
    if num_segments is None:
        num_segments = (dynamic_shape(unique(ids)[0])[0] if count_distinct else
                        cast(reduce_max(ids) + 1, "int32"))
    return unsorted_op(data, ids, num_segments)


def segment_sum(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """The sum of data's rows within each segment (num_segments defaults to the number of
    distinct ids)."""
    return _segments("segment_sum", _segment_sum, unsorted_segment_sum, data, segment_ids,
                     num_segments, sorted, count_distinct=True)


def segment_max(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """The max of data's rows within each segment."""
    return _segments("segment_max", _segment_max, unsorted_segment_max, data, segment_ids,
                     num_segments, sorted)


def segment_min(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """The min of data's rows within each segment."""
    return _segments("segment_min", _segment_min, unsorted_segment_min, data, segment_ids,
                     num_segments, sorted)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """The product of data's rows within each segment."""
    return _segments("segment_prod", _segment_prod, unsorted_segment_prod, data, segment_ids,
                     num_segments, sorted)


def top_k(x, k, sorted=True):  # noqa: A002 (Keras's name)
    """(values, indices) of the k largest entries along the last axis."""
    return _top_k(convert_to_tensor(x), k, sorted=sorted)


def in_top_k(targets, predictions, k):
    """Whether each target's prediction is among the k largest of its row."""
    return _in_top_k(convert_to_tensor(targets), convert_to_tensor(predictions), k)


def logsumexp(x, axis=None, keepdims=False):
    return reduce_logsumexp(convert_to_tensor(x), axis=axis, keepdims=keepdims)


def erf(x):
    return _erf(convert_to_tensor(x))


def erfc(x):
    return _erfc(convert_to_tensor(x))


def erfinv(x):
    return _erfinv(convert_to_tensor(x))


def rsqrt(x):
    return _rsqrt(convert_to_tensor(x))


def logdet(x):
    """log det x for Hermitian positive definite x (batched)."""
    return _logdet(convert_to_tensor(x))


def cdist(x, y):
    """Euclidean distances between the rows of x [..., m, d] and y [..., n, d]."""
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if x.shape.rank < 2 or y.shape.rank < 2:
        raise ValueError(f"cdist: inputs must have rank >= 2; got {x.shape} and {y.shape}.")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"cdist: the last dimensions must match; got {x.shape} and "
                         f"{y.shape}.")
    diff = expand_dims(x, -2) - expand_dims(y, -3)
    return sqrt(reduce_sum(square(diff), axis=-1))


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of `sequence_length` samples every `sequence_stride` along the last axis."""
    return frame(convert_to_tensor(x), sequence_length, sequence_stride, axis=-1)


def view_as_complex(x):
    """complex64 numbers from a real tensor whose last axis (size 2) holds (real, imag)."""
    x = convert_to_tensor(x)
    if x.shape.rank is None or x.shape.rank < 1 or x.shape[-1] != 2:
        raise ValueError("view_as_complex: the last dimension of the input must be of size 2 "
                         f"(real and imaginary); got shape {x.shape}.")
    return _complex(cast(x[..., 0], "float32"), cast(x[..., 1], "float32"))


def view_as_real(x):
    """A complex tensor's real and imaginary parts stacked on a new last axis."""
    x = convert_to_tensor(x)
    return stack([real(x), imag(x)], axis=-1)
