"""`tf.RaggedTensorSpec`: the type of a ragged tensor argument (tf.function input signatures,
traced outputs, tf.nest with expand_composites).

A spec of shape [d0, d1, ..., dn], dtype T, ragged rank k and splits dtype S describes a
ragged tensor whose components are, as TensorFlow lists them:

    flat values   TensorSpec([None] + [d_{k+1}, ..., dn], T)
    row splits    TensorSpec([d0 + 1], S) for the outermost level (None when d0 is), then
                  TensorSpec([None], S) for each of the k - 1 inner levels

`_nest_components` / `_nest_rebuild` are the protocol that util/nest.py's expand_composites
and tf.function use to take a ragged value (or a spec) apart and build one back; a spec's
`_nest_rebuild` of tensors builds the RaggedTensor they stand for. A spec of ragged rank 0
describes a dense tensor. Compatibility: same dtype, ragged rank and splits dtype, and
compatible shapes; the common supertype keeps the dimensions the specs agree on.
"""
from ..framework import dtypes
from ..framework.ragged_tensor import RaggedTensor, spec_text
from ..framework.tensor_shape import TensorShape
from .signatures import TensorSpec

__all__ = ["RaggedTensorSpec"]


class RaggedTensorSpec:
    """The shape, dtype, ragged rank and row-splits dtype of a RaggedTensor."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "_flat_values_spec")

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64, flat_values_spec=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if self._row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"RaggedTensorSpec: row_splits_dtype must be int32 or int64, got "
                             f"{self._row_splits_dtype.name}.")
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int) or ragged_rank < 0:
            raise TypeError(f"RaggedTensorSpec: ragged_rank must be a non-negative int, got "
                            f"{ragged_rank!r}.")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"ragged_rank must be less than rank: got ragged_rank "
                             f"{ragged_rank} for shape {self._shape}.")
        self._ragged_rank = ragged_rank
        if flat_values_spec is not None and flat_values_spec.dtype is not self._dtype:
            raise ValueError("RaggedTensorSpec: dtype and flat_values_spec.dtype differ: "
                             f"{self._dtype.name} vs {flat_values_spec.dtype.name}.")
        self._flat_values_spec = flat_values_spec

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: self._flat_values_spec)
    value_type = property(lambda self: RaggedTensor)

    @classmethod
    def from_value(cls, value):
        """The spec of a RaggedTensor."""
        if not isinstance(value, RaggedTensor):
            raise TypeError(f"RaggedTensorSpec.from_value: expected a RaggedTensor, got "
                            f"{type(value).__name__}.")
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)

    # -- components ------------------------------------------------------------------------------
    def _component_specs(self):
        if self._ragged_rank == 0:
            return [TensorSpec(self._shape, self._dtype)]
        inner = [] if self._shape.rank is None else self._shape.as_list()[self._ragged_rank + 1:]
        flat = self._flat_values_spec or TensorSpec([None] + inner, self._dtype)
        outer = self._shape[0] if self._shape.rank else None
        splits = [TensorSpec([None if outer is None else outer + 1], self._row_splits_dtype)]
        splits += [TensorSpec([None], self._row_splits_dtype)] * (self._ragged_rank - 1)
        return [flat] + splits

    def _nest_components(self):
        return self._component_specs()

    def _nest_rebuild(self, components):
        components = list(components)
        if self._ragged_rank == 0:
            return components[0]
        result = components[0]
        for splits in reversed(components[1:]):
            result = RaggedTensor(result, splits, internal=True)
        return result

    def flatten(self):
        """The component TensorSpecs (flat values, then row splits outermost first)."""
        return self._component_specs()

    def to_tensors(self, value):
        return value._nest_components() if isinstance(value, RaggedTensor) else [value]

    def from_tensors(self, tensors):
        specs = self._component_specs()
        iterator = iter(tensors)
        return self._nest_rebuild([next(iterator) for _ in specs])

    def placeholder_value(self, placeholder_context=None):
        raise NotImplementedError("RaggedTensorSpec.placeholder_value: wengert's tf.function "
                                  "makes placeholders from the component specs itself.")

    def cast(self, value, casting_context=None):
        return value

    def experimental_as_proto(self):
        raise NotImplementedError("RaggedTensorSpec.experimental_as_proto: wengert writes no "
                                  "TypeSpec protos; SavedModels store signatures their own way.")

    # -- comparisons -----------------------------------------------------------------------------
    def _kind(self):
        return (self._dtype, self._ragged_rank, self._row_splits_dtype)

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        if isinstance(other, RaggedTensor):
            other = RaggedTensorSpec.from_value(other)
        if not isinstance(other, RaggedTensorSpec):
            return False
        return self._kind() == other._kind() and self._shape.is_compatible_with(other._shape)

    def is_subtype_of(self, other):
        """True when every value of this spec is a value of `other`."""
        if not isinstance(other, RaggedTensorSpec) or self._kind() != other._kind():
            return False
        if other._shape.rank is None:
            return True
        if self._shape.rank != other._shape.rank:
            return False
        return all(o is None or s == o for s, o in zip(self._shape.as_list(),
                                                        other._shape.as_list()))

    def most_specific_common_supertype(self, others):
        """The narrowest spec that every one of self and `others` is a subtype of, or None."""
        shape = self._shape
        for other in others:
            if not isinstance(other, RaggedTensorSpec) or self._kind() != other._kind():
                return None
            shape = _common_shape(shape, other._shape)
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def most_specific_compatible_type(self, other):
        supertype = self.most_specific_common_supertype([other])
        if supertype is None:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}.")
        return supertype

    def __eq__(self, other):
        return isinstance(other, RaggedTensorSpec) and self._kind() == other._kind() and \
            self._shape.rank == other._shape.rank and (
                self._shape.rank is None or self._shape.as_list() == other._shape.as_list())

    def __hash__(self):
        dims = None if self._shape.rank is None else tuple(self._shape.as_list())
        return hash((self._dtype.name, self._ragged_rank, self._row_splits_dtype.name, dims))

    def __repr__(self):
        return spec_text(self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)


def _common_shape(a, b):
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])
