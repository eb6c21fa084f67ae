"""Datasets and iterators as variant tensors, as TensorFlow passes them around.

A variant tensor (dtype tf.variant, framework/dtypes.py) is a scalar holding one object.
`tf.data.experimental.to_variant(dataset)` is the dataset in one; `from_variant(variant,
structure)` is a dataset again, with `structure`'s element spec (which must be the dataset's).

Datasets and iterators are composite tensors of one variant component, so that
`tf.function` takes them as TensorFlow's takes them: a call keys its trace by the argument's
DatasetSpec (or IteratorSpec), not by the object, so `f(Dataset.range(3))` and
`f(Dataset.range(5).map(g))` share one trace; `input_signature=[tf.data.DatasetSpec(...)]`
traces once for every dataset of that element spec. Inside the trace the argument is a
variant placeholder, seen as an `ArgumentDataset` (or `ArgumentIterator`): everything built on
it (map, batch, reduce, a `for` loop) reads, when the function runs, the dataset passed in that
call, through the values a pass reads (fed_values.py), the way a dataset of a function's
tensors does; an iterator argument's `next` advances the iterator the caller passed. The
methods installed here (data/methods.py lists them): Dataset, OwnedIterator, DatasetSpec and
IteratorSpec's `_nest_components` / `_nest_rebuild` (util/nest.py's composite protocol) and
`_trace_token` (the trace key, tracing/signatures.py).
"""
from ..framework import dtypes
from ..framework.errors import FailedPreconditionError
from ..framework.execute import execute
from ..framework.tensor import Tensor, array_of
from ..ops.io.iterators import ITERATOR_GET_NEXT, ITERATOR_GET_NEXT_AS_OPTIONAL
from ..tracing.signatures import TensorSpec
from ..util import nest
from . import structure as st
from .dataset import UNKNOWN, Dataset
from .fed_values import current_values
from .iterator import Optional, OwnedIterator
from .type_specs import DatasetSpec, IteratorSpec

__all__ = ["to_variant", "from_variant", "ArgumentDataset", "ArgumentIterator", "install"]

_VARIANT_SPEC = TensorSpec([], dtypes.variant)


def _symbolic(t):
    return isinstance(t, Tensor) and array_of(t) is None


def _held(variant, kind):
    """The dataset or iterator an eager variant tensor holds."""
    value = dtypes.variant_object(array_of(variant))
    if not isinstance(value, kind):
        raise TypeError(f"The variant tensor holds {type(value).__name__}, not a "
                        f"{kind.__name__}.")
    return value


def _variant_of(obj, placeholder):
    """An object's variant component: its placeholder inside a trace, else a new variant."""
    if placeholder is not None:
        return placeholder
    return Tensor(dtypes.variant_array(obj))


def to_variant(dataset):
    """The dataset as a scalar variant tensor (tf.data.experimental.to_variant)."""
    if not isinstance(dataset, Dataset):
        raise TypeError(f"to_variant expects a tf.data.Dataset, got {type(dataset).__name__}.")
    return _variant_of(dataset, getattr(dataset, "_placeholder", None))


def _from_element_spec(element_spec):
    """(structure, specs) of an element_spec nest, as a dataset keeps them."""
    return st.structure_of(element_spec), nest.flatten(element_spec)


def from_variant(variant, structure):
    """The dataset a variant tensor holds, with element spec `structure`
    (tf.data.experimental.from_variant)."""
    if not isinstance(variant, Tensor) or variant.dtype != dtypes.variant:
        raise TypeError(f"from_variant expects a scalar variant tensor, got {variant!r:.80}.")
    if _symbolic(variant):
        return ArgumentDataset(variant, structure)
    dataset = _held(variant, Dataset)
    if not DatasetSpec(structure).is_compatible_with(dataset):
        raise TypeError(f"from_variant: the dataset's element_spec {dataset.element_spec} does "
                        f"not match the structure {structure}.")
    return dataset


class ArgumentDataset(Dataset):
    """A dataset passed to a traced function: its variant placeholder, and the element spec of
    the datasets it stands for (see the module docstring)."""

    def __init__(self, placeholder, element_spec):
        structure, specs = _from_element_spec(element_spec)
        super().__init__(structure, specs, UNKNOWN)
        self._placeholder = placeholder
        self._fed = [placeholder]

    def _input_spec(self):
        """What the trace's structured_input_signature shows for this argument."""
        return DatasetSpec(self.element_spec)

    def _stage(self):
        table = current_values()
        if table is None or id(self._placeholder) not in table:
            raise FailedPreconditionError(
                "This dataset is a tf.function's argument, or built on one: it is iterated "
                "while the function runs, by the ops the function traced over it. wengert does "
                "not yet return such a dataset from the function (TensorFlow does); iterate or "
                "reduce it inside the function, or build it outside.")
        return dtypes.variant_object(table[id(self._placeholder)])._stage()


class _HeldIterator:
    """The iterator ops' resource for an iterator argument: the iterator is the op's input."""

    def start(self, fed=()):
        _ = fed

    def next_components_from(self, handle):
        try:
            return dtypes.variant_object(handle)._next_components()
        except StopIteration:
            return None

    def __repr__(self):
        return "<an iterator argument>"


class ArgumentIterator:
    """An iterator passed to a traced function: `next` takes the next element of the iterator
    the caller passed, which moves on (TensorFlow's iterator resource)."""

    def __init__(self, placeholder, element_spec):
        self._placeholder = placeholder
        self._structure, self._specs = _from_element_spec(element_spec)
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def _type_spec(self):
        return IteratorSpec(self._element_spec)

    def _input_spec(self):
        return self._type_spec

    def _attrs(self):
        return {"iterator": _HeldIterator(), "specs": self._specs}

    def get_next(self, name=None):
        outs = execute(ITERATOR_GET_NEXT, (self._placeholder,), self._attrs(),
                       name or "IteratorGetNext")
        return st.pack(self._structure, list(outs))

    def __next__(self):
        return self.get_next()

    def __iter__(self):
        return self

    def get_next_as_optional(self):
        outs = execute(ITERATOR_GET_NEXT_AS_OPTIONAL, (self._placeholder,), self._attrs(),
                       "IteratorGetNextAsOptional")
        return Optional(outs[0], st.pack(self._structure, list(outs[1:])), self._element_spec)


# -- the composite protocol (installed by data/methods.py) -----------------------------------------
def _dataset_components(self):
    return [to_variant(self)]


def _dataset_rebuild(self, components):
    (variant,) = components
    if _symbolic(variant):
        return ArgumentDataset(variant, self.element_spec)
    return _held(variant, Dataset) if isinstance(variant, Tensor) else variant


def _iterator_components(self):
    return [_variant_of(self, getattr(self, "_placeholder", None))]


def _iterator_rebuild(self, components):
    (variant,) = components
    if _symbolic(variant):
        return ArgumentIterator(variant, self.element_spec)
    return _held(variant, OwnedIterator) if isinstance(variant, Tensor) else variant


def _spec_components(self):
    return [_VARIANT_SPEC]


def _dataset_spec_rebuild(self, components):
    (variant,) = components
    if _symbolic(variant):
        return ArgumentDataset(variant, self._element_spec)
    return _held(variant, Dataset) if isinstance(variant, Tensor) else variant


def _iterator_spec_rebuild(self, components):
    (variant,) = components
    if _symbolic(variant):
        return ArgumentIterator(variant, self._element_spec)
    return _held(variant, OwnedIterator) if isinstance(variant, Tensor) else variant


def install():
    """Give datasets, iterators and their specs the composite protocol and trace tokens."""
    for cls in (Dataset, OwnedIterator, ArgumentIterator):
        cls._trace_token = lambda self: self._type_spec
    Dataset._nest_components, Dataset._nest_rebuild = _dataset_components, _dataset_rebuild
    for cls in (OwnedIterator, ArgumentIterator):
        cls._nest_components, cls._nest_rebuild = _iterator_components, _iterator_rebuild
    DatasetSpec._nest_components = IteratorSpec._nest_components = _spec_components
    DatasetSpec._nest_rebuild = _dataset_spec_rebuild
    IteratorSpec._nest_rebuild = _iterator_spec_rebuild
    for cls in (DatasetSpec, IteratorSpec):
        cls._trace_token = lambda self: self
