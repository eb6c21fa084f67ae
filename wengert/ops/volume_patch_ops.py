"""`extract_volume_patches`: every kp x kh x kw box of a volume, flattened into the channels,
TensorFlow's ExtractVolumePatches.

For input x [batch, planes, rows, cols, depth], ksizes and strides [1, kp, kh, kw, 1] and
[1, sp, sh, sw, 1], and padding "VALID" or "SAME" (as 3-D convolutions pad: SAME puts the
smaller half of the padding before), output position (i, j, k) holds the box whose corner is
(i * sp, j * sh, k * sw) in the padded volume, in (plane, row, col, depth) order:
    out[b, i, j, k, ((p * kh + r) * kw + c) * depth + d] = x_padded[b, i*sp + p, j*sh + r,
                                                                    k*sw + c, d].
It is a gather of the volume's spatial positions through a fixed index table T (0 stands for a
padded position, 1 + (p * rows + r) * cols + c for a real one), so it is linear in x and its
gradient scatters back: dx[b, s, d] = sum over output slots m with T[m] = 1 + s of g[b, m, d]
(an unsorted segment sum over T, the padding's segment dropped), as TensorFlow's
_ExtractVolumePatchesGrad, and the gradient's own gradient is the gather again.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .array_ops import concat
from .creation_ops import shape as shape_of
from .reshape_ops import reshape, transpose
from .segment_ops import unsorted_segment_sum

__all__ = ["extract_volume_patches"]


def _out_size(n, k, s, padding):
    if padding == "VALID":
        return (n - k) // s + 1 if n >= k else 0, 0
    out = -(-n // s)
    return out, max((out - 1) * s + k - n, 0) // 2


def _geometry(spatial, ksizes, strides, padding):
    """[(out size, padding before)] per spatial axis."""
    return [_out_size(n, k, s, padding) for n, k, s in zip(spatial, ksizes[1:4], strides[1:4])]


def _index_table(spatial, ksizes, strides, padding):
    """T: for each (i, j, k, p, r, c), 0 for a padded tap or 1 + the tap's flat position."""
    axes = []
    for n, k, s, (out, before) in zip(spatial, ksizes[1:4], strides[1:4],
                                      _geometry(spatial, ksizes, strides, padding)):
        pos = (np.arange(out)[:, None] * s + np.arange(k)[None, :] - before)
        axes.append((pos, (pos >= 0) & (pos < n)))
    (pp, vp), (pr, vr), (pc, vc) = axes
    flat = (pp[:, None, None, :, None, None] * spatial[1]
            + pr[None, :, None, None, :, None]) * spatial[2] + pc[None, None, :, None, None, :]
    valid = vp[:, None, None, :, None, None] & vr[None, :, None, None, :, None] \
        & vc[None, None, :, None, None, :]
    return np.where(valid, flat + 1, 0).astype(np.int64)


def _kernel(x, *, ksizes, strides, padding):
    b, depth = x.shape[0], x.shape[4]
    table = _index_table(x.shape[1:4], ksizes, strides, padding)
    flat = np.concatenate([np.zeros((b, 1, depth), x.dtype), x.reshape(b, -1, depth)], axis=1)
    out = flat[:, table.reshape(-1)]
    o = table.shape[:3]
    return out.reshape((b,) + o + (-1,))


def _rule(x, *, ksizes, strides, padding):
    if x.shape.rank is None:
        return TensorShape([None] * 5), x.dtype
    b, p, r, c, d = x.shape.as_list()
    spatial = [p, r, c]
    outs = [None if n is None else _out_size(n, k, s, padding)[0]
            for n, k, s in zip(spatial, ksizes[1:4], strides[1:4])]
    taps = int(np.prod(ksizes[1:4]))
    return TensorShape([b] + outs + [None if d is None else d * taps]), x.dtype


def _grad(op, grad):
    x = op.inputs[0]
    if x.shape.rank is None:
        raise TypeError("ExtractVolumePatches gradient: the input's shape must be known while "
                        "the graph is built, got <unknown> (TensorFlow raises TypeError too).")
    spatial = x.shape.as_list()[1:4]
    if None in spatial:
        raise InvalidArgumentError(f"ExtractVolumePatches gradient: the input's planes, rows "
                                   f"and cols must be known, got shape {x.shape}.")
    attrs = op.attrs
    table = _index_table(spatial, attrs["ksizes"], attrs["strides"], attrs["padding"])
    depth = shape_of(x)[4:5]
    g = transpose(reshape(grad, _concat_shape([-1, table.size], depth)), [1, 0, 2])
    total = unsorted_segment_sum(g, table.reshape(-1), 1 + int(np.prod(spatial)))
    return reshape(transpose(total[1:], [1, 0, 2]), shape_of(x))


def _concat_shape(head, tail):
    return concat([convert_to_tensor(np.asarray(head, np.int32)), tail], 0)


EXTRACT_VOLUME_PATCHES = defop(
    "ExtractVolumePatches", _kernel, shape=_rule, grad=_grad, jvp=linear,
    raw=lambda input, ksizes, strides, padding, name=None: extract_volume_patches(  # noqa: A002
        input, ksizes, strides, padding, name))


def _five(values, what):
    values = [int(v) for v in values]
    if len(values) != 5 or values[0] != 1 or values[4] != 1 or min(values) < 1:
        raise InvalidArgumentError(f"extract_volume_patches: {what} must be [1, planes, rows, "
                                   f"cols, 1] of positive integers, got {values}.")
    return values


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    """Every ksizes box of the 5-D `input` [batch, planes, rows, cols, depth], `strides` apart,
    flattened into the last axis (see the module docstring)."""
    x = convert_to_tensor(input)
    if x.shape.rank not in (None, 5):
        raise InvalidArgumentError(f"extract_volume_patches: input must be 5-D [batch, planes, "
                                   f"rows, cols, depth], got shape {x.shape}.")
    padding = padding.decode() if isinstance(padding, bytes) else str(padding)
    if padding.upper() not in ("VALID", "SAME"):
        raise ValueError(f"extract_volume_patches: padding must be 'VALID' or 'SAME', got "
                         f"{padding!r}.")
    attrs = {"ksizes": _five(ksizes, "ksizes"), "strides": _five(strides, "strides"),
             "padding": padding.upper()}
    return execute(EXTRACT_VOLUME_PATCHES, (x,), attrs, name)
