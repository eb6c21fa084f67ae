"""Unicode text in string tensors, as TensorFlow's ICU-based ops compute it for the encodings
Python's codecs know (UTF-8, UTF-16-BE, UTF-32-BE, ISO-8859-1, US-ASCII, ...):

    UnicodeEncode     rows of int32 code points (values, row_splits) -> one string per row
    UnicodeTranscode  each string decoded from input_encoding and encoded in output_encoding

`errors` says what an invalid code point or byte sequence becomes: "replace" (the default) puts
`replacement_char` (U+FFFD) in its place, "ignore" drops it, "strict" raises
InvalidArgumentError naming the string. `replace_control_characters` also replaces the C0
controls U+0000-U+001F. `unicode_encode` of a dense [..., n] tensor gives a [...] tensor.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor, string_array
from ...framework.tensor_shape import TensorShape
from ..reshape_ops import reshape

__all__ = ["unicode_encode", "unicode_transcode"]

_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be",
           "UTF-16-LE": "utf-16-le", "UTF-32-LE": "utf-32-le", "ISO-8859-1": "latin-1",
           "US-ASCII": "ascii", "UTF-16": "utf-16-be", "UTF-32": "utf-32-be"}


def _codec(encoding, what):
    codec = _CODECS.get(str(encoding).upper())
    if codec is None:
        raise InvalidArgumentError(f"{what}: unsupported encoding {encoding!r}; use one of "
                                   f"{sorted(_CODECS)}.")
    return codec


def _valid(code):
    return 0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF


def _clean(codes, errors, replacement, controls, what):
    out = []
    for code in codes:
        code = int(code)
        bad = not _valid(code) or (controls and code < 0x20)
        if not bad:
            out.append(code)
        elif errors == "strict":
            problem = (f"byte {code - 0xDC00:#04x} does not decode" if 0xDC80 <= code <= 0xDCFF
                       else f"{code} is not a valid code point")
            raise InvalidArgumentError(f"{what}: Invalid formatting: {problem} (errors='strict';"
                                       f" 'replace' or 'ignore' accept it).")
        elif errors == "replace":
            out.append(replacement)
    return "".join(map(chr, out))


def _encode_kernel(values, splits, *, encoding, errors, replacement):
    codec, rows = _codec(encoding, "UnicodeEncode"), []
    for a, b in zip(splits[:-1], splits[1:]):
        rows.append(_clean(values[a:b], errors, replacement, False, "UnicodeEncode").encode(
            codec))
    out = np.empty(len(rows), dtype=object)
    out[:] = rows
    return string_array(out)


def _transcode_one(value, index, source, target, errors, replacement, controls):
    """Bytes that do not decode become lone surrogates (surrogateescape), which `_clean` then
    replaces, drops or refuses as it does any invalid code point."""
    text = value.decode(source, "surrogateescape")
    what = f"UnicodeTranscode (the string at index {index})"
    return _clean(map(ord, text), errors, replacement, controls, what).encode(target)


def _transcode_kernel(strings, *, source, target, errors, replacement, controls):
    source, target = _codec(source, "UnicodeTranscode"), _codec(target, "UnicodeTranscode")
    flat = [_transcode_one(v, i, source, target, errors, replacement, controls)
            for i, v in enumerate(np.asarray(strings, dtype=object).reshape(-1))]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return string_array(out.reshape(np.shape(strings)))


def _errors(errors):
    if errors not in ("replace", "ignore", "strict"):
        raise ValueError(f"errors must be 'replace', 'ignore' or 'strict', got {errors!r}.")
    return errors


ENCODE = defop("UnicodeEncode", _encode_kernel, grad=None,
               shape=lambda values, splits, **a: (TensorShape([None]), dtypes.string),
               raw=lambda input_values, input_splits, output_encoding, errors="replace",
               replacement_char=65533, name=None: execute(
                   ENCODE, (convert_to_tensor(input_values), convert_to_tensor(input_splits)),
                   {"encoding": output_encoding, "errors": _errors(errors),
                    "replacement": int(replacement_char)}, name))
TRANSCODE = defop("UnicodeTranscode", _transcode_kernel, grad=None,
                  shape=lambda strings, **a: (strings.shape, dtypes.string),
                  raw=lambda input, input_encoding, output_encoding, errors="replace",
                  replacement_char=65533, replace_control_characters=False, name=None:
                  unicode_transcode(input, input_encoding, output_encoding, errors,
                                    replacement_char, replace_control_characters, name))


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """Each row of code points (the last axis of a dense int32 tensor) as one string."""
    codes = convert_to_tensor(input)
    if not codes.dtype.is_integer:
        raise TypeError(f"unicode_encode: input must hold int32 code points, got "
                        f"{codes.dtype.name}.")
    shape = codes.shape.as_list()
    if not shape or None in shape:
        raise ValueError(f"unicode_encode: input must be a dense tensor of known shape and "
                         f"rank >= 1, got shape {codes.shape}.")
    rows, length = int(np.prod(shape[:-1], dtype=np.int64)), shape[-1]
    splits = np.arange(rows + 1, dtype=np.int64) * length
    out = execute(ENCODE, (reshape(codes, [-1]), convert_to_tensor(splits)),
                  {"encoding": output_encoding, "errors": _errors(errors),
                   "replacement": int(replacement_char)}, name)
    return reshape(out, shape[:-1])


def unicode_transcode(input, input_encoding, output_encoding, errors="replace",  # noqa: A002
                      replacement_char=65533, replace_control_characters=False, name=None):
    """Each string re-encoded from input_encoding to output_encoding."""
    return execute(TRANSCODE, (convert_to_tensor(input, dtype_hint=dtypes.string),),
                   {"source": input_encoding, "target": output_encoding,
                    "errors": _errors(errors), "replacement": int(replacement_char),
                    "controls": bool(replace_control_characters)}, name)
