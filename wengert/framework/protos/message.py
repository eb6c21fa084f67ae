"""Protocol-buffer messages declared in Python: a subclass of `Message` lists its `Field`s
(number, name, kind, repeated or map, the message class of a message field, the oneof it
belongs to), and gets protobuf's Python API from them: keyword construction (a nested message
may be given as a message or a dict, a repeated field as a list, a map as a dict), attribute
access with defaults, `SerializeToString`, `FromString`/`ParseFromString`/`MergeFromString`,
`CopyFrom`/`MergeFrom`, `HasField`/`ClearField`/`WhichOneof`/`Clear`, `ByteSize`, `==`, and a
`str`/`repr` in protobuf's text format (text_format.py).

Encoding follows proto3 as protobuf's C library (upb) writes it: fields in number order; a
scalar left out when it has its default (unless it is a oneof member that was set); numeric
repeated fields packed; a nested message written when present, even empty; each map entry as a
message of key (1) and value (2), both always written, entries in protobuf's
`deterministic=True` order (its default order follows a hash table seeded per process, so no
writer can promise it): numbers descending as their unsigned wire value (-1 first, a sint by its
zigzag value), strings by their bytes, a key that begins another
after it); fields this declaration does not know are kept and written back after
the known ones. Decoding accepts packed and unpacked repeated scalars, merges a nested message
given twice, lets the last value of a scalar or map key win, and raises DataLossError on
malformed bytes or nesting deeper than 100 messages.
"""
import functools

from . import scalars, text_format, wire
from .containers import MessageMap, RepeatedMessage, RepeatedScalar, ScalarMap

__all__ = ["Field", "Message"]

MAX_DEPTH = 100


class Field:
    """One field of a message. kind: a scalar kind (scalars.py) or "message"; for a map, the
    value kind, with `map_key` the key's kind. `message`: the class of a message field (or of a
    map's message values), or a function returning it (for messages that refer to each other).
    `enum`: for an enum field, {number: name}, the names text format prints.
    """

    __slots__ = ("number", "name", "kind", "repeated", "map_key", "oneof", "_message",
                 "full_name", "enum")

    def __init__(self, number, name, kind, *, repeated=False, map_key=None, message=None,
                 oneof=None, enum=None):
        self.number, self.name, self.kind = number, name, kind
        self.repeated, self.map_key, self.oneof = repeated, map_key, oneof
        self._message, self.full_name, self.enum = message, name, enum

    def message_class(self):
        message = self._message
        return message if isinstance(message, type) else message()

    def __repr__(self):
        return f"Field({self.number}, {self.name!r}, {self.kind!r})"


class Message:
    """A protocol-buffer message (see the module docstring). Subclasses set FULL_NAME and
    FIELDS."""

    FULL_NAME = ""
    FIELDS = ()
    __slots__ = ("_values", "_present", "_parent", "_unknown")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.FIELDS = tuple(sorted(cls.FIELDS, key=lambda f: f.number))
        cls._BY_NAME = {f.name: f for f in cls.FIELDS}
        cls._BY_NUMBER = {f.number: f for f in cls.FIELDS}
        cls._ONEOFS = {}
        for f in cls.FIELDS:
            f.full_name = f"{cls.FULL_NAME}.{f.name}"
            if f.oneof:
                cls._ONEOFS.setdefault(f.oneof, []).append(f.name)
            if f.map_key is not None:
                setattr(cls, _entry_name(f.name), _entry_class(cls, f))

    def __init__(self, *args, **kwargs):
        if args:
            raise TypeError(f"{type(self).__name__}: protocol messages take their fields as "
                            f"keyword arguments, got {len(args)} positional.")
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_present", set())
        object.__setattr__(self, "_parent", None)
        object.__setattr__(self, "_unknown", b"")
        for name, value in kwargs.items():
            field = self._field(name)
            if value is not None:
                self._assign(field, value)

    def _field(self, name):
        field = self._BY_NAME.get(name)
        if field is None:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
        return field

    def _assign(self, field, value):
        """Keyword construction: copy `value` into the field."""
        if field.map_key is not None:
            getattr(self, field.name).update(value)
        elif field.repeated:
            getattr(self, field.name).extend(value)
        elif field.kind == "message":
            cls = field.message_class()
            child = getattr(self, field.name)
            if isinstance(value, dict):
                value = cls(**value)
            elif type(value) is not cls:
                raise TypeError(f"{field.full_name}: expected a {cls.__name__} message, got "
                                f"{type(value).__name__}.")
            child.CopyFrom(value)
            self._mark(field.name)
        else:
            setattr(self, field.name, value)

    # -- attributes ----------------------------------------------------------------------------
    def __getattr__(self, name):
        field = type(self)._BY_NAME.get(name)
        if field is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        values = self._values
        if name in values:
            return values[name]
        if field.map_key is not None:
            container = (MessageMap if field.kind == "message" else ScalarMap)(self, field)
        elif field.repeated:
            container = (RepeatedMessage if field.kind == "message" else
                         RepeatedScalar)(self, field)
        elif field.kind == "message":
            container = field.message_class()()
            object.__setattr__(container, "_parent", (self, name))
        else:
            return scalars.DEFAULTS[field.kind]
        values[name] = container
        return container

    def __setattr__(self, name, value):
        field = self._field(name) if name in type(self)._BY_NAME else None
        if field is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if field.repeated or field.map_key is not None or field.kind == "message":
            what = "map, or repeated" if field.repeated or field.map_key else "message"
            raise AttributeError(f'Assignment not allowed to {what} field "{name}" in protocol '
                                 f'message object.')
        self._values[name] = scalars.check(field.kind, value, field.full_name)
        self._mark(name)

    # -- presence ------------------------------------------------------------------------------
    def _mark(self, name):
        """Field `name` now holds a value: clear its oneof siblings, tell the parent."""
        field = self._BY_NAME[name]
        if field.oneof:
            for other in self._ONEOFS[field.oneof]:
                if other != name:
                    self._values.pop(other, None)
                    self._present.discard(other)
        if field.kind == "message" or field.oneof:
            self._present.add(name)
        self._touch()

    def _touch(self):
        parent = self._parent
        if parent is not None:
            object.__setattr__(self, "_parent", None)
            owner, name = parent
            if owner._values.get(name) is self:
                owner._mark(name)

    def _has(self, field):
        name = field.name
        if field.kind == "message" and not field.repeated and field.map_key is None:
            return name in self._present
        if field.oneof:
            return name in self._present
        value = self._values.get(name)
        if value is None:
            return False
        if field.repeated or field.map_key is not None:
            return len(value) > 0
        return not scalars.is_default(field.kind, value)

    def HasField(self, name):  # noqa: N802 - protobuf's name
        if name in self._ONEOFS:
            return self.WhichOneof(name) is not None
        field = self._field(name)
        if field.repeated or field.map_key is not None:
            raise ValueError(f'Protocol message has no singular "{name}" field.')
        if field.kind != "message" and not field.oneof:
            raise ValueError(f'Can\'t test non-optional, non-submessage field "{name}" for '
                             f'presence in proto3.')
        return self._has(field)

    def WhichOneof(self, oneof):  # noqa: N802 - protobuf's name
        if oneof not in self._ONEOFS:
            raise ValueError(f'Protocol message has no oneof "{oneof}" field.')
        return next((n for n in self._ONEOFS[oneof] if n in self._present), None)

    def ClearField(self, name):  # noqa: N802 - protobuf's name
        if name in self._ONEOFS:
            for member in self._ONEOFS[name]:
                self.ClearField(member)
            return
        self._field(name)
        self._values.pop(name, None)
        self._present.discard(name)

    def Clear(self):  # noqa: N802 - protobuf's name
        self._values.clear()
        self._present.clear()
        object.__setattr__(self, "_unknown", b"")

    def ListFields(self):  # noqa: N802 - protobuf's name
        """[(Field, value)] of the fields that are set, in field-number order."""
        return [(f, getattr(self, f.name)) for f in self.FIELDS if self._has(f)]

    def IsInitialized(self):  # noqa: N802 - protobuf's name; proto3 has no required fields
        return True

    def FindInitializationErrors(self):  # noqa: N802 - protobuf's name
        return []

    def SetInParent(self):  # noqa: N802 - protobuf's name
        """Make this (empty) nested message present in the message holding it."""
        self._touch()

    def UnknownFields(self):  # noqa: N802 - protobuf's name
        """[(field number, wire type, value)] of the fields read that no Field declares."""
        return [(n, t, v) for n, t, v, _, _ in wire.fields(self._unknown, self.FULL_NAME)]

    def DiscardUnknownFields(self):  # noqa: N802 - protobuf's name
        object.__setattr__(self, "_unknown", b"")
        for field, value in self.ListFields():
            if field.kind == "message":
                items = (value.values() if field.map_key is not None else
                         value if field.repeated else (value,))
                for item in items:
                    item.DiscardUnknownFields()

    def HasExtension(self, extension):  # noqa: N802 - protobuf's name
        raise KeyError(f"{self.FULL_NAME} has no extensions (proto3); got {extension!r}.")

    ClearExtension = HasExtension

    # -- bytes ---------------------------------------------------------------------------------
    def SerializeToString(self, deterministic=None):  # noqa: N802 - protobuf's name
        """The message's wire-format bytes. Map entries are always in key order, which is what
        protobuf writes with deterministic=True (see the module docstring)."""
        return b"".join(self._encode()) + self._unknown

    SerializePartialToString = SerializeToString

    def _encode(self):
        for field in self.FIELDS:
            if self._has(field):
                yield _encode_field(field, self._values[field.name])

    def ByteSize(self):  # noqa: N802 - protobuf's name
        return len(self.SerializeToString())

    @classmethod
    def FromString(cls, data):  # noqa: N802 - protobuf's name
        message = cls()
        message.MergeFromString(data)
        return message

    def ParseFromString(self, data):  # noqa: N802 - protobuf's name
        self.Clear()
        return self.MergeFromString(data)

    def MergeFromString(self, data, _depth=0):  # noqa: N802 - protobuf's name
        """Merge the fields encoded in `data` into this message; returns len(data)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{type(self).__name__}.ParseFromString: expected bytes, got "
                            f"{type(data).__name__}.")
        if _depth > MAX_DEPTH:
            raise wire.corrupt(self.FULL_NAME, 0, f"messages nest deeper than {MAX_DEPTH}")
        unknown = []
        for number, wire_type, value, start, end in wire.fields(data, self.FULL_NAME):
            field = self._BY_NUMBER.get(number)
            if field is None or not _decode_field(self, field, wire_type, value, _depth):
                unknown.append(bytes(data[start:end]))
        if unknown:
            object.__setattr__(self, "_unknown", self._unknown + b"".join(unknown))
        self._touch()
        return len(data)

    def CopyFrom(self, other):  # noqa: N802 - protobuf's name
        if type(other) is not type(self):
            raise TypeError(f"{type(self).__name__}.CopyFrom: expected a "
                            f"{type(self).__name__}, got {type(other).__name__}.")
        if other is not self:
            self.Clear()
            self.MergeFromString(other.SerializeToString())
        self._touch()

    def MergeFrom(self, other):  # noqa: N802 - protobuf's name
        if type(other) is not type(self):
            raise TypeError(f"{type(self).__name__}.MergeFrom: expected a "
                            f"{type(self).__name__}, got {type(other).__name__}.")
        self.MergeFromString(other.SerializeToString())

    # -- comparison and text -------------------------------------------------------------------
    def _comparable(self):
        out = {}
        for field in self.FIELDS:
            if self._has(field):
                value = self._values[field.name]
                out[field.name] = (list(value) if field.repeated else
                                   dict(value) if field.map_key is not None else value)
        return out

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._comparable() == other._comparable() and self._unknown == other._unknown

    __hash__ = None

    def __str__(self):
        return text_format.to_text(self)

    __repr__ = __str__

    def __deepcopy__(self, memo=None):
        return type(self).FromString(self.SerializeToString())

    def __copy__(self):
        return self.__deepcopy__()


def _entry_name(name):
    return "".join(part.capitalize() for part in name.split("_")) + "Entry"


def _entry_class(owner, field):
    """The message type of one entry of a map field (protobuf's `Features.FeatureEntry`)."""
    value = (Field(2, "value", "message", message=field._message) if field.kind == "message"
             else Field(2, "value", field.kind))
    return type(_entry_name(field.name), (Message,), {
        "FULL_NAME": f"{owner.FULL_NAME}.{_entry_name(field.name)}",
        "FIELDS": (Field(1, "key", field.map_key), value), "__module__": owner.__module__})


def _encode_field(field, value):
    number, kind = field.number, field.kind
    if field.map_key is not None:
        keys = (sorted(value, key=_STRING_ORDER) if field.map_key == "string" else
                sorted(value, key=_NUMBER_ORDER[field.map_key[0] == "s"], reverse=True))
        return b"".join(wire.field_bytes(number, _map_entry(field, k, value[k])) for k in keys)
    if kind == "message":
        if field.repeated:
            return b"".join(wire.field_bytes(number, m.SerializeToString()) for m in value)
        return wire.field_bytes(number, value.SerializeToString())
    if field.repeated:
        if kind in scalars.PACKABLE:
            return scalars.encode_packed(kind, number, value._items)
        return b"".join(scalars.encode_one(kind, number, v) for v in value)
    return scalars.encode_one(kind, number, value)


def _compare_strings(a, b):
    """upb's deterministic order of string keys: by bytes over their common length, and of two
    keys where one begins the other, the longer first ("ab" before "a")."""
    a, b = a.encode("utf-8"), b.encode("utf-8")
    n = min(len(a), len(b))
    if a[:n] != b[:n]:
        return -1 if a[:n] < b[:n] else 1
    return len(b) - len(a)


_STRING_ORDER = functools.cmp_to_key(_compare_strings)
# upb's order of number keys, reversed: the unsigned 64-bit value, a sint's zigzag value
_NUMBER_ORDER = {False: lambda k: int(k) & 0xFFFFFFFFFFFFFFFF,
                 True: lambda k: (k << 1) ^ (k >> 63)}


def _map_entry(field, key, value):
    encoded = (wire.field_bytes(2, value.SerializeToString()) if field.kind == "message" else
               scalars.encode_one(field.kind, 2, value))
    return scalars.encode_one(field.map_key, 1, key) + encoded


def _decode_field(message, field, wire_type, value, depth):
    """Merge one decoded field into `message`; False when the wire type does not fit (the
    field is then kept as unknown, as protobuf does)."""
    kind, where = field.kind, field.full_name
    if field.map_key is not None:
        if wire_type != wire.LEN:
            return False
        _decode_map_entry(message, field, value, depth)
        return True
    if kind == "message":
        if wire_type != wire.LEN:
            return False
        if field.repeated:
            child = getattr(message, field.name).add()
        else:
            child = getattr(message, field.name)
        child.MergeFromString(value, depth + 1)
        message._mark(field.name)
        return True
    expected = scalars.wire_type_of(kind)
    if field.repeated:
        items = getattr(message, field.name)._items
        if wire_type == wire.LEN and kind in scalars.PACKABLE:
            items.extend(scalars.decode_packed(kind, value, where))
        elif wire_type == expected:
            items.append(scalars.decode_one(kind, wire_type, value, where))
        else:
            return False
        return True
    if wire_type != expected:
        return False
    message._values[field.name] = scalars.decode_one(kind, wire_type, value, where)
    if field.oneof:
        message._mark(field.name)
    return True


def _decode_map_entry(message, field, data, depth):
    key, value, raw_value = scalars.DEFAULTS[field.map_key], None, None
    for number, wire_type, raw, _, _ in wire.fields(data, field.full_name):
        if number == 1 and wire_type == scalars.wire_type_of(field.map_key):
            key = scalars.decode_one(field.map_key, wire_type, raw, field.full_name)
        elif number == 2:
            raw_value = (wire_type, raw)
    container = getattr(message, field.name)
    if field.kind == "message":
        value = field.message_class()()
        if raw_value is not None and raw_value[0] == wire.LEN:
            value.MergeFromString(raw_value[1], depth + 1)
    elif raw_value is not None and raw_value[0] == scalars.wire_type_of(field.kind):
        value = scalars.decode_one(field.kind, raw_value[0], raw_value[1], field.full_name)
    else:
        value = scalars.DEFAULTS[field.kind]
    container._items[key] = value
