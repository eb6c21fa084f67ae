"""`tf.data.DatasetSpec` and `tf.data.IteratorSpec`: the types of a dataset and of an iterator.

A DatasetSpec is an element structure (a nest of TensorSpecs and other specs) with a dataset
shape (the shape of a batch of datasets, [] for one dataset); an IteratorSpec is an element
structure. They compare as TensorFlow's type specs compare, leaf by leaf over the element
structure:

- `is_compatible_with(x)`: x (a spec of the same kind or a value: a dataset, an iterator) has
  the same structure, and every leaf is compatible (same dtype, shapes that could be equal);
- `is_subtype_of(other)`: every leaf of self is a subtype of other's (same dtype, and each of
  other's dimensions unknown or equal; other's unknown rank takes any shape);
- `most_specific_common_supertype(others)`: the spec whose leaves keep the dimensions all agree
  on (None elsewhere, unknown rank where ranks differ), or None when a structure or dtype
  differs.
"""
from ..framework.tensor_shape import TensorShape
from ..tracing.signatures import TensorSpec
from ..util import nest

__all__ = ["DatasetSpec", "IteratorSpec", "VALUE_TYPES"]

VALUE_TYPES = {}  # "dataset", "iterator": the classes, set by dataset.py and iterator.py


def _shape_subtype(shape, other):
    if other.rank is None:
        return True
    if shape.rank != other.rank:
        return False
    return all(b is None or a == b for a, b in zip(shape.as_list(), other.as_list()))


def _shape_supertype(shapes):
    ranks = {s.rank for s in shapes}
    if None in ranks or len(ranks) > 1:
        return TensorShape(None)
    dims = zip(*[s.as_list() for s in shapes])
    return TensorShape([d[0] if len(set(d)) == 1 else None for d in dims])


def _leaf_subtype(leaf, other):
    if isinstance(leaf, TensorSpec):
        return isinstance(other, TensorSpec) and leaf.dtype is other.dtype and \
            _shape_subtype(leaf.shape, other.shape)
    return type(leaf) is type(other) and leaf.is_subtype_of(other)


def _leaf_supertype(leaf, others):
    if isinstance(leaf, TensorSpec):
        if not all(isinstance(o, TensorSpec) and o.dtype is leaf.dtype for o in others):
            return None
        names = {leaf.name, *(o.name for o in others)}
        return TensorSpec(_shape_supertype([leaf.shape] + [o.shape for o in others]),
                          leaf.dtype, leaf.name if len(names) == 1 else None)
    if not all(type(o) is type(leaf) for o in others):
        return None
    return leaf.most_specific_common_supertype(others)


def _flat(structure):
    return nest.flatten(structure)


def _same_structure(a, b):
    try:
        nest.assert_same_structure(a, b)
    except (TypeError, ValueError):
        return False
    return True


class _ElementTypeSpec:
    """What DatasetSpec and IteratorSpec share: comparisons over the element structure."""

    def _extra(self):
        return ()

    def _with(self, element_spec, extra):
        raise NotImplementedError

    def _coerce(self, other):
        if isinstance(other, type(self)):
            return other
        spec = getattr(other, "_type_spec", None)
        return spec if isinstance(spec, type(self)) else None

    def is_compatible_with(self, spec_or_value):
        """True when `spec_or_value` (a spec of this kind, or a dataset or iterator) could be
        described by this spec."""
        other = self._coerce(spec_or_value)
        if other is None or not _same_structure(self._element_spec, other._element_spec):
            return False
        if not all(a.is_compatible_with(b) for a, b in zip(self._extra(), other._extra())):
            return False
        return all(a.is_compatible_with(b) for a, b in zip(_flat(self._element_spec),
                                                            _flat(other._element_spec)))

    def is_subtype_of(self, other):
        """True when every value of this spec is a value of `other`."""
        if type(other) is not type(self) or \
                not _same_structure(self._element_spec, other._element_spec):
            return False
        if not all(_shape_subtype(a, b) for a, b in zip(self._extra(), other._extra())):
            return False
        return all(_leaf_subtype(a, b) for a, b in zip(_flat(self._element_spec),
                                                       _flat(other._element_spec)))

    def most_specific_common_supertype(self, others):
        """The most specific spec that self and every spec of `others` are subtypes of; None
        when their structures or dtypes differ."""
        others = list(others)
        if not all(type(o) is type(self) and _same_structure(self._element_spec, o._element_spec)
                   for o in others):
            return None
        leaves = []
        for k, leaf in enumerate(_flat(self._element_spec)):
            common = _leaf_supertype(leaf, [_flat(o._element_spec)[k] for o in others])
            if common is None:
                return None
            leaves.append(common)
        extra = tuple(_shape_supertype([e] + [o._extra()[i] for o in others])
                      for i, e in enumerate(self._extra()))
        return self._with(nest.pack_sequence_as(self._element_spec, leaves), extra)

    def most_specific_compatible_type(self, other):
        """The most specific spec compatible with both (TensorFlow's older name)."""
        common = self.most_specific_common_supertype([other])
        if common is None:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}.")
        return common

    def _no_components(self, what):
        return NotImplementedError(
            f"{type(self).__name__}.{what}: wengert traces a dataset or iterator argument as a "
            f"variant placeholder of its own; pass the dataset or iterator itself.")

    # (the variant components: _nest_components / _nest_rebuild, installed by data/variants.py)
    def flatten(self):
        """The specs of a value's tensor components: one scalar variant."""
        return list(self._nest_components())

    def to_tensors(self, value):
        """The tensor components of `value` (a dataset or iterator of this spec): its variant."""
        if not self.is_compatible_with(value):
            raise TypeError(f"{type(self).__name__}.to_tensors: {value!r:.80} does not match "
                            f"{self}.")
        return list(value._nest_components())

    def from_tensors(self, tensors):
        """The value rebuilt from an iterator over its tensor components (one variant)."""
        return self._nest_rebuild([next(iter(tensors))])

    def cast(self, value, casting_context):
        """`value` cast to this spec (tf.function's argument casting)."""
        _ = casting_context
        if self.is_compatible_with(value):
            return value
        raise TypeError(f"{type(self).__name__}.cast: {value!r:.80} does not match {self}.")

    def placeholder_value(self, placeholder_context):
        """A traced placeholder standing for a value of this spec."""
        raise self._no_components(f"placeholder_value({type(placeholder_context).__name__})")

    def experimental_as_proto(self):
        """The spec as a TypeSpecProto (not written by wengert)."""
        raise self._no_components("experimental_as_proto")

    def __eq__(self, other):
        return type(other) is type(self) and self._extra() == other._extra() and \
            _same_structure(self._element_spec, other._element_spec) and \
            _flat(self._element_spec) == _flat(other._element_spec)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__, tuple(_flat(self._element_spec)),
                     tuple(tuple(e.as_list()) if e.rank is not None else None
                           for e in self._extra())))


class DatasetSpec(_ElementTypeSpec):
    """The type of a dataset: `tf.data.DatasetSpec(element_spec, dataset_shape=())`."""

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)
        self.dtype = None

    @property
    def element_spec(self):
        """The structure of one element of the datasets of this spec."""
        return self._element_spec

    @property
    def shape(self):
        return self._dataset_shape

    @property
    def value_type(self):
        return VALUE_TYPES["dataset"]

    @staticmethod
    def from_value(value):
        """The DatasetSpec of a dataset."""
        return DatasetSpec(value.element_spec)

    def _extra(self):
        return (self._dataset_shape,)

    def _with(self, element_spec, extra):
        return DatasetSpec(element_spec, extra[0])

    def __repr__(self):
        return f"DatasetSpec({self._element_spec!r}, {self._dataset_shape!r})"


class IteratorSpec(_ElementTypeSpec):
    """The type of an iterator over a dataset: `tf.data.IteratorSpec(element_spec)`."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def value_type(self):
        return VALUE_TYPES["iterator"]

    @staticmethod
    def from_value(value):
        """The IteratorSpec of an iterator."""
        return IteratorSpec(value.element_spec)

    def _with(self, element_spec, extra):
        return IteratorSpec(element_spec)

    def __repr__(self):
        return f"IteratorSpec({self._element_spec!r},)"
