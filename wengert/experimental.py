"""`tf.experimental`: the part wengert has, `Optional` (a value that may be absent, as
`iterator.get_next_as_optional()` returns it)."""
from .data.iterator import Optional

__all__ = ["Optional"]
