"""`TensorShape`: a tuple of dimensions where a dimension may be unknown (None).

Eager tensors always have fully known shapes; graph-mode tensors may not, so shape rules work
with these. It subclasses `tuple`, so `t.shape == (2, 3)` and `t.shape[0]` behave as in TF 2.

TensorFlow 1 handed out dimensions as `Dimension` objects (`x.get_shape()[1].value`) and printed
an unknown one as `?`; `disable_v2_tensorshape()` (called by `disable_v2_behavior()`) turns that
on, process-wide as in TensorFlow. A known dimension is then a `Dimension`, an `int` with `.value`;
an unknown one stays `None` (TensorFlow gives `Dimension(None)`), so code that tests
`shape[i] is None` keeps working in both modes. `.dims` lists `Dimension`s in both modes, as TF's.

Rank checks (`with_rank`, `assert_has_rank`, ...) raise ValueError as TensorFlow's do; an unknown
rank passes each and `with_rank(r)` gives it r unknown dimensions. As a trace type
(tf.types.experimental.TraceType) a shape A is a subtype of B when B is of unknown rank or has
A's rank with each dimension equal or None; the most specific common supertype keeps the
dimensions all agree on, None elsewhere, and an unknown rank when the ranks differ. A shape
stands for no tensors (`to_tensors` gives [], `placeholder_value` None), as in TensorFlow.
`as_proto()` is the TensorShapeProto (an unknown dimension is size -1).
"""
from .protos.tensor import TensorShapeProto

__all__ = ["TensorShape", "Dimension", "dimension_value", "dimension_at_index",
           "enable_v2_tensorshape", "disable_v2_tensorshape"]


class _Mode:
    v2 = True


def enable_v2_tensorshape():
    """Dimensions are plain ints (or None), TensorFlow 2's default."""
    _Mode.v2 = True


def disable_v2_tensorshape():
    """Dimensions are `Dimension` objects, as in TensorFlow 1."""
    _Mode.v2 = False


class Dimension(int):
    """One known dimension as TensorFlow 1 gives it: an int whose `.value` is itself.
    `Dimension(None)` is the unknown dimension."""

    __slots__ = ()

    def __new__(cls, value):
        if value is None or isinstance(value, _UnknownDimension):
            return UNKNOWN_DIMENSION
        value = getattr(value, "value", value)
        if int(value) != value or int(value) < 0:
            raise ValueError(f"Dimension {value} must be a non-negative integer.")
        return super().__new__(cls, int(value))

    @property
    def value(self):
        return int(self)

    def is_compatible_with(self, other):
        """Whether `other` is unknown or equal."""
        other = dimension_value(other)
        return other is None or other == int(self)

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")

    def merge_with(self, other):
        """This dimension, after checking `other` is compatible with it."""
        self.assert_is_compatible_with(other)
        return self

    def __repr__(self):
        return f"Dimension({int(self)})"

    def __str__(self):
        return str(int(self))


class _UnknownDimension:
    """`Dimension(None)`: equal to nothing known (comparisons give None), printed `?`."""

    __slots__ = ()
    value = None

    def __eq__(self, other):
        return None

    def __ne__(self, other):
        return None

    __hash__ = None

    def __int__(self):
        raise TypeError("Cannot convert an unknown Dimension (?) to an int.")

    def is_compatible_with(self, other):
        return True

    def assert_is_compatible_with(self, other):
        return None

    def merge_with(self, other):
        return Dimension(dimension_value(other))

    def __repr__(self):
        return "Dimension(None)"

    def __str__(self):
        return "?"


UNKNOWN_DIMENSION = _UnknownDimension()


def dimension_value(dimension):
    """The int (or None) a dimension holds, whichever form it has."""
    return getattr(dimension, "value", dimension) if dimension is not None else None


def dimension_at_index(shape, index):
    """`Dimension` `index` of `shape` (unknown when the rank is)."""
    shape = as_shape(shape)
    if shape.rank is None:
        return UNKNOWN_DIMENSION
    return Dimension(tuple.__getitem__(shape, index))


class TensorShape(tuple):
    """Shape of a tensor; `None` for an unknown rank is modelled by `TensorShape(None)`."""

    __slots__ = ()

    def __new__(cls, dims=()):
        if dims is None:
            obj = super().__new__(cls, ())
            return _UnknownRank(obj)
        if isinstance(dims, TensorShape):
            return dims
        if isinstance(dims, int):
            dims = (dims,)
        return super().__new__(cls, (None if d is None else int(d) for d in dims))

    @property
    def rank(self):
        return len(self)

    ndims = rank

    def as_list(self):
        return list(self)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self:
            n *= d
        return n

    def is_fully_defined(self):
        return None not in self

    def is_compatible_with(self, other):
        other = as_shape(other)
        if other.rank is None or self.rank is None:
            return True
        if len(self) != len(other):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self, other))

    def merge_with(self, other):
        other = as_shape(other)
        if other.rank is None:
            return self
        if self.rank is None:
            return other
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape(a if a is not None else b for a, b in zip(self, other))

    def concatenate(self, other):
        other = as_shape(other)
        if self.rank is None or other.rank is None:
            return TensorShape(None)
        return TensorShape(tuple(self) + tuple(other))

    # -- rank checks -----------------------------------------------------------------------------
    def with_rank(self, rank):
        """This shape if it has rank `rank` (an unknown rank becomes `rank` unknown dims)."""
        if self.rank is None:
            return TensorShape([None] * rank)
        if self.rank != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def with_rank_at_least(self, rank):
        if self.rank is not None and self.rank < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self.rank is not None and self.rank > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_has_rank(self, rank):
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def most_specific_compatible_shape(self, other):
        """The shape both this and `other` are compatible with that keeps every dimension they
        agree on (None elsewhere; an unknown rank when the ranks differ or one is unknown)."""
        other = as_shape(other)
        if self.rank is None or other.rank is None or self.rank != other.rank:
            return TensorShape(None)
        return TensorShape(a if a == b else None for a, b in zip(self, other))

    # -- protos ----------------------------------------------------------------------------------
    def as_proto(self):
        """The TensorShapeProto of this shape (size -1 for an unknown dimension)."""
        if self.rank is None:
            return TensorShapeProto(unknown_rank=True)
        return TensorShapeProto(dim=[TensorShapeProto.Dim(size=-1 if d is None else d)
                                     for d in tuple.__iter__(self)])

    experimental_as_proto = as_proto

    @classmethod
    def experimental_from_proto(cls, proto):
        if proto.unknown_rank:
            return TensorShape(None)
        return TensorShape(None if d.size == -1 else d.size for d in proto.dim)

    # -- tf.types.experimental.TraceType ---------------------------------------------------------
    def is_subtype_of(self, other):
        """Whether `other` (a TensorShape) can stand for this shape."""
        if not isinstance(other, TensorShape):
            return False
        if other.rank is None:
            return True
        if self.rank is None or self.rank != other.rank:
            return False
        return all(b is None or a == b for a, b in zip(tuple.__iter__(self),
                                                       tuple.__iter__(other)))

    def most_specific_common_supertype(self, others):
        """The narrowest shape of which this and every one of `others` are subtypes (None
        when one of `others` is not a TensorShape)."""
        if any(not isinstance(other, TensorShape) for other in others):
            return None
        if self.rank is None or any(o.rank is None or o.rank != self.rank for o in others):
            return TensorShape(None)
        return TensorShape(d if all(d == tuple.__getitem__(o, i) for o in others) else None
                           for i, d in enumerate(tuple.__iter__(self)))

    def placeholder_value(self, placeholder_context):
        """None: a shape stands for no value while tracing (TraceType's default)."""
        return None

    def to_tensors(self, value):
        return []

    def from_tensors(self, tensors):
        return self.placeholder_value(None)

    def flatten(self):
        return []

    def cast(self, value, cast_context):
        """`value` itself if it is this type's placeholder value (None); AssertionError
        otherwise, as TraceType's default cast."""
        assert value == self.placeholder_value(None), f"Can not cast {value!r} to type {self!r}"
        return value

    @property
    def dims(self):
        return [Dimension(d) for d in tuple.__iter__(self)]

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        if isinstance(key, slice):
            return TensorShape(item)
        return item if _Mode.v2 or item is None else Dimension(item)

    def __eq__(self, other):
        """TensorFlow's equality: the same dimensions (unknown ones included) as another shape
        or anything that converts to one (a list, a tuple, None for an unknown rank); an
        unknown rank equals only an unknown rank."""
        if not isinstance(other, TensorShape):
            try:
                other = TensorShape(other)
            except (TypeError, ValueError):
                return NotImplemented
        if isinstance(self, _UnknownRank) or isinstance(other, _UnknownRank):
            return isinstance(self, _UnknownRank) and isinstance(other, _UnknownRank)
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__

    def __repr__(self):
        if not _Mode.v2:
            return f"TensorShape({self.dims})"
        return f"TensorShape({list(self)})"

    def __str__(self):
        dims = tuple.__iter__(self)
        if len(self) == 1:
            return f"({_dim_str(next(dims))},)"
        return "(" + ", ".join(_dim_str(d) for d in dims) + ")"


class _UnknownRank(TensorShape):
    """A shape whose rank is not known (graph mode only)."""

    __slots__ = ()

    def __new__(cls, _empty):
        return tuple.__new__(cls, ())

    rank = ndims = property(lambda self: None)

    # As TensorFlow's: a dimension of an unknown rank is unknown, a slice of it is unknown, and
    # its length and its dimensions one by one are errors (not an empty shape: a rule that
    # forgets the unknown rank must fail, never treat the tensor as a scalar).
    def __getitem__(self, key):
        if isinstance(key, slice):
            return self
        return None

    dims = property(lambda self: None)

    def __len__(self):
        raise ValueError("Cannot take the length of shape with unknown rank.")

    def __iter__(self):
        raise ValueError("Cannot iterate over a shape with unknown rank.")

    def __bool__(self):
        return False

    def as_list(self):
        raise ValueError("as_list() is not defined on an unknown TensorShape.")

    def is_fully_defined(self):
        return False

    def num_elements(self):
        return None

    def __repr__(self):
        return "TensorShape(None)"

    __str__ = lambda self: "<unknown>"  # noqa: E731


def _dim_str(d):
    if d is None:
        return "None" if _Mode.v2 else "?"
    return str(d)


def as_shape(value):
    return value if isinstance(value, TensorShape) else TensorShape(value)


def unknown_shape():
    return TensorShape(None)
