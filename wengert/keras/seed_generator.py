"""Keras 3's `SeedGenerator`: the seed state behind `keras.random`, and how a `seed=` argument
becomes the two-integer seed of a stateless random op.

Every draw in keras.random is stateless (random/stateless.py): a pure function of a seed, a
tensor of two integers. Where that seed comes from is Keras's rule:
- `seed=<int> s`: the seed [s, 0], the same numbers on every call (Keras makes a fresh
  generator for the int each time);
- `seed=<SeedGenerator>`: its state [s, n], after which the state becomes [s, n + 1], so
  successive draws differ and the sequence replays from the same initial seed;
- `seed=None`: the process-wide generator, whose state [a, b] moves to
  ((a + 1) * 5387 mod 933199, (b + 1) * 5387 mod 933199) on each draw (Keras's unordered step).
  It is made on first use from Python's `random` (an int in [1, 10^9]), and
  `keras.utils.set_random_seed` forgets it, so a seeded program draws the same numbers again.

The state is a non-trainable int64 Variable. Inside a traced function (`tf.function`, or the
step `fit` traces) the Variable is captured by reference, so each run of the trace advances
it exactly as eager draws would. A SeedGenerator must therefore exist outside the trace: made
in a layer's `__init__` (Keras's way: `self.seed_generator = keras.random.SeedGenerator(1337)`),
in `build`, or before the function is called. One made in the traced body would be a new
generator on every call, which a trace cannot hold; that is refused with an error naming the
fix, before any variable is created.
"""
import random as _pyrandom

import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from ..framework.variables import Variable
from ..ops.math_ops import add, floormod, multiply
from ..tracing.func_graph import init_scope
from . import backend

__all__ = ["SeedGenerator", "draw_seed", "global_seed_generator", "reset_global_seed_generator",
           "make_default_seed"]

_GLOBAL = [None]
_IN_TRACE = ("keras.random.SeedGenerator: created inside a traced function (tf.function, or "
             "the step that fit/evaluate/predict trace), whose body runs again for each trace, "
             "so every call would start a new generator and repeat the same numbers. Create "
             "the generator once, outside the traced code, and pass it as `seed=`: in a layer, "
             "`self.seed_generator = keras.random.SeedGenerator(1337)` in `__init__` (or "
             "`build`), then `keras.random.normal(shape, seed=self.seed_generator)` in `call`; "
             "in a plain function, make it before the function and close over it.")


def make_default_seed():
    """A seed for a generator given none: Python's `random`, so set_random_seed fixes it."""
    return _pyrandom.randint(1, int(1e9))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class SeedGenerator:
    """A seed state [seed, counter] advanced by each draw that takes it as `seed=`."""

    def __init__(self, seed=None, name=None, **kwargs):
        kwargs.pop("backend", None)  # Keras's backend override: there is one backend here
        if kwargs:
            raise ValueError(f"SeedGenerator: unrecognized keyword arguments {sorted(kwargs)}; "
                             "it takes `seed` and `name`.")
        initial = make_default_seed() if seed is None else seed
        if not _is_int(initial):
            raise ValueError(f"SeedGenerator: argument `seed` must be a Python int (or None "
                             f"for a random one). Received: seed={seed!r} (of type "
                             f"{type(seed).__name__}); pass int(seed).")
        graph = state.graph
        if graph is not None and getattr(graph, "lifts_variables", False) \
                and not graph.allow_variable_creation:
            raise ValueError(_IN_TRACE)
        self.name = name or backend.unique_name("seed_generator")
        self._initial_seed = seed
        self.state = Variable(np.array([initial, 0], np.int64), trainable=False,
                              name="seed_generator_state", dtype=dtypes.int64)

    def next(self, ordered=True):
        """The current state (an int64 tensor [2]); the state then moves one step on."""
        current = self.state.read_value()
        if ordered:
            self.state.assign(add(current, np.array([0, 1], np.int64)))
        else:
            self.state.assign(floormod(multiply(add(current, np.int64(1)), np.int64(5387)),
                                       np.int64(933199)))
        return current

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<SeedGenerator name={self.name!r} seed={self._initial_seed!r}>"


def global_seed_generator():
    """The process-wide generator behind `seed=None`, made on first use (outside any trace)."""
    if _GLOBAL[0] is None:
        with init_scope():
            _GLOBAL[0] = SeedGenerator(name="global_seed_generator")
    return _GLOBAL[0]


def reset_global_seed_generator():
    """Forget the process-wide generator; the next unseeded draw makes it again."""
    _GLOBAL[0] = None


def draw_seed(seed, what="keras.random"):
    """The int64 tensor [2] a stateless op takes, from an int, a SeedGenerator or None."""
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if _is_int(seed):
        return convert_to_tensor(np.array([seed, 0], np.int64))
    if seed is None:
        return global_seed_generator().next(ordered=False)
    raise ValueError(f"{what}: argument `seed` must be an int or a keras.random.SeedGenerator "
                     f"(or None for the global generator). Received: seed={seed!r} (of type "
                     f"{type(seed).__name__}); for a fixed seed pass an int, for a different "
                     "draw on each call pass a SeedGenerator.")
