"""Random numbers: `random.normal`, `random.uniform`, `random.truncated_normal` and
`random.set_seed`, with TensorFlow's seeds and TensorFlow's numbers.

Seeds (TensorFlow's rules, `tf.random.set_seed`): every random op runs with a pair
(global seed, op seed), chosen when the op is created:
- a global seed set and no op seed: eagerly, the op seed is the next draw of
  `random.Random(global_seed).randint(0, 2^31 - 1)` (TensorFlow's internal_operation_seed); in a
  graph, the number of seeds the graph has handed out so far (0, 1, 2, ...);
- an op seed alone: the global seed is TensorFlow's default, 87654321;
- neither: fresh entropy from the operating system, different every run.
Seeds are taken modulo 2^31 - 1, and the pair (0, 0) becomes (0, 2^31 - 1), as in TensorFlow.

A pair keys a Philox generator (philox.py) as TensorFlow's GuardedPhiloxRandom does: key = seed,
counter = seed2 * 2^64. A kernel drawing n numbers reserves 256 n blocks, so its next call
continues the stream. Eagerly TensorFlow keeps one kernel per op type, dtype and seed pair, and
so does wengert: `uniform([2], seed=1)` twice gives two different tensors (the second continues
the first's stream), and `set_seed` forgets every eager kernel, so the same program replays the
same numbers. In a graph (Session or traced function) each op has its own stream, advanced by
each run. The numbers are those of philox_draws.py (TensorFlow's conversions).

Kernels: RandomStandardNormal, RandomUniform (in [0, 1)), RandomUniformInt (in [minval,
maxval)), TruncatedNormal (within two standard deviations). The public functions scale and
shift these with ordinary ops (normal = standard normal * stddev + mean), so, as in TensorFlow,
gradients reach mean, stddev, minval and maxval through Mul and Add; the random ops themselves are
not differentiable. They are not pure: graph executors never fold or merge them (their OpDefs say
`pure=False`). The samplers whose algorithms are NumPy's (gamma, Poisson, candidate sampling,
fractional pooling) draw from a NumPy Generator named by the same pair (`_generator`).
"""
import itertools
import os
import random as _pyrandom
import weakref

import numpy as np

from ...framework import dtypes
from ...framework.context import state
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import Tensor, array_of, convert_to_tensor
from ..creation_ops import constant_value
from ..math_ops import add, multiply, subtract
from ..shape_rules import int_tuple, resolve_shape, shape_arg, static_shape_arg
from . import philox_draws as draws
from .philox import seeded_key_counter, skip

__all__ = ["normal", "uniform", "truncated_normal", "set_seed", "get_seed"]

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


class _Seeds:
    """The global seed, the eager op-seed sequence, and the Generators in use."""

    global_seed = None
    op_seeds = None        # random.Random(global seed): eager op seeds
    eager = {}             # (seed, seed2) -> Generator, reset by set_seed
    graph = {}             # stream id of a graph op -> Generator
    eager_philox = {}      # (op type, dtype, seed, seed2) -> [key, counter], reset by set_seed
    graph_philox = {}      # stream id of a graph op -> [key, counter]
    graph_counts = weakref.WeakKeyDictionary()  # graph -> op seeds it handed out
    streams = itertools.count(1)
    unseeded = np.random.default_rng()


def set_seed(seed):
    """Set the global random seed (in a graph being built: that graph's seed), making the
    random ops created afterwards reproducible; resets the eager op-seed sequence."""
    seed = None if seed is None else int(seed)
    graph = state.graph
    if graph is not None:
        graph.seed = seed
        return
    _Seeds.global_seed = seed
    _Seeds.op_seeds = None if seed is None else _pyrandom.Random(seed)
    _Seeds.eager = {}
    _Seeds.eager_philox = {}


def get_seed(op_seed):
    """The (global seed, op seed) pair an op created now uses, TensorFlow's rules; (None, None)
    when neither seed is set."""
    graph = state.graph
    global_seed = getattr(graph, "seed", None) if graph is not None else None
    if global_seed is None:
        global_seed = _Seeds.global_seed
    if global_seed is not None:
        if op_seed is None:
            if graph is not None:
                op_seed = _Seeds.graph_counts.get(graph, 0)
                _Seeds.graph_counts[graph] = op_seed + 1
            else:
                if _Seeds.op_seeds is None:  # a graph's seed, but building eagerly: restart
                    _Seeds.op_seeds = _pyrandom.Random(global_seed)
                op_seed = _Seeds.op_seeds.randint(0, _MAXINT32)
        seeds = (int(global_seed) % _MAXINT32, int(op_seed) % _MAXINT32)
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32)
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _seed_attrs(seed):
    """Attributes naming an op's Generator: its seed pair, and in a graph its own stream."""
    seed, seed2 = get_seed(seed)
    stream = next(_Seeds.streams) if state.graph is not None else 0
    return {"seed": seed, "seed2": seed2, "stream": stream}


def raw_seed_attrs(seed, seed2):
    """`_seed_attrs` for TensorFlow's raw random ops, given the pair itself (seed=, seed2=):
    (0, 0) draws fresh entropy, any other pair names its Generator; no global seed applies."""
    stream = next(_Seeds.streams) if state.graph is not None else 0
    if int(seed) == 0 and int(seed2) == 0:
        return {"seed": None, "seed2": None, "stream": stream}
    return {"seed": int(seed), "seed2": int(seed2), "stream": stream}


def run_raw(op_def, inputs, attrs, seed, seed2, name):
    """A random op run from TensorFlow's raw-op arguments: its inputs, attributes and seeds."""
    attrs = dict(attrs, **raw_seed_attrs(seed, seed2))
    return execute(op_def, tuple(convert_to_tensor(t) for t in inputs), attrs, name)


def _generator(seed, seed2, stream):
    if stream:
        gen = _Seeds.graph.get(stream)
        if gen is None:
            gen = _Seeds.graph[stream] = np.random.default_rng(
                None if seed is None else [seed, seed2])
        return gen
    if seed is None:
        return _Seeds.unseeded
    gen = _Seeds.eager.get((seed, seed2))
    if gen is None:
        gen = _Seeds.eager[(seed, seed2)] = np.random.default_rng([seed, seed2])
    return gen


def reserve(op_type, dtype, seed, seed2, stream, blocks):
    """The (key, counter) of a seeded kernel for this call; its stream then skips `blocks`
    (TensorFlow's GuardedPhiloxRandom: eagerly one stream per op type, dtype and seed pair; in
    a graph one per op)."""
    table = _Seeds.graph_philox if stream else _Seeds.eager_philox
    name = stream or (op_type, str(dtype), seed, seed2)
    state = table.get(name)
    if state is None:
        if seed is None:
            words = int.from_bytes(os.urandom(24), "little")
            state = [words & ((1 << 64) - 1), words >> 64]
        else:
            state = list(seeded_key_counter(seed, seed2))
        table[name] = state
    key, counter = state
    state[1] = skip(counter, blocks)
    return key, counter


# -- kernels ----------------------------------------------------------------------------------
def _philox_kernel(op_type, draw):
    def kernel(*extra, shape, dtype, seed, seed2, stream):
        shape = tuple(resolve_shape(shape, extra) if extra else shape)
        count = int(np.prod(shape, dtype=np.int64))
        key, counter = reserve(op_type, np.dtype(dtype), seed, seed2, stream, 256 * count)
        return draw(key, counter, count, dtype).reshape(shape)
    return kernel


_normal_kernel = _philox_kernel("RandomStandardNormal", draws.normals)
_uniform_kernel = _philox_kernel("RandomUniform", draws.uniform_floats)


def seeded_uniform(shape, dtype, seed, seed2, stream):
    """What RandomUniform draws for these seeds now (dropout's keep flags): in [0, 1)."""
    return _uniform_kernel(shape=shape, dtype=dtype, seed=seed, seed2=seed2, stream=stream)
_truncated_kernel = _philox_kernel("TruncatedNormal", draws.truncated_normals)


def _uniform_int_kernel(*extra, shape, dtype, minval, maxval, seed, seed2, stream):
    if minval >= maxval:
        raise InvalidArgumentError(f"RandomUniformInt: need minval < maxval, got "
                                   f"minval={minval}, maxval={maxval}.")
    shape = tuple(resolve_shape(shape, extra) if extra else shape)
    count = int(np.prod(shape, dtype=np.int64))
    key, counter = reserve("RandomUniformInt", np.dtype(dtype), seed, seed2, stream, 256 * count)
    return draws.uniform_ints(key, counter, count, dtype, minval, maxval).reshape(shape)


def _samples_rule(*extra, shape, dtype, **_):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise InvalidArgumentError(f"dtype must be a floating-point type, got {dtype.name}.")
    return static_shape_arg(shape, extra), dtype


def _int_rule(*extra, shape, dtype, minval, maxval, **_):
    if minval >= maxval:
        raise InvalidArgumentError(f"need minval < maxval, got minval={minval}, "
                                   f"maxval={maxval}.")
    return static_shape_arg(shape, extra), dtypes.as_dtype(dtype)


def _random_op(op_type, kernel, rule, raw=None):
    def raw_draw(shape, dtype, seed=0, seed2=0, name=None):  # tf.raw_ops: TensorFlow's arguments
        shape, extra = _sample_shape(shape, op_type)
        attrs = {"shape": shape, "dtype": dtypes.as_dtype(dtype)._np}
        return execute(op_def, extra, dict(attrs, **raw_seed_attrs(seed, seed2)), name)
    op_def = defop(op_type, kernel, shape=rule, grad=None, pure=False, raw=raw or raw_draw)
    return op_def


def _raw_uniform_int(shape, minval, maxval, seed=0, seed2=0, name=None):
    """tf.raw_ops.RandomUniformInt: integers in [minval, maxval) of minval's dtype."""
    shape, extra = _sample_shape(shape, "RandomUniformInt")
    attrs = {"shape": shape, "dtype": convert_to_tensor(minval).dtype._np,
             "minval": int_bound(minval, "random.uniform: minval"),
             "maxval": int_bound(maxval, "random.uniform: maxval")}
    return execute(RANDOM_UNIFORM_INT, extra, dict(attrs, **raw_seed_attrs(seed, seed2)), name)


RANDOM_NORMAL = _random_op("RandomStandardNormal", _normal_kernel, _samples_rule)
RANDOM_UNIFORM = _random_op("RandomUniform", _uniform_kernel, _samples_rule)
RANDOM_UNIFORM_INT = _random_op("RandomUniformInt", _uniform_int_kernel, _int_rule,
                                raw=_raw_uniform_int)
TRUNCATED_NORMAL = _random_op("TruncatedNormal", _truncated_kernel, _samples_rule)


# -- public functions ---------------------------------------------------------------------------
def _shape(shape, what):
    """A shape known while the graph is built, as a tuple of ints (dropout's noise_shape)."""
    if isinstance(shape, Tensor) or hasattr(shape, "_as_tensor"):
        value = array_of(convert_to_tensor(shape))
        if value is None:
            value = constant_value(shape)
        if value is None:
            raise ValueError(f"{what}: the shape must be known when the op is created (a list "
                             "of ints, or a constant tensor); got a tensor computed in the graph.")
        shape = value.tolist()
    return int_tuple(shape, f"{what}: shape")


def _sample_shape(shape, what):
    """A sample shape as (attribute, extra inputs): in a graph it may be computed and known
    only when it runs (tf.random.normal(tf.shape(x))), shapes.shape_arg."""
    return shape_arg(shape, f"{what}: shape")


def _draw(op_def, shape, dtype, seed, name, what):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise InvalidArgumentError(f"{what}: dtype must be a floating-point type, got "
                                   f"{dtype.name}.")
    shape, extra = _sample_shape(shape, what)
    attrs = {"shape": shape, "dtype": dtype._np}
    attrs.update(_seed_attrs(seed))
    return execute(op_def, extra, attrs, name)


def _is_default(value, default):
    return type(value) in (int, float) and value == default


def _scaled(rnd, scale, shift, dtype):
    """rnd * scale + shift, skipping the identity steps (a Python 1 and 0)."""
    if not _is_default(scale, 1):
        rnd = multiply(rnd, convert_to_tensor(scale, dtype=dtype))
    if not _is_default(shift, 0):
        rnd = add(rnd, convert_to_tensor(shift, dtype=dtype))
    return rnd


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal draws of `shape`: standard normals * stddev + mean (differentiable in both)."""
    rnd = _draw(RANDOM_NORMAL, shape, dtype, seed, name, "random.normal")
    return _scaled(rnd, stddev, mean, dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal draws within two standard deviations of the mean (others are redrawn)."""
    rnd = _draw(TRUNCATED_NORMAL, shape, dtype, seed, name, "random.truncated_normal")
    return _scaled(rnd, stddev, mean, dtype)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform draws in [minval, maxval) (maxval defaults to 1 for floats; integer dtypes need
    it). Floats are u * (maxval - minval) + minval for u uniform in [0, 1)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"random.uniform: maxval must be given for dtype {dtype.name}.")
        shape, extra = _sample_shape(shape, "random.uniform")
        attrs = {"shape": shape, "dtype": dtype._np,
                 "minval": int_bound(minval, "random.uniform: minval"),
                 "maxval": int_bound(maxval, "random.uniform: maxval")}
        attrs.update(_seed_attrs(seed))
        return execute(RANDOM_UNIFORM_INT, extra, attrs, name)
    if not dtype.is_floating:
        raise ValueError(f"random.uniform: dtype must be a float or integer type, got "
                         f"{dtype.name}.")
    maxval = 1 if maxval is None else maxval
    if state.graph is not None and not (_is_default(minval, 0) and _is_default(maxval, 1)):
        return _graph_uniform(shape, minval, maxval, dtype, seed, name)
    rnd = _draw(RANDOM_UNIFORM, shape, dtype, seed, name, "random.uniform")
    if _is_default(minval, 0) and _is_default(maxval, 1):
        return rnd
    minval = convert_to_tensor(minval, dtype=dtype)
    span = subtract(convert_to_tensor(maxval, dtype=dtype), minval)
    return add(multiply(rnd, span), minval)


def _graph_uniform(shape, minval, maxval, dtype, seed, name):
    """uniform's float draws in a graph, named as TensorFlow names them: in the scope `name`
    (else "random_uniform"), `min`, `max`, `RandomUniform`, `sub`, `mul`, and the sum taking the
    scope's name (a variable's initializer is `<variable>/Initializer/random_uniform`)."""
    with state.graph.name_scope(name or "random_uniform") as scope:
        low = convert_to_tensor(minval, dtype=dtype, name="min")
        high = convert_to_tensor(maxval, dtype=dtype, name="max")
        rnd = _draw(RANDOM_UNIFORM, shape, dtype, seed, None, "random.uniform")
        return add(multiply(rnd, subtract(high, low, name="sub"), name="mul"), low, name=scope)


def int_bound(value, what):
    """A bound of an integer uniform draw (a Python or NumPy integer, or an eager integer
    scalar tensor) as an int; ValueError naming `what` otherwise."""
    array = array_of(value)
    value = np.asarray(value if array is None else array)
    if value.ndim or value.dtype.kind not in "iu":
        raise ValueError(f"{what} must be an integer scalar for integer dtypes, got {value!r}.")
    return int(value)


# -- dropout --------------------------------------------------------------------------------------


