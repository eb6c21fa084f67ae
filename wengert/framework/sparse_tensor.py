"""`SparseTensor`: a tensor stored as its nonzero entries (minimal: what tf.nn's CTC ops, the
sparse embedding lookups and tf.sparse's conversions need).

A SparseTensor of rank r holding N entries is three tensors, as in TensorFlow:

    indices      int64 [N, r]   the coordinates of each stored entry
    values       any   [N]      the entry at each coordinate
    dense_shape  int64 [r]      the shape of the dense tensor it stands for

    dense = zeros(dense_shape); for j: dense[indices[j]] = values[j]

Entries are in row-major ("canonical") order when `tf.sparse.reorder` has sorted them; the ops
here that care (ctc_loss, embedding_lookup_sparse) expect that order, as TensorFlow's do.
It is a plain container: ops take it apart into its three tensors, so gradients flow to
`values` through whatever op reads them (`tf.sparse.to_dense` is a scatter of values).

`SparseTensorSpec(shape, dtype)` describes one (its dense shape, None where unknown, and its
values' dtype), as `TensorSpec` describes a tensor: datasets report it in `element_spec`, and
in a tf.function input_signature it stands for three TensorSpecs (indices, values, dense_shape).
With tf.nest's expand_composites=True, both open into their three parts.
tf.sparse's arithmetic lives in ops/sparse/. Not here (TensorFlow has it): `SparseTensorValue`.
"""
import numpy as np

from . import dtypes
from .composite_tensor import CompositeTensor
from .context import default_session
from .static_value import static_value
from .tensor import convert_to_tensor, is_eager_tensor
from .tensor_shape import TensorShape

__all__ = ["SparseTensor", "SparseTensorSpec"]

TENSOR_SPEC = []  # [TensorSpec], installed by tracing/signatures.py (the layer that defines it)


class SparseTensor(CompositeTensor):
    """A sparse tensor: `values[j]` sits at coordinate `indices[j]` of a dense tensor of shape
    `dense_shape`; every other entry is zero.

    indices: an int64 [N, rank] tensor (int32 is converted). values: a [N] tensor.
    dense_shape: an int64 [rank] tensor (or a list/tuple of ints).
    """

    __slots__ = ("_indices", "_dense_shape", "_shape_hint")

    def __init__(self, indices, values, dense_shape):
        indices = convert_to_tensor(indices, dtype_hint=dtypes.int64)
        dense_shape = convert_to_tensor(dense_shape, dtype_hint=dtypes.int64)
        values = convert_to_tensor(values)
        for what, t in (("indices", indices), ("dense_shape", dense_shape)):
            if not t.dtype.is_integer:
                raise TypeError(f"SparseTensor: {what} must be int64, got {t.dtype.name}.")
        self._indices = _as_int64(indices)
        self._dense_shape = _as_int64(dense_shape)
        self._values = values
        self._shape_hint = None  # a spec's dense shape, while tracing (SparseTensorSpec)
        _check_shapes(self._indices.shape, values.shape, self._dense_shape.shape)

    @classmethod
    def from_value(cls, value):
        """The SparseTensor itself (TensorFlow's spelling of 'accept either')."""
        if isinstance(value, SparseTensor):
            return value
        raise TypeError(f"SparseTensor.from_value: expected a SparseTensor, got "
                        f"{type(value).__name__}.")

    # (values, dtype and graph: CompositeTensor)
    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def shape(self):
        """The static dense shape: known dimensions from `dense_shape`'s value when it is known
        while building, else only the rank."""
        known = static_value(self._dense_shape)
        if known is not None:
            return TensorShape([int(d) for d in np.ravel(known)])
        if self._shape_hint is not None:
            return self._shape_hint
        rank = self._dense_shape.shape[0] if self._dense_shape.shape.rank == 1 else None
        return TensorShape(None if rank is None else [None] * rank)

    def get_shape(self):
        return self.shape

    def eval(self, feed_dict=None, session=None):
        """A graph SparseTensor's value (a SparseTensorValue) in `session` (default: the
        default session); an eager one has its value already."""
        if self.graph is None:
            raise NotImplementedError("SparseTensor.eval is not supported when eager execution "
                                      "is enabled; read .indices, .values and .dense_shape.")
        return (session or default_session()).run(self, feed_dict)

    def set_shape(self, shape):
        """Narrow the static dense shape to `shape` (ValueError when they disagree)."""
        shape = TensorShape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"SparseTensor.set_shape: {shape} is not compatible with the dense "
                             f"shape {self.shape}.")
        if shape.rank is None:
            return
        known = self.shape
        self._shape_hint = shape if known.rank is None else TensorShape(
            [a if a is not None else b for a, b in zip(shape.as_list(), known.as_list())])

    def with_values(self, new_values):
        """The SparseTensor with these indices and dense_shape and `new_values` (one per
        entry)."""
        out = SparseTensor(self._indices, new_values, self._dense_shape)
        out._shape_hint = self._shape_hint
        return out

    def __repr__(self):
        return (f"SparseTensor(indices={self._indices}, values={self._values}, "
                f"dense_shape={self._dense_shape})")

    def _nest_components(self):
        """Its tensors, for tf.nest with expand_composites=True (util/nest.py)."""
        return [self._indices, self._values, self._dense_shape]

    def _nest_rebuild(self, components):
        """A SparseTensor of the same kind from new (indices, values, dense_shape)."""
        return SparseTensor(*components)

    def __reduce__(self):
        raise TypeError("SparseTensor is not picklable; pickle its indices, values and "
                        "dense_shape (.numpy() of each) instead.")


class SparseTensorSpec:
    """The dense shape (None for unknown dimensions) and values dtype of a SparseTensor."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def value_type(self):
        return SparseTensor

    @classmethod
    def from_value(cls, value):
        """The spec of a SparseTensor."""
        return cls(SparseTensor.from_value(value).shape, value.dtype)

    def is_compatible_with(self, spec_or_value):
        """True for a SparseTensor or spec of this dtype whose dense shape fits this one."""
        if not isinstance(spec_or_value, (SparseTensor, SparseTensorSpec)):
            return False
        return (spec_or_value.dtype is self._dtype
                and self._shape.is_compatible_with(spec_or_value.shape))

    def flatten(self):
        """The TensorSpecs of a SparseTensor's three tensors (indices, values, dense_shape)."""
        return self._nest_components()

    def to_tensors(self, value):
        """value's three tensors, in flatten's order."""
        if not self.is_compatible_with(value):
            raise TypeError(f"{value!r:.80} does not match {self!r}.")
        return value._nest_components()

    def from_tensors(self, tensors):
        """The SparseTensor of the next three tensors of `tensors` (an iterator)."""
        tensors = iter(tensors)
        return self._nest_rebuild([next(tensors) for _ in range(3)])

    def cast(self, value, casting_context):
        """value itself when this spec describes it (a SparseTensor is never converted)."""
        del casting_context  # no conversions apply to a SparseTensor
        return SparseTensor.from_value(value) if self.is_compatible_with(value) else \
            self.to_tensors(value)

    def is_subtype_of(self, other):
        """True when `other` is a SparseTensorSpec of this dtype whose shape is this one with
        some dimensions (or the rank) unknown."""
        return (isinstance(other, SparseTensorSpec) and other.dtype is self._dtype
                and _generalizes(other.shape, self._shape))

    def most_specific_common_supertype(self, others):
        """The spec with the dimensions every spec agrees on (None elsewhere), or None when a
        dtype or rank differs."""
        shape = self._shape
        for other in others:
            if not isinstance(other, SparseTensorSpec) or other.dtype is not self._dtype:
                return None
            if shape.rank != other.shape.rank:
                return None
            shape = TensorShape(None if shape.rank is None else [
                a if a == b else None for a, b in zip(shape.as_list(), other.shape.as_list())])
        return SparseTensorSpec(shape, self._dtype)

    def most_specific_compatible_type(self, other):
        """most_specific_common_supertype of the two, or ValueError when there is none."""
        out = self.most_specific_common_supertype([other])
        if out is None:
            raise ValueError(f"No TypeSpec is compatible with both {self!r} and {other!r}.")
        return out

    def placeholder_value(self, placeholder_context):
        """Not here: wengert traces a SparseTensorSpec as three TensorSpecs (flatten)."""
        raise NotImplementedError(
            f"SparseTensorSpec.placeholder_value({placeholder_context!r}): wengert makes the "
            "placeholders of a traced SparseTensorSpec from flatten(); in a TF 1 graph use "
            "tf.compat.v1.sparse.placeholder.")

    def experimental_as_proto(self):
        raise NotImplementedError("SparseTensorSpec.experimental_as_proto: wengert has no "
                                  "TypeSpecProto; use repr(spec) or (spec.shape, spec.dtype).")

    def _nest_components(self):
        """TensorSpecs of its three tensors (for tf.function signatures): indices [None, r],
        values [None], dense_shape [r], r its rank."""
        spec, rank = TENSOR_SPEC[0], self._shape.rank
        return [spec([None, rank], dtypes.int64), spec([None], self._dtype),
                spec([rank], dtypes.int64)]

    def _nest_rebuild(self, components):
        """The SparseTensor of these tensors, its static dense shape this spec's."""
        out = SparseTensor(*components)
        out._shape_hint = self._shape
        return out

    def __eq__(self, other):
        return (isinstance(other, SparseTensorSpec) and other.dtype is self._dtype
                and other.shape.rank == self._shape.rank
                and tuple(other.shape) == tuple(self._shape))

    def __hash__(self):
        return hash((self._dtype.name, self._shape.rank, tuple(self._shape)))

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, tf.{self._dtype.name})"


def _generalizes(general, specific):
    """Whether shape `general` is `specific` with some dimensions (or the rank) unknown."""
    if general.rank is None:
        return True
    if general.rank != specific.rank:
        return False
    return all(g is None or g == s for g, s in zip(general.as_list(), specific.as_list()))


def _as_int64(t):
    if t.dtype is dtypes.int64:
        return t
    if is_eager_tensor(t):
        return convert_to_tensor(np.asarray(t.numpy(), np.int64))
    raise TypeError(f"SparseTensor: indices and dense_shape must be int64, got {t.dtype.name}; "
                    "cast them with tf.cast(x, tf.int64).")


def _check_shapes(indices, values, dense_shape):
    if indices.rank not in (None, 2):
        raise ValueError(f"SparseTensor: indices must be a matrix [N, rank], got shape {indices}.")
    if values.rank not in (None, 1):
        raise ValueError(f"SparseTensor: values must be a vector [N], got shape {values}.")
    if dense_shape.rank not in (None, 1):
        raise ValueError(f"SparseTensor: dense_shape must be a vector [rank], got shape "
                         f"{dense_shape}.")
    if indices.rank == 2 and values.rank == 1 and not indices[:1].is_compatible_with(values):
        raise ValueError(f"SparseTensor: indices (shape {indices}) and values (shape {values}) "
                         "must hold the same number N of entries.")
    if indices.rank == 2 and dense_shape.rank == 1 and not indices[1:].is_compatible_with(
            dense_shape):
        raise ValueError(f"SparseTensor: indices (shape {indices}) must have one column per "
                         f"dimension of dense_shape (shape {dense_shape}).")
