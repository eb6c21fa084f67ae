"""The containers a message holds for repeated and map fields, behaving as protobuf's do: a
list of checked scalars, a list of messages (`add()` makes one in place; appending copies), and
a map keyed by scalars whose values are scalars or messages (`m[key]` of a message map makes
the entry). Each tells its message when it changes, so that a message made on first read
becomes present in its parent only once something is put in it."""
from . import scalars

__all__ = ["RepeatedScalar", "RepeatedMessage", "ScalarMap", "MessageMap"]


class _Sequence:
    __slots__ = ("_owner", "_field", "_items")

    def __init__(self, owner, field):
        self._owner, self._field, self._items = owner, field, []

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __getitem__(self, index):
        return self._items[index]

    def __delitem__(self, index):
        del self._items[index]
        self._owner._touch()

    def __eq__(self, other):
        if isinstance(other, _Sequence):
            return self._items == other._items
        return isinstance(other, list) and self._items == other

    __hash__ = None

    def __repr__(self):
        return repr(self._items)

    def pop(self, index=-1):
        value = self._items.pop(index)
        self._owner._touch()
        return value

    def remove(self, value):
        self._items.remove(value)
        self._owner._touch()

    def index(self, value):
        return self._items.index(value)

    def count(self, value):
        return self._items.count(value)

    def __contains__(self, value):
        return value in self._items


class RepeatedScalar(_Sequence):
    """A repeated scalar field: a list whose items are checked as the field's kind."""

    __slots__ = ()

    def _check(self, value):
        return scalars.check(self._field.kind, value, self._field.full_name)

    def append(self, value):
        self._items.append(self._check(value))
        self._owner._touch()

    def extend(self, values):
        checked = [self._check(v) for v in values]
        self._items.extend(checked)
        self._owner._touch()

    def insert(self, index, value):
        self._items.insert(index, self._check(value))
        self._owner._touch()

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            self._items[index] = [self._check(v) for v in value]
        else:
            self._items[index] = self._check(value)
        self._owner._touch()

    def sort(self, key=None, reverse=False):
        self._items.sort(key=key, reverse=reverse)

    def MergeFrom(self, other):  # noqa: N802 - protobuf's name
        self.extend(other)


class RepeatedMessage(_Sequence):
    """A repeated message field: `add(**fields)` appends a new message and returns it."""

    __slots__ = ()

    def add(self, **kwargs):
        message = self._field.message_class()(**kwargs)
        self._items.append(message)
        self._owner._touch()
        return message

    def append(self, message):
        self._items.append(_copy(self._field, message))
        self._owner._touch()

    def extend(self, messages):
        copies = [_copy(self._field, m) for m in messages]
        self._items.extend(copies)
        self._owner._touch()

    def __setitem__(self, index, value):
        raise TypeError(f"{self._field.full_name}: a repeated message field's items may not "
                        f"be assigned; use add(), append() or CopyFrom() on the item.")

    def MergeFrom(self, other):  # noqa: N802 - protobuf's name
        self.extend(other)


def _copy(field, value):
    """A new message of the field's class from a message of it, or from a dict of fields."""
    cls = field.message_class()
    if isinstance(value, dict):
        return cls(**value)
    if type(value) is not cls:
        raise TypeError(f"{field.full_name}: expected a {cls.__name__} message, got "
                        f"{type(value).__name__}.")
    out = cls()
    out.CopyFrom(value)
    return out


class _Map:
    __slots__ = ("_owner", "_field", "_items")

    def __init__(self, owner, field):
        self._owner, self._field, self._items = owner, field, {}

    def _key(self, key):
        return scalars.check(self._field.map_key, key, self._field.full_name + " key")

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __contains__(self, key):
        return self._key(key) in self._items

    def __delitem__(self, key):
        del self._items[self._key(key)]
        self._owner._touch()

    def get(self, key, default=None):
        return self._items.get(self._key(key), default)

    def keys(self):
        return self._items.keys()

    def values(self):
        return self._items.values()

    def items(self):
        return self._items.items()

    def clear(self):
        self._items.clear()
        self._owner._touch()

    def __eq__(self, other):
        if isinstance(other, _Map):
            return self._items == other._items
        return isinstance(other, dict) and self._items == other

    __hash__ = None

    def __repr__(self):
        return repr(self._items)


class ScalarMap(_Map):
    """A map field with scalar values."""

    __slots__ = ()

    def __getitem__(self, key):
        key = self._key(key)
        if key not in self._items:
            self._items[key] = scalars.DEFAULTS[self._field.kind]
            self._owner._touch()
        return self._items[key]

    def __setitem__(self, key, value):
        self._items[self._key(key)] = scalars.check(self._field.kind, value,
                                                    self._field.full_name + " value")
        self._owner._touch()

    def update(self, other=(), **kwargs):
        for key, value in dict(other, **kwargs).items():
            self[key] = value


class MessageMap(_Map):
    """A map field with message values: reading a missing key makes its entry."""

    __slots__ = ()

    def __getitem__(self, key):
        key = self._key(key)
        value = self._items.get(key)
        if value is None:
            value = self._items[key] = self._field.message_class()()
            self._owner._touch()
        return value

    def get_or_create(self, key):
        return self[key]

    def __setitem__(self, key, value):
        raise ValueError(f"{self._field.full_name}: message objects may not be assigned to a "
                         f"map entry; write m[key].CopyFrom(message) or build the map in the "
                         f"constructor.")

    def update(self, other=(), **kwargs):
        for key, value in dict(other, **kwargs).items():
            self._items[self._key(key)] = _copy(self._field, value)
        self._owner._touch()
