"""`TensorShape`: a tuple of dimensions where a dimension may be unknown (None).

Eager tensors always have fully known shapes; graph-mode tensors may not, so shape rules work
with these. It subclasses `tuple`, so `t.shape == (2, 3)` and `t.shape[0]` behave as in TF 2.
"""

__all__ = ["TensorShape", "Dimension"]


def Dimension(value):  # noqa: N802  (TF 1 name; TF 2 dims are plain ints)
    return None if value is None else int(value)


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

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return TensorShape(item) if isinstance(key, slice) else item

    def __repr__(self):
        return f"TensorShape({list(self)})"

    def __str__(self):
        if len(self) == 1:
            return f"({_dim_str(self[0])},)"
        return "(" + ", ".join(_dim_str(d) for d in self) + ")"


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
    return "None" if d is None else str(d)


def as_shape(value):
    return value if isinstance(value, TensorShape) else TensorShape(value)


def unknown_shape():
    return TensorShape(None)
