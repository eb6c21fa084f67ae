"""Op-table rows for ops/random/candidate_sampling.py and ops/nn/sampled_losses.py.

Samplers are checked against NumPy drawing from the same generator (`default_rng([default graph
seed, op seed])`, see stateless_distributions_rows.py) with the distribution written from its definition;
the sampled losses against NumPy formulas, with fixed sampled_values so the losses are
deterministic functions of inputs, weights and biases (differentiated to second order)."""
import numpy as np

import wengert as tf
from wengert.ops.random import candidate_sampling, seeded
from op_table import OpInfo, Sample, rand

DEFAULT = seeded.DEFAULT_GRAPH_SEED
TRUE = np.array([[1, 4], [2, 0]], np.int64)


def _rng(seed):
    return np.random.default_rng([DEFAULT, seed])


def _seeded(fn, *args, **kwargs):
    seeded.set_seed(None)
    return fn(*args, **kwargs)


def _first_call(fn, *args, **kwargs):
    """A learned-unigram sampler's first call (its counts all 1, so the draw is known): the
    counts that earlier eager calls with these attributes learned are forgotten first."""
    candidate_sampling._LearnedCounts.tables.clear()
    return _seeded(fn, *args, **kwargs)


def _log_uniform_p(n):
    c = np.arange(n)
    return (np.log(c + 2) - np.log(c + 1)) / np.log(n + 1)


def _sampler_ref(p, seed, num_sampled):
    sampled = _rng(seed).choice(len(p), num_sampled, p=p)
    return (sampled.astype(np.int64), (num_sampled * p[TRUE]).astype(np.float32),
            (num_sampled * p[sampled]).astype(np.float32))


UNIGRAMS = [3.0, 1.0, 2.0, 5.0, 4.0, 1.0]


def _unigram_p(distortion=0.5, reserved=1):
    w = np.zeros(len(UNIGRAMS) + reserved)
    w[reserved:] = np.asarray(UNIGRAMS) ** distortion
    return w / w.sum()


def _hits_ref(true_classes, sampled, num_true):
    rows, pos = np.nonzero((true_classes[:, :, None] == sampled[None, None, :]).any(1))
    return (rows.astype(np.int32), pos.astype(np.int64),
            np.full(rows.size, -np.finfo(np.float32).max, np.float32))


# -- sampled losses ---------------------------------------------------------------------------------
SAMPLED = np.array([3, 0, 5], np.int64)
TRUE_EXP = np.array([[0.4, 0.2], [0.3, 0.5]])
SAMPLED_EXP = np.array([0.25, 0.6, 0.15])


def _logits_ref(w, b, x, remove_hits):
    true_logits = np.einsum("bd,btd->bt", x, w[TRUE]) + b[TRUE] - np.log(TRUE_EXP)
    sampled_logits = x @ w[SAMPLED].T + b[SAMPLED] - np.log(SAMPLED_EXP)
    if remove_hits:
        hit = (TRUE[:, :, None] == SAMPLED[None, None, :]).any(1)
        sampled_logits = sampled_logits + np.where(hit, -np.finfo(np.float32).max, 0.0)
    logits = np.concatenate([true_logits, sampled_logits], 1)
    targets = np.concatenate([np.full(true_logits.shape, 0.5), np.zeros(sampled_logits.shape)],
                             1)
    return logits, targets


def _nce_ref(w, b, x, remove_accidental_hits=False):
    z, t = _logits_ref(w, b, x, remove_accidental_hits)
    return np.sum(np.maximum(z, 0) - z * t + np.log1p(np.exp(-np.abs(z))), 1)


def _softmax_ref(w, b, x, remove_accidental_hits=True):
    z, t = _logits_ref(w, b, x, remove_accidental_hits)
    z = z - z.max(1, keepdims=True)
    return -np.sum(t * (z - np.log(np.exp(z).sum(1, keepdims=True))), 1)


def _values():
    return (tf.constant(SAMPLED), tf.constant(TRUE_EXP, tf.float32),
            tf.constant(SAMPLED_EXP, tf.float32))


def _nce_fn(w, b, x, **kw):
    return tf.nn.nce_loss(w, b, TRUE, x, 3, 6, num_true=2, sampled_values=_values(), **kw)


def _softmax_fn(w, b, x, **kw):
    return tf.nn.sampled_softmax_loss(w, b, TRUE, x, 3, 6, num_true=2,
                                      sampled_values=_values(), **kw)


LOSS_SAMPLES = [Sample((rand(6, 3), rand(6), rand(2, 3)), name="hits_kept"),
                Sample((rand(6, 3), rand(6), rand(2, 3)), {"remove_accidental_hits": True},
                       name="hits_removed")]

ROWS = [
    OpInfo("random.log_uniform_candidate_sampler",
           lambda t: _seeded(tf.random.log_uniform_candidate_sampler, t, 2, 4, False, 9,
                             seed=31),
           lambda t: _sampler_ref(_log_uniform_p(9), 31, 4), [Sample((TRUE,))], grad=False,
           float32=False),
    OpInfo("nn.fixed_unigram_candidate_sampler",
           lambda t: _seeded(tf.nn.fixed_unigram_candidate_sampler, t, 2, 5, False, 7,
                             distortion=0.5, num_reserved_ids=1, unigrams=UNIGRAMS, seed=32),
           lambda t: _sampler_ref(_unigram_p(), 32, 5), [Sample((TRUE,))], grad=False,
           float32=False),
    OpInfo("nn.learned_unigram_candidate_sampler",
           lambda t: _first_call(tf.nn.learned_unigram_candidate_sampler, t, 2, 3, False, 6,
                                 seed=33, name="row_sampler_first_call")[0],
           lambda t: _rng(33).choice(6, 3, p=np.full(6, 1 / 6)).astype(np.int64),
           [Sample((TRUE,))], grad=False, float32=False,
           notes="only the first call of a sampler (uniform counts) is deterministic here"),
    OpInfo("nn.all_candidate_sampler",
           lambda t: tf.nn.all_candidate_sampler(t, 2, 5, True),
           lambda t: (np.arange(5), np.ones((2, 2), np.float32), np.ones(5, np.float32)),
           [Sample((TRUE,))], grad=False, float32=False),
    OpInfo("nn.compute_accidental_hits", tf.nn.compute_accidental_hits, _hits_ref,
           [Sample((TRUE, np.array([4, 3, 2, 1], np.int64), 2))], grad=False, float32=False),
    OpInfo("nn.nce_loss", _nce_fn, _nce_ref, LOSS_SAMPLES),
    OpInfo("nn.sampled_softmax_loss", _softmax_fn, _softmax_ref,
           [LOSS_SAMPLES[0], Sample(LOSS_SAMPLES[1].args, name="hits_removed_default")]),
]
