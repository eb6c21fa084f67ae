"""Op-table rows for ops/nn/ctc/loss.py and ops/nn/ctc/decoders.py: the CTCLoss op, through
tf.nn.ctc_loss and tf.compat.v1.nn.ctc_loss, and the two (not differentiable) decoders. References enumerate every alignment path of a tiny case (classes^frames
paths), collapse each (merge repeats, drop blanks) and sum the probabilities of the paths that read
as the label. CTCLoss's gradient is a fused output of its kernel, with no gradient of its own (as
in TensorFlow), so the rows check first order only."""
import itertools

import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand


def collapse(path, blank, merge=True):
    out = []
    for i, c in enumerate(path):
        if c != blank and (not merge or i == 0 or c != path[i - 1]):
            out.append(c)
    return out


def brute_force_nll(logits, label, blank, merge=True):
    """-log sum over paths of logits ([T, C], one example) that collapse to `label`."""
    return -np.log(labelings(logits, blank, merge).get(tuple(label), 0.0))


def labelings(logits, blank, merge=True):
    """{labeling: its probability, the sum over the paths of logits ([T, C]) reading as it}."""
    y = np.exp(logits - logits.max(-1, keepdims=True))
    y /= y.sum(-1, keepdims=True)
    totals = {}
    for path in itertools.product(range(logits.shape[1]), repeat=logits.shape[0]):
        key = tuple(collapse(path, blank, merge))
        totals[key] = totals.get(key, 0.0) + np.prod(y[np.arange(len(path)), path])
    return totals


def ref_ctc_loss(logits, labels, label_length, logit_length, logits_time_major=True,
                 blank_index=0):
    x = logits if logits_time_major else np.swapaxes(logits, 0, 1)
    blank = blank_index % x.shape[2]
    return np.array([brute_force_nll(x[:logit_length[b], b], labels[b][:label_length[b]], blank)
                     for b in range(x.shape[1])])


def _sparse(labels, lengths):
    idx = [[b, t] for b, n in enumerate(lengths) for t in range(n)]
    return tf.sparse.SparseTensor(np.array(idx, np.int64).reshape(-1, 2),
                                  np.array([labels[b][t] for b, t in idx], np.int32),
                                  [len(lengths), max(lengths)])


def v1_fn(logits, labels, lengths, frames, **options):
    return tf.compat.v1.nn.ctc_loss(_sparse(labels, lengths), logits, frames, **options)


def v1_ref(logits, labels, lengths, frames, preprocess_collapse_repeated=False,
           ctc_merge_repeated=True):
    out = []
    for b in range(logits.shape[1]):
        label = list(labels[b][:lengths[b]])
        if preprocess_collapse_repeated:
            label = collapse(label, blank=-1)
        out.append(brute_force_nll(logits[:frames[b], b], label, logits.shape[2] - 1,
                                   ctc_merge_repeated))
    return np.array(out)


def v2_fn(logits, **kwargs):
    return tf.nn.ctc_loss(logits=logits, **kwargs)


def sparse_parts(paths):
    idx = np.array([(b, i) for b, p in enumerate(paths) for i in range(len(p))], np.int64)
    return [idx.reshape(-1, 2), np.array([c for p in paths for c in p], np.int64),
            np.array([len(paths), max(len(p) for p in paths)], np.int64)]


def greedy_fn(x, frames, **kwargs):
    decoded, score = tf.nn.ctc_greedy_decoder(x, frames, **kwargs)
    return [decoded[0].indices, decoded[0].values, decoded[0].dense_shape, score]


def greedy_ref(x, frames, merge_repeated=True, blank_index=None):
    blank = x.shape[2] - 1 if blank_index is None else blank_index % x.shape[2]
    paths = []
    for b in range(x.shape[1]):
        best = x[:frames[b], b].argmax(-1)
        paths.append(collapse(best, blank, merge_repeated) if merge_repeated else
                     [c for c in best if c != blank])
    scores = np.array([[-x[:frames[b], b].max(-1).sum()] for b in range(x.shape[1])])
    return sparse_parts(paths) + [scores]


def beam_fn(x, frames, **kwargs):
    decoded, scores = tf.nn.ctc_beam_search_decoder(x, frames, **kwargs)
    return [t for d in decoded for t in (d.indices, d.values, d.dense_shape)] + [scores]


def beam_ref(x, frames, beam_width=100, top_paths=1):
    """A beam wider than the number of prefixes is exact: the most probable labelings."""
    best = [sorted(labelings(x[:frames[b], b], x.shape[2] - 1).items(), key=lambda kv: -kv[1])
            for b in range(x.shape[1])]
    out = []
    for k in range(top_paths):
        out += sparse_parts([list(best[b][k][0]) for b in range(x.shape[1])])
    return out + [np.log([[best[b][k][1] for k in range(top_paths)] for b in range(x.shape[1])])]


_LABELS = np.array([[1, 2, 0], [2, 2, 0], [1, 0, 0]])
ROWS = [
    OpInfo("nn.ctc_loss", v2_fn, ref_ctc_loss, [
        Sample((rand(4, 3, 3),), dict(labels=_LABELS, label_length=np.array([2, 2, 1]),
                                      logit_length=np.array([4, 4, 3]))),
        Sample((rand(3, 5, 3),), dict(labels=_LABELS[:, :2] - 1, label_length=np.array([2, 1, 0]),
                                      logit_length=np.array([5, 4, 2]), logits_time_major=False,
                                      blank_index=-1), name="batch_major_blank_last"),
    ], grad2=False, rtol=1e-4, fwd_rtol=1e-6,
        notes="CTCLoss's gradient output has no gradient (TensorFlow's prevent_gradient)"),
    OpInfo("compat.v1.nn.ctc_loss", v1_fn, v1_ref, [
        Sample((rand(4, 2, 3),), dict(labels=[[0, 0], [1, 1]], lengths=[2, 2], frames=[4, 4],
                                      ctc_merge_repeated=False), name="no_merge"),
        Sample((rand(4, 2, 3),), dict(labels=[[0, 0], [1, 0]], lengths=[2, 2], frames=[4, 3],
                                      preprocess_collapse_repeated=True), name="collapse"),
    ], grad2=False, rtol=1e-4, fwd_rtol=1e-6,
        notes="CTCLoss's gradient output has no gradient (TensorFlow's prevent_gradient)"),
    OpInfo("nn.ctc_greedy_decoder", greedy_fn, greedy_ref, [
        Sample((rand(5, 3, 4),), dict(frames=[5, 3, 4])),
        Sample((rand(5, 2, 3),), dict(frames=[5, 4], merge_repeated=False, blank_index=0),
               name="blank0_unmerged"),
    ], grad=False, notes="not differentiable (TensorFlow registers no gradient)"),
    OpInfo("nn.ctc_beam_search_decoder", beam_fn, beam_ref, [
        Sample((rand(3, 2, 3, low=-1.0, high=1.0),), dict(frames=[3, 3], top_paths=2)),
    ], grad=False, fwd_rtol=1e-6, notes="not differentiable (TensorFlow registers no gradient)"),
]
