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
from ..framework.tensor import Tensor, array_of, constant
from ..graph.graph import control_dependencies
from ..ops.array_ops import identity
from ..ops.io.checks import Assert
from ..ops.io.iterators import ANONYMOUS_ITERATOR, ITERATOR_GET_NEXT, ITERATOR_GET_NEXT_AS_OPTIONAL
from ..util import nest
from . import structure as st
from .fed_values import fed_inputs, feeding
from .type_specs import VALUE_TYPES, IteratorSpec

__all__ = ["OwnedIterator", "Optional", "make_iterator", "numpy_iterator", "without_recording",
           "UNROLL_LIMIT", "NumpyIterator"]

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
        """The value; InvalidArgumentError when there is none (in a graph, when it runs)."""
        known = getattr(self._has_value, "_value", None)
        if self._value is None or (known is not None and not bool(known)):
            raise InvalidArgumentError("Optional.get_value: the optional has no value.")
        if known is not None:
            return self._value
        check = Assert(self._has_value, ["Optional.get_value: the optional has no value."])
        with control_dependencies([check]):
            return nest.map_structure(
                lambda t: identity(t) if isinstance(t, Tensor) else t, self._value)

    def _value_or_zeros(self):
        """The value, or zeros of its shapes when there is none, unchecked: for loops that read
        it before testing has_value (AutoGraph's `for` over an iterator)."""
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

    @property
    def _type_spec(self):
        return IteratorSpec(self._dataset.element_spec)

    def __iter__(self):
        return self


class OwnedIterator(_DatasetIterator):
    """An eager iterator over one pass of a dataset. In a `tf.train.Checkpoint` it saves how
    many elements of the pass it has handed out (ITERATOR_STATE); restoring moves a fresh
    iterator to the same place by running the pass that far, so the next element is the one
    the saved run would have had next (for a pipeline that repeats itself: seeded shuffles,
    files unchanged). An iterator already past the saved place starts a new pass to get
    there, which a shuffle that reshuffles each pass draws anew."""

    def __init__(self, dataset):
        super().__init__(dataset)
        self._consumed = 0
        with without_recording():
            self._stage = dataset._stage()

    def _next_components(self):
        with without_recording():
            try:
                out = next(self._stage)
            except StopIteration:
                raise
            except Exception:
                self._consumed += 1
                raise
        self._consumed += 1
        return out

    def _checkpoint_children(self):
        return {}

    def _checkpoint_tensors(self):
        return {"ITERATOR_STATE": np.array([self._consumed], np.int64)}

    def _restore_tensors(self, tensors):
        state = np.asarray(tensors.get("ITERATOR_STATE"))
        if state.dtype.kind not in "iu" or state.size != 1:
            raise ValueError(f"Iterator: the checkpoint's ITERATOR_STATE is {state.dtype} of "
                             f"shape {list(state.shape)}, not the element count wengert saves "
                             "(TensorFlow's serialized iterator states cannot be read).")
        target = int(state.reshape(-1)[0])
        if target < self._consumed:
            self._consumed = 0
            with without_recording():
                self._stage = self._dataset._stage()
        while self._consumed < target:
            try:
                self._next_components()
            except StopIteration:
                break
            except Exception:  # noqa: BLE001 - an element that failed counts as handed out
                continue

    def __next__(self):
        if _tracing():
            return self.get_next()
        return st.to_tensors(self._dataset._structure, self._next_components())

    def get_next(self, name=None):
        if _tracing():
            return _owned_ops(self, ITERATOR_GET_NEXT, name or "IteratorGetNext")
        try:
            return self.__next__()
        except StopIteration:
            raise OutOfRangeError("End of sequence: the iterator has no more elements.") from None

    def get_next_as_optional(self):
        if _tracing():
            return _owned_ops(self, ITERATOR_GET_NEXT_AS_OPTIONAL, "IteratorGetNextAsOptional")
        try:
            return Optional.from_value(self.__next__())
        except StopIteration:
            return Optional.empty(self.element_spec)

    def close(self):
        close = getattr(self._stage, "close", None)
        if close is not None:
            close()


def _tracing():
    graph = state.graph
    return graph is not None and getattr(graph, "lifts_variables", False)


class _OwnedResource:
    """An eager iterator seen from a traced function: every call of the function takes its next
    elements where the iterator stands then (no new pass), as TensorFlow's iterator resource."""

    def __init__(self, iterator):
        self.iterator = iterator

    def start(self, fed=()):
        _ = fed

    def next_components(self):
        try:
            return self.iterator._next_components()
        except StopIteration:
            return None

    def __repr__(self):
        return f"<iterator over {type(self.iterator._dataset).__name__}>"


def _owned_ops(iterator, op, name):
    """The ops a traced function runs to take the next element of an eager iterator."""
    resource = _OwnedResource(iterator)
    handle = execute(ANONYMOUS_ITERATOR, (), {"iterator": resource}, "AnonymousIteratorV3")
    dataset = iterator._dataset
    outs = execute(op, (handle,), {"iterator": resource, "specs": dataset._specs}, name)
    if op is ITERATOR_GET_NEXT:
        return st.pack(dataset._structure, list(outs))
    return Optional(outs[0], st.pack(dataset._structure, list(outs[1:])), iterator.element_spec)


class _Resource:
    """What the iterator ops of a traced function hold: the dataset, the function's tensors
    its sources read, and the current pass."""

    def __init__(self, dataset):
        self.dataset, self.stage = dataset, None
        self.fed, self.values = fed_inputs(dataset), ()

    def start(self, fed=()):
        self.values = fed  # a pass may start its sources again (repeat): they read these
        with without_recording(), feeding(self.fed, fed):
            self.stage = self.dataset._stage()

    def next_components(self):
        if not self.fed:
            with without_recording():
                return next(self.stage, None)
        with without_recording(), feeding(self.fed, self.values):
            return next(self.stage, None)

    def __repr__(self):
        return f"<iterator over {type(self.dataset).__name__}>"


class GraphIterator(_DatasetIterator):
    """`iter(dataset)` while a function is traced (see the module docstring)."""

    def __init__(self, dataset):
        super().__init__(dataset)
        self._resource = _Resource(dataset)
        self._handle = execute(ANONYMOUS_ITERATOR, tuple(self._resource.fed),
                               {"iterator": self._resource}, "AnonymousIteratorV3")
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


class NumpyIterator:
    """`dataset.as_numpy_iterator()`: elements as NumPy values (0-d values as NumPy scalars,
    scalar strings as bytes) in their structure (tf.data.NumpyIterator)."""

    def __init__(self, dataset):
        self._iterator = OwnedIterator(dataset)
        self._structure = dataset._structure

    def __iter__(self):
        return self

    def __next__(self):
        components = self._iterator._next_components()
        return st.pack(self._structure, [_numpy_value(c) if not st.is_dataset_like(c) else c
                                         for c in components])

    def next(self):
        return self.__next__()

    def save(self):
        """The iterator's state: the number of elements handed out (see OwnedIterator)."""
        return self._iterator._checkpoint_tensors()["ITERATOR_STATE"]

    def restore(self, state):
        """Move to the place `state` (from save) names."""
        self._iterator._restore_tensors({"ITERATOR_STATE": state})

    def _checkpoint_children(self):
        return {}

    def _checkpoint_tensors(self):
        return self._iterator._checkpoint_tensors()

    def _restore_tensors(self, tensors):
        self._iterator._restore_tensors(tensors)


def numpy_iterator(dataset):
    return NumpyIterator(dataset)


VALUE_TYPES["iterator"] = OwnedIterator
