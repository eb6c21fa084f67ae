"""Keras 3's cross-entropies and PSNR of `keras.ops.nn` over wengert's ops, with the TensorFlow
backend's definitions (eps = backend.epsilon()):

    binary_crossentropy(t, p) = -(t log p' + (1 - t) log(1 - p')), p' = clip(p, eps, 1 - eps)
    categorical_crossentropy(t, p) = -sum_axis t log clip(p / sum_axis p, eps, 1 - eps)
    sparse_categorical_crossentropy(t, p) = -log clip(p, eps, 1 - eps)[t]  (t integer classes)
    psnr(x1, x2, m) = 20 log10(m) - 10 log10(mean((x1 - x2)^2))
With from_logits=True the logits go through TensorFlow's stable fused ops (sigmoid and softmax
cross-entropy with logits). As in Keras, an `output` that is itself the result of a sigmoid or
softmax op (recorded on a tape or in a graph) is traced back to its logits.
"""
import warnings

from ...ops.cast_ops import cast
from ...ops.math_ops import clip_by_value
from ...ops.nn.losses import (sigmoid_cross_entropy_with_logits,
                              softmax_cross_entropy_with_logits,
                              sparse_softmax_cross_entropy_with_logits)
from ...ops.reduce_ops import reduce_mean, reduce_sum
from ...ops.reshape_ops import squeeze
from ...ops.unary_ops import log, square
from .. import backend
from .core import convert_to_tensor

__all__ = ["binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy",
           "psnr"]


def _logits(output, from_logits, op_type, what):
    """(logits or probabilities, whether they are logits): an output made by `op_type` (Sigmoid
    or Softmax) is replaced by that op's input."""
    op = getattr(output, "op", None)
    if op is None or getattr(op, "type", None) != op_type or len(op.inputs) != 1:
        return output, from_logits
    if from_logits:
        warnings.warn(f"{what} received from_logits=True, but the output argument was produced "
                      f"by a {op_type} activation and thus does not represent logits. Was this "
                      "intended?", stacklevel=3)
    return op.inputs[0], True


def _same_shapes(target, output, what):
    if target.shape.rank != output.shape.rank:
        raise ValueError(f"{what}: target and output must have the same rank; got "
                         f"target.shape={target.shape}, output.shape={output.shape}.")
    for a, b in zip(target.shape.as_list(), output.shape.as_list()):
        if a is not None and b is not None and a != b:
            raise ValueError(f"{what}: target and output must have the same shape; got "
                             f"target.shape={target.shape}, output.shape={output.shape}.")


def _clipped(p):
    eps = backend.epsilon()
    return clip_by_value(p, cast(eps, p.dtype), cast(1.0 - eps, p.dtype))


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary cross-entropy of probabilities (or logits) `output`."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    _same_shapes(target, output, "binary_crossentropy")
    output, from_logits = _logits(output, from_logits, "Sigmoid", "binary_crossentropy")
    if from_logits:
        return sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    p = _clipped(output)
    one = cast(1.0, p.dtype)
    return -(target * log(p) + (one - target) * log(one - p))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of probability rows `target` against `output` along `axis`."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    if target.shape.rank is not None and target.shape.rank < 1:
        raise ValueError(f"categorical_crossentropy: target and output must be at least rank 1; "
                         f"got target.shape={target.shape}.")
    _same_shapes(target, output, "categorical_crossentropy")
    output, from_logits = _logits(output, from_logits, "Softmax", "categorical_crossentropy")
    if from_logits:
        return softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    p = _clipped(output / reduce_sum(output, axis, keepdims=True))
    return -reduce_sum(target * log(p), axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of integer classes `target` against rows of `output` (last axis only)."""
    output = convert_to_tensor(output)
    if axis != -1 and axis != output.shape.rank - 1:
        raise ValueError(f"sparse_categorical_crossentropy: only axis=-1 is supported; got "
                         f"axis={axis}.")
    output, from_logits = _logits(output, from_logits, "Softmax",
                                  "sparse_categorical_crossentropy")
    target = cast(convert_to_tensor(target), "int64")
    if target.shape.rank == output.shape.rank and target.shape[-1] == 1:
        target = squeeze(target, [-1])
    if target.shape.rank != output.shape.rank - 1:
        raise ValueError(f"sparse_categorical_crossentropy: target must have one axis fewer than "
                         f"output; got target.shape={target.shape}, output.shape="
                         f"{output.shape}.")
    if not from_logits:
        output = log(_clipped(output))
    return sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio in dB over all entries of x1 and x2."""
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if x1.shape != x2.shape:
        raise ValueError(f"psnr: input shapes {x1.shape} and {x2.shape} must match.")
    max_val = convert_to_tensor(max_val, x2.dtype)
    ten = cast(10.0, x2.dtype)

    def log10(v):
        return log(v) / log(ten)
    mse = reduce_mean(square(x1 - x2))
    return cast(20.0, x2.dtype) * log10(max_val) - ten * log10(mse)
