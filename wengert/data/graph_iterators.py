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

TensorFlow 1's two other kinds of iterator, by their element structure rather than a dataset:

- reinitializable: `Iterator.from_structure(output_types, output_shapes)` reads whichever
  dataset of that structure its last-run `make_initializer(dataset)` op started (a training
  and a validation set in turn, in one Session); a dataset of other types or incompatible
  shapes is TensorFlow's TypeError when the op is made.
- feedable: `Iterator.from_string_handle(handle, output_types, output_shapes)` reads the
  iterator whose `string_handle()` is fed to the string placeholder `handle` on each run (a
  handle is a string naming the iterator's pass in a table of weak references; a string that
  names none is TensorFlow's InvalidArgumentError).
"""
import itertools
import weakref

from . import structure as st
from .fed_values import fed_inputs, feeding
from .iterator import Optional, OwnedIterator, without_recording
from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import FailedPreconditionError, InvalidArgumentError
from ..framework.execute import execute
from ..framework.sparse_tensor import SparseTensor, SparseTensorSpec
from ..framework.tensor import Tensor, constant
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import identity
from ..tracing.signatures import TensorSpec
from ..util import nest
from ..ops.io.iterators import (ANONYMOUS_ITERATOR, ITERATOR_GET_NEXT,
                                ITERATOR_GET_NEXT_AS_OPTIONAL)

__all__ = ["Iterator", "get_output_classes", "get_output_shapes", "get_output_types",
           "make_initializable_iterator", "make_one_shot_iterator"]

_HANDLES = weakref.WeakValueDictionary()  # string handle -> the pass it names
_HANDLE_NUMBERS = itertools.count()
_NO_INITIALIZER = ("The iterator does not have an initializer. This means it was likely created "
                   "using `tf.data.Dataset.make_one_shot_iterator()`. For an initializable "
                   "iterator, use `tf.data.Dataset.make_initializable_iterator()` instead.")


class _Pass:
    """The dataset and its current pass, read by the iterator's ops (dataset None: an iterator
    by structure that no initializer has started yet)."""

    def __init__(self, dataset, one_shot):
        self.one_shot, self.stage = one_shot, None
        self.switch(dataset)

    def switch(self, dataset):
        """Read `dataset` from the next start on."""
        self.dataset, self.values, self.stage = dataset, (), None
        self.fed = [] if dataset is None else fed_inputs(dataset)

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


class _Initializer:
    """What the MakeIterator op of `make_initializer(dataset)` starts: a pass over `dataset`
    on the iterator's own pass."""

    def __init__(self, iterator_pass, dataset):
        self.iterator_pass, self.dataset, self.fed = iterator_pass, dataset, fed_inputs(dataset)

    def start(self, fed=()):
        self.iterator_pass.switch(self.dataset)
        self.iterator_pass.start(fed)


class _FedHandle:
    """The resource of a feedable iterator: the pass named by the string handle fed to it."""

    def next_components_from(self, handle):
        key = getattr(handle, "item", lambda: handle)()
        key = key.decode() if isinstance(key, bytes) else str(key)
        named = _HANDLES.get(key)
        if named is None:
            raise InvalidArgumentError("Could not parse string_handle as a valid ResourceHandle")
        return named.next_components()


def _spec(dtype, shape, value_class):
    spec = SparseTensorSpec if value_class is SparseTensor else TensorSpec
    return spec(TensorShape(shape), dtypes.as_dtype(dtype))


class Iterator:
    """A TensorFlow 1 iterator in a graph (see the module docstring). TensorFlow's constructor:
    `iterator_resource` is what the ops read (the pass), `initializer` its MakeIterator op or
    None; the iterators come from make_one_shot_iterator, make_initializable_iterator,
    from_structure and from_string_handle."""

    def __init__(self, iterator_resource, initializer, output_types, output_shapes,
                 output_classes):
        self._pass, self._initializer = iterator_resource, initializer
        self._structure = st.structure_of(output_types)
        self._specs = [_spec(*leaf) for leaf in zip(
            nest.flatten(output_types), _leaves_up_to(output_types, output_shapes),
            _leaves_up_to(output_types, output_classes))]
        self._handle = None if isinstance(iterator_resource, _FedHandle) else constant(
            0, dtypes.int64, name="Iterator")

    @classmethod
    def _over(cls, dataset, one_shot):
        """The one-shot or initializable iterator over `dataset`."""
        iterator = cls.__new__(cls)
        iterator._pass, iterator._initializer = _Pass(dataset, one_shot), None
        iterator._structure, iterator._specs = dataset._structure, dataset._specs
        iterator._handle = constant(0, dtypes.int64, name="OneShotIterator" if one_shot
                                    else "Iterator")
        if one_shot and iterator._pass.fed:
            raise ValueError(
                f"Failed to capture {iterator._pass.fed[0].name} in a one-shot iterator: a "
                f"dataset over placeholders needs make_initializable_iterator, whose "
                f"initializer runs with a feed_dict for them.")
        if not one_shot:
            iterator._initializer = execute(ANONYMOUS_ITERATOR, tuple(iterator._pass.fed),
                                            {"iterator": iterator._pass}, "MakeIterator").op
        return iterator

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None,
                       output_classes=None):
        """A reinitializable iterator of this element structure, started on a dataset by
        running one of its `make_initializer(dataset)` ops."""
        _refuse_shared_name("Iterator.from_structure", shared_name)
        output_shapes, output_classes = _filled(output_types, output_shapes, output_classes)
        return Iterator(_Pass(None, one_shot=False), None, output_types, output_shapes,
                        output_classes)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None,
                           output_classes=None):
        """A feedable iterator: it reads the iterator whose `string_handle()` is fed to
        `string_handle` (a scalar tf.string placeholder)."""
        output_shapes, output_classes = _filled(output_types, output_shapes, output_classes)
        iterator = Iterator(_FedHandle(), None, output_types, output_shapes, output_classes)
        iterator._handle = string_handle
        return iterator

    @property
    def initializer(self):
        if self._initializer is None:
            raise ValueError(_NO_INITIALIZER)
        return self._initializer

    def make_initializer(self, dataset, name=None):
        """An op that starts a pass of this iterator over `dataset` (of its structure)."""
        if isinstance(self._pass, _FedHandle):
            raise ValueError("make_initializer: a feedable iterator (from_string_handle) reads "
                             "the iterator whose handle is fed; make the initializer of that "
                             "one (make_initializable_iterator, or Iterator.from_structure).")
        _check_compatible(self, dataset)
        start = _Initializer(self._pass, dataset)
        return execute(ANONYMOUS_ITERATOR, tuple(start.fed), {"iterator": start},
                       name or "make_initializer").op

    def string_handle(self, name=None):
        """A scalar string naming this iterator, to feed to a `from_string_handle` one."""
        if isinstance(self._pass, _FedHandle):
            return identity(self._handle, name=name)
        key = f"wengert-iterator-{next(_HANDLE_NUMBERS)}"
        _HANDLES[key] = self._pass
        return constant(key, dtypes.string, name=name or "IteratorToStringHandle")

    def get_next(self, name=None):
        """The next element, as tensors of the dataset's structure."""
        outs = execute(ITERATOR_GET_NEXT, (self._handle,),
                       {"iterator": self._pass, "specs": self._specs},
                       name or "IteratorGetNext")
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        return st.pack(self._structure, outs)

    def get_next_as_optional(self):
        """The next element as an Optional, empty after the last (no OutOfRangeError)."""
        outs = execute(ITERATOR_GET_NEXT_AS_OPTIONAL, (self._handle,),
                       {"iterator": self._pass, "specs": self._specs},
                       "IteratorGetNextAsOptional")
        value = st.pack(self._structure, list(outs[1:]))
        return Optional(outs[0], value, self.element_spec)

    @property
    def element_spec(self):
        return st.element_spec(self._structure, self._specs)

    @property
    def output_types(self):
        return get_output_types(self)

    @property
    def output_shapes(self):
        return get_output_shapes(self)

    @property
    def output_classes(self):
        return get_output_classes(self)


def _leaves_up_to(template, value):
    """The items of `value` where `template` (output_types) has its leaves: a TensorShape
    there is one leaf, not a sequence of dimensions."""
    leaves, stack = [], [(template, value)]
    while stack:
        pattern, item = stack.pop()
        if nest.is_nested(pattern):
            items = [item[k] for k in sorted(item, key=nest._sort_key)] if isinstance(
                item, dict) else list(item)
            stack.extend(reversed(list(zip(nest._children(pattern), items))))
        else:
            leaves.append(item)
    return leaves


def _refuse_shared_name(fn, shared_name):
    if shared_name:
        raise NotImplementedError(f"{fn}: shared_name (an iterator shared between sessions on "
                                  f"a server) is not supported.")


def _filled(output_types, output_shapes, output_classes):
    """Shapes and classes for each type: unknown shapes and Tensor when not given."""
    if output_shapes is None:
        output_shapes = nest.map_structure(lambda _: TensorShape(None), output_types)
    if output_classes is None:
        output_classes = nest.map_structure(lambda _: Tensor, output_types)
    return output_shapes, output_classes


def _check_compatible(iterator, dataset):
    """TensorFlow's errors for a dataset of another structure, types or shapes."""
    ours, theirs = iterator.output_types, get_output_types(dataset)
    nest.assert_same_structure(ours, theirs)  # TensorFlow's ValueError
    if nest.flatten(ours) != nest.flatten(theirs):
        raise TypeError(f"Expected output types {ours} but got dataset with output types "
                        f"{theirs}.")
    shapes = get_output_shapes(dataset)
    if not all(TensorShape(a).is_compatible_with(b) for a, b in zip(
            _leaves_up_to(ours, iterator.output_shapes), _leaves_up_to(ours, shapes))):
        raise TypeError(f"Expected output shapes compatible with {iterator.output_shapes} but "
                        f"got dataset with output shapes {shapes}.")


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
    return Iterator._over(dataset, one_shot=True)


def make_initializable_iterator(dataset, shared_name=None):
    """An iterator whose `initializer` (re)starts a pass over `dataset`."""
    _refuse_shared_name("make_initializable_iterator", shared_name)
    if state.graph is None:
        raise RuntimeError("dataset.make_initializable_iterator is not supported when eager "
                           "execution is enabled. Use `for element in dataset` instead.")
    return Iterator._over(dataset, one_shot=False)
