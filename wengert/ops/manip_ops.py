"""roll and reverse_sequence: permutations of elements along axes.

roll(x, shift, axis) moves every element `shift` places along `axis`, wrapping around (several
axes at once; shifts on a repeated axis add up). reverse_sequence(x, seq_lengths, seq_axis,
batch_axis) reverses, for each batch element b, the first seq_lengths[b] entries along seq_axis
and leaves the rest in place.

Both are permutations, so each gradient is the inverse permutation of g: roll by -shift, and
reverse_sequence again (it is its own inverse). Both are linear: the JVP is the op applied to
the tangent. Shifts and lengths get no gradient.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear_in
from ..framework.tensor import convert_to_tensor
from . import shape_rules
from .shape_rules import int_tuple, normalize_axis

__all__ = ["roll", "reverse_sequence"]


# -- roll -------------------------------------------------------------------------------------------
def _roll_kernel(x, shift, axis):
    return np.roll(x, shift, axis) if shift else x.copy()


def _roll_grad(op, grad):
    return execute(ROLL, (grad,), {"shift": tuple(-s for s in op.get_attr("shift")),
                                   "axis": op.get_attr("axis")})


def _roll_batched(op, grad):
    extra = grad.shape.rank - op.inputs[0].shape.rank
    return execute(ROLL, (grad,), {"shift": tuple(-s for s in op.get_attr("shift")),
                                   "axis": tuple(a + extra for a in op.get_attr("axis"))})


ROLL = defop("Roll", _roll_kernel, shape=shape_rules.same, grad=_roll_grad, jvp=linear_in(0),
             batch=_roll_batched,
             raw=lambda input, shift, axis, name=None: roll(input, shift, axis, name))


def roll(input, shift, axis, name=None):  # noqa: A002 (TensorFlow's argument name)
    """`input` with its elements moved `shift` places along `axis`, wrapping around (shift and
    axis may be lists of one length)."""
    x = convert_to_tensor(input)
    shifts, axes = int_tuple(shift, "roll: shift"), int_tuple(axis, "roll: axis")
    if len(shifts) != len(axes):
        raise ValueError(f"roll: shift {list(shifts)} and axis {list(axes)} must have the same "
                         "length.")
    axes = tuple(normalize_axis(a, x.shape.rank, "roll: axis") for a in axes)
    return execute(ROLL, (x,), {"shift": shifts, "axis": axes}, name)


# -- reverse_sequence -----------------------------------------------------------------------------
def _reverse_sequence_kernel(x, lengths, seq_axis, batch_axis):
    if lengths.shape != (x.shape[batch_axis],):
        raise ValueError(f"seq_lengths must be a vector of length {x.shape[batch_axis]}, got "
                         f"shape {lengths.shape}")
    if lengths.size and (lengths.min() < 0 or lengths.max() > x.shape[seq_axis]):
        raise ValueError(f"seq_lengths must lie in [0, {x.shape[seq_axis]}], got "
                         f"{lengths.tolist()}")
    moved = np.moveaxis(x, (batch_axis, seq_axis), (0, 1))
    out = moved.copy()
    for b, n in enumerate(lengths):
        out[b, :n] = moved[b, :n][::-1]
    return np.moveaxis(out, (0, 1), (batch_axis, seq_axis))


def _reverse_sequence_rule(x, lengths, seq_axis, batch_axis):
    if lengths.dtype not in (dtypes.int32, dtypes.int64):
        raise InvalidArgumentError(f"seq_lengths must be int32 or int64, got "
                                   f"{lengths.dtype.name}.")
    return x.shape, x.dtype


def _reverse_sequence_grad(op, grad):
    return execute(REVERSE_SEQUENCE, (grad, op.inputs[1]), op.attrs), None


REVERSE_SEQUENCE = defop("ReverseSequence", _reverse_sequence_kernel,
                         shape=_reverse_sequence_rule, grad=_reverse_sequence_grad,
                         jvp=linear_in(0), raw=lambda input, seq_lengths, seq_dim, batch_dim=0,
                         name=None: reverse_sequence(input, seq_lengths, seq_dim, batch_dim, name))


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """For each batch element b (along batch_axis), the first seq_lengths[b] entries along
    seq_axis reversed; the rest unchanged."""
    x, lengths = convert_to_tensor(input), convert_to_tensor(seq_lengths)
    rank = x.shape.rank
    if seq_axis is None:
        raise ValueError("reverse_sequence: seq_axis is required.")
    seq_axis = normalize_axis(seq_axis, rank, "reverse_sequence: seq_axis")
    batch_axis = normalize_axis(0 if batch_axis is None else batch_axis, rank,
                                "reverse_sequence: batch_axis")
    if seq_axis == batch_axis:
        raise ValueError(f"reverse_sequence: seq_axis and batch_axis must differ, both are "
                         f"{seq_axis}.")
    return execute(REVERSE_SEQUENCE, (x, lengths), {"seq_axis": seq_axis,
                                                    "batch_axis": batch_axis}, name)
