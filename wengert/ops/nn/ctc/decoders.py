"""CTC decoders: `tf.nn.ctc_greedy_decoder` and `tf.nn.ctc_beam_search_decoder` (not
differentiable; each is one op returning a SparseTensor's parts per decoded path).

Greedy (best path): at each frame t < sequence_length[b] take k_t = argmax_c x[t, b, c]; the
output drops blanks and, with merge_repeated, a class equal to the previous frame's argmax (so
"A B B * B" reads "A B B"). Its score is -sum_t max_c x[t, b, c], the raw logits' maxima, as
TensorFlow documents. The blank is class C - 1 unless blank_index says otherwise.

Beam search is TensorFlow's prefix beam search over a tree of label prefixes, with the blank the
last class and frame scores log y[t, c] = log_softmax(x[t])[c]. Each prefix keeps
log P_blank (its paths that end in a blank) and log P_label (that end in its last label), and
P = P_blank + P_label. At each frame, every prefix in the beam updates

    P_label(l) <- (P_label(l) + [parent active] P_prev(parent)) * y(last label of l)
    P_blank(l) <- P(l) * y(blank)

(P_prev = P_blank(parent) when the last two labels of l are equal, else P(parent)), then grows
children l + c, P_label = P_prev(l) * y(c), for each prefix (most probable first) that could
still enter the beam; a child enters when the beam has room or it beats the beam's least probable
entry, which then leaves. After the last frame the top_paths most probable prefixes are the
decoded paths and their log P the log_probabilities.
"""
import numpy as np

from ....framework import dtypes
from ....framework.errors import InvalidArgumentError
from ....framework.execute import execute
from ....framework.op_dtype_constraints import fixed_operand
from ....framework.registry import defop
from ....framework.sparse_tensor import SparseTensor
from ....framework.tensor import convert_to_tensor
from ....framework.tensor_shape import TensorShape
from ... import shape_rules
from .loss import check_sequence_length

__all__ = ["ctc_greedy_decoder", "ctc_beam_search_decoder", "ctc_beam_search_decoder_v1"]


def _check_lengths(inputs, sequence_length, op_type):
    if inputs.ndim != 3:
        raise InvalidArgumentError(f"{op_type}: inputs must be [max_time, batch, num_classes], "
                                   f"got shape {inputs.shape}.")
    steps, batch, _ = inputs.shape
    check_sequence_length(sequence_length, steps, batch, op_type)


def _sparse_parts(paths):
    """indices [N, 2], values [N], dense_shape [2] (int64) of a list of label sequences."""
    indices = [(b, i) for b, p in enumerate(paths) for i in range(len(p))]
    values = [c for p in paths for c in p]
    width = max((len(p) for p in paths), default=0)
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64),
            np.array([len(paths), width], np.int64))


# -- greedy ---------------------------------------------------------------------------------------
def _greedy_kernel(inputs, sequence_length, merge_repeated=True, blank_index=-1):
    _check_lengths(inputs, sequence_length, "CTCGreedyDecoder")
    blank = blank_index % inputs.shape[2]
    paths, scores = [], np.zeros((inputs.shape[1], 1), inputs.dtype)
    for b in range(inputs.shape[1]):
        frames = inputs[:int(sequence_length[b]), b]
        best = frames.argmax(-1) if len(frames) else np.zeros(0, np.intp)
        scores[b, 0] = -frames.max(-1).sum() if len(frames) else 0
        keep = best != blank
        if merge_repeated and len(best):
            keep &= np.concatenate([[True], best[1:] != best[:-1]])
        paths.append(best[keep].tolist())
    return _sparse_parts(paths) + (scores,)


def _decoded_rule(inputs, top_paths=1):
    shape_rules.check_float(inputs, "inputs")
    batch = inputs.shape[1] if inputs.shape.rank == 3 else None
    parts = [(TensorShape([None, 2]), dtypes.int64)] * top_paths + \
        [(TensorShape([None]), dtypes.int64)] * top_paths + \
        [(TensorShape([2]), dtypes.int64)] * top_paths
    return parts + [(TensorShape([batch, top_paths]), inputs.dtype)]


CTC_GREEDY = defop("CTCGreedyDecoder", _greedy_kernel, grad=None, num_outputs=4,
                   shape=lambda inputs, sequence_length, **attrs: _decoded_rule(inputs),
                   raw=lambda inputs, sequence_length, merge_repeated=False, blank_index=-1,
                   name=None: execute(CTC_GREEDY, _inputs(inputs, sequence_length,
                                                          "CTCGreedyDecoder"),
                                      {"merge_repeated": bool(merge_repeated),
                                       "blank_index": int(blank_index)}, name))


def _inputs(inputs, sequence_length, fn):
    inputs = convert_to_tensor(inputs)
    if not inputs.dtype.is_floating or inputs.shape.rank not in (None, 3):
        raise ValueError(f"{fn}: inputs must be float logits [max_time, batch, num_classes], got "
                         f"{inputs.dtype.name} of shape {inputs.shape}.")
    return inputs, fixed_operand(sequence_length, dtypes.int32)  # TensorFlow's: int32 only


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Best-path decoding: ([SparseTensor of the decoded classes, [batch, max_length]],
    -sum of each frame's largest logit, [batch, 1]). blank_index defaults to num_classes - 1."""
    inputs, sequence_length = _inputs(inputs, sequence_length, "ctc_greedy_decoder")
    blank = -1 if blank_index is None else int(blank_index)
    classes = inputs.shape[2] if inputs.shape.rank == 3 else None
    if classes is not None and not -classes <= blank < classes:
        raise ValueError(f"ctc_greedy_decoder: blank_index {blank_index} is outside "
                         f"[-{classes}, {classes}).")
    indices, values, shape, scores = execute(
        CTC_GREEDY, (inputs, sequence_length),
        {"merge_repeated": bool(merge_repeated), "blank_index": blank})
    return [SparseTensor(indices, values, shape)], scores


# -- beam search ------------------------------------------------------------------------------------
_ZERO = -np.inf


class _Entry:
    """A label prefix in the beam tree: log (total, blank, label) probabilities now (`new`) and
    at the previous frame (`old`)."""

    __slots__ = ("parent", "label", "children", "old", "new")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.old, self.new = [_ZERO] * 3, [_ZERO] * 3

    def active(self):
        return self.new[0] != _ZERO

    def labels(self, merge_repeated):
        out, e = [], self
        while e.parent is not None:
            out.append(e.label)
            e = e.parent
        out.reverse()
        if merge_repeated:
            out = [c for i, c in enumerate(out) if i == 0 or c != out[i - 1]]
        return out


class _Beam:
    """The beam: at most `width` entries, with its least probable one at hand."""

    def __init__(self, width):
        self.width, self.entries, self.bottom = width, [], None

    def push(self, e):
        self.entries.append(e)
        if self.bottom is None or e.new[0] < self.bottom.new[0]:
            self.bottom = e

    def admits(self, p):
        return p > _ZERO and (len(self.entries) < self.width or p > self.bottom.new[0])

    def evict_bottom(self):
        self.bottom.new = [_ZERO] * 3
        self.entries.remove(self.bottom)
        self.bottom = min(self.entries, key=lambda e: e.new[0]) if self.entries else None

    def sorted(self):
        return sorted(self.entries, key=lambda e: -e.new[0])


def _step(beam, logp, blank):
    branches = beam.sorted()
    for b in branches:
        b.old = list(b.new)
    beam = _Beam(beam.width)
    for b in branches:
        if b.parent is not None:
            if b.parent.active():
                prev = b.parent.old[1] if b.label == b.parent.label else b.parent.old[0]
                b.new[2] = np.logaddexp(b.new[2], prev)
            b.new[2] += logp[b.label]
        b.new[1] = b.old[0] + logp[blank]
        b.new[0] = np.logaddexp(b.new[1], b.new[2])
        beam.push(b)
    for b in branches:
        if not beam.admits(b.old[0]):
            continue
        for label in range(len(logp) - 1):
            c = b.children.get(label) or b.children.setdefault(label, _Entry(b, label))
            if c.active():
                continue
            prev = b.old[1] if label == b.label else b.old[0]
            c.new = [logp[label] + prev, _ZERO, logp[label] + prev]
            if beam.admits(c.new[0]):
                if len(beam.entries) == beam.width:
                    beam.evict_bottom()
                beam.push(c)
            else:
                c.old, c.new = [_ZERO] * 3, [_ZERO] * 3
    return beam


def beam_search(frames, beam_width, top_paths, merge_repeated=False):
    """The top_paths best label sequences of one example's [T, C] logits, and their log
    probabilities (as far as the beam kept their paths)."""
    root = _Entry(None, -1)
    root.new = [0.0, 0.0, _ZERO]
    beam = _Beam(beam_width)
    beam.push(root)
    frames = frames.astype(np.float64)
    frames = frames - frames.max(-1, keepdims=True)
    frames = frames - np.log(np.exp(frames).sum(-1, keepdims=True))
    for row in frames:
        beam = _step(beam, row, len(row) - 1)
    best = beam.sorted()
    if top_paths > len(best):
        raise InvalidArgumentError(f"CTCBeamSearchDecoder: fewer leaves in the beam search "
                                   f"({len(best)}) than requested top_paths ({top_paths}).")
    return [e.labels(merge_repeated) for e in best[:top_paths]], [e.new[0] for e in best[:top_paths]]


def _beam_kernel(inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    _check_lengths(inputs, sequence_length, "CTCBeamSearchDecoder")
    results = [beam_search(inputs[:int(sequence_length[b]), b], beam_width, top_paths,
                           merge_repeated) for b in range(inputs.shape[1])]
    parts = [_sparse_parts([r[0][k] for r in results]) for k in range(top_paths)]
    scores = np.array([r[1] for r in results], inputs.dtype).reshape(-1, top_paths)
    return tuple(p[0] for p in parts) + tuple(p[1] for p in parts) + \
        tuple(p[2] for p in parts) + (scores,)


def _raw_beam_search(inputs, sequence_length, beam_width, top_paths, merge_repeated=True,
                     name=None):
    """tf.raw_ops.CTCBeamSearchDecoder: (indices, values and shapes, one per path; scores)."""
    out = execute(CTC_BEAM_SEARCH, _inputs(inputs, sequence_length, "CTCBeamSearchDecoder"),
                  {"beam_width": int(beam_width), "top_paths": int(top_paths),
                   "merge_repeated": bool(merge_repeated)}, name)
    k = int(top_paths)
    return list(out[:k]), list(out[k:2 * k]), list(out[2 * k:3 * k]), out[3 * k]


CTC_BEAM_SEARCH = defop("CTCBeamSearchDecoder", _beam_kernel, grad=None, num_outputs=None,
                        shape=lambda inputs, sequence_length, top_paths=1, **attrs:
                        _decoded_rule(inputs, top_paths), raw=_raw_beam_search)


def ctc_beam_search_decoder_v1(inputs, sequence_length, beam_width=100, top_paths=1,
                               merge_repeated=True):
    """TensorFlow 1's beam search: as ctc_beam_search_decoder, and merge_repeated also merges
    repeated labels in the decoded output (which TensorFlow 2 dropped as invalid)."""
    inputs, sequence_length = _inputs(inputs, sequence_length, "ctc_beam_search_decoder")
    beam_width, top_paths = int(beam_width), int(top_paths)
    if not 0 < top_paths <= beam_width:
        raise ValueError(f"ctc_beam_search_decoder: top_paths ({top_paths}) must lie in "
                         f"[1, beam_width = {beam_width}].")
    out = execute(CTC_BEAM_SEARCH, (inputs, sequence_length),
                  {"beam_width": beam_width, "top_paths": top_paths,
                   "merge_repeated": bool(merge_repeated)})
    k = top_paths
    decoded = [SparseTensor(out[i], out[k + i], out[2 * k + i]) for i in range(k)]
    return decoded, out[3 * k]


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """Prefix beam search (see the module docstring): (a list of top_paths SparseTensors of the
    decoded classes, [batch, max_length_j] each; log_probabilities [batch, top_paths]). The blank
    is the last class."""
    return ctc_beam_search_decoder_v1(inputs, sequence_length, beam_width, top_paths,
                                      merge_repeated=False)
