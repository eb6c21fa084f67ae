"""Clipping norms: clip_by_norm, global_norm, clip_by_global_norm (clip_by_value, one elementwise
op, is in math_ops.py).

clip_by_norm(t, c) = t * c / max(||t||, c) rescales t so that its L2 norm (over `axes`) is at
most c. It is TensorFlow's composition, written so the gradient stays finite at t = 0: the norm is
sqrt(sum(t*t)) only where that sum is positive (elsewhere sqrt is taken of 1 and discarded), so the
infinite slope of sqrt at 0 never enters the chain rule.

global_norm(ts) = sqrt(sum_i ||t_i||^2) over several tensors, and clip_by_global_norm scales all of
them by c / max(global_norm, c), the same factor for each, so their directions are kept. A NaN or
infinite norm makes every clipped tensor NaN, as in TensorFlow, which makes the problem visible.
These are compositions of other ops, whose gradients and tangents they get.
"""
import collections.abc


from ...framework.errors import InvalidArgumentError
from ...framework.execute import binary_operands
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..broadcast_ops import add_n
from ..cast_ops import cast
from ..array_ops import where
from .losses import l2_loss
from ..math_ops import divide, greater, maximum, multiply
from ..reduce_ops import reduce_sum
from ..unary_ops import sqrt

__all__ = ["clip_by_norm", "global_norm", "clip_by_global_norm"]


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t * clip_norm / max(l2norm(t, axes), clip_norm): t scaled so its L2 norm is at most
    clip_norm. The gradient is finite at t = 0."""
    t = convert_to_tensor(t)
    if not t.dtype.is_floating:
        raise TypeError(f"clip_by_norm: t must be floating-point, got {t.dtype.name} (shape "
                        f"{t.shape}); use cast(t, float32).")
    t, clip_norm = binary_operands(t, clip_norm, "clip_by_norm")
    l2sum = reduce_sum(t * t, axes, keepdims=True)
    positive = greater(l2sum, 0)
    safe = where(positive, l2sum, l2sum + 1)  # 1 where l2sum is 0
    norm = where(positive, sqrt(safe), l2sum)
    return divide(t * clip_norm, maximum(norm, clip_norm), name=name)


def _present_tensors(t_list, caller):
    if isinstance(t_list, (str, bytes)) or not isinstance(t_list, collections.abc.Sequence):
        raise TypeError(f"{caller}: t_list should be a sequence (list or tuple) of tensors, "
                        f"got {type(t_list).__name__}.")
    return [convert_to_tensor(t) for t in t_list if t is not None]


def global_norm(t_list, name=None):
    """sqrt(sum of the squared L2 norms of all tensors in t_list); None entries are ignored."""
    tensors = _present_tensors(t_list, "global_norm")
    if not tensors:
        raise ValueError("global_norm: t_list holds no tensors (all entries are None).")
    dtype = tensors[0].dtype
    for t in tensors:
        if t.dtype != dtype:
            raise InvalidArgumentError(
                f"global_norm: all tensors must have one dtype, got {dtype.name} and "
                f"{t.dtype.name} (shape {t.shape}); cast them to agree.")
    half_squared = add_n([l2_loss(t) for t in tensors])
    return sqrt(half_squared * 2, name=name)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """(t_list scaled by clip_norm / max(global_norm, clip_norm), global_norm). None entries stay
    None; `use_norm` replaces the computed global norm."""
    with op_scope(name, "clip_by_global_norm"):
        present = _present_tensors(t_list, "clip_by_global_norm")
        if use_norm is None:
            use_norm = global_norm(present)
        use_norm = convert_to_tensor(use_norm)
        use_norm, clip_norm = binary_operands(use_norm, clip_norm, "clip_by_global_norm")
        # The (use_norm - use_norm) term is 0, or NaN when use_norm is inf or NaN.
        scale = divide(clip_norm, maximum(use_norm, clip_norm)) + (use_norm - use_norm)
        clipped = []
        for t in t_list:
            if t is None:
                clipped.append(None)
                continue
            t = convert_to_tensor(t)
            clipped.append(multiply(t, cast(scale, t.dtype)))
        return clipped, use_norm
