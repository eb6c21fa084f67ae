"""Keras 3's `keras.ops.rearrange`: einops-style axis rearrangement over wengert's reshape and
transpose. A pattern "in -> out" names the input's axes, a parenthesised group standing for
one axis that is the product of its members (one member's length may be left for the input to
determine; the others come from `axes_lengths`). The input is reshaped so every named axis is
its own dimension, transposed into the output's order, then reshaped so each output group
becomes one dimension:

    rearrange(x, "b (h w) c -> b h w c", h=4)     rearrange(x, "b h w c -> b c (h w)")
"""
import math as _math
import re

from ...ops.reshape_ops import reshape, transpose
from .core import convert_to_tensor, shape as shape_of

__all__ = ["rearrange"]

_AXIS = re.compile(r"\w+|\(.*?\)")
_GROUP = re.compile(r"\(([\w\s]+)\)")


def _groups(axes):
    """Each axis of a pattern side as the list of names it holds."""
    out = []
    for axis in axes:
        grouped = _GROUP.match(axis)
        out.append(grouped.group(1).split() if grouped else [axis])
    return out


def _lengths(groups, dims, given, pattern):
    lengths = dict(given)
    for names, dim in zip(groups, dims):
        if len(names) == 1 and names[0] not in lengths:
            lengths[names[0]] = dim
            continue
        unknown = [n for n in names if n not in lengths]
        if len(unknown) > 1:
            raise ValueError(f"rearrange: in pattern {pattern!r}, the group {names} leaves "
                             f"{unknown} unknown; give all but one of their lengths.")
        if unknown:
            lengths[unknown[0]] = dim // _math.prod(lengths[n] for n in names if n != unknown[0])
    return lengths


def rearrange(tensor, pattern, **axes_lengths):
    """tensor's axes regrouped and reordered as `pattern` ("in -> out") says."""
    if "->" not in pattern:
        raise ValueError(f"rearrange: the pattern must read 'input axes -> output axes'; got "
                         f"{pattern!r}.")
    x = convert_to_tensor(tensor)
    left, right = re.split(r"\s*->\s*", pattern)
    inputs, outputs = _groups(_AXIS.findall(left)), _groups(_AXIS.findall(right))
    dims = shape_of(x)
    if len(inputs) != len(dims):
        raise ValueError(f"rearrange: pattern {pattern!r} names {len(inputs)} input axes but the "
                         f"tensor has shape {x.shape}.")
    lengths = _lengths(inputs, dims, axes_lengths, pattern)
    flat_in = [n for names in inputs for n in names]
    flat_out = [n for names in outputs for n in names]
    if sorted(flat_in) != sorted(flat_out):
        raise ValueError(f"rearrange: pattern {pattern!r} must name the same axes on both sides; "
                         f"got {flat_in} and {flat_out}.")
    decomposed = [lengths[n] for n in flat_in]
    if decomposed != list(dims):
        x = reshape(x, decomposed)
    x = transpose(x, [flat_in.index(n) for n in flat_out])
    return reshape(x, [_math.prod(lengths[n] for n in names) for names in outputs])
