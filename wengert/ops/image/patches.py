"""Patches and boxes, as TensorFlow's tf.image:

- extract_patches(images, sizes, strides, rates, padding): every kh x kw window (taps `rates`
  apart, windows `strides` apart, "VALID" or "SAME" padding as convolutions pad) flattened into
  the channel axis in (row, column, channel) order: [batch, out_h, out_w, kh * kw * c]. Built
  from one strided slice per tap, so its gradient scatters back to the image.
- non_max_suppression(boxes, scores, max_output_size, iou_threshold, score_threshold): greedy
  selection in decreasing score order (equal scores: the lower index first) of boxes whose
  intersection over union with every box already selected is at most iou_threshold; boxes are
  [y1, x1, y2, x2] with the corners in either order. `_with_scores` also returns their scores,
  `_padded` pads the indices with zeros to max_output_size and returns how many are valid.
  `_overlaps` takes the [N, N] matrix of overlaps in place of boxes and suppresses a box whose
  overlap with a selected one exceeds overlap_threshold.
  Selection is not differentiable (integer indices), as in TensorFlow. (The `_with_scores`
  form, with Soft-NMS, is in boxes.py.)
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import constant, convert_to_tensor
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
    x = convert_to_tensor(images)
    if x.shape.rank != 4 or None in x.shape[1:3]:
        raise InvalidArgumentError(f"extract_patches: images must be [batch, h, w, c] with "
                                   f"known h and w, got shape {x.shape}.")
    padding = padding.upper()
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"extract_patches: padding must be 'VALID' or 'SAME', got {padding!r}.")
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


def _select(boxes, scores, max_output_size, iou_threshold, score_threshold):
    boxes = np.asarray(convert_to_tensor(boxes).numpy(), np.float64)
    scores = np.asarray(convert_to_tensor(scores).numpy(), np.float64)
    if boxes.ndim != 2 or boxes.shape[1] != 4 or scores.shape != boxes.shape[:1]:
        raise InvalidArgumentError(f"non_max_suppression: boxes must be [N, 4] and scores [N], "
                                   f"got shapes {boxes.shape} and {scores.shape}.")
    if not 0.0 <= iou_threshold <= 1.0:
        raise InvalidArgumentError(f"non_max_suppression: iou_threshold must be in [0, 1], got "
                                   f"{iou_threshold}.")
    order = [i for i in np.argsort(-scores, kind="stable") if scores[i] > score_threshold]
    chosen = []
    for i in order:
        if len(chosen) >= int(max_output_size):
            break
        if not chosen or np.all(_iou(boxes[i], boxes[chosen]) <= iou_threshold):
            chosen.append(int(i))
    return np.asarray(chosen, np.int32)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    return constant(_select(boxes, scores, max_output_size, iou_threshold, score_threshold),
                    dtypes.int32)


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    chosen = _select(boxes, scores, max_output_size, iou_threshold, score_threshold)
    valid = len(chosen)
    if pad_to_max_output_size:
        chosen = np.concatenate([chosen, np.zeros(int(max_output_size) - valid, np.int32)])
    return constant(chosen, dtypes.int32), constant(np.int32(valid), dtypes.int32)


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
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
    return extract_patches(images, ksizes if sizes is None else sizes, strides, rates, padding)
