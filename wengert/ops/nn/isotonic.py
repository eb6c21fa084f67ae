"""`tf.nn.isotonic_regression`: the closest monotone sequence in least squares, per row.

The op (IsotonicRegression, as TensorFlow's) fits a non-increasing sequence along the last axis
by pool-adjacent-violators: walk the row, open a block per element, and while the block before
the last has a smaller mean than the last, merge them (equal means stay apart, as TensorFlow
keeps them). Each element's output is its block's mean; `segments` numbers the blocks 0, 1, ...
along the row. Increasing fits negate the input and the output; other axes are moved last.

The fit is a projection that is linear once the blocks are fixed: output = the mean of the input
over each element's block. Its gradient (TensorFlow's) and its JVP are therefore the same
averaging applied to g or to the tangent, computed with segment sums over the blocks
(unsorted_segment_sum with ids offset per row); the segments get no gradient.
"""
import numpy as np

from ...framework import dtypes
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ..cast_ops import cast
from ..einsum_ops import swap_with_last
from ..reshape_ops import reshape
from ..array_ops import concat
from ..reshape_ops import transpose
from ..creation_ops import range as range_, shape as shape_of
from ..indexing_ops import gather
from ..math_ops import negative
from ..reduce_ops import reduce_prod
from ..segment_ops import unsorted_segment_sum

__all__ = ["isotonic_regression"]

_PROMOTE = {np.dtype(np.int8): np.float32, np.dtype(np.int16): np.float32,
            np.dtype(np.uint8): np.float32, np.dtype(np.int32): np.float64,
            np.dtype(np.int64): np.float64}


def _pav_row(row):
    """(means, segment ids) of the non-increasing least-squares fit of one row."""
    sums, counts = [], []
    for v in row:
        sums.append(float(v))
        counts.append(1)
        while len(sums) > 1 and sums[-2] / counts[-2] < sums[-1] / counts[-1]:
            s, c = sums.pop(), counts.pop()
            sums[-1] += s
            counts[-1] += c
    means = np.repeat([s / c for s, c in zip(sums, counts)], counts)
    return means, np.repeat(np.arange(len(counts), dtype=np.int32), counts)


def _isotonic_kernel(x, output_dtype):
    rows = x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)
    out = np.empty(rows.shape, output_dtype)
    segments = np.empty(rows.shape, np.int32)
    for i, row in enumerate(rows):
        out[i], segments[i] = _pav_row(row.astype(np.float64))
    return out.reshape(x.shape), segments.reshape(x.shape)


def _isotonic_rule(x, output_dtype):
    return [(x.shape, dtypes.as_dtype(output_dtype)), (x.shape, dtypes.int32)]


def _segment_mean(t, segments):
    """Each entry of t replaced by the mean of t over its block (blocks numbered per row)."""
    shape = shape_of(t, out_type=dtypes.int64)
    n = shape[-1]
    total = reduce_prod(shape)
    ids = reshape(cast(segments, dtypes.int64) + reshape(
        range_(0, total, n, dtype=dtypes.int64), _rows_shape(shape)), [-1])
    flat = reshape(t, [-1])
    sums = unsorted_segment_sum(flat, ids, total)
    counts = unsorted_segment_sum(1.0 + 0.0 * flat, ids, total)
    return reshape(gather(sums / (counts + cast(counts < 0.5, t.dtype)), ids), shape)


def _rows_shape(shape):
    """shape with its last entry set to 1 (for row offsets that broadcast along the row)."""
    return concat([shape[:-1], np.ones(1, np.int64)], 0)


def _isotonic_grad(op, g, g_segments=None):
    return _segment_mean(g, op.outputs[1])


def _isotonic_jvp(primals, tangents, outputs, **_):
    t = tangents[0]
    return (None if t is None else _segment_mean(cast(t, outputs[0].dtype), outputs[1]), None)


ISOTONIC_REGRESSION = defop("IsotonicRegression", _isotonic_kernel, shape=_isotonic_rule,
                            num_outputs=2, grad=_isotonic_grad, jvp=_isotonic_jvp,
                            raw=lambda input, output_dtype=dtypes.float32, name=None: execute(
                                ISOTONIC_REGRESSION, (convert_to_tensor(input),),
                                {"output_dtype": dtypes.as_dtype(output_dtype)._np}, name))


def isotonic_regression(inputs, decreasing=True, axis=-1, name=None):
    """(output, segments): the least-squares non-increasing (or, with decreasing=False,
    non-decreasing) fit along `axis`, and each element's block number. Integer inputs give
    float output (float32 up to 16 bits, float64 above)."""
    x = convert_to_tensor(inputs)
    np_dtype = x.dtype.as_numpy_dtype
    output_dtype = np_dtype if x.dtype.is_floating else _PROMOTE.get(np.dtype(np_dtype))
    if output_dtype is None:
        raise TypeError(f"isotonic_regression: inputs must be numeric, got {x.dtype.name}.")
    rank = x.shape.rank
    axis = int(axis)
    if rank is None:
        output, segments = _solve_last(swap_with_last(x, axis), decreasing, output_dtype, name)
        return swap_with_last(output, axis), swap_with_last(segments, axis)
    axis = axis % max(rank, 1)
    perm = [a for a in range(rank) if a != axis] + [axis] if rank else []
    moved = transpose(x, perm) if rank and axis != rank - 1 else x
    output, segments = _solve_last(moved, decreasing, output_dtype, name)
    if rank and axis != rank - 1:
        back = [int(a) for a in np.argsort(perm)]
        output, segments = transpose(output, back), transpose(segments, back)
    return output, segments


def _solve_last(moved, decreasing, output_dtype, name):
    """The fit along the last axis: the kernel fits non-increasing sequences, so a
    non-decreasing fit negates before and after. (An axis of unknown rank is swapped with the
    last one by an einsum, its own inverse.)"""
    if not decreasing:
        moved = negative(moved)
    output, segments = execute(ISOTONIC_REGRESSION, (moved,), {"output_dtype": output_dtype},
                               name)
    if not decreasing:
        output = negative(output)
    return output, segments
