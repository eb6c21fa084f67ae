"""TensorFlow 1's dataset iterators in a graph: `make_one_shot_iterator(dataset)` and
`make_initializable_iterator(dataset)`, whose `get_next()` is an IteratorGetNext op giving the
next element each time a Session runs it, and OutOfRangeError after the last.

A one-shot iterator starts its pass the first time it is read. An initializable one must first
run its `initializer` (a MakeIterator op), which starts a new pass each time it runs; reading it
before raises TensorFlow's FailedPreconditionError. A dataset over placeholders
(data/fed_sources.py) gives the initializer those tensors as inputs, so running it with a
feed_dict starts a pass over the fed arrays. The pass belongs to the iterator (TensorFlow
keeps one per session: two sessions of one graph share it here). Eagerly, a one-shot iterator is
`iter(dataset)` and an initializable one is refused, as in TensorFlow 2.
"""
from . import structure as st
from .fed_values import fed_inputs, feeding
from .iterator import Optional, OwnedIterator, without_recording
from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import FailedPreconditionError
from ..framework.execute import execute
from ..framework.tensor import Tensor, constant
from ..util import nest
from ..ops.io.iterators import (ANONYMOUS_ITERATOR, ITERATOR_GET_NEXT,
                                ITERATOR_GET_NEXT_AS_OPTIONAL)

__all__ = ["Iterator", "get_output_classes", "get_output_shapes", "get_output_types",
           "make_initializable_iterator", "make_one_shot_iterator"]


class _Pass:
    """The dataset and its current pass, read by the iterator's ops."""

    def __init__(self, dataset, one_shot):
        self.dataset, self.one_shot, self.stage = dataset, one_shot, None
        self.fed, self.values = fed_inputs(dataset), ()

    def start(self, fed=()):
        """A new pass, reading `fed` (the values of self.fed, when the initializer ran; a
        repeat may read them again later in the pass)."""
        self.values = fed
        with without_recording(), feeding(self.fed, fed):
            self.stage = self.dataset._stage()

    def next_components(self):
        if self.stage is None:
            if not self.one_shot:
                raise FailedPreconditionError(
                    "GetNext() failed because the iterator has not been initialized. Ensure "
                    "that you have run the initializer operation for this iterator before "
                    "getting the next element.")
            self.start()
        with without_recording(), feeding(self.fed, self.values):
            return next(self.stage, None)


class Iterator:
    """A TensorFlow 1 iterator over a dataset in a graph (see the module docstring)."""

    def __init__(self, dataset, one_shot):
        self._dataset, self._pass = dataset, _Pass(dataset, one_shot)
        self._handle = constant(0, dtypes.int64, name="OneShotIterator" if one_shot
                                else "Iterator")
        if one_shot and self._pass.fed:
            raise ValueError(
                f"Failed to capture {self._pass.fed[0].name} in a one-shot iterator: a dataset "
                f"over placeholders needs make_initializable_iterator, whose initializer runs "
                f"with a feed_dict for them.")
        self._initializer = None if one_shot else execute(
            ANONYMOUS_ITERATOR, tuple(self._pass.fed), {"iterator": self._pass},
            "MakeIterator").op

    @property
    def initializer(self):
        if self._initializer is None:
            raise ValueError("Iterator does not have an initializer: a one-shot iterator "
                             "starts by itself; use make_initializable_iterator for one.")
        return self._initializer

    def get_next(self, name=None):
        """The next element, as tensors of the dataset's structure."""
        outs = execute(ITERATOR_GET_NEXT, (self._handle,),
                       {"iterator": self._pass, "specs": self._dataset._specs},
                       name or "IteratorGetNext")
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        return st.pack(self._dataset._structure, outs)

    def get_next_as_optional(self):
        """The next element as an Optional, empty after the last (no OutOfRangeError)."""
        outs = execute(ITERATOR_GET_NEXT_AS_OPTIONAL, (self._handle,),
                       {"iterator": self._pass, "specs": self._dataset._specs},
                       "IteratorGetNextAsOptional")
        value = st.pack(self._dataset._structure, list(outs[1:]))
        return Optional(outs[0], value, self.element_spec)

    @property
    def element_spec(self):
        return self._dataset.element_spec

    @property
    def output_types(self):
        return get_output_types(self)

    @property
    def output_shapes(self):
        return get_output_shapes(self)

    @property
    def output_classes(self):
        return get_output_classes(self)


def get_output_types(dataset_or_iterator):
    """The dtypes of the elements, in their structure."""
    return nest.map_structure(lambda s: s.dtype, dataset_or_iterator.element_spec)


def get_output_shapes(dataset_or_iterator):
    """The static shapes of the elements, in their structure."""
    return nest.map_structure(lambda s: s.shape, dataset_or_iterator.element_spec)


def get_output_classes(dataset_or_iterator):
    """The classes of the elements' components (Tensor, SparseTensor, ...), in their
    structure."""
    return nest.map_structure(lambda s: getattr(s, "value_type", Tensor),
                              dataset_or_iterator.element_spec)


def make_one_shot_iterator(dataset):
    """An iterator that goes through `dataset` once (eagerly: `iter(dataset)`)."""
    if state.graph is None:
        return OwnedIterator(dataset)
    return Iterator(dataset, one_shot=True)


def make_initializable_iterator(dataset, shared_name=None):
    """An iterator whose `initializer` (re)starts a pass over `dataset`."""
    if shared_name is not None:
        raise NotImplementedError("make_initializable_iterator: shared_name (an iterator shared "
                                  "between sessions on a server) is not supported.")
    if state.graph is None:
        raise RuntimeError("dataset.make_initializable_iterator is not supported when eager "
                           "execution is enabled. Use `for element in dataset` instead.")
    return Iterator(dataset, one_shot=False)
