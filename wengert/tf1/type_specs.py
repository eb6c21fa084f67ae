"""`tf.TypeSpec` and the specs TensorFlow exports beside it: `TensorArraySpec`,
`IndexedSlicesSpec`, `OptionalSpec` and `NoneTensorSpec`.

A TypeSpec describes a kind of value (its type, dtypes and shapes) without holding one. A spec
is its class and a tuple of parts (`_serialize()`): two specs are equal when both match, and a
spec is compatible with another of its class when each part is (shapes compatible, dtypes and
other parts equal, nested specs compatible in turn); the most specific common supertype relaxes
each shape to the dimensions all agree on. wengert's own specs (TensorSpec, SparseTensorSpec,
RaggedTensorSpec, DatasetSpec, IteratorSpec) are registered as TypeSpecs, so
`isinstance(spec, tf.TypeSpec)` holds for them as in TensorFlow.
"""
import abc

from ..data.iterator import Optional
from ..data.type_specs import DatasetSpec, IteratorSpec
from ..framework import dtypes
from ..framework.indexed_slices import IndexedSlices
from ..framework.sparse_tensor import SparseTensorSpec
from ..framework.tensor_shape import TensorShape
from ..ops.io.tensor_arrays import TensorArray
from ..tracing.ragged_spec import RaggedTensorSpec
from ..tracing.signatures import TensorSpec, type_spec_from_value

__all__ = ["TypeSpec", "TensorArraySpec", "IndexedSlicesSpec", "OptionalSpec", "NoneTensorSpec"]


def _compatible(a, b):
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return a.is_compatible_with(b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_compatible(x, y) for x, y in zip(a, b))
    if hasattr(a, "is_compatible_with") and type(a) is type(b):
        return a.is_compatible_with(b)
    return a == b


def _common(a, b):
    if isinstance(a, TensorShape):
        if a.rank is None or b.rank is None or a.rank != b.rank:
            return TensorShape(None)
        return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])
    if isinstance(a, tuple):
        return tuple(_common(x, y) for x, y in zip(a, b))
    if isinstance(a, TypeSpec):
        return a.most_specific_common_supertype([b])
    return a


class TypeSpec(abc.ABC):
    """The description of a kind of value (see the module docstring). Subclasses give
    `value_type` and `_serialize()` (the parts their constructor takes, in its order)."""

    @property
    @abc.abstractmethod
    def value_type(self):
        """The Python type of the values this spec describes."""

    @abc.abstractmethod
    def _serialize(self):
        """The constructor's arguments, as a tuple."""

    def is_compatible_with(self, spec_or_value):
        """Whether a value or spec of this kind could stand where this spec is expected."""
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else \
            type_spec_from_value(spec_or_value)
        return type(other) is type(self) and _compatible(self._serialize(), other._serialize())

    def is_subtype_of(self, other):
        return self.most_specific_common_supertype([other]) == other

    def most_specific_common_supertype(self, others):
        """The most specific spec of this class that every one of self and `others` fits, or
        None when one of them is of another kind."""
        parts = self._serialize()
        for other in others:
            if not self.is_compatible_with(other):
                return None
            parts = _common(parts, other._serialize())
        return type(self)(*parts)

    most_specific_compatible_type = most_specific_common_supertype

    def cast(self, value, casting_context):
        """`value` if this spec describes it (wengert's specs do not convert values)."""
        if not self.is_compatible_with(value):
            raise TypeError(f"{type(self).__name__}.cast: {value!r} does not fit {self!r} "
                            f"(casting context {casting_context!r}).")
        return value

    def _no_components(self, what):
        return NotImplementedError(
            f"{type(self).__name__}.{what}: wengert's TypeSpecs describe values but do not "
            f"split them into component tensors; pass the value itself.")

    def flatten(self):
        raise self._no_components("flatten")

    def to_tensors(self, value):
        raise self._no_components(f"to_tensors({type(value).__name__})")

    def from_tensors(self, tensors):
        raise self._no_components(f"from_tensors({type(tensors).__name__})")

    def placeholder_value(self, placeholder_context):
        raise self._no_components(f"placeholder_value({type(placeholder_context).__name__})")

    def experimental_as_proto(self):
        raise NotImplementedError(f"{type(self).__name__}.experimental_as_proto: wengert has no "
                                  f"TypeSpec protocol buffer; use repr() or the constructor's "
                                  f"arguments.")

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__, repr(self._serialize())))

    def __repr__(self):
        return f"{type(self).__name__}{self._serialize()!r}"


class TensorArraySpec(TypeSpec):
    """The spec of a TensorArray: element shape, dtype, whether it grows, whether writes
    infer the element shape."""

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True):
        self._element_shape = TensorShape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    value_type = property(lambda self: TensorArray)

    def _serialize(self):
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    @staticmethod
    def from_value(value):
        if not isinstance(value, TensorArray):
            raise ValueError(f"TensorArraySpec.from_value: expected a TensorArray, got "
                             f"{type(value).__name__}.")
        return TensorArraySpec(value.element_shape, value.dtype, value.dynamic_size, True)


class IndexedSlicesSpec(TypeSpec):
    """The spec of IndexedSlices: the dense shape, the values' dtype, the indices' dtype, the
    dense shape's dtype (None: not held) and the indices' shape."""

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = TensorShape(shape)
        self._values_dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else \
            dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape(indices_shape if indices_shape is not None
                                          else [None])
        if self._indices_shape.rank != 1:
            raise ValueError(f"IndexedSlicesSpec: indices_shape must be of rank 1, got "
                             f"{self._indices_shape}.")

    value_type = property(lambda self: IndexedSlices)

    def _serialize(self):
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)


class OptionalSpec(TypeSpec):
    """The spec of a tf.experimental.Optional whose value, when present, fits element_spec."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    value_type = property(lambda self: Optional)

    def _serialize(self):
        return (self._element_spec,)

    @staticmethod
    def from_value(value):
        return OptionalSpec(value.element_spec)


class NoneTensorSpec(TypeSpec):
    """The spec of an absent value (TensorFlow's NoneTensor, which stands for None)."""

    value_type = property(lambda self: type(None))

    def _serialize(self):
        return ()

    @staticmethod
    def from_value(value):
        if value is not None:
            raise ValueError(f"NoneTensorSpec.from_value: expected None, got {value!r}.")
        return NoneTensorSpec()

    def most_specific_compatible_shape(self, other):
        if type(other) is not NoneTensorSpec:
            raise ValueError(f"NoneTensorSpec: no compatible shape with {other!r}.")
        return self


for _spec in (TensorSpec, SparseTensorSpec, RaggedTensorSpec, DatasetSpec, IteratorSpec):
    TypeSpec.register(_spec)
