"""Iterating a dataset: eagerly, and inside `tf.function`.

Eagerly, `iter(dataset)` returns an `OwnedIterator` over a new pass; `next()` runs the stages
(never recorded by an active GradientTape, as in TensorFlow) and returns the element as tensors.
`get_next()` raises `OutOfRangeError` at the end instead of StopIteration;
`get_next_as_optional()` returns an `Optional` that may be empty.

Inside a traced function, `iter(dataset)` adds an `AnonymousIteratorV3` op (a new pass each time
the function runs) and each `next()` an `IteratorGetNext` op (ops/io/iterators.py) that pulls an
element when the graph runs. Without AutoGraph, a Python `for` loop is unrolled while tracing,
which needs a known, moderate number of elements (`cardinality()`); for other datasets the loop
raises and says what to do. AutoGraph (or a hand-written `while_loop`) uses
`get_next_as_optional()`, whose `has_value()` is a bool tensor, to loop over any dataset in the
graph.
"""

import numpy as np

from ..framework.context import state, state_scope
from ..framework.errors import InvalidArgumentError, OutOfRangeError
from ..framework.execute import execute
from ..framework.tensor import array_of, constant
from ..ops.io.iterators import ANONYMOUS_ITERATOR, ITERATOR_GET_NEXT, ITERATOR_GET_NEXT_AS_OPTIONAL
from . import structure as st

__all__ = ["OwnedIterator", "Optional", "make_iterator", "numpy_iterator", "without_recording",
           "UNROLL_LIMIT"]

UNROLL_LIMIT = 1000  # elements a `for` loop inside tf.function may unroll without AutoGraph


def without_recording():
    """Run pipeline stages eagerly and unrecorded, whatever the caller is doing."""
    return state_scope(None)


class Optional:
    """A value that may be absent: `has_value()`, `get_value()` (tf.experimental.Optional)."""

    def __init__(self, has_value, value, element_spec):
        self._has_value, self._value, self._spec = has_value, value, element_spec

    @staticmethod
    def empty(element_spec):
        return Optional(constant(False), None, element_spec)

    @staticmethod
    def from_value(value):
        structure, components = st.normalize(value, "Optional.from_value")
        return Optional(constant(True), value, st.pack(structure, st.specs_of(components)))

    def has_value(self, name=None):
        return self._has_value

    def get_value(self, name=None):
        known = getattr(self._has_value, "_value", None)  # None in a graph: checked when run
        if self._value is None or (known is not None and not bool(known)):
            raise InvalidArgumentError("Optional.get_value: the optional has no value.")
        return self._value

    @property
    def element_spec(self):
        return self._spec


class _DatasetIterator:
    """What both kinds of iterator share: the dataset they iterate, whose element_spec is theirs,
    and being their own iterator (`for x in it` continues where `next(it)` stopped)."""

    def __init__(self, dataset):
        self._dataset = dataset

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self):
        return self


class OwnedIterator(_DatasetIterator):
    """An eager iterator over one pass of a dataset."""

    def __init__(self, dataset):
        super().__init__(dataset)
        with without_recording():
            self._stage = dataset._stage()

    def _next_components(self):
        with without_recording():
            return next(self._stage)

    def __next__(self):
        return st.to_tensors(self._dataset._structure, self._next_components())

    def get_next(self, name=None):
        try:
            return self.__next__()
        except StopIteration:
            raise OutOfRangeError("End of sequence: the iterator has no more elements.") from None

    def get_next_as_optional(self):
        try:
            return Optional.from_value(self.__next__())
        except StopIteration:
            return Optional.empty(self.element_spec)

    def close(self):
        close = getattr(self._stage, "close", None)
        if close is not None:
            close()


class _Resource:
    """What the iterator ops of a traced function hold: the dataset and the current pass."""

    def __init__(self, dataset):
        self.dataset, self.stage = dataset, None

    def start(self):
        with without_recording():
            self.stage = self.dataset._stage()

    def next_components(self):
        with without_recording():
            return next(self.stage, None)

    def __repr__(self):
        return f"<iterator over {type(self.dataset).__name__}>"


class GraphIterator(_DatasetIterator):
    """`iter(dataset)` while a function is traced (see the module docstring)."""

    def __init__(self, dataset):
        super().__init__(dataset)
        self._resource = _Resource(dataset)
        self._handle = execute(ANONYMOUS_ITERATOR, (), {"iterator": self._resource},
                               "AnonymousIteratorV3")
        self._unrolled = 0

    def _attrs(self):
        return {"iterator": self._resource, "specs": self._dataset._specs}

    def get_next(self, name=None):
        outs = execute(ITERATOR_GET_NEXT, (self._handle,), self._attrs(), name or "IteratorGetNext")
        return st.pack(self._dataset._structure, list(outs))

    def __next__(self):
        card = self._dataset._cardinality
        if card < 0 or card > UNROLL_LIMIT:
            what = ("infinite" if card == -1 else "of unknown length" if card == -2
                    else f"of {card} elements")
            raise TypeError(
                f"Iterating over a dataset {what} with a Python `for` loop inside tf.function "
                f"needs AutoGraph, which would turn the loop into a graph loop; without it, the "
                f"loop is unrolled while tracing, which works for up to {UNROLL_LIMIT} elements "
                "of known number. Iterate outside the function and call it per batch, use "
                "dataset.reduce(...), take(n) for a known count, or a tf.while_loop over "
                "iterator.get_next_as_optional().")
        if self._unrolled >= card:
            raise StopIteration
        self._unrolled += 1
        return self.get_next()

    def get_next_as_optional(self):
        outs = execute(ITERATOR_GET_NEXT_AS_OPTIONAL, (self._handle,), self._attrs(),
                       "IteratorGetNextAsOptional")
        value = st.pack(self._dataset._structure, list(outs[1:]))
        return Optional(outs[0], value, self.element_spec)


def make_iterator(dataset):
    graph = state.graph
    if graph is None:
        return OwnedIterator(dataset)
    if getattr(graph, "lifts_variables", False):
        return GraphIterator(dataset)
    raise RuntimeError("`iter(dataset)` is only supported eagerly or inside tf.function; in a "
                       "TensorFlow 1 graph, iterate the dataset outside and feed the elements.")


def _numpy_value(t):
    value = array_of(t)
    value = t if value is None else value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    return value


def numpy_iterator(dataset):
    """Elements as NumPy values (0-d values as NumPy scalars, scalar strings as bytes)."""
    iterator = OwnedIterator(dataset)
    while True:
        try:
            components = iterator._next_components()
        except StopIteration:
            return
        yield st.pack(dataset._structure, [_numpy_value(c) if not st.is_dataset_like(c) else c
                                           for c in components])
