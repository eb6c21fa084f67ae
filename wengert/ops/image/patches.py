"""Patches and boxes, as TensorFlow's tf.image:

- extract_patches(images, sizes, strides, rates, padding): every kh x kw window (taps `rates`
  apart, windows `strides` apart, "VALID" or "SAME" padding as convolutions pad) flattened into
  the channel axis in (row, column, channel) order: [batch, out_h, out_w, kh * kw * c]. Built
  from one strided slice per tap, so its gradient scatters back to the image.
- non_max_suppression(boxes, scores, max_output_size, iou_threshold, score_threshold): greedy
  selection in decreasing score order (equal scores: the lower index first) of boxes whose
  intersection over union with every box already selected is at most iou_threshold; boxes are
  [y1, x1, y2, x2] with the corners in either order. `_with_scores` also returns their scores,
  `_padded` pads the indices with zeros to max_output_size and returns how many are valid,
  per image of a batch of boxes [..., N, 4] too.
  `_overlaps` takes the [N, N] matrix of overlaps in place of boxes and suppresses a box whose
  overlap with a selected one exceeds overlap_threshold.
  Selection is not differentiable (integer indices), as in TensorFlow. (The `_with_scores`
  form, with Soft-NMS, is in boxes.py.)
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import constant, convert_to_tensor
from ...framework.context import op_scope
from ..array_ops import concat
from ..pad_ops import pad

__all__ = ["extract_patches", "non_max_suppression", "non_max_suppression_padded",
           "non_max_suppression_overlaps"]


def _four(values, what):
    values = [int(v) for v in values]
    if len(values) != 4 or values[0] != 1 or values[3] != 1:
        raise InvalidArgumentError(f"extract_patches: {what} must be [1, rows, cols, 1], got "
                                   f"{values}.")
    return values[1], values[2]


def _padding(n, k, s, r, padding):
    span = (k - 1) * r + 1
    if padding == "VALID":
        return (n - span) // s + 1 if n >= span else 0, 0
    out = -(-n // s)
    return out, max((out - 1) * s + span - n, 0)


def extract_patches(images, sizes, strides, rates, padding, name=None):
    with op_scope(name, "extract_patches"):
        x = convert_to_tensor(images)
        if x.shape.rank != 4 or None in x.shape[1:3]:
            raise InvalidArgumentError(f"extract_patches: images must be [batch, h, w, c] with "
                                       f"known h and w, got shape {x.shape}.")
        padding = padding.upper()
        if padding not in ("VALID", "SAME"):
            raise ValueError(f"extract_patches: padding must be 'VALID' or 'SAME', got "
                             f"{padding!r}.")
        (kh, kw), (sh, sw), (rh, rw) = (_four(v, w) for v, w in ((sizes, "sizes"),
                                                                 (strides, "strides"),
                                                                 (rates, "rates")))
        h, w = int(x.shape[1]), int(x.shape[2])
        out_h, total_h = _padding(h, kh, sh, rh, padding)
        out_w, total_w = _padding(w, kw, sw, rw, padding)
        if total_h or total_w:
            x = pad(x, [[0, 0], [total_h // 2, total_h - total_h // 2],
                        [total_w // 2, total_w - total_w // 2], [0, 0]])
        taps = []
        for i in range(kh):
            for j in range(kw):
                taps.append(x[:, i * rh: i * rh + sh * (out_h - 1) + 1: sh,
                              j * rw: j * rw + sw * (out_w - 1) + 1: sw, :])
        return concat(taps, -1)


def _iou(box, others):
    y1, x1 = np.minimum(box[0], box[2]), np.minimum(box[1], box[3])
    y2, x2 = np.maximum(box[0], box[2]), np.maximum(box[1], box[3])
    oy1, ox1 = np.minimum(others[:, 0], others[:, 2]), np.minimum(others[:, 1], others[:, 3])
    oy2, ox2 = np.maximum(others[:, 0], others[:, 2]), np.maximum(others[:, 1], others[:, 3])
    inter = (np.clip(np.minimum(y2, oy2) - np.maximum(y1, oy1), 0, None)
             * np.clip(np.minimum(x2, ox2) - np.maximum(x1, ox1), 0, None))
    union = (y2 - y1) * (x2 - x1) + (oy2 - oy1) * (ox2 - ox1) - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def _select(boxes, scores, max_output_size, iou_threshold, score_threshold, in_order=False):
    boxes = np.asarray(convert_to_tensor(boxes).numpy(), np.float64)
    scores = np.asarray(convert_to_tensor(scores).numpy(), np.float64)
    if boxes.ndim != 2 or boxes.shape[1] != 4 or scores.shape != boxes.shape[:1]:
        raise InvalidArgumentError(f"non_max_suppression: boxes must be [N, 4] and scores [N], "
                                   f"got shapes {boxes.shape} and {scores.shape}.")
    if not 0.0 <= iou_threshold <= 1.0:
        raise InvalidArgumentError(f"non_max_suppression: iou_threshold must be in [0, 1], got "
                                   f"{iou_threshold}.")
    ranked = np.arange(len(scores)) if in_order else np.argsort(-scores, kind="stable")
    order = [i for i in ranked if scores[i] > score_threshold]
    chosen = []
    for i in order:
        if len(chosen) >= int(max_output_size):
            break
        if not chosen or np.all(_iou(boxes[i], boxes[chosen]) <= iou_threshold):
            chosen.append(int(i))
    return np.asarray(chosen, np.int32)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    with op_scope(name, "non_max_suppression"):
        return constant(_select(boxes, scores, max_output_size, iou_threshold, score_threshold),
                        dtypes.int32)


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """non_max_suppression per image of boxes [..., N, 4] and scores [..., N]: the indices
    [..., max_output_size] (zeros after the valid ones) and their counts [...]; one image [N, 4]
    without pad_to_max_output_size gives only the valid indices. sorted_input=True takes the
    boxes as sorted by score (TensorFlow then selects in the given order); tile_size sets only
    TensorFlow's parallelism. canonicalized_coordinates=True promises [y_min, x_min, y_max,
    x_max] boxes; other boxes with it are refused (TensorFlow's result for them is undefined)."""
    with op_scope(name, "non_max_suppression_padded"):
        b = np.asarray(convert_to_tensor(boxes).numpy(), np.float64)
        s = np.asarray(convert_to_tensor(scores).numpy(), np.float64)
        _check_padded_arguments(b, s, pad_to_max_output_size, canonicalized_coordinates, tile_size)
        count = int(max_output_size)
        flat_b, flat_s = b.reshape((-1,) + b.shape[-2:]), s.reshape((-1,) + s.shape[-1:])
        picks = [_select(bi, si, count, iou_threshold, score_threshold, sorted_input)
                 for bi, si in zip(flat_b, flat_s)]
        if b.ndim == 2 and not pad_to_max_output_size:
            return constant(picks[0], dtypes.int32), constant(np.int32(len(picks[0])), dtypes.int32)
        padded = np.zeros((len(picks), count), np.int32)
        for row, chosen in zip(padded, picks):
            row[:len(chosen)] = chosen
        valid = np.array([len(c) for c in picks], np.int32).reshape(b.shape[:-2])
        return (constant(padded.reshape(b.shape[:-2] + (count,)), dtypes.int32),
                constant(valid, dtypes.int32))


def _check_padded_arguments(boxes, scores, pad_to_max_output_size, canonicalized, tile_size):
    if boxes.ndim < 2 or boxes.shape[-1] != 4 or scores.shape != boxes.shape[:-1]:
        raise InvalidArgumentError(f"non_max_suppression_padded: boxes must be [..., N, 4] and "
                                   f"scores [..., N], got shapes {boxes.shape} and "
                                   f"{scores.shape}.")
    if boxes.ndim > 2 and not pad_to_max_output_size:
        raise ValueError(f"non_max_suppression_padded: 'pad_to_max_output_size' (value "
                         f"{pad_to_max_output_size}) must be True for batched input.")
    if int(tile_size) < 1:
        raise ValueError(f"non_max_suppression_padded: tile_size must be a positive number of "
                         f"boxes, got {tile_size}.")
    if canonicalized and np.any(boxes[..., 0:2] > boxes[..., 2:4]):
        raise NotImplementedError(
            "non_max_suppression_padded: canonicalized_coordinates=True with boxes whose first "
            "corner is not their minimum is not supported by wengert (TensorFlow computes "
            "negative areas); leave canonicalized_coordinates=False.")


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    with op_scope(name, "non_max_suppression_overlaps"):
        overlaps = np.asarray(convert_to_tensor(overlaps).numpy(), np.float64)
        scores = np.asarray(convert_to_tensor(scores).numpy(), np.float64)
        n = scores.shape[0] if scores.ndim == 1 else -1
        if overlaps.shape != (n, n):
            raise InvalidArgumentError(f"non_max_suppression_overlaps: overlaps must be [N, N] and "
                                       f"scores [N], got shapes {overlaps.shape} and "
                                       f"{scores.shape}.")
        chosen = []
        for i in np.argsort(-scores, kind="stable"):
            if len(chosen) >= int(max_output_size) or scores[i] <= score_threshold:
                break
            if all(overlaps[i, j] <= overlap_threshold for j in chosen):
                chosen.append(int(i))
        return constant(np.asarray(chosen, np.int32), dtypes.int32)


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None, name=None,
                          sizes=None):
    """TensorFlow 1's name of extract_patches, its window sizes as `ksizes` (or `sizes`)."""
    if (ksizes is None) == (sizes is None):
        raise ValueError("extract_image_patches: give the window sizes once, as ksizes or "
                         "sizes.")
    return extract_patches(images, ksizes if sizes is None else sizes, strides, rates, padding,
                           name=name)
