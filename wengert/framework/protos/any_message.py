"""google.protobuf.Any (google/protobuf/any.proto): a serialized message with the URL of its
type, `type.googleapis.com/<full message name>`; a MetaGraphDef's meta info and collections and
a SavedObject's user proto hold one.

    Any   type_url (1): string, value (2): bytes (the message's wire format)
"""
from .message import Field, Message

__all__ = ["Any"]


class Any(Message):
    """google.protobuf.Any: a serialized message and the URL of its type."""
    FULL_NAME = "google.protobuf.Any"
    FIELDS = (Field(1, "type_url", "string"), Field(2, "value", "bytes"))
