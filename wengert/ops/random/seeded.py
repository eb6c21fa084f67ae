"""Random numbers: `random.normal`, `random.uniform`, `random.truncated_normal` and
`random.set_seed`, with TensorFlow's seeds over NumPy Generators.

Seeds (TensorFlow's rules, `tf.random.set_seed`): every random op runs with a pair
(global seed, op seed), chosen when the op is created:
- a global seed set and no op seed: the op seed comes from a counter-like sequence, a
  `random.Random(global_seed)` drawing ints in [0, 2^31 - 1) eagerly (TensorFlow's own scheme), the
  number of ops already in the graph when building one; so the same program gives the same numbers;
- an op seed alone: the global seed is TensorFlow's default, 87654321;
- neither: fresh entropy from the operating system, different every run.
The pair (0, 0) becomes (0, 2^31 - 1), as in TensorFlow. A pair names a NumPy Generator,
`np.random.default_rng([seed, seed2])` (PCG64 over a SeedSequence of the two ints), so the numbers
can be reproduced with NumPy alone. Eagerly one Generator serves every op with the same pair, and
`set_seed` forgets them: calling `normal(seed=1)` twice gives two different tensors, and calling
`set_seed(s)` again replays the same sequence, as TensorFlow's cached eager kernels do. In a graph
(Session or traced function) each op has its own Generator, advanced by each run.

Kernels: RandomStandardNormal (Generator.standard_normal), RandomUniform (Generator.random, in
[0, 1)), RandomUniformInt (Generator.integers, in [minval, maxval)), TruncatedNormal (standard
normals redrawn until they lie within 2 standard deviations). The public functions scale and
shift these with ordinary ops (normal = standard normal * stddev + mean), so, as in TensorFlow,
gradients reach mean, stddev, minval and maxval through Mul and Add; the random ops themselves are
not differentiable. They are not pure: graph executors never fold or merge them (their OpDefs say
`pure=False`).
"""
import itertools
import random as _pyrandom

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

__all__ = ["normal", "uniform", "truncated_normal", "set_seed", "get_seed"]

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


class _Seeds:
    """The global seed, the eager op-seed sequence, and the Generators in use."""

    global_seed = None
    op_seeds = None        # random.Random(global seed): eager op seeds
    eager = {}             # (seed, seed2) -> Generator, reset by set_seed
    graph = {}             # stream id of a graph op -> Generator
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
                op_seed = len(getattr(graph, "_ops", ()))
            else:
                if _Seeds.op_seeds is None:  # a graph's seed, but building eagerly: restart
                    _Seeds.op_seeds = _pyrandom.Random(global_seed)
                op_seed = _Seeds.op_seeds.randint(0, _MAXINT32 - 1)
        seeds = (int(global_seed), int(op_seed))
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, int(op_seed))
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


# -- kernels ----------------------------------------------------------------------------------
def float_draw(draw, shape, dtype):
    """`draw(shape, dtype)` for float32/float64; other float dtypes by casting float32 draws
    (the seeded and the stateless kernels alike)."""
    np_dtype = np.dtype(dtype)
    if np_dtype in (np.float32, np.float64):
        return draw(shape, np_dtype)
    return draw(shape, np.float32).astype(np_dtype)


def _normal_kernel(*extra, shape, dtype, seed, seed2, stream):
    shape = resolve_shape(shape, extra) if extra else shape
    gen = _generator(seed, seed2, stream)
    return float_draw(lambda s, d: gen.standard_normal(s, d), shape, dtype)


def _uniform_kernel(*extra, shape, dtype, seed, seed2, stream):
    shape = resolve_shape(shape, extra) if extra else shape
    gen = _generator(seed, seed2, stream)
    return float_draw(lambda s, d: gen.random(s, d), shape, dtype)


def _truncated_kernel(*extra, shape, dtype, seed, seed2, stream):
    shape = resolve_shape(shape, extra) if extra else shape
    return float_draw(truncated_normal_draw(_generator(seed, seed2, stream)), shape, dtype)


def truncated_normal_draw(gen):
    """draw(shape, dtype) of `gen`'s standard normal samples, each one beyond two standard
    deviations drawn again until none is left (TensorFlow's truncated normal)."""
    def draw(s, d):
        out = gen.standard_normal(s, d)
        bad = np.abs(out) > 2
        while bad.any():
            out[bad] = gen.standard_normal(int(bad.sum()), d)
            bad = np.abs(out) > 2
        return out
    return draw


def _uniform_int_kernel(*extra, shape, dtype, minval, maxval, seed, seed2, stream):
    shape = resolve_shape(shape, extra) if extra else shape
    return _generator(seed, seed2, stream).integers(minval, maxval, shape, np.dtype(dtype))


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
    rnd = _draw(RANDOM_UNIFORM, shape, dtype, seed, name, "random.uniform")
    maxval = 1 if maxval is None else maxval
    if _is_default(minval, 0) and _is_default(maxval, 1):
        return rnd
    minval = convert_to_tensor(minval, dtype=dtype)
    span = subtract(convert_to_tensor(maxval, dtype=dtype), minval)
    return add(multiply(rnd, span), minval)


def int_bound(value, what):
    """A bound of an integer uniform draw (a Python or NumPy integer, or an eager integer
    scalar tensor) as an int; ValueError naming `what` otherwise."""
    array = array_of(value)
    value = np.asarray(value if array is None else array)
    if value.ndim or value.dtype.kind not in "iu":
        raise ValueError(f"{what} must be an integer scalar for integer dtypes, got {value!r}.")
    return int(value)


# -- dropout --------------------------------------------------------------------------------------


