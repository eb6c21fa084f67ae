"""TensorFlow's `tf.compat` helpers for Python values: text and bytes (`as_bytes` encodes str,
`as_text`/`as_str` decode bytes, `as_str_any` is str() except for bytes, `path_to_str` unwraps
a PathLike), the tuples of Python and NumPy number types (`integral_types`, `real_types`,
`complex_types`, `bytes_or_text_types`), and TensorFlow's forward-compatibility date:
`forward_compatible(y, m, d)` is True once the compatibility horizon (TensorFlow 2.21's,
2026-01-16, moved later by TF_FORWARD_COMPATIBILITY_DELTA_DAYS days) is past that date, and
`forward_compatibility_horizon(y, m, d)` moves the horizon for the duration of a `with`."""
import codecs
import contextlib
import datetime
import numbers
import os

import numpy as np

__all__ = ["as_bytes", "as_text", "as_str", "as_str_any", "path_to_str", "integral_types",
           "real_types", "complex_types", "bytes_or_text_types", "forward_compatible",
           "forward_compatibility_horizon"]

integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)
bytes_or_text_types = (bytes, str)

_HORIZON = datetime.date(2026, 1, 16)
_DELTA_DAYS = "TF_FORWARD_COMPATIBILITY_DELTA_DAYS"


def as_bytes(bytes_or_text, encoding="utf-8"):
    """bytes for bytes, bytearray or str (encoded with `encoding`)."""
    encoding = codecs.lookup(encoding).name
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8"):
    """str for str, or bytes decoded with `encoding`."""
    encoding = codecs.lookup(encoding).name
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_str(bytes_or_text, encoding="utf-8"):
    """as_text's str."""
    return as_text(bytes_or_text, encoding)


def as_str_any(value, encoding="utf-8"):
    """str(value), except bytes, which are decoded."""
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


def path_to_str(path):
    """The str of a PathLike path; any other value as it is."""
    if hasattr(path, "__fspath__"):
        path = as_str_any(path.__fspath__())
    return path


class _Horizon:
    date = None  # the date forward_compatible compares with, once computed


def _horizon():
    if _Horizon.date is None:
        date = _HORIZON
        delta = os.getenv(_DELTA_DAYS)
        if delta:
            date += datetime.timedelta(days=int(delta))
        _Horizon.date = date
    return _Horizon.date


def forward_compatible(year, month, day):
    """Whether the forward-compatibility horizon is after year-month-day."""
    return _horizon() > datetime.date(year, month, day)


@contextlib.contextmanager
def forward_compatibility_horizon(year, month, day):
    """Move the horizon to year-month-day inside the `with` (never before TensorFlow's)."""
    saved = _horizon()
    wanted = datetime.date(year, month, day)
    _Horizon.date = wanted if wanted >= _HORIZON else saved
    try:
        yield
    finally:
        _Horizon.date = saved
