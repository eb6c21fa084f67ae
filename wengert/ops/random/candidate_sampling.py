"""Candidate samplers for sampled losses (TensorFlow's `tf.random.*_candidate_sampler`, also in
`tf.nn`), and `compute_accidental_hits`.

Every sampler draws `num_sampled` classes from [0, range_max) with some distribution P and
returns (sampled_candidates, true_expected_count, sampled_expected_count): how often each
true and each sampled class is expected among the draws. With replacement that is
num_sampled * P(c); with `unique=True` the sampler keeps drawing until it has num_sampled
distinct classes, and after n tries a class came up with probability 1 - (1 - P(c))^n, which
TensorFlow reports as its expected count.

    log_uniform (Zipfian):   P(c) = (log(c + 2) - log(c + 1)) / log(range_max + 1)
    fixed_unigram:           P(c) proportional to unigrams[c]^distortion (classes below
                             num_reserved_ids get 0; `num_shards`/`shard` keep only the classes
                             c with c % num_shards == shard)
    learned_unigram:         P(c) proportional to 1 + the number of times c was a true class in
                             this sampler's earlier calls (counts kept per sampler, as
                             TensorFlow's kernel keeps them: eagerly per op attributes and seed,
                             as its eager kernel cache shares one kernel; in a graph per node)
    uniform:                 P(c) = 1 / range_max
    all_candidate_sampler:   every class once, expected counts 1 (a baseline for tests)

compute_accidental_hits(true_classes, sampled_candidates) lists the (row, sampled position) pairs
where a sampled class equals one of the row's true classes, with weight -FLT_MAX: sampled losses
add those weights to the logits so the hits drop out of the softmax.
None of these ops is differentiable (TensorFlow registers none).
"""
import itertools
import threading

import numpy as np

from ...framework import dtypes
from ...framework.context import state
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .seeded import _generator, _seed_attrs, raw_seed_attrs, run_raw

__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler",
           "fixed_unigram_candidate_sampler", "learned_unigram_candidate_sampler",
           "all_candidate_sampler", "compute_accidental_hits"]


def _draw(gen, probabilities, num_sampled, unique):
    """(sampled classes, tries) from a probability vector (with or without repeats)."""
    if not unique:
        return gen.choice(len(probabilities), num_sampled, p=probabilities), num_sampled
    chosen, taken, tries = [], set(), 0
    while len(chosen) < num_sampled:
        batch = gen.choice(len(probabilities), max(num_sampled - len(chosen), 1) * 2,
                           p=probabilities)
        for c in batch:
            tries += 1
            if int(c) not in taken:
                taken.add(int(c))
                chosen.append(int(c))
                if len(chosen) == num_sampled:
                    break
    return np.asarray(chosen), tries


def _expected(p, num_sampled, tries, unique):
    if not unique:
        return (num_sampled * p).astype(np.float32)
    with np.errstate(divide="ignore"):
        return (-np.expm1(tries * np.log1p(-np.minimum(p, 1.0)))).astype(np.float32)


def _sample(gen, probabilities, true_classes, num_sampled, unique):
    if unique and np.count_nonzero(probabilities) < num_sampled:
        raise InvalidArgumentError(f"num_sampled ({num_sampled}) is more than the "
                                   f"{np.count_nonzero(probabilities)} classes the sampler can "
                                   "draw when unique=True.")
    sampled, tries = _draw(gen, probabilities, num_sampled, unique)
    true_expected = _expected(probabilities[true_classes], num_sampled, tries, unique)
    return sampled.astype(np.int64), true_expected, _expected(probabilities[sampled],
                                                              num_sampled, tries, unique)


def _log_uniform_probabilities(range_max):
    c = np.arange(range_max, dtype=np.float64)
    return (np.log(c + 2) - np.log(c + 1)) / np.log(range_max + 1)


def _log_uniform_kernel(true_classes, *, num_sampled, unique, range_max, seed, seed2, stream):
    return _sample(_generator(seed, seed2, stream), _log_uniform_probabilities(range_max),
                   true_classes, num_sampled, unique)


def _unigram_probabilities(range_max, unigrams, distortion, num_reserved_ids, num_shards, shard):
    weights = np.zeros(range_max)
    weights[num_reserved_ids:num_reserved_ids + len(unigrams)] = \
        np.asarray(unigrams, np.float64)[:range_max - num_reserved_ids] ** distortion
    if num_shards > 1:
        weights[np.arange(range_max) % num_shards != shard] = 0.0
    return weights / weights.sum()


def _fixed_unigram_kernel(true_classes, *, num_sampled, unique, range_max, unigrams,
                          distortion, num_reserved_ids, num_shards, shard, seed, seed2, stream):
    p = _unigram_probabilities(range_max, unigrams, distortion, num_reserved_ids, num_shards,
                               shard)
    return _sample(_generator(seed, seed2, stream), p, true_classes, num_sampled, unique)


class _LearnedCounts:
    """The class counts of learned_unigram samplers, one table per sampler identity."""
    lock = threading.Lock()
    tables = {}


def _learned_unigram_kernel(true_classes, *, num_sampled, unique, range_max, seed, seed2,
                            stream, sampler):
    with _LearnedCounts.lock:
        counts = _LearnedCounts.tables.setdefault(sampler, np.ones(range_max))
        p = counts / counts.sum()
        result = _sample(_generator(seed, seed2, stream), p, true_classes, num_sampled, unique)
        np.add.at(counts, true_classes.reshape(-1), 1.0)
    return result


def _all_kernel(true_classes, *, num_sampled, unique, range_max=None, **_):
    sampled = np.arange(num_sampled, dtype=np.int64)
    return (sampled, np.ones(true_classes.shape, np.float32),
            np.ones(num_sampled, np.float32))


def _sampler_rule(true_classes, *, num_sampled, **_):
    if not true_classes.dtype.is_integer:
        raise InvalidArgumentError(f"true_classes must be int64, got {true_classes.dtype.name}.")
    return [(TensorShape([num_sampled]), dtypes.int64), (true_classes.shape, dtypes.float32),
            (TensorShape([num_sampled]), dtypes.float32)]


def _sampler_op(op_type, kernel, raw):
    return defop(op_type, kernel, shape=_sampler_rule, num_outputs=3, pure=False, grad=None,
                 raw=raw)


def _raw_sampler(op_def, true_classes, num_true, num_sampled, unique, range_max, seed, seed2,
                 name, **attrs):
    """A sampler run from tf.raw_ops' arguments (seed and seed2: the generator's pair)."""
    t = _true_classes(true_classes, num_true, op_def.type)
    attrs.update(_common(op_def.type, num_sampled, unique, range_max, None,
                         raw_seed_attrs(seed, seed2)))
    if op_def is LEARNED_UNIGRAM:
        attrs["sampler"] = _sampler_key(name, range_max, attrs)
    return execute(op_def, (t,), attrs, name)


def _raw_plain(op_def):
    """tf.raw_ops' signature of a sampler with no attributes of its own (the log-uniform and
    learned-unigram samplers); `op_def()` gives its OpDef."""
    def raw(true_classes, num_true, num_sampled, unique, range_max, seed=0, seed2=0, name=None):
        return _raw_sampler(op_def(), true_classes, num_true, num_sampled, unique, range_max,
                            seed, seed2, name)
    return raw


LOG_UNIFORM = _sampler_op("LogUniformCandidateSampler", _log_uniform_kernel,
                          _raw_plain(lambda: LOG_UNIFORM))
FIXED_UNIGRAM = _sampler_op(
    "FixedUnigramCandidateSampler", _fixed_unigram_kernel,
    lambda true_classes, num_true, num_sampled, unique, range_max, vocab_file="", distortion=1.0,
    num_reserved_ids=0, num_shards=1, shard=0, unigrams=(), seed=0, seed2=0, name=None:
    _raw_sampler(FIXED_UNIGRAM, true_classes, num_true, num_sampled, unique, range_max, seed,
                 seed2, name, **_unigram_attrs(range_max, vocab_file, distortion,
                                               num_reserved_ids, num_shards, shard, unigrams)))
LEARNED_UNIGRAM = _sampler_op("LearnedUnigramCandidateSampler", _learned_unigram_kernel,
                              _raw_plain(lambda: LEARNED_UNIGRAM))
ALL_CANDIDATES = _sampler_op(
    "AllCandidateSampler", _all_kernel,
    lambda true_classes, num_true, num_sampled, unique, seed=0, seed2=0, name=None:
    all_candidate_sampler(true_classes, num_true, num_sampled, unique, name=name))


def _true_classes(true_classes, num_true, what):
    t = convert_to_tensor(true_classes, dtype_hint=dtypes.int64)
    if not t.dtype.is_integer:
        raise TypeError(f"{what}: true_classes must be an integer tensor, got {t.dtype.name}.")
    if t.shape.rank is not None and (t.shape.rank != 2 or (
            t.shape[1] is not None and t.shape[1] != num_true)):
        raise ValueError(f"{what}: true_classes must have shape [batch_size, num_true="
                         f"{num_true}], got {t.shape}.")
    return t


def _common(what, num_sampled, unique, range_max, seed, seeds=None):
    if int(num_sampled) < 1 or int(range_max) < 1:
        raise ValueError(f"{what}: num_sampled and range_max must be >= 1, got {num_sampled} "
                         f"and {range_max}.")
    if unique and int(num_sampled) > int(range_max):
        raise InvalidArgumentError(f"{what}: num_sampled ({num_sampled}) cannot be greater "
                                   f"than range_max ({range_max}) when unique=True.")
    attrs = {"num_sampled": int(num_sampled), "unique": bool(unique),
             "range_max": int(range_max)}
    attrs.update(_seed_attrs(seed) if seeds is None else seeds)
    return attrs


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """Draw classes with the Zipfian P(c) = (log(c+2) - log(c+1)) / log(range_max+1) (class
    ids sorted by decreasing frequency): (sampled, true_expected_count,
    sampled_expected_count)."""
    t = _true_classes(true_classes, num_true, "log_uniform_candidate_sampler")
    attrs = _common("log_uniform_candidate_sampler", num_sampled, unique, range_max, seed)
    return execute(LOG_UNIFORM, (t,), attrs, name)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """Draw classes with P(c) proportional to unigrams[c]^distortion (ids below
    num_reserved_ids never drawn; one shard of the classes when num_shards > 1)."""
    unigram_attrs = _unigram_attrs(range_max, vocab_file, distortion, num_reserved_ids,
                                   num_shards, shard, unigrams)
    t = _true_classes(true_classes, num_true, "fixed_unigram_candidate_sampler")
    attrs = _common("fixed_unigram_candidate_sampler", num_sampled, unique, range_max, seed)
    attrs.update(unigram_attrs)
    return execute(FIXED_UNIGRAM, (t,), attrs, name)


def _unigram_attrs(range_max, vocab_file, distortion, num_reserved_ids, num_shards, shard,
                   unigrams):
    if vocab_file:
        with open(vocab_file, encoding="utf-8") as f:  # lines "word,count" as TensorFlow's
            unigrams = [float(line.rsplit(",", 1)[-1]) for line in f if line.strip()]
    unigrams = [float(u) for u in unigrams]
    if len(unigrams) + int(num_reserved_ids) != int(range_max):
        raise InvalidArgumentError(f"fixed_unigram_candidate_sampler: num_reserved_ids "
                                   f"({num_reserved_ids}) + the {len(unigrams)} unigrams must "
                                   f"equal range_max ({range_max}).")
    if not 0 <= int(shard) < int(num_shards):
        raise ValueError(f"fixed_unigram_candidate_sampler: shard must be in [0, num_shards), "
                         f"got {shard} of {num_shards}.")
    return {"unigrams": tuple(unigrams), "distortion": float(distortion),
            "num_reserved_ids": int(num_reserved_ids), "num_shards": int(num_shards),
            "shard": int(shard)}


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """Draw classes with P(c) proportional to 1 + how often c was a true class in this
    sampler's earlier calls (the counts are updated after each draw)."""
    t = _true_classes(true_classes, num_true, "learned_unigram_candidate_sampler")
    attrs = _common("learned_unigram_candidate_sampler", num_sampled, unique, range_max, seed)
    attrs["sampler"] = _sampler_key(name, range_max, attrs)
    return execute(LEARNED_UNIGRAM, (t,), attrs, name)


_GRAPH_NODES = itertools.count()


def _sampler_key(name, range_max, attrs):
    """Which counts a learned-unigram sampler uses: shared by eager calls with the same
    attributes, a table of its own for each graph node."""
    node = next(_GRAPH_NODES) if state.graph is not None else None
    return (name or "learned_unigram", int(range_max), attrs["seed"], attrs["seed2"], node)


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Every class 0..num_sampled-1, each expected once. Nothing is random, so `seed` changes
    nothing (TensorFlow's op takes it and ignores it too)."""
    del seed
    t = _true_classes(true_classes, num_true, "all_candidate_sampler")
    return execute(ALL_CANDIDATES, (t,), {"num_sampled": int(num_sampled),
                                          "unique": bool(unique)}, name)


# -- accidental hits --------------------------------------------------------------------------------
def _hits_kernel(true_classes, sampled_candidates, num_true):
    rows, positions = np.nonzero(
        (true_classes[:, :, None] == sampled_candidates[None, None, :]).any(axis=1))
    return (rows.astype(np.int32), positions.astype(np.int64),
            np.full(rows.size, -np.finfo(np.float32).max, np.float32))


def _hits_rule(true_classes, sampled_candidates, num_true):
    vector = TensorShape([None])
    return [(vector, dtypes.int32), (vector, dtypes.int64), (vector, dtypes.float32)]


COMPUTE_ACCIDENTAL_HITS = defop("ComputeAccidentalHits", _hits_kernel, shape=_hits_rule,
                                num_outputs=3, grad=None,
                                raw=lambda true_classes, sampled_candidates, num_true, seed=0,
                                seed2=0, name=None: compute_accidental_hits(
                                    true_classes, sampled_candidates, num_true, name=name))


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(indices, ids, weights): for every row i and sampled candidate equal to one of row i's
    true classes, the row i, the candidate's position in sampled_candidates, and -FLT_MAX.
    Nothing is random, so `seed` changes nothing (TensorFlow's op ignores it too)."""
    del seed
    t = _true_classes(true_classes, num_true, "compute_accidental_hits")
    s = convert_to_tensor(sampled_candidates, dtype_hint=dtypes.int64)
    return execute(COMPUTE_ACCIDENTAL_HITS, (t, s), {"num_true": int(num_true)}, name)


def _uniform_sampler_kernel(true_classes, *, num_sampled, unique, range_max, seed, seed2, stream):
    gen = _generator(seed, seed2, stream)
    p = 1.0 / range_max
    if not unique:
        sampled = gen.integers(0, range_max, num_sampled).astype(np.int64)
        expected = lambda n: np.full(n, num_sampled * p, np.float32)  # noqa: E731
    elif num_sampled > range_max:
        raise InvalidArgumentError(f"num_sampled ({num_sampled}) cannot be greater than "
                                   f"range_max ({range_max}) when unique=True.")
    else:
        chosen, tries = [], 0
        taken = set()
        while len(chosen) < num_sampled:
            tries += 1
            c = int(gen.integers(0, range_max))
            if c not in taken:
                taken.add(c)
                chosen.append(c)
        sampled = np.array(chosen, np.int64)
        value = -np.expm1(tries * np.log1p(-p)) if p < 1 else 1.0
        expected = lambda n: np.full(n, value, np.float32)  # noqa: E731
    true_expected = expected(true_classes.size).reshape(true_classes.shape)
    return sampled, true_expected, expected(num_sampled)


def _uniform_sampler_rule(true_classes, *, num_sampled, unique, range_max, **_):
    if not true_classes.dtype.is_integer:
        raise InvalidArgumentError(f"true_classes must be int64, got {true_classes.dtype.name}.")
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(f"num_sampled ({num_sampled}) cannot be greater than "
                                   f"range_max ({range_max}) when unique=True.")
    return [(TensorShape([num_sampled]), dtypes.int64), (true_classes.shape, dtypes.float32),
            (TensorShape([num_sampled]), dtypes.float32)]


UNIFORM_CANDIDATE_SAMPLER = defop("UniformCandidateSampler", _uniform_sampler_kernel,
                                  shape=_uniform_sampler_rule, num_outputs=3, pure=False,
                                  raw=lambda true_classes, num_true, num_sampled, unique,
                                  range_max, seed=0, seed2=0, name=None: run_raw(
                                      UNIFORM_CANDIDATE_SAMPLER, (true_classes,), {
                                          "num_sampled": int(num_sampled), "unique": bool(unique),
                                          "range_max": int(range_max)}, seed, seed2, name))


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                              name=None):
    """(sampled_candidates, true_expected_count, sampled_expected_count): `num_sampled` classes
    drawn uniformly from [0, range_max) (distinct when `unique`), for sampled losses.
    `true_classes` is an int64 [batch, num_true] tensor."""
    true_classes = convert_to_tensor(true_classes, dtype_hint=dtypes.int64)
    if true_classes.shape.rank is not None and (true_classes.shape.rank != 2 or (
            true_classes.shape[1] is not None and true_classes.shape[1] != num_true)):
        raise ValueError(f"uniform_candidate_sampler: true_classes must have shape "
                         f"[batch_size, num_true={num_true}], got {true_classes.shape}.")
    if unique and int(num_sampled) > int(range_max):
        raise InvalidArgumentError(f"uniform_candidate_sampler: num_sampled ({num_sampled}) "
                                   f"cannot be greater than range_max ({range_max}) when "
                                   "unique=True.")
    attrs = {"num_sampled": int(num_sampled), "unique": bool(unique),
             "range_max": int(range_max)}
    attrs.update(_seed_attrs(seed))
    return execute(UNIFORM_CANDIDATE_SAMPLER, (true_classes,), attrs, name)
