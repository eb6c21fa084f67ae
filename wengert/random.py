"""`wengert.random`: TensorFlow's `tf.random` namespace.

Seeded draws with TensorFlow's global/op seed rules (ops/random/seeded.py, distributions.py),
stateless draws that are pure functions of a seed tensor (ops/random/stateless.py), `Generator`,
whose state lives in a Variable (ops/random/generator.py), and the candidate samplers of sampled
losses (ops/random/candidate_sampling.py).
"""
import types as _types

from .ops.random.candidate_sampling import (all_candidate_sampler,
                                            fixed_unigram_candidate_sampler,
                                            learned_unigram_candidate_sampler,
                                            log_uniform_candidate_sampler,
                                            uniform_candidate_sampler)
from .ops.random.distributions import categorical, gamma, poisson, shuffle
from .ops.random.index_shuffle import index_shuffle
from .ops.random.generator import (Algorithm, Generator, create_rng_state, get_global_generator,
                                   set_global_generator)
from .ops.random.seeded import normal, set_seed, truncated_normal, uniform
from .ops.random.shuffle import stateless_shuffle
from .ops.random.stateless import (stateless_binomial, stateless_categorical, stateless_fold_in,
                                   stateless_gamma, stateless_normal, stateless_poisson,
                                   stateless_split, stateless_truncated_normal,
                                   stateless_uniform)

fold_in = stateless_fold_in
split = stateless_split

experimental = _types.SimpleNamespace(
    Algorithm=Algorithm, Generator=Generator, create_rng_state=create_rng_state,
    get_global_generator=get_global_generator, set_global_generator=set_global_generator,
    stateless_fold_in=stateless_fold_in, stateless_split=stateless_split,
    index_shuffle=index_shuffle, stateless_shuffle=stateless_shuffle)

__all__ = ["normal", "uniform", "truncated_normal", "set_seed", "categorical", "gamma",
           "poisson", "shuffle", "uniform_candidate_sampler", "stateless_normal",
           "stateless_uniform", "stateless_truncated_normal", "stateless_categorical",
           "stateless_binomial", "stateless_gamma", "stateless_poisson", "Generator",
           "Algorithm", "create_rng_state", "get_global_generator", "set_global_generator",
           "fold_in", "split", "experimental", "all_candidate_sampler",
           "fixed_unigram_candidate_sampler", "learned_unigram_candidate_sampler",
           "log_uniform_candidate_sampler"]
