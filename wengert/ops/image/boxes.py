"""Bounding boxes, as TensorFlow's tf.image draws and suppresses them.

- draw_bounding_boxes(images, boxes, colors): box [y_min, x_min, y_max, x_max] in [0, 1] of
  image b covers rows trunc(y_min (h - 1)) .. trunc(y_max (h - 1)) (columns alike); its four
  one-pixel edges are painted in colors[k % len(colors)] (TensorFlow's ten default colours when
  colors is empty; grey images then draw white), edges outside the image are skipped, inverted
  boxes not drawn. Painting is a `where` over a mask, so the unpainted pixels keep their
  gradient.
- non_max_suppression_with_scores: the indices and scores of non_max_suppression (patches.py)
  when soft_nms_sigma is 0; with soft_nms_sigma > 0, Soft-NMS as TensorFlow's
  NonMaxSuppressionV5 does it (soft_nms below): the best remaining box is taken; every later
  box's score is multiplied by exp(-iou^2 / (2 sigma)) for each box taken before it
  (TensorFlow's scale -0.5 / sigma), and it goes back in line while its score is above
  score_threshold.
- combined_non_max_suppression: per image and class, hard NMS (scores above score_threshold,
  at most max_output_size_per_class); the selections of all classes sorted by score and cut to
  max_total_size (or, with pad_per_class, to min(max_total_size, per-class * classes)), padded
  with zeros, boxes optionally clipped to [0, 1]. Selection is not differentiable, as in
  TensorFlow.
"""
import heapq

import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import constant, convert_to_tensor
from ...framework.context import op_scope
from ..cast_ops import cast
from ..array_ops import where
from ..indexing_ops import gather
from .patches import _iou, _select, non_max_suppression

__all__ = ["draw_bounding_boxes", "combined_non_max_suppression",
           "non_max_suppression_with_scores", "soft_nms"]

_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1],
                            [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1],
                            [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _paint(mask, paint, box, h, w, color):
    f = np.float32
    top, bottom = int(f(box[0]) * f(h - 1)), int(f(box[2]) * f(h - 1))
    left, right = int(f(box[1]) * f(w - 1)), int(f(box[3]) * f(w - 1))
    if top > bottom or left > right or top >= h or bottom < 0 or left >= w or right < 0:
        return  # inverted, or wholly outside the image: TensorFlow skips it
    r0, r1, c0, c1 = max(top, 0), min(bottom, h - 1), max(left, 0), min(right, w - 1)
    edges = []
    if top >= 0:
        edges.append((slice(top, top + 1), slice(c0, c1 + 1)))
    if bottom < h:
        edges.append((slice(bottom, bottom + 1), slice(c0, c1 + 1)))
    if left >= 0:
        edges.append((slice(r0, r1 + 1), slice(left, left + 1)))
    if right < w:
        edges.append((slice(r0, r1 + 1), slice(right, right + 1)))
    for rows, cols in edges:
        mask[rows, cols, :] = True
        paint[rows, cols, :] = color


def _color_table(colors, depth):
    table = None if colors is None else np.asarray(convert_to_tensor(colors).numpy(), np.float32)
    if table is not None and table.size:
        if table.ndim != 2 or table.shape[1] < depth:
            raise InvalidArgumentError(f"draw_bounding_boxes: colors must be a [num_colors, >= "
                                       f"{depth}] matrix for images of {depth} channels, got "
                                       f"shape {table.shape}.")
        return table[:, :depth]
    table = _DEFAULT_COLORS[:, :depth].copy()
    if depth == 1:
        table[:, 0] = 1
    return table


def draw_bounding_boxes(images, boxes, colors=None, name=None):
    """`images` [batch, h, w, depth] (depth 1, 3 or 4, floating) with the outlines of `boxes`
    [batch, num_boxes, 4] drawn on them (see the module docstring)."""
    with op_scope(name, "draw_bounding_boxes"):
        images = convert_to_tensor(images)
        if images.shape.rank != 4 or None in tuple(images.shape):
            raise InvalidArgumentError(f"draw_bounding_boxes: images must be a fully known [batch, "
                                       f"height, width, depth] tensor, got shape {images.shape}.")
        batch, h, w, depth = (int(d) for d in images.shape)
        if depth not in (1, 3, 4):
            raise InvalidArgumentError(f"draw_bounding_boxes: images must have 1, 3 or 4 channels, "
                                       f"got {depth}.")
        box_values = np.asarray(convert_to_tensor(boxes).numpy(), np.float32)
        if box_values.ndim != 3 or box_values.shape[0] != batch or box_values.shape[2] != 4:
            raise InvalidArgumentError(f"draw_bounding_boxes: boxes must be [batch={batch}, "
                                       f"num_boxes, 4], got shape {box_values.shape}.")
        table = _color_table(colors, depth)
        mask = np.zeros((batch, h, w, depth), bool)
        paint = np.zeros((batch, h, w, depth), images.dtype.as_numpy_dtype)
        for b in range(batch):
            for k, box in enumerate(box_values[b]):
                _paint(mask[b], paint[b], box, h, w, table[k % len(table)])
        return where(constant(mask), constant(paint, images.dtype), images)


def soft_nms(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma):
    """Soft-NMS selection (see the module docstring): NumPy int32 indices and float32 scores."""
    boxes = np.asarray(convert_to_tensor(boxes).numpy(), np.float32)
    scores = np.asarray(convert_to_tensor(scores).numpy(), np.float32)
    if boxes.ndim != 2 or boxes.shape[1] != 4 or scores.shape != boxes.shape[:1]:
        raise InvalidArgumentError(f"non_max_suppression_with_scores: boxes must be [N, 4] and "
                                   f"scores [N], got shapes {boxes.shape} and {scores.shape}.")
    scale = np.float32(-0.5 / soft_nms_sigma)
    threshold = np.float32(score_threshold)
    line = [(-s, i, 0) for i, s in enumerate(scores) if s > threshold]
    heapq.heapify(line)  # highest score first; equal scores: the lower index first
    chosen, chosen_scores = [], []
    while len(chosen) < int(max_output_size) and line:
        neg, i, begin = heapq.heappop(line)
        score = original = np.float32(-neg)
        for j in range(len(chosen) - 1, begin - 1, -1):
            iou = np.float32(_iou(boxes[i].astype(np.float64), boxes[[chosen[j]]])[0])
            score = np.float32(score * np.exp(np.float32(scale * iou * iou)))
            if score <= threshold:
                break
        if score == original:
            chosen.append(i)
            chosen_scores.append(score)
        elif score > threshold:
            heapq.heappush(line, (-score, i, len(chosen)))
    return np.asarray(chosen, np.int32), np.asarray(chosen_scores, np.float32)


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """(selected_indices int32, selected_scores float32): hard NMS when soft_nms_sigma is 0,
    Soft-NMS (see the module docstring) when it is positive."""
    with op_scope(name, "non_max_suppression_with_scores"):
        if soft_nms_sigma < 0:
            raise InvalidArgumentError(f"non_max_suppression_with_scores: soft_nms_sigma must be "
                                       f"non-negative, got {soft_nms_sigma}.")
        if soft_nms_sigma > 0:
            chosen, chosen_scores = soft_nms(boxes, scores, max_output_size, iou_threshold,
                                             score_threshold, soft_nms_sigma)
            return constant(chosen, dtypes.int32), constant(chosen_scores, dtypes.float32)
        chosen = non_max_suppression(boxes, scores, max_output_size, iou_threshold, score_threshold)
        return chosen, gather(convert_to_tensor(scores), chosen)


def _combined_one(boxes, scores, per_class, iou_threshold, score_threshold):
    """(score, class, box) of every box selected in one image, classes in order."""
    found = []
    for k in range(scores.shape[1]):
        class_boxes = boxes[:, 0 if boxes.shape[1] == 1 else k, :]
        for i in _select(class_boxes, scores[:, k], per_class, iou_threshold, score_threshold):
            found.append((scores[i, k], k, class_boxes[i]))
    return sorted(found, key=lambda entry: -entry[0])


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """Greedy NMS per image and class, merged across classes (see the module docstring):
    (nmsed_boxes [batch, n, 4], nmsed_scores [batch, n], nmsed_classes [batch, n],
    valid_detections [batch] int32)."""
    with op_scope(name, "combined_non_max_suppression"):
        b = np.asarray(convert_to_tensor(boxes).numpy(), np.float32)
        s = np.asarray(convert_to_tensor(scores).numpy(), np.float32)
        if b.ndim != 4 or b.shape[3] != 4 or s.ndim != 3 or s.shape[:2] != b.shape[:2] \
                or b.shape[2] not in (1, s.shape[2]):
            raise InvalidArgumentError(
                f"combined_non_max_suppression: boxes must be [batch, num_boxes, q, 4] with q 1 or "
                f"num_classes and scores [batch, num_boxes, num_classes], got shapes {b.shape} and "
                f"{s.shape}.")
        per_class, total = int(max_output_size_per_class), int(max_total_size)
        if per_class <= 0 or total <= 0:
            raise InvalidArgumentError(f"combined_non_max_suppression: max_output_size_per_class "
                                       f"and max_total_size must be positive, got {per_class} and "
                                       f"{total}.")
        if not 0.0 <= float(iou_threshold) <= 1.0:
            raise InvalidArgumentError(f"combined_non_max_suppression: iou_threshold must be in "
                                       f"[0, 1], got {iou_threshold}.")
        n = min(total, per_class * s.shape[2]) if pad_per_class else total
        out_boxes = np.zeros((b.shape[0], n, 4), np.float32)
        out_scores = np.zeros((b.shape[0], n), np.float32)
        out_classes = np.zeros((b.shape[0], n), np.float32)
        valid = np.zeros(b.shape[0], np.int32)
        for i in range(b.shape[0]):
            found = _combined_one(b[i], s[i], per_class, float(iou_threshold), score_threshold)[:n]
            valid[i] = len(found)
            for j, (score, k, box) in enumerate(found):
                out_boxes[i, j] = np.clip(box, 0.0, 1.0) if clip_boxes else box
                out_scores[i, j], out_classes[i, j] = score, k
        return (constant(out_boxes), constant(out_scores), constant(out_classes),
                cast(constant(valid), dtypes.int32))
